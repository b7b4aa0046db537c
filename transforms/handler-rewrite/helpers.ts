/**
 * Helper functions that receive the request (issue 8): a moved route handler or hook may hand its
 * `req` to a module-level helper (`res.json(ownOrder(req))`) when the routes stage rewrites that
 * helper too (handler-rewrite/rewrite.ts role `helper`), so both sides agree that the value is Fastify's
 * request. This module recognises such calls and the helper parameters that would carry Express's
 * response or `next`, which a helper rewrite cannot follow. Nothing here edits.
 */
import type { ASTPath } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { lookup, snippet } from './ast.js';
import { expressTypeOf, type ExpressTypeNames } from './types.js';

/**
 * The callee name when the reference `ref` of `req` is the FIRST argument of a call of a plain
 * identifier (`ownOrder(req)`, `loadCart(req, sku)`) that no function around the call binds (a
 * file-level function, const or import, or a name the file does not declare); null otherwise
 * (`service.load(req)`, `f(x, req)`, `f(req as any)`, a locally declared `f`). Only the first
 * argument: role `helper` reads its first parameter as the request.
 */
export function helperCallee(ref: ASTPath<Node>): string | null {
  const call = ref.parent?.node;
  if (call?.type !== 'CallExpression' || call.arguments[0] !== ref.node || call.callee.type !== 'Identifier') return null;
  const name: string = call.callee.name;
  const binding = lookup(ref.scope, name);
  return !binding || binding.isGlobal ? name : null;
}

/** Express's response-side types a helper parameter must not have: a helper rewrite only moves the request. */
const RESPONSE_SIDE_TYPES = new Set(['Response', 'NextFunction']);

/**
 * Conventional names of Express's response and next in untyped (JavaScript) code. A name is only a
 * hint, so this errs on the side of refusing: a helper taking `res` keeps Express's response,
 * which a moved route no longer has.
 */
const RESPONSE_SIDE_NAMES = new Set(['res', 'response', 'next']);

/**
 * Why the parameters after a helper's first (the request) cannot stay as they are: one typed with
 * Express's `Response`/`NextFunction` (`names`: the file's Express type names, null in JavaScript),
 * or, untyped, named `res`/`response`/`next`. Empty when they may stay untouched.
 */
export function helperParamRefusals(rest: Node[], names: ExpressTypeNames | null): string[] {
  const out: string[] = [];
  for (const param of rest) {
    const type = param.type === 'Identifier' ? param.typeAnnotation?.typeAnnotation : null;
    const express = type && names ? expressTypeOf(type, names) : null;
    if (express && RESPONSE_SIDE_TYPES.has(express.name)) out.push(`it takes Express's ${express.name} (\`${snippet(param)}\`) besides the request: a helper rewrite moves only the request`);
    else if (!type && param.type === 'Identifier' && RESPONSE_SIDE_NAMES.has(param.name)) out.push(`it takes \`${param.name}\` besides the request, which reads as Express's ${param.name === 'next' ? 'next' : 'response'}: a helper rewrite moves only the request`);
  }
  return out;
}
