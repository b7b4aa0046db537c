/** The unified diff of a change set: exactly what a write would do, file by file (jsdiff). */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { FileChange } from '../transforms/model.js';

/**
 * One unified diff for `changes`, in their order: `--- a/<file>` / `+++ b/<file>`, and
 * `--- /dev/null` for a new file, so `git apply` (or `patch -p1`) reproduces the write.
 */
export function unifiedDiff(changes: FileChange[]): string {
  return changes
    .map((c) => createTwoFilesPatch(c.before === null ? '/dev/null' : `a/${c.file}`, `b/${c.file}`, c.before ?? '', c.after, undefined, undefined, { headerOptions: FILE_HEADERS_ONLY }))
    .join('');
}
