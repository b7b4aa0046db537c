/**
 * A file's module system (ESM or CommonJS) and the specifier one project file imports another
 * with: what every stage needs to write an import the project's own way.
 */
import path from 'node:path';

/** A project file as an import target: where it is, its module system, whether it is TypeScript. */
export interface ModuleFile {
  /** POSIX path relative to the project root. */
  file: string;
  module: 'esm' | 'commonjs';
  typescript: boolean;
}

/** The module system of the project file `file` with text `source` (moduleSystemOf by its extension). */
export function moduleSystemOfFile(file: string, source: string, packageKind: 'esm' | 'commonjs'): 'esm' | 'commonjs' {
  return moduleSystemOf(source, path.posix.extname(file), packageKind);
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
