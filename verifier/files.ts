/** File writes for everything the tool keeps: atomic (write-file-atomic), creating the folder first. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomicPkg from 'write-file-atomic';

/**
 * Writes `text` to `file` atomically (a temporary file renamed over it), creating missing folders.
 * @throws the fs error when the folder cannot be created or the file cannot be written
 */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileAtomicPkg.sync(file, text);
}
