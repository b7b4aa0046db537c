/**
 * An Express handler function → Fastify's signature, with every `req`/`res`/`next` use rewritten
 * through the forms of reply-forms.ts and request-forms.ts (keyed by the rows of rules/catalogue/api.ts):
 * - `error`: `(err, req, res, next)` → `(err, request, reply)` for `setErrorHandler` (`next` kept as
 *   a fourth parameter when another handler of a chain follows: `nextToChain`);
 * - `not-found`: `(req, res)` → `(request, reply)` for `setNotFoundHandler`;
 * - `route`: a route handler `(req, res[, next])` → `(request, reply)`; one that takes fewer
 *   (`() => { throw … }`, `(req) => …`, valid Express handlers) keeps that many;
 * - `hook`: a route middleware `(req, res, next)` → a `preHandler` hook: `(request, reply, next)`
 *   when sync (Fastify's done has next's meaning), `(request, reply)` when async;
 * - `helper`: a module-level function whose first parameter is the request (`ownOrder(req, …)`),
 *   called from moved routes (issue 8): `req` → `request` by the same request rows as a route,
 *   its other parameters untouched, no response or next (handler-rewrite/helpers.ts).
 * On a moved route (`route`, `hook`, and the `helper`s they call) the Express app has run before the function in the
 * @fastify/express bridge, so what middleware set on `req`/`res` is read on `request.raw` /
 * `reply.raw`; the control-flow rules (next, returns, answers from callbacks) are
 * handler-rewrite/flow.ts's, the TypeScript signatures handler-rewrite/types.ts's, the reach to Express's raw
 * request and response handler-rewrite/raw.ts's.
 *
 * `planHandlerRewrite` looks at the function once and returns the reasons it cannot move (empty
 * when it can) and an `apply()` that rewrites it: the plan calls it to decide, the transform to
 * act, so both decide alike. Nothing is changed unless `apply()` is called.
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import { pathsOfType } from '../lib/ast.js';
import type { Expr, FormContext, FormNeed } from './forms.js';
import { applyReplySteps, replyChainAt, type ChainLink } from './reply-chain.js';
import { answersRequest, convertReplyChain } from './reply-forms.js';
import { convertRequestUse } from './request-forms.js';
import type { Node } from '../lib/ast.js';
import { freeName, insideNestedFunction, isWritten, kindOf, namesIn, programOf, readsThis, referencesOf, renameParam, sizeOf, typeNamesIn, type Edit } from './ast.js';
import { isReference } from '../lib/ast.js';
import { planFlow } from './flow.js';
import { helperCallee, helperParamRefusals, receivingCall } from './helpers.js';
import { packageRequestCall } from './package-calls.js';
import { forwardAt, type Forward } from './forwards.js';
import { planRawAccess, type RawAccess } from './raw.js';
import { expressTypeNames, planRouteTypes, type RequestPart, type TypeImport } from './types.js';

export { referencesOf };
export type { TypeImport };

/** What the rewrite needs to know beyond the function itself. */
export interface HandlerOptions {
  /** What the function is and becomes (see the module comment). */
  role: 'error' | 'not-found' | 'route' | 'hook' | 'helper';
  /**
   * Roles `route`, `hook` and `helper` (ignored by the others): names (in the function's module) of
   * helper functions the caller (the routes stage) rewrites too, with role `helper`. A call
   * `name(…, req, …)` / `name(res, …)` passing the request or response as an argument
   * (handler-rewrite/helpers.ts `helperCallee`) is then allowed and becomes `name(…, request, …)` /
   * `name(reply, …)`; any other value use still refuses. Absent: every such call refuses.
   */
  helpers?: ReadonlySet<string>;
  /**
   * Role `helper`: which of its parameters receive the request and the response (0-based), as
   * every call from a moved handler passes them (`generateToken(res, user._id)`: `{ reply: 0 }`).
   * Absent: the request is its first parameter.
   */
  helperParams?: { request?: number; reply?: number };
  /**
   * Roles `error`/`not-found` only (ignored by `route`/`hook`, absent = false). `next(err)` becomes
   * `reply.send(err)`. In an error handler that is Fastify's default error handler, which is where
   * `next(err)` from the last Express error handler went once the shim put Fastify behind the app;
   * false when another error handler follows (a chain) or the shim's `--parity express` error page
   * is the parent. In a 404 handler (`next(createError(404))`, as express-generator writes it) it is
   * Fastify's error handler: true when no app-level error middleware stays on Express. When false,
   * `next` refuses.
   */
  nextToDefault?: boolean;
  /**
   * Role `error` only: another of the app's error handlers runs after this one (a chain, issue 16;
   * server-module/build-fastify.ts `registerHandler` runs them in turn). `next` stays the fourth
   * parameter and `next(x)` a call of it, which hands `x` to the next handler exactly as Express
   * does; `next()` without an error and other uses of `next` refuse. Wins over `nextToDefault`.
   */
  nextToChain?: boolean;
  /**
   * With `nextToChain`: what `next` reaches is the app's 404 handler when called without an error
   * (handler-move/error-handler.ts: only it follows, and it moves), so `next()` stays a call too.
   */
  nextToNotFound?: boolean;
  /**
   * Roles `error`/`not-found` only: the app's handlers that move in this stage too, by their name
   * in the file, with the role each has (handler-move/plan.ts; a plain object: options cross to
   * the transform workers with the plan). A call of one of them that hands
   * `req` and `res` on in that role's order (handler-rewrite/forwards.ts: `handler(err, req, res)`)
   * stays a call with `request, reply`; other uses of `req`/`res` as a value refuse.
   */
  forwardTo?: Readonly<Record<string, Forward['role']>>;
  /**
   * The app sets a JSON print setting the rewrite cannot reproduce: 'json replacer', 'json escape',
   * or 'json spaces' with a value that is not a number (then `res.json`, and `res.send` of an
   * object, refuse). A numeric 'json spaces' goes in `jsonSpaces` instead.
   */
  jsonSettings: boolean;
  /**
   * The app's 'json spaces' when it sets it to a number literal (and sets no replacer or escape):
   * `res.json(x)` becomes `reply.type('application/json; charset=utf-8').send(JSON.stringify(x,
   * null, jsonSpaces))`, as Express 4 and 5 print it. Absent or 0: no spaces.
   */
  jsonSpaces?: number;
  /** The file is TypeScript: typed parameters become FastifyRequest / FastifyReply. */
  typescript: boolean;
  /**
   * Roles `route`, `hook`, `helper`: the route has path parameters (its own or a mount path's).
   * Express's request on Fastify (`request.raw`) has no route parameters, so a package function
   * that reads them refuses the request (package-calls.ts).
   */
  routeParams?: boolean;
  /**
   * Roles `route`, `hook`, `helper`: where the function hands `req` on as a value to a project
   * function the analyzer followed (Inventory `usage.handOffs`, analyzer/request-hand-offs.ts),
   * keyed by the character offset of that `req` in the function's file (a plain object: options
   * cross to the workers as JSON): the callee, the members it uses on the request, or why that is
   * not known (`opaque`). After the bridge `request.raw` is Express's request itself, so the
   * reference becomes `request.raw` when every member the callee uses is one a moved handler reads
   * there too (request-forms.ts `onRaw`: what middleware set, Express's own getters); otherwise it
   * refuses, naming the member. Absent: every such value use refuses.
   */
  requestHandOffs?: Readonly<Record<string, RequestHandOffUse>>;
  /**
   * Role `route`: the registration binds the function (`router.get('/', users.list.bind(users))`), so
   * its `this` is the object it was bound to on Fastify as in Express (Fastify's own `this` for a
   * handler, the instance, does not reach a bound function): reading `this` does not refuse.
   */
  boundThis?: boolean;
  /**
   * Where a route handler or hook is registered: on the app, or on a router mounted under a path,
   * where Express's req.url / req.path / req.baseUrl are relative to the mount path (those refuse).
   * Default `app`; error and not-found handlers are app-level.
   */
  scope?: 'app' | 'router';
  /** The app's Express major (redirect argument order, `'back'`). Unknown: the forms that depend on it refuse. */
  expressMajor?: 4 | 5;
  /**
   * Roles `route`, `error` and `not-found` (ignored by the others): the route's plugin context (for
   * the app's error and 404 handlers, the root) registers @fastify/view as the app's Express views (transforms/plugin-registrations/view.ts `viewRegistration` gave no
   * refusal). `true`: `res.render(view[, locals])` becomes `reply.view(view[, locals])`
   * (transforms/handler-rewrite/view-render.ts) and `plugins` lists '@fastify/view'; a string: plugin-registrations/view.ts's
   * refusal, given as the route's; absent: `res.render` refuses (plugins stage).
   */
  views?: true | string;
  /**
   * Role `route`, with `views: true`: the app's middleware replaces Express's res.render
   * (express-flash), and `res.render(…)` becomes `reply.renderLikeExpress(…)`, which renders
   * through that replacement (plugin-registrations/view.ts RENDER_LIKE_EXPRESS).
   */
  renderReplaced?: boolean;
  /**
   * Roles `route` and `hook`: the `res` members whose calls run Express's own method (through the
   * generated fastify-like-express module) because the app's middleware replaced `res.send` or
   * `res.json` (FormContext.throughExpress; routes-move/replaced-send.ts). A list: options cross to workers as JSON.
   */
  throughExpress?: string[];
  /** Roles `route` and `hook`: FormContext.jsonReplaced (why res.send of a value that may be JSON stays). */
  jsonReplaced?: string;
  /**
   * Role `route`: the function was wrapped in a wrapper that went (routes-move/unwrap.ts), which
   * handed a rejection of what it returns to next. An expression body that is not an answer then
   * refuses: made a block, the promise it gives would no longer be returned, and its rejection would
   * reach no error handler (flow.ts).
   */
  resultAwaited?: boolean;
  /**
   * Role `route`: the function is a generator that a wrapper which stays runs to a promise of its
   * end (`co.wrap(function* (req, res) { … })`, routes-move/unwrap.ts), and Fastify awaits that
   * promise as an async handler's: the flow rules of an async function apply (flow.ts; a throw, a
   * rejected `yield`, reach the error handler).
   */
  generatorAwaited?: boolean;
}

/** What a callee does with the request a handler hands it (HandlerOptions.requestHandOffs). */
export interface RequestHandOffUse {
  /** The callee as written, for messages (`nodemailerConfig.sendMail`). */
  callee: string;
  /** The members it uses on the request: read, called, written. */
  reads: Array<{ member: string; call?: true; write?: true }>;
  /** Why what it reads is not known (it hands the request on, returns it, …). */
  opaque?: string;
}

/** The outcome of looking at a handler. */
export interface HandlerRewrite {
  /** Why it cannot move, one reason per kind of blocker; empty when it can. */
  refusals: string[];
  /**
   * Set when every refusal is for a Fastify plugin that stage registers (`res.cookie` needs
   * @fastify/cookie): the function moves once it has run. Absent when it can move, or when a
   * refusal needs a human.
   */
  waitsFor?: 'plugins';
  /** The Fastify type names the rewritten function uses (`FastifyRequest`, `FastifyReply`, `HookHandlerDoneFunction`), sorted; import them type-only from 'fastify' (lib/type-imports.ts addFastifyTypes). */
  types: string[];
  /** Type names the rewrite removes from the function (`Request`, `Response`, `NextFunction`, `ApiError` of `Response<ApiError>`): their imports may go. */
  droppedTypes: string[];
  /**
   * Default imports the rewritten function calls and the file lacks (`encodeUrl` from
   * 'encodeurl', `contentDisposition` from 'content-disposition'), under exactly that local name:
   * the rewrite already uses it. Roles error and not-found: always empty.
   */
  imports: Array<{ local: string; from: string }>;
  /** Type-only named imports the rewritten function needs (Express's `Request` for a `request.raw` cast in TypeScript): lib/type-imports.ts addTypeImports. */
  typeImports: TypeImport[];
  /** Framework-default ids (rules/catalogue/framework-defaults.ts) the rewrite causes, e.g. `next-non-error`, or `redirect-body` in an error handler (a moved route's redirect runs Express's own). */
  deltas: string[];
  /**
   * The functions of the generated fastify-like-express module the rewritten function calls
   * (`sendLikeExpress` for `res.send` of a value known only at run time), sorted: the routes stage
   * imports them under these names from the module it writes next to the server module
   * (server-module/like-express-template.ts). Only on moved routes (roles route, hook, helper); else empty.
   */
  likeExpress: string[];
  /**
   * Fastify plugins the rewritten function needs registered in its route's context, by npm name
   * (`['@fastify/view']` when it renders); the routes stage registers them in `movedRoutes`
   * (transforms/plugin-registrations/view.ts for @fastify/view). Roles other than `route`: always empty.
   */
  plugins: string[];
  /**
   * Callee names of the calls of a plain name that take the request or the response as an argument
   * (`ownOrder` of `ownOrder(req)`, `generateToken` of `generateToken(res, id)`; helpers.ts
   * `helperCallee`), sorted, whether `helpers` allowed them or not, also when the rewrite refuses:
   * the caller decides from it which helpers to rewrite (and then plans again with `helpers`).
   */
  helperCalls: string[];
  /**
   * Per callee of `helperCalls`, the argument positions `req` (`request`) and `res` (`reply`) are
   * passed at, in every call of it (several positions: the calls disagree).
   */
  helperArguments: Record<string, { request: number[]; reply: number[] }>;
  /**
   * Callee names of the calls that hand `req` and `res` on as another handler takes them
   * (forwards.ts), sorted, whether `forwardTo` allowed them or not, also when the rewrite refuses.
   */
  forwards: string[];
  /** Rewrites the function in place. Only call when `refusals` is empty. */
  apply(): void;
}

/** Express's types for whole handlers (`const h: ErrorRequestHandler = (err, req, res, next) => …`). */
const EXPRESS_HANDLER_TYPES = new Set(['ErrorRequestHandler', 'RequestHandler']);

/** Body-parser error types and the Fastify error code for the same failure (mapping §2.12). */
const BODY_PARSER_CODES: Record<string, string> = {
  'entity.parse.failed': 'FST_ERR_CTP_INVALID_JSON_BODY',
  'entity.too.large': 'FST_ERR_CTP_BODY_TOO_LARGE',
};

/** The request members whose Fastify type comes from a FastifyRequest generic. */
const REQUEST_PARTS: ReadonlySet<string> = new Set<RequestPart>(['params', 'body', 'query']);

/** A rewrite that cannot be applied; `waiting`: the refusals the plugins stage lifts (forms.ts Refusal.waitsFor). */
function refused(refusals: Iterable<string>, helpers: HelperArguments = new HelperArguments(), waiting: ReadonlySet<string> = new Set(), forwards: string[] = []): HandlerRewrite {
  const all = [...refusals];
  return { refusals: all, ...(all.length && all.every((r) => waiting.has(r)) ? { waitsFor: 'plugins' as const } : {}), types: [], droppedTypes: [], imports: [], typeImports: [], deltas: [], likeExpress: [], plugins: [], helperCalls: helpers.names(), helperArguments: helpers.positions(), forwards, apply: () => undefined };
}

/** Where `req` and `res` are handed to helper calls (helpers.ts helperCallee), per callee. */
class HelperArguments {
  private readonly seen = new Map<string, { request: Set<number>; reply: Set<number> }>();
  add(callee: { name: string; index: number }, as: 'request' | 'reply'): void {
    const entry = this.seen.get(callee.name) ?? { request: new Set<number>(), reply: new Set<number>() };
    entry[as].add(callee.index);
    this.seen.set(callee.name, entry);
  }
  names(): string[] {
    return [...this.seen.keys()].sort();
  }
  positions(): Record<string, { request: number[]; reply: number[] }> {
    return Object.fromEntries(this.names().map((n) => [n, { request: [...this.seen.get(n)!.request].sort(), reply: [...this.seen.get(n)!.reply].sort() }]));
  }
}

/** The parameter counts a role accepts (Express calls a route handler with whatever it declares) and the refusal for others. */
function signatureRefusals(params: Node[], role: HandlerOptions['role'], helperParams?: HandlerOptions['helperParams']): string[] {
  const out: string[] = [];
  if (role === 'helper') {
    // Only the request and the response are rewritten: the other parameters may be written any way.
    const at = [helperParams?.request ?? (helperParams?.reply === undefined ? 0 : undefined), helperParams?.reply].filter((i): i is number => i !== undefined);
    if (at.some((i) => i >= params.length)) out.push('it takes fewer parameters than its calls pass the request or response at');
    else if (at.some((i) => params[i].type !== 'Identifier')) out.push('it destructures the parameter that receives the request or response, or gives it a default');
    return out;
  }
  const expected = role === 'error' ? [4] : role === 'route' ? [0, 1, 2, 3] : [2, 3];
  if (!expected.includes(params.length)) out.push(`it takes ${params.length} parameters (an Express ${role === 'error' ? 'error handler takes 4' : role === 'hook' ? 'middleware takes 2 or 3' : role === 'route' ? 'route handler takes at most 3' : 'handler takes 2 or 3'})`);
  if (params.some((p) => p.type !== 'Identifier')) out.push('it destructures its parameters or gives them defaults');
  return out;
}

/**
 * Looks at the handler function at `fn` (a FunctionDeclaration, FunctionExpression or
 * ArrowFunctionExpression path) and prepares its rewrite for `options.role`.
 */
export function planHandlerRewrite(j: JSCodeshift, fn: ASTPath<Node>, options: HandlerOptions): HandlerRewrite {
  const params: Node[] = fn.node.params;
  const early = signatureRefusals(params, options.role, options.helperParams);
  if (early.length) return refused(early);
  // `bridged`: it runs on a moved route, after the Express app (the request rows of the bridge apply); `flowRole`: its returns and next follow handler-rewrite/flow.ts.
  const bridged = options.role === 'route' || options.role === 'hook' || options.role === 'helper';
  // `afterBridge`: the app's Express middleware has run on the request before the function, so the
  // forms that read Express's own request and response (request.raw.*, reply.raw.*) apply. True of
  // a moved route, and of the app's error and 404 handlers once moved: after the shim every request
  // runs through the bridge first, and errors of Express routes reach the handler through it.
  const afterBridge = bridged || options.role === 'error' || options.role === 'not-found';
  const flowRole = options.role === 'route' || options.role === 'hook' ? options.role : null;
  const refusals = new Set<string>();
  const edits: Edit[] = [];
  const late: Array<() => void> = [];

  // A helper: the request (its first parameter unless `helperParams` says otherwise) and the response where its calls pass them.
  const helperAt = options.role === 'helper' ? { request: options.helperParams?.request ?? (options.helperParams?.reply === undefined ? 0 : -1), reply: options.helperParams?.reply ?? -1 } : null;
  const [errParam = null, reqParam = null, resParam = null, nextParam = null] = options.role === 'error' ? params : helperAt ? [null, params[helperAt.request] ?? null, params[helperAt.reply] ?? null] : [null, ...params];
  const otherParams = helperAt ? params.filter((p) => p !== reqParam && p !== resParam) : [];
  const taken = namesIn(j, fn);
  const requestName = reqParam ? freeName(reqParam.name.startsWith('_') ? '_request' : 'request', taken, reqParam.name) : 'request';
  const replyName = resParam ? freeName(resParam.name.startsWith('_') ? '_reply' : 'reply', taken, resParam.name) : 'reply';
  if (j(fn).find(j.Identifier, { name: 'arguments' }).filter((p) => isReference(p)).size()) refusals.add('it reads `arguments`');
  if (flowRole && readsThis(j, fn) && !options.boundThis) refusals.add('it reads `this` (Fastify calls a route handler with the Fastify instance as this)');

  const program = afterBridge ? programOf(fn) : null;
  const fileNames = program ? namesIn(j, program) : taken;
  const encodeUrl = program ? defaultImportBinding(j, program, fileNames, 'encodeurl', 'encodeUrl') : null;
  const contentDisposition = program ? defaultImportBinding(j, program, fileNames, 'content-disposition', 'contentDisposition') : null;
  const expressNames = program && options.typescript ? expressTypeNames(j, program) : null;
  const raw = planRawAccess(j, expressNames, fileNames, taken);
  helperParamRefusals(otherParams, expressNames).forEach((r) => refusals.add(r));

  const ctxBase: Omit<FormContext, 'kindOf'> = {
    j,
    jsonSettings: options.jsonSettings,
    jsonSpaces: options.jsonSpaces,
    scope: options.scope ?? 'app',
    setsContentType: false,
    bridged: afterBridge,
    fastifyRoute: bridged,
    expressMajor: options.expressMajor,
    statusSetApart: false,
    encodeUrl: encodeUrl?.local,
    contentDisposition: contentDisposition?.local,
    views: options.role === 'route' || options.role === 'error' || options.role === 'not-found' ? options.views : undefined,
    renderReplaced: options.role === 'route' && options.renderReplaced,
    ...(bridged && options.throughExpress?.length ? { throughExpress: new Set(options.throughExpress) } : {}),
    ...(bridged && options.jsonReplaced ? { jsonReplaced: options.jsonReplaced } : {}),
  };
  // Calls handing req and res on to another handler (forwards.ts): found by either parameter, allowed when the callee moves too.
  const forwards = new Set<string>();
  const forwarded = (ref: ASTPath<Node>) => {
    const call = reqParam && resParam && !bridged ? forwardAt(ref, { req: reqParam.name, res: resParam.name }) : null;
    if (call) forwards.add(call.callee);
    return !!call && !!options.forwardTo && Object.hasOwn(options.forwardTo, call.callee) && options.forwardTo[call.callee] === call.role;
  };
  // Calls handing `req` or `res` to a helper the routes stage rewrites too (helpers.ts): renaming the parameter is their edit.
  const helperArgs = new HelperArguments();
  const toHelper = (ref: ASTPath<Node>, as: 'request' | 'reply') => {
    const callee = bridged ? helperCallee(ref) : null;
    if (callee) helperArgs.add(callee, as);
    return !!callee && !!options.helpers?.has(callee.name);
  };
  // A helper's answers must come before its caller's own end (a moved handler returns the reply then); from a callback they may not.
  const nestedAnswers = options.role === 'helper' ? 'it answers from a callback, which may run after the handler that called it returned' : !bridged && fn.node.async ? 'it is async and answers from a callback (Fastify would answer first with an empty 200)' : null;
  const replies = resParam ? planReplyUses(j, fn, resParam.name, ctxBase, raw, { nestedAnswers, forwarded, toHelper: (ref) => toHelper(ref, 'reply'), answers: options.role === 'route' }) : { refusals: [], waiting: [], edits: [], chains: [], needs: [], deltas: [], plugins: [], likeExpress: [] };
  const requests = reqParam ? planRequestUses(j, fn, reqParam.name, requestName, ctxBase, raw, (ref) => toHelper(ref, 'request'), forwarded, bridged ? { routeParams: !!options.routeParams, handOffs: options.requestHandOffs ?? {} } : null) : { refusals: [], edits: [], reads: [] };
  for (const part of [replies, requests]) {
    part.refusals.forEach((r) => refusals.add(r));
    edits.push(...part.edits);
  }
  const waiting = new Set(replies.waiting);
  if (program) likeExpressNameRefusals(j, program, fileNames, replies.likeExpress).forEach((r) => refusals.add(r));

  const flowDeltas: string[] = [];
  if (flowRole) {
    const flow = planFlow({ j, fn, role: flowRole, replyName, nextName: nextParam?.name ?? null, chains: replies.chains, taken, replyToHelpers: helperArgs.names().some((n) => helperArgs.positions()[n].reply.length > 0), resultAwaited: flowRole === 'route' && !!options.resultAwaited, awaited: flowRole === 'route' && !!options.generatorAwaited && !!fn.node.generator });
    flow.refusals.forEach((r) => refusals.add(r));
    edits.push(...flow.edits);
    late.push(...flow.late);
    flowDeltas.push(...flow.deltas);
  } else if (nextParam) planErrorNext(j, fn, nextParam, replyName, options).forEach((e) => ('reason' in e ? refusals.add(e.reason) : edits.push(e)));

  if (errParam) edits.push(...errorReadEdits(j, fn, errParam, options));

  const keepNext = (options.role === 'hook' && !fn.node.async && !!nextParam) || (options.role === 'error' && !!options.nextToChain && !!nextParam);
  const signature = bridged
    ? planRouteTypes(j, fn, { typescript: options.typescript, hook: options.role === 'hook', reqParam, resParam, nextParam, keepNext, reads: requests.reads, names: expressNames ?? { named: new Map(), namespaces: [] } })
    : planErrorTypes(j, fn, [errParam, reqParam, resParam, nextParam], options);
  signature.refusals.forEach((r) => refusals.add(r));

  if (refusals.size) return refused(refusals, helperArgs, waiting, [...forwards].sort());
  return {
    refusals: [],
    helperCalls: helperArgs.names(),
    helperArguments: helperArgs.positions(),
    forwards: [...forwards].sort(),
    types: signature.types,
    droppedTypes: signature.droppedTypes,
    imports: [encodeUrl, contentDisposition].flatMap((b) => (b && !b.imported && replies.needs.includes(b.from) ? [{ local: b.local, from: b.from }] : [])),
    typeImports: raw.imports(),
    deltas: [...new Set([...replies.deltas, ...flowDeltas])].sort(),
    likeExpress: replies.likeExpress,
    plugins: replies.plugins,
    apply() {
      for (const edit of edits.sort((a, b) => a.size - b.size)) edit.run();
      for (const edit of late) edit();
      raw.declare(fn, requestName);
      if (reqParam) renameParam(j, fn, reqParam.name, requestName);
      if (resParam) renameParam(j, fn, resParam.name, replyName);
      const request = reqParam ? j.identifier(requestName) : null;
      const reply = resParam ? j.identifier(replyName) : null;
      signature.apply(request, reply, keepNext ? nextParam : null, errParam);
      // A route handler taking fewer than two parameters keeps them (Fastify passes both; unused ones need no name).
      fn.node.params = helperAt
        ? fn.node.params.map((p: Node) => (p === reqParam ? request : p === resParam ? reply : p))
        : errParam ? [errParam, request, reply, ...(keepNext ? [nextParam] : [])] : keepNext ? [request, reply, nextParam] : [request, reply].filter((p) => p !== null).concat(otherParams);
    },
  };
}

/** What the uses of one parameter come to: refusals and edits, and what else the caller needs. */
interface UsesPlan {
  refusals: string[];
  edits: Edit[];
}

/**
 * Every use of `res` as a chain of reply-forms.ts forms (keyed by the catalogue rows): its edit, or why it cannot move; the chains
 * (for the flow rules), the modules, framework deltas and plugins the forms bring.
 */
function planReplyUses(j: JSCodeshift, fn: ASTPath<Node>, resName: string, ctxBase: Omit<FormContext, 'kindOf'>, raw: RawAccess, opts: { nestedAnswers: string | null; forwarded: (ref: ASTPath<Node>) => boolean; toHelper: (ref: ASTPath<Node>) => boolean; answers: boolean }): UsesPlan & { waiting: string[]; chains: Array<{ links: ChainLink[]; top: ASTPath<Node> }>; needs: FormNeed[]; deltas: string[]; plugins: string[]; likeExpress: string[] } {
  const plan = { refusals: [] as string[], waiting: [] as string[], edits: [] as Edit[], chains: [] as Array<{ links: ChainLink[]; top: ASTPath<Node> }>, needs: new Set<FormNeed>(), deltas: new Set<string>(), plugins: new Set<string>(), likeExpress: new Set<string>() };
  // `res` handed on to a handler that moves too (forwards.ts), or to a helper rewritten with it: renaming the parameter is its whole edit.
  const resChains = referencesOf(j, fn, resName).filter((ref) => !opts.forwarded(ref) && !opts.toHelper(ref)).map((ref) => replyChainAt(ref));
  const base = { ...ctxBase, setsContentType: resChains.some((c) => c.links.some(setsContentType)), statusSetApart: resChains.some((c) => setsStatusApart(c)), ...rawContentTypeOf(resChains, opts.answers) };
  for (const chain of resChains) {
    if (!chain.links.length) {
      const to = receivingCall(chain.top);
      plan.refusals.push(`it passes \`${resName}\` on as a value${to ? ` to \`${to}\`` : ''} (Express's response object has no Fastify counterpart)`);
      continue;
    }
    plan.chains.push(chain);
    if (opts.nestedAnswers && insideNestedFunction(chain.top, fn)) plan.refusals.push(opts.nestedAnswers);
    const ctx: FormContext = { ...base, kindOf: (e) => kindOf(j, chain.top, e) };
    const result = convertReplyChain(chain.links, ctx);
    if ('refuse' in result) {
      plan.refusals.push(result.refuse);
      if (result.waitsFor) plan.waiting.push(result.refuse);
      continue;
    }
    result.needs.forEach((n) => plan.needs.add(n));
    result.deltas.forEach((d) => plan.deltas.add(d));
    result.plugins.forEach((p) => plan.plugins.add(p));
    result.likeExpress.forEach((f) => plan.likeExpress.add(f));
    if (result.links.some((steps) => steps.some((s) => 'raw' in s && s.raw))) raw.use('Response');
    plan.edits.push({
      size: sizeOf(chain.top.node),
      run: () => {
        // Converted again when applied: inner edits (err.status in an argument) are in place by then.
        const now = convertReplyChain(chain.links, ctx);
        if (!('refuse' in now)) applyReplySteps(j, chain.links, now.links, raw.response);
      },
    });
  }
  return { ...plan, needs: [...plan.needs], deltas: [...plan.deltas], plugins: [...plan.plugins], likeExpress: [...plan.likeExpress].sort() };
}

/** The members a route handler may answer with after setting Content-Type with res.setHeader (FormContext.rawContentType). */
const RAW_TYPE_ANSWERS: ReadonlySet<string> = new Set(['send', 'json', 'end', 'sendStatus']);

/** FormContext.rawContentType of a function from its `res` chains; `answers`: it is a route handler (the answer is its own). */
function rawContentTypeOf(chains: Array<{ links: ChainLink[] }>, answers: boolean): Pick<FormContext, 'rawContentType'> {
  const sets = chains.some((c) => c.links.some((l) => l.member === 'setHeader' && l.args?.[0]?.type === 'StringLiteral' && /^content-type$/i.test(l.args[0].value)));
  if (!sets) return {};
  const others = chains.filter((c) => answersRequest(c.links) && !RAW_TYPE_ANSWERS.has(c.links[c.links.length - 1].member));
  return { rawContentType: answers && !others.length ? 'sends' : 'other' };
}

/**
 * A function of the generated fastify-like-express module the rewrite would call, whose name the
 * file already binds to something else (an import from that module is the rewrite's own, from a
 * former run): the call would reach the wrong function.
 */
function likeExpressNameRefusals(j: JSCodeshift, program: ASTPath<Node>, fileNames: Set<string>, names: string[]): string[] {
  const imported = new Set<string>();
  const tree = j(program);
  for (const p of pathsOfType(j, tree, 'ImportDeclaration')) if (/fastify-like-express(\.[cm]?[jt]s)?$/.test(String(p.node.source.value))) for (const s of p.node.specifiers ?? []) imported.add(s.local.name);
  for (const p of pathsOfType(j, tree, 'VariableDeclarator')) {
    const init = p.node.init;
    const from = init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' ? String(init.arguments[0]?.value) : '';
    if (/fastify-like-express(\.[cm]?[jt]s)?$/.test(from) && p.node.id.type === 'ObjectPattern') for (const prop of p.node.id.properties) if (prop.value?.type === 'Identifier') imported.add(prop.value.name);
  }
  return names.filter((n) => fileNames.has(n) && !imported.has(n)).map((n) => `the file already uses the name ${n}, which the rewrite would import from the generated fastify-like-express module`);
}

/**
 * Every use of `req` through the forms of request-forms.ts: its edit, or why it cannot move;
 * members kept on Express's request are reached through `raw`; the reads of params/body/query
 * (for the TypeScript signature); the callees `req` is passed to first (`helperCalls`, sorted),
 * those in `helpers` allowed (renaming the parameter is their whole edit), as are the calls
 * `forwarded` allows (forwards.ts).
 */
function planRequestUses(j: JSCodeshift, fn: ASTPath<Node>, reqName: string, requestName: string, ctxBase: Omit<FormContext, 'kindOf'>, raw: RawAccess, toHelper: (ref: ASTPath<Node>) => boolean, forwarded: (ref: ASTPath<Node>) => boolean, route: { routeParams: boolean; handOffs: Readonly<Record<string, RequestHandOffUse>> } | null): UsesPlan & { reads: Array<{ part: RequestPart; path: ASTPath<Node> }> } {
  const plan = { refusals: [] as string[], edits: [] as Edit[], reads: [] as Array<{ part: RequestPart; path: ASTPath<Node> }> };
  const ctx: FormContext = { ...ctxBase, kindOf: () => 'unknown' };
  for (const ref of referencesOf(j, fn, reqName)) {
    if (forwarded(ref)) continue;
    // On a moved route: a package function taking Express's request gets it (package-calls.ts).
    const pkg = route ? packageRequestCall(ref) : null;
    if (pkg?.readsParams && route!.routeParams) plan.refusals.push(`it hands \`${reqName}\` to ${pkg.callee} [${pkg.package}], which reads the route parameters: Express's request on Fastify (request.raw) has none`);
    else if (pkg) {
      raw.use('Request');
      plan.edits.push({ size: sizeOf(ref.node), run: () => void ref.replace(raw.request(j.identifier(requestName))) });
    }
    if (pkg) continue;
    // `const { user, session } = req`: members middleware put on Express's request, read there.
    const destructured = destructuredMembers(ref);
    if (destructured) {
      const onRaw = destructured.every((member) => { const r = convertRequestUse(member, null, j.identifier(requestName), ctx); return !('refuse' in r) && 'onRaw' in r; });
      if (!onRaw || !ctx.bridged) plan.refusals.push(`it destructures \`${reqName}\` into members (${destructured.join(', ')}) that are not all kept on Express's request`);
      else {
        raw.use('Request');
        plan.edits.push({ size: sizeOf(ref.node), run: () => void ref.replace(raw.request(j.identifier(requestName))) });
      }
      continue;
    }
    const use = memberUse(ref);
    if (!use && toHelper(ref)) continue;
    // Handed on to a project function the analyzer followed: Express's own request, when it reads only what that holds alike.
    const handOff = route && !use && Object.hasOwn(route.handOffs, String(ref.node.start)) ? route.handOffs[String(ref.node.start)] : null;
    if (handOff) {
      const why = handOffRefusal(handOff, reqName, requestName, ctx);
      if (why) plan.refusals.push(why);
      else {
        raw.use('Request');
        plan.edits.push({ size: sizeOf(ref.node), run: () => handRawRequest(j, ref, raw.request(j.identifier(requestName))) });
      }
      continue;
    }
    if (!use) {
      const to = receivingCall(ref);
      plan.refusals.push(ref.parent.node.type === 'MemberExpression' && ref.parent.node.computed ? `it reads \`${reqName}[…]\` with a computed key` : `it passes \`${reqName}\` on as a value${to ? ` to \`${to}\`` : ''} (Express's request object is not Fastify's)`);
      continue;
    }
    if (!ctx.bridged && use.written) {
      plan.refusals.push(`it writes req.${use.member}`);
      continue;
    }
    const result = convertRequestUse(use.member, use.args, j.identifier(requestName), ctx);
    if ('refuse' in result) plan.refusals.push(result.refuse);
    else if ('onRaw' in result) {
      raw.use('Request');
      const member = use.memberNode;
      plan.edits.push({ size: sizeOf(member), run: () => void (member.object = raw.request(member.object)) });
    } else if (use.written) plan.refusals.push(`it writes req.${use.member}`);
    // `req.method` → `request.method`: renaming the parameter is the whole edit.
    else if (!isSameMember(result.expression, use)) plan.edits.push({ size: sizeOf(use.top.node), run: () => use.top.replace(result.expression) });
    if (REQUEST_PARTS.has(use.member) && use.args === null) plan.reads.push({ part: use.member as RequestPart, path: use.top });
  }
  return plan;
}

/**
 * Why a callee that receives `req` as a value cannot be given Express's own request on a moved
 * route, or null when it can: what it does with it is not known, or it uses a member a moved
 * handler would not read on `request.raw` (route data Fastify holds — `params`, `body`, `query` —,
 * mount-relative URLs, Express's `next`): there Express's request on Fastify differs from the one
 * the Express route had, or is not known to be alike.
 */
function handOffRefusal(handOff: RequestHandOffUse, reqName: string, requestName: string, ctx: FormContext): string | null {
  const to = `it passes \`${reqName}\` on as a value to \`${handOff.callee}\`, which`;
  if (handOff.opaque) return `${to} ${handOff.opaque} (what it reads of Express's request is not known)`;
  for (const read of handOff.reads) {
    const result = convertRequestUse(read.member, read.call ? [] : null, ctx.j.identifier(requestName), ctx);
    if ('onRaw' in result) continue;
    return `${to} uses req.${read.member}: ${'refuse' in result ? result.refuse : "on a moved route Express's request (request.raw) does not hold it as the Express route did"}`;
  }
  return null;
}

/** Puts Express's request (`raw`) where `ref` handed `req` on; a shorthand property (`{ req }`) gets its key back (`{ req: request.raw }`). */
function handRawRequest(j: JSCodeshift, ref: ASTPath<Node>, raw: Expr): void {
  const parent = ref.parent.node;
  if ((parent.type === 'ObjectProperty' || parent.type === 'Property') && parent.shorthand && parent.value === ref.node) {
    parent.shorthand = false;
    parent.key = j.identifier(ref.node.name);
  }
  ref.replace(raw);
}

/**
 * The file's binding of the default export of `from` (`encodeurl`, `content-disposition`): an
 * existing `import X from '<from>'` or `const X = require('<from>')`, else a free name to import
 * (`base`, `base2`, …).
 */
function defaultImportBinding(j: JSCodeshift, program: ASTPath<Node>, taken: Set<string>, from: FormNeed, base: string): { local: string; imported: boolean; from: FormNeed } {
  const bound = defaultImports(j, program).get(from) ?? null;
  if (bound) return { local: bound, imported: true, from };
  let local = base;
  for (let i = 2; taken.has(local); i++) local = `${base}${i}`;
  return { local, imported: false, from };
}

/** The local names the program binds the default exports of modules to: `import X from 'm'`, `const X = require('m')` (module → local, the first of each). */
function defaultImports(j: JSCodeshift, program: ASTPath<Node>): Map<string, string> {
  const out = new Map<string, string>();
  const tree = j(program);
  for (const p of pathsOfType(j, tree, 'ImportDeclaration')) {
    const specifier = (p.node.specifiers ?? []).find((s: Node) => s.type === 'ImportDefaultSpecifier');
    const from = String(p.node.source.value);
    if (specifier && !out.has(from)) out.set(from, specifier.local.name);
  }
  for (const p of pathsOfType(j, tree, 'VariableDeclarator')) {
    const init = p.node.init;
    const from = init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' ? init.arguments[0]?.value : undefined;
    if (p.node.id.type === 'Identifier' && typeof from === 'string' && !out.has(from)) out.set(from, p.node.id.name);
  }
  return out;
}

/** Whether a `res` chain sets a status without answering: `res.status(c);` alone, or `res.statusCode = c`. */
function setsStatusApart(chain: { links: ChainLink[]; top: ASTPath<Node> }): boolean {
  const last = chain.links[chain.links.length - 1];
  if (!last) return false;
  return last.member === 'status' || (last.member === 'statusCode' && isWritten(chain.top));
}

/** `next` in an error or not-found handler: `next(err)` → `reply.send(err)` when it reaches Fastify's error handling (options.nextToDefault), else refusals. */
function planErrorNext(j: JSCodeshift, fn: ASTPath<Node>, nextParam: Node, replyName: string, options: HandlerOptions): Array<Edit | { reason: string }> {
  const out: Array<Edit | { reason: string }> = [];
  for (const ref of referencesOf(j, fn, nextParam.name)) {
    const isCall = ref.parent.node.type === 'CallExpression' && ref.parent.node.callee === ref.node;
    const args = isCall ? ref.parent.node.arguments : [];
    // In a chain, next(x) calls the next handler with x, as Express's next does: nothing to change;
    // so does next() when the registration hands it to the 404 handler (nextToNotFound).
    if (options.nextToChain) {
      if (!isCall || args.length > 1 || (args.length === 0 && !options.nextToNotFound)) out.push({ reason: isCall ? 'it calls next() without an error (Express then leaves error handling and runs the next ordinary middleware)' : 'it passes `next` on as a value' });
      continue;
    }
    // Express takes any value handed to next() as the error (its handler reads err.status); Fastify's
    // reply.send sends a value that is not an Error as the body (200): only what may be an Error converts.
    if (options.nextToDefault && isCall && args.length === 1 && kindOf(j, ref, args[0]) !== 'unknown') out.push({ reason: `it passes a ${kindOf(j, ref, args[0]) === 'object' ? 'plain object' : kindOf(j, ref, args[0])} to next(…): Express takes it as the error, Fastify's reply.send would send it as the body (pass an Error, e.g. Object.assign(new Error(message), { status }))` });
    else if (options.nextToDefault && isCall && args.length === 1) {
      const call = ref.parent.node;
      out.push({ size: sizeOf(call), run: () => void (call.callee = j.memberExpression(j.identifier(replyName), j.identifier('send'))) });
    } else if (options.role === 'not-found') out.push({ reason: isCall && args.length === 1 ? "it passes an error on with next(err) to error middleware that stays on Express" : 'it calls next(): a Fastify not-found handler must answer' });
    else if (isCall && args.length === 1) out.push({ reason: 'it passes errors on with next(err) to another error handler' });
    else out.push({ reason: isCall ? `it calls next(${args.length ? '…' : ''}) without an error` : 'it passes `next` on as a value' });
  }
  return out;
}

/**
 * The signature types of an error or not-found handler: in TypeScript every parameter gets a
 * type (an inline `app.use((req, res) => …)` handler was typed by Express's overloads, and
 * standing alone as a Fastify handler it would be an implicit any): `FastifyRequest`,
 * `FastifyReply`, `any` for an untyped `err`.
 */
function planErrorTypes(j: JSCodeshift, fn: ASTPath<Node>, [, reqParam, resParam, nextParam]: Node[], options: HandlerOptions) {
  const refusals: string[] = [];
  const declarator = fn.parent.node.type === 'VariableDeclarator' && fn.parent.node.init === fn.node ? fn.parent : null;
  const handlerType = declarator?.node.id.typeAnnotation?.typeAnnotation;
  if (handlerType && !isExpressHandlerType(handlerType)) refusals.push('it is typed with a type the codemod does not know');
  const typed = options.typescript || !!handlerType;
  const droppedTypes = [reqParam, resParam, nextParam, declarator?.node.id].flatMap((n) => (n?.typeAnnotation ? typeNamesIn(j, n.typeAnnotation) : []));
  return {
    refusals,
    types: typed ? ['FastifyReply', 'FastifyRequest'] : [],
    droppedTypes: [...new Set(droppedTypes)],
    apply(request: Node, reply: Node, next: Node | null, err: Node | null) {
      if (!typed) return;
      if (handlerType) declarator!.node.id.typeAnnotation = null;
      if (err && !err.typeAnnotation) err.typeAnnotation = j.tsTypeAnnotation(j.tsAnyKeyword());
      // A chain's next (options.nextToChain): Express's NextFunction type goes with the express import.
      if (next) next.typeAnnotation = j.tsTypeAnnotation(j.tsFunctionType.from({ parameters: [j.identifier.from({ name: 'error', optional: true, typeAnnotation: j.tsTypeAnnotation(j.tsUnknownKeyword()) })], typeAnnotation: j.tsTypeAnnotation(j.tsVoidKeyword()) }));
      request.typeAnnotation = j.tsTypeAnnotation(j.tsTypeReference(j.identifier('FastifyRequest')));
      reply.typeAnnotation = j.tsTypeAnnotation(j.tsTypeReference(j.identifier('FastifyReply')));
    },
  };
}

/** `err.status` reads → `err.status || err.statusCode` (ES5 syntax: the app's own toolchain may predate `??`; a status is never 0); `err.type === 'entity.parse.failed'` → `… || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'`. */
function errorReadEdits(j: JSCodeshift, fn: ASTPath<Node>, errParam: Node, options: HandlerOptions): Edit[] {
  const edits: Edit[] = [];
  const reads = referencesOf(j, fn, errParam.name).map((ref) => {
    // `(err as { status?: number }).status`: the member's object is the cast around the reference.
    let object = ref;
    while (['TSAsExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'TSSatisfiesExpression'].includes(object.parent.node.type)) object = object.parent;
    const member = object.parent.node.type === 'MemberExpression' && object.parent.node.object === object.node && !object.parent.node.computed ? object.parent : null;
    return { ref, object, member, name: member?.node.property.name as string | undefined };
  });
  // A handler that reads err.statusCode already handles errors that carry only statusCode (Fastify's).
  const readsStatusCode = reads.some((r) => r.name === 'statusCode');
  const typed = options.typescript && errParam.typeAnnotation && errParam.typeAnnotation.typeAnnotation.type !== 'TSAnyKeyword';
  // `err.statusCode`; in TypeScript, where `err` has a type, `(err as { statusCode?: number }).statusCode`
  // (parsed from text, so recast prints it on one line with its parentheses).
  const access = (object: Node, prop: string, type: 'number' | 'string') =>
    typed || object.type !== 'Identifier'
      ? j(`(${errParam.name} as { ${prop}?: ${type} }).${prop}`).find(j.MemberExpression).paths()[0].node
      : j.memberExpression(j.identifier(errParam.name), j.identifier(prop));
  for (const r of reads) {
    if (!r.member) continue;
    if (r.name === 'status' && !readsStatusCode && !isWritten(r.member) && !guardedByInstanceof(r.member, errParam.name, fn)) {
      const member = r.member;
      // `??` only where the app wrote one around it (`err.status ?? 500`): JavaScript forbids mixing it with `||` unparenthesised.
      const operator = member.parent.node.type === 'LogicalExpression' && member.parent.node.operator === '??' ? '??' : '||';
      edits.push({ size: sizeOf(member.node), run: () => member.replace(j.logicalExpression(operator, member.node, access(r.object.node, 'statusCode', 'number'))) });
    }
    if (r.name === 'type') {
      const comparison = r.member.parent;
      const cmp = comparison.node;
      if (cmp.type !== 'BinaryExpression' || !['===', '==', '!==', '!='].includes(cmp.operator)) continue;
      const literal = cmp.left === r.member.node ? cmp.right : cmp.right === r.member.node ? cmp.left : null;
      const code = literal?.type === 'StringLiteral' ? BODY_PARSER_CODES[literal.value] : undefined;
      if (!code) continue;
      const negated = cmp.operator.startsWith('!');
      edits.push({
        size: sizeOf(cmp),
        run: () => comparison.replace(j.logicalExpression(negated ? '&&' : '||', comparison.node, j.binaryExpression(cmp.operator, access(r.object.node, 'code', 'string'), j.stringLiteral(code)))),
      });
    }
  }
  return edits;
}

/** Whether `member` sits where `err instanceof X` holds: the consequent of an `if`/`?:` testing it, or the right of `&&`. */
function guardedByInstanceof(member: ASTPath<Node>, errName: string, fn: ASTPath<Node>): boolean {
  const tests = (node: Node): boolean =>
    !!node &&
    ((node.type === 'BinaryExpression' && node.operator === 'instanceof' && node.left.type === 'Identifier' && node.left.name === errName) ||
      (node.type === 'LogicalExpression' && node.operator === '&&' && (tests(node.left) || tests(node.right))));
  for (let p: ASTPath<Node> = member; p.parent && p !== fn; p = p.parent) {
    const parent = p.parent.node;
    if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && parent.consequent === p.node && tests(parent.test)) return true;
    if (parent.type === 'LogicalExpression' && parent.operator === '&&' && parent.right === p.node && tests(parent.left)) return true;
  }
  return false;
}

/** `req.member` or `req.member(…)` at one reference; null when `req` is used otherwise. */
function memberUse(ref: ASTPath<Node>): { member: string; args: Expr[] | null; top: ASTPath<Node>; memberNode: Node; written: boolean } | null {
  const parent = ref.parent;
  if (parent.node.type !== 'MemberExpression' || parent.node.object !== ref.node || parent.node.computed) return null;
  const member = parent.node.property.name as string;
  const grand = parent.parent;
  if (grand.node.type === 'CallExpression' && grand.node.callee === parent.node) return { member, args: grand.node.arguments, top: grand, memberNode: parent.node, written: false };
  return { member, args: null, top: parent, memberNode: parent.node, written: isWritten(parent) };
}

/** The member names of `const { a, b: c, d = x } = req` when the reference `ref` of `req` is its whole initialiser (no rest, no computed key); else null. */
function destructuredMembers(ref: ASTPath<Node>): string[] | null {
  const parent = ref.parent?.node;
  if (parent?.type !== 'VariableDeclarator' || parent.init !== ref.node || parent.id.type !== 'ObjectPattern') return null;
  const props: Node[] = parent.id.properties;
  if (!props.length || props.some((p) => p.type !== 'ObjectProperty' || p.computed || p.key.type !== 'Identifier')) return null;
  return props.map((p) => p.key.name as string);
}

function isSameMember(expression: Node, use: { member: string; args: Expr[] | null }): boolean {
  return use.args === null && expression.type === 'MemberExpression' && expression.object.type === 'Identifier' && !expression.computed && expression.property.name === use.member;
}

function setsContentType(link: { member: string; args: Expr[] | null }): boolean {
  if (link.member === 'type' || link.member === 'contentType') return true;
  // res.attachment(name) sets the type of the name's extension.
  if (link.member === 'attachment') return !!link.args?.length;
  if ((link.member === 'set' || link.member === 'header') && link.args?.length) {
    const first = link.args[0];
    if (first.type === 'StringLiteral') return first.value.toLowerCase() === 'content-type';
    return first.type !== 'ObjectExpression' || first.properties.some((p: Node) => /^content-type$/i.test(p.key?.name ?? p.key?.value ?? ''));
  }
  return false;
}

function isExpressHandlerType(type: Node): boolean {
  if (type.type !== 'TSTypeReference' || type.typeParameters) return false;
  const name = type.typeName.type === 'Identifier' ? type.typeName.name : type.typeName.right?.name;
  return EXPRESS_HANDLER_TYPES.has(name);
}

/** `rewrite` when it converts everything; else throws (the plan said it would: the file changed under it). */
export function complete(rewrite: HandlerRewrite, file: string, anchor: { line: number }): HandlerRewrite {
  if (rewrite.refusals.length) throw new Error(`${file}:${anchor.line}: the planned handler can no longer be rewritten (${rewrite.refusals.join('; ')}); did the file change since the plan?`);
  return rewrite;
}
