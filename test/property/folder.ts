/**
 * Where generated apps are written: `<repo>/.tmp/property/<name>` (gitignored). Under the repository
 * rather than the OS temp folder so that the apps resolve `express`, `@types/express` and the other
 * packages from this repository's node_modules, as the example apps under fixtures/apps do.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GeneratedApp } from './generate.js';

/** `<repo>/.tmp/property`. */
export const PROPERTY_ROOT = path.resolve(import.meta.dirname, '../../.tmp/property');

/**
 * Writes `app` into `<PROPERTY_ROOT>/<name>` (emptied first) and returns that absolute folder.
 * `name` defaults to the seed.
 */
export function writeAppFolder(app: GeneratedApp, name: string = String(app.seed)): string {
  const dir = path.join(PROPERTY_ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [file, content] of Object.entries(app.files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** Removes a folder made by {@link writeAppFolder}. */
export function removeAppFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
