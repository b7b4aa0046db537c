/**
 * The condition a registration statement runs under, read from where it is: the `if` statements
 * around it up to the module's top level (`if (process.env.NODE_ENV === 'development') { app.use(h) }
 * else { app.use(g) }`). The errors stage keeps such a condition a condition: it registers the
 * Fastify handler under the same test (issue 16). Only tests the generated module can evaluate the
 * same way are kept: they may read `process` and literals, nothing bound in the app's module.
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import { isReference, type Node } from './ast.js';

/** A registration's condition: the `if` tests around it, outermost first. */
export interface Guard {
  /** Source of the whole condition (`a`, or `(a) && !(b)` for several or an else branch), or '' when the statement is not under an `if`. */
  text: string;
  /** The innermost `if` around it and the branch it is in (two registrations in the two branches of one `if` exclude each other). */
  innermost: { node: Node; branch: 'then' | 'else' } | null;
}

/** Globals a kept test may read: the generated module sees the same values. */
const GLOBALS = new Set(['process', 'undefined']);

/**
 * The guard of `statement` (a statement path), or why it cannot be kept: the statement is inside
 * a function, loop, `switch`, `try` or other block that is not an `if` branch, or a test reads a
 * name of the module (the generated module has no such binding).
 */
export function guardOf(j: JSCodeshift, statement: ASTPath<Node>, source: string): Guard | { refuse: string } {
  const parts: Array<{ test: string; branch: 'then' | 'else' }> = [];
  let innermost: Guard['innermost'] = null;
  let child: ASTPath<Node> = statement;
  for (let p = statement.parent as ASTPath<Node> | null; p && p.node.type !== 'Program'; child = p, p = p.parent) {
    if (p.node.type === 'BlockStatement') continue;
    if (p.node.type !== 'IfStatement' || child.node === p.node.test) return { refuse: `it is registered inside ${describe(p.node)}, not at the top level of its module or in an if there` };
    const branch = p.node.alternate === child.node ? 'else' : 'then';
    innermost ??= { node: p.node, branch };
    const free = freeNames(j, p.get('test')).filter((n) => !GLOBALS.has(n));
    const test = source.slice(p.node.test.start, p.node.test.end);
    if (free.length) return { refuse: `its condition \`${test}\` reads ${free.map((n) => `\`${n}\``).join(', ')} of its module, which the generated module does not have` };
    parts.unshift({ test, branch });
  }
  const text = parts.length === 1 && parts[0].branch === 'then' ? parts[0].test : parts.map((p) => (p.branch === 'then' ? `(${p.test})` : `!(${p.test})`)).join(' && ');
  return { text, innermost };
}

/**
 * Whether `statement` runs inside a function, with nothing but blocks and `if`s between them (a
 * start-up callback: `db.connect().then(() => { app.use(errorHandler); })`). Such a registration
 * happens when that function runs, which the generated module cannot know at build time: the
 * errors stage registers the handler at build time behind a flag the app sets there instead
 * (HandlerRegistration.flag; Fastify forbids setErrorHandler once the server is ready).
 */
export function registeredLate(statement: ASTPath<Node>): boolean {
  for (let p = statement.parent as ASTPath<Node> | null; p && p.node.type !== 'Program'; p = p.parent) {
    if (/Function/.test(p.node.type)) return true;
    if (p.node.type !== 'BlockStatement' && p.node.type !== 'IfStatement') return false;
  }
  return false;
}

/** Names `expr` reads (references, not property names or keys). */
function freeNames(j: JSCodeshift, expr: ASTPath<Node>): string[] {
  const names = new Set<string>(expr.node.type === 'Identifier' ? [expr.node.name] : []);
  j(expr)
    .find(j.Identifier)
    .filter(isReference)
    .forEach((p) => void names.add(p.node.name));
  return [...names];
}

function describe(node: Node): string {
  if (/Function/.test(node.type)) return 'a function (a start-up callback, a loader)';
  if (/For|While/.test(node.type)) return 'a loop';
  return `a ${node.type.replace(/Statement$/, '').toLowerCase()} statement`;
}
