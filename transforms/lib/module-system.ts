/**
 * A file's module system (ESM or CommonJS) and the specifier one project file imports another
 * with: what every stage needs to write an import the project's own way.
 */
import path from 'node:path';
import type { Inventory } from '../../analyzer/model.js';

/** A project file as an import target: where it is, its module system, whether it is TypeScript. */
export interface ModuleFile {
  /** POSIX path relative to the project root. */
  file: string;
  module: 'esm' | 'commonjs';
  typescript: boolean;
}

/**
 * How the project file `file` is written, for the imports a stage adds to it: `import` (esm) or
 * `require` (commonjs). By its extension (`.mjs`/`.mts`, `.cjs`/`.cts`), else the syntax the
 * analyzer read in it (Inventory.files), else how Node runs it; a file the analysis has not seen
 * (one a stage is writing) by moduleSystemOf on its text.
 */
export function moduleSystemOfFile(inventory: Pick<Inventory, 'files' | 'project'>, file: string, source: string): 'esm' | 'commonjs' {
  const ext = path.posix.extname(file);
  const facts = inventory.files.find((f) => f.file === file);
  if (!facts || ['.mjs', '.mts', '.cjs', '.cts'].includes(ext)) return moduleSystemOf(source, ext, inventory.project.moduleKind);
  return facts.syntax === 'none' ? facts.moduleSystem : facts.syntax;
}

/** ESM when the file uses import/export syntax (or its extension or package type says so), CommonJS otherwise. */
export function moduleSystemOf(source: string, ext: string, packageKind: 'esm' | 'commonjs'): 'esm' | 'commonjs' {
  if (ext === '.mjs' || ext === '.mts') return 'esm';
  if (ext === '.cjs' || ext === '.cts') return 'commonjs';
  if (/^\s*(import\s[^(]|export\s)/m.test(source)) return 'esm';
  if (/\brequire\s*\(/.test(source)) return 'commonjs';
  return packageKind;
}

/**
 * The specifier `fromFile` imports `target` with: relative, with `.js` for ESM and for
 * TypeScript files whose relative imports carry an extension (NodeNext), without one otherwise.
 */
export function importSpecifier(fromFile: string, target: ModuleFile, fromSource: string): string {
  let rel = path.posix.relative(path.posix.dirname(fromFile), target.file);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const ext = path.posix.extname(target.file);
  const stem = rel.slice(0, -ext.length);
  if (!target.typescript) return target.module === 'esm' || ext !== '.js' ? rel : stem;
  const withExtension = /from\s+['"]\.{1,2}\/[^'"]+\.js['"]|require\(\s*['"]\.{1,2}\/[^'"]+\.js['"]\s*\)/.test(fromSource);
  return withExtension ? `${stem}${ext.replace('ts', 'js')}` : stem;
}
