/**
 * The syntax tree of a project file as every transform reads it: a jscodeshift API per file
 * (parser by extension, lib/parser.ts), a node's source text, whether a node starts where the
 * analyzer located something (its columns count characters, recast's count tabs as up to four),
 * and the function the analyzer located.
 */
import jscodeshift, { type ASTPath, type Collection, type JSCodeshift } from 'jscodeshift';
import type { Location } from '../../analyzer/model.js';
import { memoOn } from './memo.js';
import { parserFor } from './parser.js';

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
export function located(path: ASTPath<Node>): Node | null {
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

/** Function nodes of a file (declarations, expressions, arrows, then object and class methods). */
export function functionPaths(j: JSCodeshift, root: Collection): Array<ASTPath<Node>> {
  return indexOf(j, root).functions;
}

/** The names of every identifier in a tree (a new set: callers add the names they take). */
export function identifierNames(j: JSCodeshift, root: Collection): Set<string> {
  return new Set(indexOf(j, root).identifiers.keys());
}

/** The identifier paths of a tree by name. */
export function identifiersNamed(j: JSCodeshift, root: Collection, name: string): Array<ASTPath<Node>> {
  return indexOf(j, root).identifiers.get(name) ?? [];
}

/** The statements of a tree, in source order. */
export function statementPaths(j: JSCodeshift, root: Collection): Array<ASTPath<Node>> {
  return indexOf(j, root).statements;
}

/** The paths of the given node types in a tree, in source order (`ExportNamedDeclaration`, `AssignmentExpression`, …). */
export function pathsOfType(j: JSCodeshift, root: Collection, type: string): Array<ASTPath<Node>> {
  return indexOf(j, root).byType.get(type) ?? [];
}

/** What the planners look up in a tree, from one walk of it (jscodeshift walks are what planning costs). */
interface TreeIndex {
  /** Function declarations, then function expressions, then arrows (as three `find`s would list them), then object and class methods (controllers). */
  functions: Array<ASTPath<Node>>;
  statements: Array<ASTPath<Node>>;
  identifiers: Map<string, Array<ASTPath<Node>>>;
  byType: Map<string, Array<ASTPath<Node>>>;
}

function indexOf(j: JSCodeshift, root: Collection): TreeIndex {
  // A program's index is its file's: one walk however the tree is asked for.
  const top = root.paths()[0];
  const key = top.node.type === 'Program' && top.parent?.node.type === 'File' ? top.parent.node : top.node;
  return memoOn(key, 'index', () => {
    const index: TreeIndex = { functions: [], statements: [], identifiers: new Map(), byType: new Map() };
    const add = (map: Map<string, Array<ASTPath<Node>>>, key: string, p: ASTPath<Node>) => {
      const list = map.get(key);
      if (list) list.push(p);
      else map.set(key, [p]);
    };
    root.find(j.Node).forEach((p) => {
      const node = p.node as Node;
      add(index.byType, node.type, p);
      if (j.Statement.check(node)) index.statements.push(p);
      if (j.Identifier.check(node)) add(index.identifiers, node.name, p);
    });
    const of = (type: string) => index.byType.get(type) ?? [];
    index.functions = [...of('FunctionDeclaration'), ...of('FunctionExpression'), ...of('ArrowFunctionExpression'), ...of('ObjectMethod'), ...of('ClassMethod')];
    return index;
  });
}

/**
 * Whether `file` (a path; only its extension counts) is TypeScript: `.ts`, `.mts`, `.cts`, `.tsx`.
 * A moved handler there gets typed parameters and the Fastify type imports.
 */
export function isTypeScript(file: string): boolean {
  return /\.[mc]?tsx?$/.test(file);
}

/**
 * The function whose definition starts at `at` (an `export` in front counts as its start, as the
 * analyzer reports it; so do `const x =` and an object key `show: function …`). Shared with the
 * routes stage, which finds route handlers the same way.
 */
export function functionAt(j: JSCodeshift, root: Collection, at: Location, source: string): ASTPath<Node> | null {
  const starts = (node: Node) => startsAt(node, at, source);
  const all = functionPaths(j, root);
  return all.find((p) => starts(p.node)) ?? all.find((p) => /^Export/.test(p.parent.node.type) && starts(p.parent.node)) ?? all.find((p) => p.parent.node.type === 'VariableDeclarator' && starts(p.parent.parent.parent.node)) ?? all.find((p) => (p.parent.node.type === 'ObjectProperty' || p.parent.node.type === 'AssignmentExpression' || p.parent.node.type === 'ClassProperty') && starts(p.parent.node)) ?? null;
}

/** Whether an Identifier path reads a binding (not a property name, key, label or type name). */
export function isReference(p: ASTPath<Node>): boolean {
  const parent = p.parent?.node;
  if (!parent) return true;
  if ((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === p.node && !parent.computed) return false;
  if ((parent.type === 'ObjectProperty' || parent.type === 'ClassProperty' || parent.type === 'ObjectMethod') && parent.key === p.node && !parent.computed && !(parent.shorthand && parent.value === p.node)) return false;
  if (parent.type === 'LabeledStatement' || parent.type === 'BreakStatement' || parent.type === 'ContinueStatement') return false;
  if (/^TS/.test(parent.type) && parent.type !== 'TSAsExpression' && parent.type !== 'TSNonNullExpression' && parent.type !== 'TSSatisfiesExpression' && parent.type !== 'TSTypeAssertion') return false;
  return true;
}

/** The names a binding pattern declares (`x`, `[a, b]`, `{ a, b: c, ...rest }`, `x = 1`); none for another node. */
export function patternNames(pattern: Node): string[] {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return (pattern.properties as Node[]).flatMap((prop) => patternNames(prop.type === 'RestElement' ? prop.argument : prop.value));
    case 'ArrayPattern':
      return (pattern.elements as Node[]).flatMap((e) => patternNames(e));
    case 'AssignmentPattern':
      return patternNames(pattern.left);
    case 'RestElement':
      return patternNames(pattern.argument);
    default:
      return [];
  }
}
