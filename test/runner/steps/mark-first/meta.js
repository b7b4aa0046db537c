/** Test step: acts on MARK:* markers (../README.md). */
export const meta = { name: 'mark-first', stage: 'shim', order: 10, description: 'Test step acting on MARK:* markers.' };
