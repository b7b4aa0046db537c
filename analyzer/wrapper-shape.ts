/**
 * Whether a local handler wrapper only forwards (issue 17; analyzer-patterns.md §3 P44). The
 * function that makes it (`const catchAsync = (fn) => (req, res, next) => …`, also a function
 * declaration) must take the function to wrap and return, with nothing else, a function of
 * (req, res, next) that calls it with exactly those and hands a throw or a rejection to next:
 *
 *   Promise.resolve(fn(req, res, next)).catch(next)                       forwards
 *   Promise.resolve(fn(req, res, next)).catch((err) => next(err))         forwards
 *   async (req, res, next) => { try { await fn(req, res, next); } catch (e) { next(e); } }   forwards
 *   fn(req, res, next).catch(next)                                        forwards-promise
 *
 * as an expression body or a block of that one statement (returned or not). Anything else is
 * `other`, with what it does beyond forwarding in words.
 *
 * Why these are alike on Fastify once unwrapped: a sync throw of `fn` leaves the wrapper, and
 * Express's layer hands it to next (lib/router/layer.js `handle_request`, try/catch, Express 4 and
 * 5), as a throw in a Fastify handler reaches the error handler; the rejection of what `fn` returns
 * goes to next, as Fastify sends a rejected handler's error to the error handler
 * (lib/wrap-thenable.js). Express ignores what the wrapper returns. `fn(…).catch(next)` without
 * `Promise.resolve` throws a TypeError for a function that returns no promise, which Express hands
 * to next: only a promise-returning function behaves alike (`forwards-promise`).
 */
import { Node } from 'ts-morph';
import { clip } from './entry.js';

/** What a wrapper maker was found to make. */
export type WrapperShape = { kind: 'forwards' | 'forwards-promise' } | { kind: 'other'; beyond: string };

const other = (beyond: string): WrapperShape => ({ kind: 'other', beyond });
const quoted = (node: Node) => `\`${clip(node.getText())}\``;

/** The shape of the wrapper that `maker` (the function declaring the wrapped function's parameter) returns; see the module comment. */
export function wrapperShape(maker: Node): WrapperShape {
  if (!(Node.isArrowFunction(maker) || Node.isFunctionExpression(maker) || Node.isFunctionDeclaration(maker))) return other('is not a function the analysis can read');
  const params = maker.getParameters();
  if (params.length !== 1 || !plain(params[0])) return other(`takes \`(${params.map((p) => p.getText()).join(', ')})\`, not only the function it wraps`);
  const fn = params[0].getName();
  const makerBody = maker.getBody();
  if (!makerBody) return other('has no body');
  const made = onlyValue(makerBody, fn);
  if ('extra' in made) return other(`also runs ${quoted(made.extra)} where it is applied`);
  const wrapper = unparenthesized(made.value);
  if (!(Node.isArrowFunction(wrapper) || Node.isFunctionExpression(wrapper))) return other(`returns ${quoted(wrapper)}, which the analysis does not read as a handler`);
  const wp = wrapper.getParameters();
  if (wp.length !== 3 || !wp.every(plain)) return other(`takes \`(${wp.map((p) => p.getText()).join(', ')})\`, not (req, res, next)`);
  const names = wp.map((p) => p.getName());
  const next = names[2];
  const callsFn = (n: Node) => Node.isCallExpression(n) && n.getExpression().getText() === fn && sameArguments(n.getArguments(), names);
  const body = wrapper.getBody();
  if (wrapper.isAsync() && Node.isBlock(body) && body.getStatements().length === 1 && Node.isTryStatement(body.getStatements()[0])) return awaitedInTry(body.getStatements()[0] as Node, fn, callsFn, next);
  const forward = onlyValue(body, fn);
  if ('extra' in forward) return other(`also runs ${quoted(forward.extra)}`);
  let call = unparenthesized(forward.value);
  if (wrapper.isAsync() && Node.isAwaitExpression(call)) call = unparenthesized(call.getExpression());
  return caught(call, callsFn, next);
}

/** `X.catch(H)` where X calls the function (through `Promise.resolve` or not) and H hands the rejection to next. */
function caught(call: Node, callsFn: (n: Node) => boolean, next: string): WrapperShape {
  if (callsFn(call)) return other('does not hand a rejection to next');
  const callee = Node.isCallExpression(call) ? call.getExpression() : null;
  if (!callee || !Node.isPropertyAccessExpression(callee) || callee.getName() !== 'catch' || (call as Node & { getArguments(): Node[] }).getArguments().length !== 1) return other(`does more than hand a rejection to next: ${quoted(call)}`);
  const handler = (call as Node & { getArguments(): Node[] }).getArguments()[0];
  const target = unparenthesized(callee.getExpression());
  const resolved = Node.isCallExpression(target) && target.getExpression().getText() === 'Promise.resolve' && target.getArguments().length === 1 && callsFn(unparenthesized(target.getArguments()[0]));
  if (!resolved && !callsFn(target)) return other(`does more than hand a rejection to next: ${quoted(call)}`);
  const instead = notPassedToNext(handler, next);
  if (instead) return other(`handles a rejection with ${quoted(instead)}, not only by passing it to next`);
  return { kind: resolved ? 'forwards' : 'forwards-promise' };
}

/** `try { await fn(req, res, next); } catch (e) { next(e); }` (also `return await …`), nothing else. */
function awaitedInTry(statement: Node, fn: string, callsFn: (n: Node) => boolean, next: string): WrapperShape {
  if (!Node.isTryStatement(statement)) return other(`does more than hand a rejection to next: ${quoted(statement)}`);
  const finallyBlock = statement.getFinallyBlock();
  if (finallyBlock) return other(`also runs ${quoted(finallyBlock)} after the function it wraps`);
  const inTry = onlyValue(statement.getTryBlock(), fn);
  if ('extra' in inTry) return other(`also runs ${quoted(inTry.extra)}`);
  const awaited = unparenthesized(inTry.value);
  if (!Node.isAwaitExpression(awaited) || !callsFn(unparenthesized(awaited.getExpression()))) return other(`does more than hand a rejection to next: ${quoted(awaited)}`);
  const clause = statement.getCatchClause();
  const param = clause?.getVariableDeclaration();
  if (!clause || !param || !Node.isIdentifier(param.getNameNode())) return other('catches a rejection without passing it to next');
  const instead = otherThanNext(onlyValue(clause.getBlock(), next), next, param.getName());
  if (instead) return other(`handles a rejection with ${quoted(instead)}, not only by passing it to next`);
  return { kind: 'forwards' };
}

/**
 * Null when `handler` passes a rejection to next: `next`, or a function of one parameter `e` whose
 * only statement is `next(e)` (returned or not); else what it does instead (its first other statement).
 */
function notPassedToNext(handler: Node, next: string): Node | null {
  if (Node.isIdentifier(handler)) return handler.getText() === next ? null : handler;
  if (!(Node.isArrowFunction(handler) || Node.isFunctionExpression(handler))) return handler;
  const params = handler.getParameters();
  if (params.length !== 1 || !plain(params[0])) return handler;
  return otherThanNext(onlyValue(handler.getBody(), next), next, params[0].getName());
}

/** Null when the one value of a catch is `next(e)`; else the statement or expression that is something else. */
function otherThanNext(only: { value: Node } | { extra: Node }, next: string, error: string): Node | null {
  if ('extra' in only) return only.extra;
  return isNextCall(unparenthesized(only.value), next, error) ? null : only.value;
}

function isNextCall(node: Node, next: string, arg: string): boolean {
  return Node.isCallExpression(node) && node.getExpression().getText() === next && sameArguments(node.getArguments(), [arg]);
}

/**
 * The one value a function body or block gives: an expression body, or a block of one expression
 * statement or `return <expression>;`. Otherwise `extra`: the first statement that is more — the
 * first that does not mention `mentions` (the forwarding one does), else the second.
 */
function onlyValue(body: Node, mentions?: string): { value: Node } | { extra: Node } {
  if (!Node.isBlock(body)) return { value: body };
  const statements = body.getStatements();
  const first = statements[0];
  const value = first && (Node.isExpressionStatement(first) ? first.getExpression() : Node.isReturnStatement(first) ? first.getExpression() : undefined);
  if (statements.length === 1 && value) return { value };
  const mentioning = (s: Node) => !!mentions && s.getDescendants().some((d) => Node.isIdentifier(d) && d.getText() === mentions);
  return { extra: statements.find((s) => !mentioning(s)) ?? statements[1] ?? body };
}

function sameArguments(args: Node[], names: string[]): boolean {
  return args.length === names.length && args.every((a, i) => Node.isIdentifier(a) && a.getText() === names[i]);
}

/** A parameter that is a plain name: no pattern, default, rest or `this`. */
function plain(p: Node): p is Node & { getName(): string } {
  return Node.isParameterDeclaration(p) && Node.isIdentifier(p.getNameNode()) && !p.getInitializer() && !p.isRestParameter() && p.getName() !== 'this';
}

function unparenthesized(node: Node): Node {
  let n = node;
  while (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isNonNullExpression(n)) n = n.getExpression();
  return n;
}
