/**
 * Reading a handler function's syntax tree for its rewrite (handler-rewrite/rewrite.ts): the references
 * of a parameter, where a node sits relative to the function (its own level or a nested
 * callback, the tail of its control flow), what a value is, and fresh names. Nothing here edits.
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import { identifierNames, isReference, patternNames, type Node } from '../lib/ast.js';
import type { ValueKind } from './forms.js';

export type { Node };

/** One prepared change; `size` is the size of the node it replaces (innermost first, so outer edits see inner results). */
export interface Edit {
  size: number;
  run(): void;
}

/**
 * Identifier paths in `fn` that refer to its parameter `name` (not shadowed, not property keys). A
 * `let`, `const` or `class` of the same name in a block inside `fn` shadows it there too (ast-types
 * scopes are per function and catch clause only): `const res = await fetch(url); res.ok` is not Express's `res`.
 */
export function referencesOf(j: JSCodeshift, fn: ASTPath<Node>, name: string): Array<ASTPath<Node>> {
  const param = fn.node.params.find((p: Node) => p.type === 'Identifier' && p.name === name);
  return j(fn.get('body'))
    .find(j.Identifier, { name })
    .filter((p) => isReference(p) && p.node !== param && lookup(p.scope, name) === fn.scope && !shadowedInBlock(p, fn, name))
    .paths();
}

/** Whether a block (or `for` head) between `p` and `fn` declares `name` with `let`, `const` or `class`. */
function shadowedInBlock(p: ASTPath<Node>, fn: ASTPath<Node>, name: string): boolean {
  for (let q = p.parent; q && q !== fn; q = q.parent) {
    const node = q.node;
    const statements: Node[] = node.type === 'BlockStatement' || node.type === 'StaticBlock' ? node.body : node.type === 'SwitchStatement' ? node.cases.flatMap((c: Node) => c.consequent) : [];
    const heads: Node[] = node.type === 'ForStatement' ? [node.init] : node.type === 'ForInStatement' || node.type === 'ForOfStatement' ? [node.left] : [];
    for (const s of [...statements, ...heads]) {
      if (s?.type === 'VariableDeclaration' && s.kind !== 'var' && s.declarations.some((d: Node) => patternNames(d.id).includes(name))) return true;
      if (s?.type === 'ClassDeclaration' && s.id?.name === name) return true;
    }
  }
  return false;
}

/**
 * The scope that binds `name` as seen from `scope` (ast-types `Scope.lookup`), skipping `catch`
 * clauses without a parameter (`catch { … }`): ast-types 0.16 throws scanning those ("null does
 * not match type Pattern"), and they bind nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lookup(scope: any, name: string): any {
  for (let s = scope; s; s = s.parent) {
    if (s.node.type === 'CatchClause' && !s.node.param) continue;
    if (s.declares(name)) return s;
  }
  return null;
}

/** Renames every reference of the parameter `from` in `fn` to `to`. */
export function renameParam(j: JSCodeshift, fn: ASTPath<Node>, from: string, to: string): void {
  if (from === to) return;
  for (const ref of referencesOf(j, fn, from)) ref.node.name = to;
}

/** Every identifier name used under `at` (a function or the program), to keep new names free of collisions. */
export function namesIn(j: JSCodeshift, at: ASTPath<Node>): Set<string> {
  if (at.node.type === 'Program' || at.node.type === 'File') return identifierNames(j, j(at));
  const names = new Set<string>();
  j(at).find(j.Identifier).forEach((p) => void names.add(p.node.name));
  return names;
}

/** `base`, else `fastify<Base>`, else `base2`, `base3`, … — whichever `taken` does not hold (`own` is the name being replaced). */
export function freeName(base: string, taken: Set<string>, own: string): string {
  const free = (n: string) => n === own || !taken.has(n);
  if (free(base)) return base;
  const prefixed = `fastify${base.replace(/^_/, '')[0].toUpperCase()}${base.replace(/^_/, '').slice(1)}`;
  if (free(prefixed)) return prefixed;
  for (let i = 2; ; i++) if (free(`${base}${i}`)) return `${base}${i}`;
}

/** The path of the Program that holds `p`. */
export function programOf(p: ASTPath<Node>): ASTPath<Node> {
  let q = p;
  while (q.parent) q = q.parent;
  return q.node.type === 'File' ? q.get('program') : q;
}

/** Whether `p` sits inside a function nested in `fn` (a callback, a timer), not at `fn`'s own level. */
export function insideNestedFunction(p: ASTPath<Node>, fn: ASTPath<Node>): boolean {
  for (let q = p.parent; q && q !== fn; q = q.parent) if (/Function|ObjectMethod|ClassMethod/.test(q.node.type)) return true;
  return false;
}

/** Size of a node in characters (unknown positions, i.e. nodes the rewrite built, count as largest). */
export function sizeOf(node: Node): number {
  return typeof node.start === 'number' && typeof node.end === 'number' ? node.end - node.start : Number.MAX_SAFE_INTEGER;
}

/** Whether a member path is assigned to or updated. */
export function isWritten(member: ASTPath<Node>): boolean {
  const parent = member.parent.node;
  return (parent.type === 'AssignmentExpression' && parent.left === member.node) || parent.type === 'UpdateExpression';
}

/** The return statements of `fn`'s own level (not those of nested functions). */
export function ownReturns(j: JSCodeshift, fn: ASTPath<Node>): Array<ASTPath<Node>> {
  return j(fn.get('body'))
    .find(j.ReturnStatement)
    .filter((p) => !insideNestedFunction(p, fn))
    .paths();
}

/** Whether `fn` (not an arrow) reads `this` at its own level or in a nested arrow. */
export function readsThis(j: JSCodeshift, fn: ASTPath<Node>): boolean {
  if (fn.node.type === 'ArrowFunctionExpression') return false;
  return (
    j(fn.get('body'))
      .find(j.ThisExpression)
      .filter((p) => {
        for (let q = p.parent; q && q !== fn; q = q.parent) if (/Function|ObjectMethod|ClassMethod/.test(q.node.type) && q.node.type !== 'ArrowFunctionExpression') return false;
        return true;
      })
      .size() > 0
  );
}

/** `return;` (or `return undefined;`). */
export function isBareReturn(node: Node): boolean {
  return node?.type === 'ReturnStatement' && (!node.argument || (node.argument.type === 'Identifier' && node.argument.name === 'undefined'));
}

/**
 * Whether nothing of `fn` runs after the statement at `statement` (a path of a statement of
 * `fn`'s own level): every statement after it, up to the end of the function, is a bare `return;`
 * or nothing, across blocks, `if` branches, `catch` clauses and `try` blocks without `finally`.
 * Loops, `switch` and `finally` count as code that may run after it.
 */
export function isTail(statement: ASTPath<Node>, fn: ASTPath<Node>): boolean {
  let p = statement;
  while (p.node !== fn.node.body) {
    const parent = p.parent;
    if (!parent) return false;
    const type = parent.node.type;
    if (type === 'BlockStatement') {
      const body: Node[] = parent.node.body;
      const rest = body.slice(body.indexOf(p.node) + 1).filter((s) => s.type !== 'EmptyStatement' && s.type !== 'FunctionDeclaration');
      if (rest.length && isBareReturn(rest[0])) return true;
      if (rest.length) return false;
    } else if (type === 'TryStatement') {
      if (parent.node.finalizer) return false;
    } else if (type !== 'IfStatement' && type !== 'CatchClause' && type !== 'LabeledStatement') return false;
    p = parent;
  }
  return true;
}

/** The statement right after `statement` in its block, when it is a bare `return;`. */
export function followingBareReturn(statement: ASTPath<Node>): Node | null {
  const block = statement.parent?.node;
  if (block?.type !== 'BlockStatement') return null;
  const next = block.body[block.body.indexOf(statement.node) + 1];
  return isBareReturn(next) ? next : null;
}

/**
 * The `try` block of `fn`'s own level that holds `p`, if any (a `throw` there would be caught by
 * the try's own `catch`), with its catch clause.
 */
export function enclosingTry(p: ASTPath<Node>, fn: ASTPath<Node>): Node | null {
  for (let q = p; q.parent && q.parent !== fn; q = q.parent) if (q.parent.node.type === 'TryStatement' && q.parent.node.block === q.node) return q.parent.node;
  return null;
}

/**
 * What a value is, as far as a reader can tell without running it: literals, templates, string
 * concatenation, conditionals of one kind, and `const` names bound to those.
 */
export function kindOf(j: JSCodeshift, at: ASTPath<Node>, expr: Node, depth = 0): ValueKind {
  if (!expr || depth > 4) return 'unknown';
  switch (expr.type) {
    case 'ObjectExpression':
    case 'ArrayExpression':
      return 'object';
    case 'StringLiteral':
    case 'TemplateLiteral':
      return 'string';
    case 'NullLiteral':
      return 'nullish';
    case 'NumericLiteral':
      return 'number';
    case 'BinaryExpression':
      return expr.operator === '+' && (kindOf(j, at, expr.left, depth + 1) === 'string' || kindOf(j, at, expr.right, depth + 1) === 'string') ? 'string' : 'unknown';
    case 'ConditionalExpression': {
      const a = kindOf(j, at, expr.consequent, depth + 1);
      return a === kindOf(j, at, expr.alternate, depth + 1) ? a : 'unknown';
    }
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'TSSatisfiesExpression':
      return kindOf(j, at, expr.expression, depth + 1);
    case 'CallExpression':
      return expr.callee.type === 'Identifier' && expr.callee.name === 'String' ? 'string' : 'unknown';
    case 'Identifier': {
      if (expr.name === 'undefined') return 'nullish';
      const scope = lookup(at.scope, expr.name);
      const bindings = scope?.getBindings()[expr.name];
      if (!bindings || bindings.length !== 1) return 'unknown';
      const declarator = bindings[0].parent;
      const declaration = declarator?.parent;
      if (declarator?.node.type !== 'VariableDeclarator' || declarator.node.id !== bindings[0].node || declaration?.node.kind !== 'const') return 'unknown';
      return kindOf(j, declarator, declarator.node.init, depth + 1);
    }
    default:
      return 'unknown';
  }
}

/** Names of the types a type annotation refers to (`Response<ApiError>` → Response, ApiError; `express.Request` → express). */
export function typeNamesIn(j: JSCodeshift, annotation: Node): string[] {
  const names: string[] = [];
  j(annotation)
    .find(j.TSTypeReference)
    .forEach((p) => {
      let name: Node = p.node.typeName;
      while (name.type === 'TSQualifiedName') name = name.left;
      names.push(name.name);
    });
  return names;
}

/** The source text of a short node for a message: one line, at most 60 characters. */
export function snippet(node: Node): string {
  const loc = node?.loc;
  const text: string = loc?.lines ? loc.lines.slice(loc.start, loc.end).toString() : '…';
  const line = text.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
