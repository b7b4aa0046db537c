/**
 * Reading project files for the `errors` steps: a jscodeshift API per file (parser by extension,
 * transforms/lib/parser.ts), nodes found by anchor (source text + nearest line), the module system
 * of a file, and the project's source files for the scan of other uses.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import jscodeshift, { type ASTPath, type Collection, type JSCodeshift } from 'jscodeshift';
import { parserFor } from '../lib/parser.js';
import type { Anchor } from './model.js';

/** Any AST node. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Node = any;

/** jscodeshift bound to the parser `file` needs. */
export function jFor(file: string): JSCodeshift {
  return jscodeshift.withParser(parserFor(file));
}

/** `source` parsed as `file`, or null when it does not parse. */
export function parseOrNull(file: string, source: string): { j: JSCodeshift; root: Collection } | null {
  const j = jFor(file);
  try {
    return { j, root: j(source) };
  } catch {
    return null;
  }
}

/**
 * The 1-based line of a source offset. Offsets, not `node.loc`: recast drops the `loc` of a
 * declaration inside `export …` so that it is never reprinted without its export.
 */
export function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i >= 0 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/** The anchor of a node: its source text and first line. */
export function anchorOf(source: string, node: Node): Anchor {
  return { text: source.slice(node.start, node.end), line: lineAt(source, node.start) };
}

/**
 * The path among `paths` whose source text is the anchor's, nearest to its line; null when none
 * has that text (the file changed under the plan).
 */
export function findByAnchor(source: string, paths: Array<ASTPath<Node>>, anchor: Anchor): ASTPath<Node> | null {
  const matches = paths.filter((p) => typeof p.node.start === 'number' && source.slice(p.node.start, p.node.end) === anchor.text);
  if (matches.length < 2) return matches[0] ?? null;
  const distance = (p: ASTPath<Node>) => Math.abs(lineAt(source, p.node.start) - anchor.line);
  return matches.reduce((best, p) => (distance(p) < distance(best) ? p : best));
}

/** Function nodes of a file (declarations, expressions, arrows). */
export function functionPaths(j: JSCodeshift, root: Collection): Array<ASTPath<Node>> {
  return [...root.find(j.FunctionDeclaration).paths(), ...root.find(j.FunctionExpression).paths(), ...root.find(j.ArrowFunctionExpression).paths()];
}

/** ESM when the file has import/export syntax or its extension says so; CommonJS when it requires; else the package's. */
export function moduleSystemOf(file: string, source: string, fallback: 'esm' | 'commonjs'): 'esm' | 'commonjs' {
  if (/\.m[jt]s$/.test(file)) return 'esm';
  if (/\.c[jt]s$/.test(file)) return 'commonjs';
  if (/^\s*(import\s+[\w*{'"]|export\s)/m.test(source)) return 'esm';
  if (/\brequire\s*\(|\bmodule\.exports\b/.test(source)) return 'commonjs';
  return fallback;
}

export function isTypeScript(file: string): boolean {
  return /\.[mc]?tsx?$/.test(file);
}

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
