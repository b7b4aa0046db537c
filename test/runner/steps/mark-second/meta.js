/** Test step: runs after mark-first on MARK:append files. */
export const meta = { name: 'mark-second', stage: 'shim', order: 20, description: 'Test step that needs mark-first to have run.' };
