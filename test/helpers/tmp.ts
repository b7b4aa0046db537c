/** Temporary project folders for tests, removed after each test file. */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Creates a folder holding `files` (relative path → content) and returns its absolute path. */
export function project(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrate-test-'));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** Copies `src` to a fresh temporary folder. */
export function copyOf(src: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migrate-test-'));
  made.push(dir);
  cpSync(src, dir, { recursive: true, filter: (s) => !s.includes('node_modules') });
  return dir;
}
