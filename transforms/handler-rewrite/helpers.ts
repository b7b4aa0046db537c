/**
 * Helper functions that receive the request or the response (issue 8, issue 17): a moved route
 * handler or hook may hand its `req` or `res` to a helper — in its own module or another
 * (`res.json(ownOrder(req))`, `await sendLink(user, req)`, `generateToken(res, user._id)`) — when
 * the routes stage rewrites that helper too (handler-rewrite/rewrite.ts role `helper`), so both sides
 * agree that the value is Fastify's request or reply. This module recognises such calls and the
 * helper parameters that would carry Express's response or `next` besides those, which a helper
 * rewrite cannot follow. Nothing here edits.
 */
import type { ASTPath } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { lookup, snippet } from './ast.js';
import { expressTypeOf, type ExpressTypeNames } from './types.js';

/**
 * The callee name and the argument position when the reference `ref` of `req` (or `res`) is an
 * argument of a call of a plain identifier (`ownOrder(req)`, `sendLink(user, req)`,
 * `generateToken(res, user._id)`) that no function around the call binds (a file-level function,
 * const or import, or a name the file does not declare); null otherwise (`service.load(req)`,
 * `f(req as any)`, `f(...req)`, a locally declared `f`). Role `helper` reads the parameter at that
 * position as the request (or response).
 */
export function helperCallee(ref: ASTPath<Node>): { name: string; index: number } | null {
  const call = ref.parent?.node;
  const index: number = call?.type === 'CallExpression' ? call.arguments.indexOf(ref.node) : -1;
  if (index < 0 || call.callee.type !== 'Identifier') return null;
  const name: string = call.callee.name;
  const binding = lookup(ref.scope, name);
  return !binding || binding.isGlobal ? { name, index } : null;
}

/**
 * The call that receives the reference `ref` as a value, for a refusal that names it: the callee of
 * the call `ref` is an argument of, directly or inside an object or array literal there
 * (`sendMail({ …, req })` → `sendMail`, `passport.authenticate('local', cb)(req, res, next)` →
 * `passport.authenticate(…)`); null when `ref` is not an argument.
 */
export function receivingCall(ref: ASTPath<Node>): string | null {
  let p: ASTPath<Node> = ref;
  while (/^(ObjectProperty|ObjectExpression|ArrayExpression|SpreadElement)$/.test(p.parent?.node.type)) p = p.parent;
  const call = p.parent?.node;
  if (!(call?.type === 'CallExpression' || call?.type === 'NewExpression') || !call.arguments.includes(p.node)) return null;
  return calleeText(call.callee);
}

function calleeText(node: Node): string | null {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed) {
    const object = node.object.type === 'ThisExpression' ? 'this' : calleeText(node.object);
    return object ? `${object}.${node.property.name}` : null;
  }
  if (node.type === 'CallExpression') {
    const inner = calleeText(node.callee);
    return inner ? `${inner}(…)` : null;
  }
  return null;
}

/** Express's response-side types a helper parameter other than the request and response must not have: a helper rewrite moves only those two. */
const RESPONSE_SIDE_TYPES = new Set(['Response', 'NextFunction']);

/**
 * Conventional names of Express's response and next in untyped (JavaScript) code. A name is only a
 * hint, so this errs on the side of refusing: a helper taking `res` keeps Express's response,
 * which a moved route no longer has.
 */
const RESPONSE_SIDE_NAMES = new Set(['res', 'response', 'next']);

/**
 * Why a helper's parameters other than those its calls pass the request and response to cannot stay
 * as they are: one typed with Express's `Response`/`NextFunction` (`names`: the file's Express type
 * names, null in JavaScript), or, untyped, named `res`/`response`/`next`. Empty when they may stay
 * untouched.
 */
export function helperParamRefusals(rest: Node[], names: ExpressTypeNames | null): string[] {
  const out: string[] = [];
  for (const param of rest) {
    const type = param.type === 'Identifier' ? param.typeAnnotation?.typeAnnotation : null;
    const express = type && names ? expressTypeOf(type, names) : null;
    if (express && RESPONSE_SIDE_TYPES.has(express.name)) out.push(`it takes Express's ${express.name} (\`${snippet(param)}\`) besides the request and response its calls pass: a helper rewrite moves only those`);
    else if (!type && param.type === 'Identifier' && RESPONSE_SIDE_NAMES.has(param.name)) out.push(`it takes \`${param.name}\` besides the request and response its calls pass, which reads as Express's ${param.name === 'next' ? 'next' : 'response'}: a helper rewrite moves only those`);
  }
  return out;
}
