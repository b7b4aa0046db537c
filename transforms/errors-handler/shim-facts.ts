/**
 * What the errors steps read exactly as the shim stage does, so that both agree on which file is
 * the generated module and on a file's module system: imported from transforms/shim-server/
 * (facts.ts, template.ts) wherever they export it.
 *
 * TEMPORARY LOCAL COPIES, to switch to imports once facts.ts exports them (asked of the shim
 * stage's owner; then this file only re-exports):
 * - `moduleSystemOf` — the same code as facts.ts's private `moduleSystemOf(source, ext, packageKind)`,
 *   with the arguments in facts.ts's order;
 * - `isGeneratedModule` — the one test both stages should use; facts.ts and shim-server/transform.ts
 *   still test `source.includes(GENERATED_MARK)` anywhere in the file, which would take a user's
 *   file that merely mentions the mark for ours.
 */
import path from 'node:path';
import { GENERATED_MARK } from '../shim-server/template.js';

export { importSpecifier, serverModuleFor, type ServerModule } from '../shim-server/facts.js';
export { GENERATED_MARK };

/**
 * ESM when the file's extension or its import/export syntax says so, CommonJS when it requires;
 * else the package's module kind. (Copy of transforms/shim-server/facts.ts `moduleSystemOf`.)
 */
export function moduleSystemOf(source: string, ext: string, packageKind: 'esm' | 'commonjs'): 'esm' | 'commonjs' {
  if (ext === '.mjs' || ext === '.mts') return 'esm';
  if (ext === '.cjs' || ext === '.cts') return 'commonjs';
  if (/^\s*(import\s[^(]|export\s)/m.test(source)) return 'esm';
  if (/\brequire\s*\(/.test(source)) return 'commonjs';
  return packageKind;
}

/** The module system of the project file `file` with text `source` (moduleSystemOf by its extension). */
export function moduleSystemOfFile(file: string, source: string, packageKind: 'esm' | 'commonjs'): 'esm' | 'commonjs' {
  return moduleSystemOf(source, path.posix.extname(file), packageKind);
}

/** Whether `source` is a module the shim stage wrote: GENERATED_MARK on its first line, where the template puts it. */
export function isGeneratedModule(source: string | null): source is string {
  return !!source && source.split('\n', 1)[0].includes(GENERATED_MARK);
}
