import { filesWith } from '../plan-files.js';

/** Every MARK:append file. */
export function plan(ctx) {
  return { step: 'mark-second', files: filesWith(ctx.root, 'MARK:append').map((file) => ({ file, entries: ['after-first'] })), manual: [] };
}
