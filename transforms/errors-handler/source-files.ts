/**
 * Reading project files for the `errors` steps: a jscodeshift API per file (parser by extension,
 * transforms/lib/parser.ts), nodes found by anchor (source text + nearest line), and the
 * project's source files for the scan of other uses. (A file's module system: shim-facts.ts.)
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
 * The node that carries a path's position: the path's own node, or for a declaration inside
 * `export …` (whose `loc` recast drops so that it is never reprinted without its export) the
 * export declaration.
 */
function located(path: ASTPath<Node>): Node | null {
  if (path.node.loc?.lines) return path.node;
  return path.parent?.node.loc?.lines ? path.parent.node : null;
}

/**
 * The source text of a node as recast read it (`loc.lines`), or null. Not `source.slice(start,
 * end)`: after recast's parse, `start`/`end` count a tab as its expanded width, so they are not
 * string offsets in tab-indented files. Line ends come back as `\n`.
 */
export function textOf(node: Node): string | null {
  const loc = node?.loc;
  return loc?.lines ? loc.lines.slice(loc.start, loc.end).toString() : null;
}

/** The anchor of a path's node: its source text and first line (those of its `export` when recast dropped its own). */
export function anchorOf(path: ASTPath<Node>): Anchor {
  const node = located(path);
  return { text: textOf(node) ?? '', line: node?.loc.start.line ?? 0 };
}

/** The path among `paths` whose anchor text is the anchor's, nearest to its line; null when none has that text (the file changed under the plan). */
export function findByAnchor(paths: Array<ASTPath<Node>>, anchor: Anchor): ASTPath<Node> | null {
  const matches = paths.filter((p) => anchorOf(p).text === anchor.text);
  if (matches.length < 2) return matches[0] ?? null;
  const distance = (p: ASTPath<Node>) => Math.abs(anchorOf(p).line - anchor.line);
  return matches.reduce((best, p) => (distance(p) < distance(best) ? p : best));
}

/** jscodeshift parses with recast's default tab width: its columns count a tab up to the next multiple of 4. */
const RECAST_TAB_WIDTH = 4;

/**
 * Whether `node` starts at `at` (the analyzer's 1-based line and character column) in `source`:
 * recast's column counts a tab as up to four columns, the analyzer's as one character.
 */
export function startsAt(node: Node, at: { line: number; column: number }, source: string): boolean {
  const loc = node?.loc;
  if (!loc || loc.start.line !== at.line) return false;
  const line = source.split('\n', at.line)[at.line - 1] ?? '';
  let column = 0;
  for (const c of line.slice(0, at.column - 1)) column = c === '\t' ? column + RECAST_TAB_WIDTH - (column % RECAST_TAB_WIDTH) : column + 1;
  return loc.start.column === column;
}

/** Function nodes of a file (declarations, expressions, arrows). */
export function functionPaths(j: JSCodeshift, root: Collection): Array<ASTPath<Node>> {
  return [...root.find(j.FunctionDeclaration).paths(), ...root.find(j.FunctionExpression).paths(), ...root.find(j.ArrowFunctionExpression).paths()];
}

/**
 * Whether `file` (a path; only its extension counts) is TypeScript: `.ts`, `.mts`, `.cts`, `.tsx`.
 * A moved handler there gets typed parameters and the Fastify type imports.
 */
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
