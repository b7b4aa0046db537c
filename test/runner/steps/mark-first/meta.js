/** Test step: acts on MARK:* markers (../README.md). */
export const meta = { name: 'mark-first', stage: 'shim', order: 10, description: 'Test step acting on MARK:* markers.', options: [{ name: 'shout', type: 'boolean', description: 'Test option: the MARK:option item says whether it was given.' }, { name: 'label', type: 'string', description: 'Test option with a value.', default: 'none' }] };
