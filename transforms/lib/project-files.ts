/**
 * The project's source files as the codemods scan them (for other uses of a handler), and the
 * project file a relative specifier names.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;

const SKIPPED = new Set(['node_modules', '.git', 'dist', 'build', 'coverage', '.migrate', '.tmp', '.next', 'out']);

/** POSIX paths (relative to `root`) of the JavaScript and TypeScript files of the project, dependencies and build output left out. */
export function projectSourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(path.join(root, rel));
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (SKIPPED.has(name)) continue;
      const child = rel ? `${rel}/${name}` : name;
      let isDir = false;
      try {
        isDir = statSync(path.join(root, child)).isDirectory();
      } catch {
        continue;
      }
      if (isDir) walk(child);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(child);
    }
  };
  walk('');
  return out;
}

/**
 * The project file a relative specifier in `fromFile` names (`./errors.js` → `src/errors.ts` too),
 * or null for packages and missing files.
 */
export function resolveRelative(fromFile: string, specifier: string, exists: (file: string) => boolean): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const stem = base.replace(/\.[cm]?[jt]sx?$/, '');
  const candidates = [base, ...['.js', '.ts', '.mjs', '.cjs', '.mts', '.cts', '.jsx', '.tsx'].map((e) => stem + e), ...['index.js', 'index.ts'].map((i) => `${base}/${i}`)];
  return candidates.find(exists) ?? null;
}
