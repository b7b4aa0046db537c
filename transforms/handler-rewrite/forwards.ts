/**
 * Calls that hand a handler's request and response on to another of the app's handlers, in the
 * order Express would call that one: `return handler(err, req, res)` (an error handler) or
 * `notFound(req, res)` (a 404 handler), as express-rest-boilerplate's converter and 404 do
 * (issue 16). When the callee moves in the same stage it takes Fastify's `(error, request, reply)`
 * / `(request, reply)` after its own rewrite, so renaming the parameters is the call's whole edit.
 * This module recognises such calls; nothing here edits.
 */
import type { ASTPath } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { lookup } from './ast.js';

/** What a forwarding call hands on to: the callee's name and the role its arguments fit. */
export interface Forward {
  callee: string;
  role: 'error' | 'not-found';
}

/**
 * The forwarding call `ref` (a reference of the handler's `req` or `res`) is an argument of, or
 * null: a call of a plain identifier that no function around the call binds (a file-level function
 * or import), with exactly `(x, req, res)` (an error handler's order) or `(req, res)` (a 404's).
 */
export function forwardAt(ref: ASTPath<Node>, names: { req: string; res: string }): Forward | null {
  const call = ref.parent?.node;
  if (call?.type !== 'CallExpression' || call.callee.type !== 'Identifier' || !call.arguments.includes(ref.node)) return null;
  const binding = lookup(ref.scope, call.callee.name);
  if (binding && !binding.isGlobal) return null;
  const is = (n: Node, name: string) => n?.type === 'Identifier' && n.name === name;
  const args: Node[] = call.arguments;
  if (args.length === 3 && is(args[1], names.req) && is(args[2], names.res) && args[0].type !== 'SpreadElement') return { callee: call.callee.name, role: 'error' };
  if (args.length === 2 && is(args[0], names.req) && is(args[1], names.res)) return { callee: call.callee.name, role: 'not-found' };
  return null;
}
