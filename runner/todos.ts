/** The `TODO(migrate)` markers steps leave in code where a human must finish (STYLE.md, after expressjs/codemod). */
import type { FileChange } from '../transforms/model.js';
import type { TodoLine } from './model.js';

const MARKER = 'TODO(migrate)';

/** Every line holding `TODO(migrate)` in the new text of `changes`, with its 1-based line number. */
export function todoLines(changes: FileChange[]): TodoLine[] {
  const out: TodoLine[] = [];
  for (const change of changes) {
    if (!change.after.includes(MARKER)) continue;
    change.after.split(/\r?\n/).forEach((line, i) => {
      const at = line.indexOf(MARKER);
      if (at === -1) return;
      const rest = line.slice(at + MARKER.length).replace(/^[\s:]+/, '').replace(/\s*\*\/\s*$/, '').trim();
      out.push({ file: change.file, line: i + 1, text: rest || line.trim() });
    });
  }
  return out;
}
