/**
 * The generated server module keeps the app's not-found handler for the hooks module's
 * `notFoundAfterNext` (routes-move/package-handler.ts): right before `fastify.setNotFoundHandler(h)`
 * in buildFastify (the errors stage's, or the shim's `--parity express` page), in the same block,
 * `fastify.decorate('expressNotFound', h)` — the same handler, which a moved route whose package
 * function called next() calls as Express reached the app's 404. Fastify has no public way to reach
 * the not-found handler from a route other than `reply.callNotFound()`, which runs the 404 context's
 * preHandler hooks, the bridge among them: the whole Express app would run a second time.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { buildFastifyOf, notFoundCalls } from './build-fastify.js';
import { NOT_FOUND_DECORATOR } from './hooks-template.js';

/**
 * Adds the decorator before the last root `setNotFoundHandler` call of buildFastify; no change when
 * the module has it already, or has no such call (Fastify's default 404 answers: notFoundAfterNext
 * answers as it does).
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf
 */
export function keepNotFoundHandler(j: JSCodeshift, root: Collection, quote: 'single' | 'double'): boolean {
  if (root.find(j.CallExpression, { callee: { property: { name: 'decorate' } } }).filter((p) => (p.node.arguments[0] as Node)?.value === NOT_FOUND_DECORATOR).size()) return false;
  const build = buildFastifyOf(j, root, 'keep the not-found handler for moved routes');
  // At the top of buildFastify, or inside the `if (…) { … }` the app registered it under.
  const last = notFoundCalls(build).pop();
  const found = last && { body: last[0], s: last[1] };
  const args: Node[] = found ? found.s.expression.arguments : [];
  // `setNotFoundHandler({ preHandler })` alone (the plugins stage's, server-module/express-hook.ts) is Fastify's own 404.
  if (!found || args[args.length - 1]?.type === 'ObjectExpression') return false;
  const q = quote === 'double' ? '"' : "'";
  const [statement] = j(`${build.instance}.decorate(${q}${NOT_FOUND_DECORATOR}${q}, ${j(args[args.length - 1]).toSource()});`).find(j.Program).paths()[0].node.body;
  statement.comments = [j.commentLine(" The app's 404 handler (below) for the moved routes whose package function calls next(): Express then ended there (notFoundAfterNext).", true, false)];
  // Before it: recast would print a new statement after it and the new ones before `return` on one line.
  found.body.splice(found.body.indexOf(found.s), 0, statement);
  return true;
}
