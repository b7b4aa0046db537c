/**
 * The control flow of a moved route handler or route middleware (roles `route` and `hook` of
 * handler-rewrite/rewrite.ts): what becomes of `next`, of `return`, of an expression body and of answers
 * given from callbacks, by the rules of express-fastify-mapping.md §1.5 and Fastify 5's
 * `lib/handle-request.js` / `lib/hooks.js`:
 *
 * - A route handler's non-undefined return value is sent (§1.5.3), so every own-level `return X`
 *   must be an answer chain (it returns the reply), `return;`, `return void …` or `next(err)`.
 *   In a sync function TypeScript types `: void`, returning the reply would not type-check: such a
 *   `return <answer>;` becomes `<answer>; return;` (the answer is sent when the call returns, and
 *   Fastify sends nothing for an undefined result, lib/handle-request.js), the `return;` left out
 *   where nothing follows in the function.
 * - `next(err)` in a route: `reply.send(err)` in a sync function (§1.5.5), and in a callback of an
 *   async one (which then returns the reply, below); `throw err` at the own
 *   level of an async one, where nothing runs after it (a `try` whose catch only does `next(e)`
 *   goes: its block's statements stay, the error goes on as thrown). `next()`/`next('route')`
 *   fall through to the next route: refused.
 * - `next` handed on as a promise's error callback in a route (`p.catch(next)`, `p.then(ok, next)`,
 *   the RealWorld app's pattern) becomes `(err) => reply.send(err)`: next(err) with the rejection,
 *   as above, answered from a callback (a sync handler's reply waits; an async one returns the
 *   reply, as below). Any other value use of next in a route refuses; a sync hook keeps next,
 *   which is Fastify's done there.
 * - An async route that answers from a callback, with a form that answers later (`reply.view`,
 *   reply-forms.ts `answersLater`), or through a helper it hands `res` to, gets `return reply` (§1.5.1: otherwise Fastify answers an empty
 *   200 when the promise resolves).
 * - A generator that co.wrap runs (`awaited`): its `yield`s are co's, the promise it ends in is
 *   Fastify's to await, so it follows the rules of an async function (`next(err)` → `throw err`,
 *   `return reply` after answering from a callback, whose reply co's promise adopts: a Fastify
 *   reply is thenable, lib/reply.js `then`).
 * - A route handler a wrapper that went had wrapped (`resultAwaited`, routes-move/unwrap.ts): an
 *   expression body that is not an answer refuses — the wrapper passed the rejection of that value
 *   to next, and made the block a Fastify handler needs, it would be a dropped promise.
 * - A sync route middleware becomes a callback-style hook `(request, reply, next)`: Fastify's
 *   `done` has next's meaning. An async one becomes `(request, reply)` (Fastify rejects async
 *   hooks that take `done`): `next()` → `return;`, `next(err)` → `throw err`, and an answer must be
 *   returned, or Fastify runs the rest of the chain (lib/hooks.js continues when the hook's
 *   promise resolves).
 *
 * Everything is decided when planned; edits run only when the rewrite is applied.
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import type { ChainLink } from './reply-chain.js';
import { answersLater, answersRequest, returnsReply } from './reply-forms.js';
import { enclosingTry, freeName, followingBareReturn, insideNestedFunction, isBareReturn, isTail, ownReturns, referencesOf, sizeOf, snippet, type Edit, type Node } from './ast.js';

/** What the flow rules need to know about the function. */
export interface FlowInput {
  j: JSCodeshift;
  fn: ASTPath<Node>;
  role: 'route' | 'hook';
  /** The name the reply parameter will have. */
  replyName: string;
  /** The `next` parameter's name, or null when the function takes two parameters. */
  nextName: string | null;
  /** The `res` chains of the function (replyChainAt), those used as a value left out. */
  chains: Array<{ links: ChainLink[]; top: ASTPath<Node> }>;
  /** Every identifier name used in the function (namesIn), for the names the rewrite adds. */
  taken: Set<string>;
  /** It hands `res` to a helper rewritten with it (helpers.ts), which may answer: an async route then returns the reply. */
  replyToHelpers?: boolean;
  /** A wrapper that went handed a rejection of what the function returns to next (HandlerOptions.resultAwaited). */
  resultAwaited?: boolean;
  /** A generator whose end a wrapper that stays makes a promise Fastify awaits (HandlerOptions.generatorAwaited): it follows the rules of an async function. */
  awaited?: boolean;
}

/** The flow plan: refusals, expression-level edits (run with the other expression edits) and statement-level edits (run after them). */
export interface FlowPlan {
  refusals: string[];
  edits: Edit[];
  late: Array<() => void>;
  /** Framework deltas the flow brings (rules/catalogue/framework-defaults.ts): `next-non-error` where `next(err)` became `reply.send(err)`. */
  deltas: string[];
}

/**
 * The plan while it is made: try statements to unwrap run after the other statement edits (they
 * move the statements those edit); `callbackErrors`: an async route passes an error on from a
 * callback (`reply.send(err)` there), so it must return the reply.
 */
type FlowWork = FlowPlan & { unwraps: Array<() => void>; callbackErrors?: boolean };

/** Where a call or an answer stands: its own statement, the argument of a `return`, an arrow's expression body, or inside a larger expression. */
type Site = { kind: 'statement'; path: ASTPath<Node> } | { kind: 'return'; path: ASTPath<Node> } | { kind: 'body' } | { kind: 'expression' };

/** What a call of `next` means to Express's router (lib/router/index.js `next(err)`). */
type NextMeaning = 'continue' | 'route' | 'router' | 'error' | 'unknown';

/** Plans the flow rules for `input.fn`; see the module comment. */
export function planFlow(input: FlowInput): FlowPlan {
  const plan: FlowWork = { refusals: [], edits: [], late: [], unwraps: [], deltas: [] };
  const { j, fn } = input;
  const async = !!fn.node.async || !!input.awaited;
  const refuse = (reason: string) => void (plan.refusals.includes(reason) || plan.refusals.push(reason));
  const handledReturns = new Set<Node>();
  const handledBody = { done: false };
  let callbackAnswers = false;

  if (input.nextName) {
    for (const ref of referencesOf(j, fn, input.nextName)) {
      const isCall = ref.parent.node.type === 'CallExpression' && ref.parent.node.callee === ref.node;
      if (!isCall && input.role === 'route' && isErrorCallback(ref)) {
        plan.edits.push(errorCallbackEdit(input, ref));
        sendsError(plan);
        callbackAnswers = true;
        continue;
      }
      if (!isCall) {
        if (input.role === 'route') refuse('it passes `next` on as a value other than a promise\'s error callback (a Fastify route has no next: errors go to reply.send(err) or a throw)');
        else if (async) refuse('it is async and passes `next` on as a value (an async Fastify hook has no next)');
        continue;
      }
      const call = ref.parent;
      const site = siteOf(call, fn);
      if (site.kind === 'return') handledReturns.add(site.path.node);
      if (site.kind === 'body') handledBody.done = true;
      planNextCall(input, call, site, meaningOf(call.node.arguments), plan, refuse);
    }
  }

  // A callback that calls or writes `res` may answer after the function's promise resolves; reads (`res.locals.x`) do not.
  const nestedAnswers = callbackAnswers || !!plan.callbackErrors || (!!input.replyToHelpers && input.role === 'route') || input.chains.some((c) => insideNestedFunction(c.top, fn) && (c.links.some((l) => l.args !== null) || isAssigned(c.top)));
  if (input.replyToHelpers && async && input.role === 'hook') refuse('it is async and hands `res` to a helper that may answer (Fastify would run the rest of the chain when its promise resolves)');
  if (nestedAnswers && async && input.role === 'hook') refuse('it is async and answers from a callback (Fastify would run the rest of the chain when its promise resolves)');
  if (input.role === 'hook' && async) planHookAnswers(input, plan, refuse, handledReturns, handledBody);

  const chainTops = new Map(input.chains.map((c) => [c.top.node, c]));
  for (const ret of ownReturns(j, fn)) {
    const arg = ret.node.argument;
    if (handledReturns.has(ret.node) || isBareReturn(ret.node)) continue;
    if (arg.type === 'UnaryExpression' && arg.operator === 'void') continue;
    const chain = chainTops.get(arg);
    if (chain && returnsReply(chain.links)) {
      if (declaresVoid(fn)) plan.late.push(() => answerThenReturn(j, ret, fn));
      continue;
    }
    refuse(`it returns a value (\`return ${snippet(arg)}\`), which Fastify would send as the response`);
  }

  const body = fn.node.body;
  const answerBody = body.type !== 'BlockStatement' && chainTops.has(body) && returnsReply(chainTops.get(body)!.links);
  if (body.type !== 'BlockStatement' && !handledBody.done && !answerBody) {
    // Its wrapper passed the rejection of this value to next; as a block's statement, nothing would.
    if (input.resultAwaited && !(body.type === 'UnaryExpression' && body.operator === 'void')) refuse(`it gives its wrapper \`${snippet(body)}\`, whose rejection the wrapper handed to next; made the statement a Fastify handler needs, a rejection would reach no error handler`);
    plan.late.push(() => toBlock(j, fn));
  }

  plan.late.push(...plan.unwraps);
  // An answer that completes after the call (reply.view reads its template first) is one from a callback too.
  const laterAnswers = input.chains.some((c) => answersLater(c.links));
  if ((nestedAnswers || laterAnswers) && async && input.role === 'route') planReturnReply(input, plan, refuse, handledReturns);
  return { refusals: plan.refusals, edits: plan.edits, late: plan.late, deltas: plan.deltas };
}

/** Whether the reference `ref` of next is a promise's error callback: the only argument of `.catch(next)`, or the second of `.then(onOk, next)`. */
function isErrorCallback(ref: ASTPath<Node>): boolean {
  const call = ref.parent.node;
  if (call.type !== 'CallExpression' || call.callee.type !== 'MemberExpression' || call.callee.computed || call.callee.property.type !== 'Identifier') return false;
  const args: Node[] = call.arguments;
  if (call.callee.property.name === 'catch') return args.length === 1 && args[0] === ref.node;
  return call.callee.property.name === 'then' && args.length === 2 && args[1] === ref.node;
}

/**
 * `next` as an error callback → `(err) => reply.send(err)`, the parameter named freely (`err`,
 * `error`, `err2`, …): a rejection's reason is `any` to TypeScript (lib.es5.d.ts `onrejected`), so the
 * arrow type-checks untyped.
 */
function errorCallbackEdit(input: FlowInput, ref: ASTPath<Node>): Edit {
  const { j } = input;
  const call = ref.parent.node;
  const index = call.arguments.indexOf(ref.node);
  const name = ['err', 'error'].find((n) => !input.taken.has(n)) ?? freeName('err', new Set([...input.taken, 'fastifyErr']), '');
  return {
    size: sizeOf(ref.node),
    // Parsed from text, so recast prints the parameter in parentheses as written (its builder would drop them).
    run: () => void (call.arguments[index] = j(`(${name}) => ${input.replyName}.send(${name})`).find(j.ArrowFunctionExpression).paths()[0].node),
  };
}

/** `next(err)` became `reply.send(err)`: a value that is not an Error is sent, where Express gave it to the error middleware (delta `next-non-error`). */
function sendsError(plan: FlowWork): void {
  if (!plan.deltas.includes('next-non-error')) plan.deltas.push('next-non-error');
}

/** Whether the expression at `p` is assigned to or updated (`res.statusCode = 500`). */
function isAssigned(p: ASTPath<Node>): boolean {
  const parent = p.parent.node;
  return (parent.type === 'AssignmentExpression' && parent.left === p.node) || parent.type === 'UpdateExpression';
}

/** Where the call at `call` stands in `fn`. */
function siteOf(call: ASTPath<Node>, fn: ASTPath<Node>): Site {
  const parent = call.parent;
  if (parent.node.type === 'ExpressionStatement') return { kind: 'statement', path: parent };
  if (parent.node.type === 'ReturnStatement' && parent.node.argument === call.node) return { kind: 'return', path: parent };
  if (parent === fn && fn.node.body === call.node) return { kind: 'body' };
  return { kind: 'expression' };
}

function meaningOf(args: Node[]): NextMeaning {
  if (args.length === 0) return 'continue';
  if (args.length > 1) return 'unknown';
  const [a] = args;
  if (a.type === 'NullLiteral' || (a.type === 'Identifier' && a.name === 'undefined')) return 'continue';
  if (a.type === 'StringLiteral' && (a.value === 'route' || a.value === 'router')) return a.value;
  return 'error';
}

/** One call of `next`, by role: see the module comment. */
function planNextCall(input: FlowInput, call: ASTPath<Node>, site: Site, meaning: NextMeaning, plan: FlowWork, refuse: (r: string) => void): void {
  const { j, fn } = input;
  const async = !!fn.node.async || !!input.awaited;
  const nested = insideNestedFunction(call, fn);
  if (meaning === 'unknown') return refuse(`it calls next with ${call.node.arguments.length} arguments`);
  if (meaning === 'route' || meaning === 'router') return refuse(`it calls next('${meaning}'), which falls through to the next ${meaning === 'route' ? 'route' : 'router'}: no Fastify equivalent`);
  if (input.role === 'route' && meaning === 'continue') return refuse('it calls next() without an error, which falls through to the next route: no Fastify equivalent');
  if (input.role === 'hook' && !async) return; // Fastify's done(): next() continues, next(err) errors, as in Express.
  // reply.send(err) takes Fastify's error path, wherever it is called: a sync handler's reply waits, and
  // an async one that passes an error on from a callback returns the reply (planReturnReply), so it waits too.
  if (input.role === 'route' && (!async || (nested && meaning === 'error'))) {
    const node = call.node;
    plan.edits.push({ size: sizeOf(node), run: () => void (node.callee = j.memberExpression(j.identifier(input.replyName), j.identifier('send'))) });
    sendsError(plan);
    if (async) plan.callbackErrors = true;
    // `return next(err)` → `return reply.send(err)`, which a function typed `: void` may not return.
    else if (site.kind === 'return' && !nested && declaresVoid(fn)) plan.late.push(() => answerThenReturn(j, site.path, fn));
    return;
  }
  if (nested) return refuse(`it is async and calls next(${meaning === 'error' ? 'err' : ''}) from a callback, where Fastify has no next to call`);
  if (site.kind === 'expression') return refuse(`it calls next(${meaning === 'error' ? 'err' : ''}) inside an expression (\`${snippet(call.parent.node)}\`)`);
  if (site.kind === 'statement' && !isTail(site.path, fn)) return refuse(`it goes on running code after next(${meaning === 'error' ? 'err' : ''}) (\`${snippet(site.path.node)}\`), which ${meaning === 'error' ? 'a throw' : 'a return'} would skip`);
  if (meaning === 'error') {
    const inTry = site.kind === 'body' ? null : enclosingTry(site.path, fn);
    if (inTry && !rethrowsToNext(inTry, input.nextName!)) return refuse('it calls next(err) inside a try block, whose catch would catch the throw it becomes');
    const passingOn = site.kind === 'body' ? null : catchOnlyPassingOn(site.path, input.nextName!);
    if (passingOn) {
      // `try { … } catch (e) { next(e); }` → the try's statements: the error goes on as thrown.
      plan.unwraps.push(() => unwrapTry(j, passingOn));
      return;
    }
    plan.late.push(() => {
      const thrown = j.throwStatement(call.node.arguments[0]);
      if (site.kind === 'body') setBody(fn, j.blockStatement([thrown]));
      else replaceStatement(j, site.path, thrown);
    });
    return;
  }
  // An async hook's next(): resolving the hook's promise continues the chain.
  plan.late.push(() => {
    if (site.kind === 'body') return setBody(fn, j.blockStatement([]));
    const statement = site.path;
    if (statement.parent?.node === fn.node.body && fn.node.body.body[fn.node.body.body.length - 1] === statement.node) removeStatement(statement);
    // `return next();` → `return;` in place (recast then reprints only the argument).
    else if (site.kind === 'return') statement.node.argument = null;
    else replaceStatement(j, statement, j.returnStatement(null));
  });
}

/** The `try` statement path whose catch clause is only the statement at `statement`, passing its error to next. */
function catchOnlyPassingOn(statement: ASTPath<Node>, nextName: string): ASTPath<Node> | null {
  const block = statement.parent;
  const clause = block?.parent;
  const tryPath = clause?.parent;
  if (block?.node.type !== 'BlockStatement' || clause?.node.type !== 'CatchClause' || tryPath?.node.type !== 'TryStatement') return null;
  return rethrowsToNext(tryPath.node, nextName) ? tryPath : null;
}

/** Puts the statements of a `try` block where the `try` statement is (its comments kept on the first). */
function unwrapTry(j: JSCodeshift, tryPath: ASTPath<Node>): void {
  const tryNode = tryPath.node;
  const statements: Node[] = tryNode.block.body;
  if (statements.length && tryNode.comments) statements[0].comments = [...(tryNode.comments ?? []), ...(statements[0].comments ?? [])];
  const container = tryPath.parent.node;
  if (Array.isArray(container.body)) container.body.splice(container.body.indexOf(tryNode), 1, ...statements);
  else for (const key of Object.keys(container)) if (container[key] === tryNode) container[key] = j.blockStatement(statements);
}

/** Whether a `try`'s catch clause only passes its error to next (`catch (e) { next(e); }`, optionally then `return;`): a throw in the try block then ends the same way. */
function rethrowsToNext(tryNode: Node, nextName: string): boolean {
  const handler = tryNode.handler;
  if (!handler || tryNode.finalizer || handler.param?.type !== 'Identifier') return false;
  // `next(e);`, `return next(e);`, or `next(e); return;`
  const body: Node[] = handler.body.body;
  if (!(body.length === 1 || (body.length === 2 && isBareReturn(body[1])))) return false;
  const only = body[0];
  const expr = only.type === 'ExpressionStatement' ? only.expression : only.type === 'ReturnStatement' ? only.argument : null;
  return expr?.type === 'CallExpression' && expr.callee.type === 'Identifier' && expr.callee.name === nextName && expr.arguments.length === 1 && expr.arguments[0].type === 'Identifier' && expr.arguments[0].name === handler.param.name;
}

/**
 * An async hook's own-level answers must be returned: an answer whose statement ends the
 * function's flow (nothing but `return;` after it) becomes `return <answer>;`; others refuse.
 */
function planHookAnswers(input: FlowInput, plan: FlowPlan, refuse: (r: string) => void, handledReturns: Set<Node>, handledBody: { done: boolean }): void {
  const { j, fn } = input;
  for (const chain of input.chains) {
    if (!answersRequest(chain.links) || insideNestedFunction(chain.top, fn)) continue;
    const site = siteOf(chain.top, fn);
    if (site.kind === 'return') continue;
    if (site.kind === 'body') {
      handledBody.done = true;
      continue;
    }
    if (site.kind === 'expression' || !isTail(site.path, fn)) {
      refuse(`it is async and answers without returning (\`${snippet(chain.top.node)}\`): an async Fastify hook must return the reply, or the route's handler runs too`);
      continue;
    }
    const following = followingBareReturn(site.path);
    if (following) handledReturns.add(following);
    plan.late.push(() => replaceStatement(j, site.path, j.returnStatement(site.path.node.expression)));
  }
}

/**
 * Rule §1.5.1 for an async route that answers from a callback: every own-level `return;` becomes
 * `return reply;` and the body ends with `return reply;`, so Fastify waits for the answer.
 */
function planReturnReply(input: FlowInput, plan: FlowPlan, refuse: (r: string) => void, handledReturns: Set<Node>): void {
  const { j, fn } = input;
  const bare: Node[] = [];
  for (const ret of ownReturns(j, fn)) {
    if (handledReturns.has(ret.node)) continue;
    const arg = ret.node.argument;
    if (isBareReturn(ret.node)) bare.push(ret.node);
    else if (arg.type === 'UnaryExpression' && arg.operator === 'void') refuse(`it is async, answers from a callback and returns early with \`return ${snippet(arg)}\` (Fastify would answer an empty 200 first)`);
  }
  plan.late.push(() => {
    // An expression body that is an answer chain already returns the reply.
    if (fn.node.body.type !== 'BlockStatement') return;
    const reply = () => j.identifier(input.replyName);
    for (const ret of bare) ret.argument = reply();
    const statements: Node[] = fn.node.body.body;
    const last = statements[statements.length - 1];
    if (!last || (last.type !== 'ReturnStatement' && last.type !== 'ThrowStatement')) statements.push(j.returnStatement(reply()));
  });
}

/** Whether `fn` is a sync function TypeScript types as returning `void` (`(req: Request, res: Response): void => …`). */
function declaresVoid(fn: ASTPath<Node>): boolean {
  return !fn.node.async && fn.node.returnType?.typeAnnotation?.type === 'TSVoidKeyword';
}

/**
 * `return <answer>;` at `ret` → `<answer>; return;`, or `<answer>;` alone as the last statement of
 * `fn` (module comment: a function typed `: void` returns no reply). As the clause of an `if` (or
 * a case) the two statements get braces.
 */
function answerThenReturn(j: JSCodeshift, ret: ASTPath<Node>, fn: ASTPath<Node>): void {
  const old = ret.node;
  const answer = j.expressionStatement(old.argument);
  answer.comments = old.comments;
  const container = ret.parent.node;
  const list: Node[] | undefined = container.type === 'SwitchCase' ? container.consequent : Array.isArray(container.body) ? container.body : undefined;
  const last = container === fn.node.body && list?.[list.length - 1] === old;
  const replacement = last ? [answer] : [answer, j.returnStatement(null)];
  if (list) list.splice(list.indexOf(old), 1, ...replacement);
  else for (const key of Object.keys(container)) if (container[key] === old) container[key] = j.blockStatement(replacement);
}

/** An arrow's expression body becomes a block `{ expr; }` (mapping §1.5.3: Fastify would send its value). */
function toBlock(j: JSCodeshift, fn: ASTPath<Node>): void {
  if (fn.node.body.type === 'BlockStatement') return;
  setBody(fn, j.blockStatement([j.expressionStatement(fn.node.body)]));
}

function setBody(fn: ASTPath<Node>, block: Node): void {
  fn.node.body = block;
  if ('expression' in fn.node) fn.node.expression = false;
}

/**
 * Puts `replacement` where the statement at `statement` is, its comments kept. In a block, a bare
 * `return;` right after it goes too (it can no longer be reached, or the replacement now says
 * it). As the clause of an `if`/`else` (or a label), it gets braces: recast reprints such a clause
 * on a line of its own, where a brace-less body reads as a trap.
 */
function replaceStatement(j: JSCodeshift, statement: ASTPath<Node>, replacement: Node): void {
  const old = statement.node;
  replacement.comments = old.comments;
  const container = statement.parent.node;
  if (Array.isArray(container.body)) {
    const body: Node[] = container.body;
    const i = body.indexOf(old);
    body.splice(i, isBareReturn(body[i + 1]) ? 2 : 1, replacement);
    return;
  }
  for (const key of Object.keys(container)) if (container[key] === old) container[key] = j.blockStatement([replacement]);
}

function removeStatement(statement: ASTPath<Node>): void {
  const body: Node[] = statement.parent.node.body;
  body.splice(body.indexOf(statement.node), 1);
}
