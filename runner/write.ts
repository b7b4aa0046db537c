/**
 * Writes a stage's changes all or nothing: each file atomically (write-file-atomic: a temporary
 * file renamed over the target), and when one write fails, the files already written are put
 * back as they were (created ones deleted) before the error is raised — a stage is applied whole
 * or not at all (docs/run.md).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { FileChange } from '../transforms/model.js';
import { writeFileAtomic } from '../verifier/files.js';
import { RunError } from './errors.js';

/**
 * Writes every change under `root` (POSIX paths relative to it).
 * @throws RunError 'write-failed' naming the file that could not be written; the earlier files are restored first.
 */
export function writeChanges(root: string, changes: FileChange[]): void {
  const done: FileChange[] = [];
  for (const change of changes) {
    try {
      writeFileAtomic(path.join(root, change.file), change.after);
      done.push(change);
    } catch (error) {
      for (const written of done.reverse()) {
        const file = path.join(root, written.file);
        if (written.before === null) rmSync(file, { force: true });
        else writeFileAtomic(file, written.before);
      }
      const put = done.length ? `; the ${done.length} file${done.length === 1 ? '' : 's'} written before it were put back` : '';
      throw new RunError('write-failed', `writing ${change.file} failed (${(error as Error).message})${put}: nothing of the stage is written`);
    }
  }
}
