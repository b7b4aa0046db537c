/**
 * The module the `routes` stage writes next to the generated server module (`fastify-hooks.*`):
 * adapters that run a moved route's Express middleware and param callbacks as Fastify preHandler
 * hooks, exactly as Express ran them for the route, until the plugins and schemas stages replace
 * them (express-fastify-mapping.md §1.1 "app.METHOD(path, mw, h)", §1.5.6). They rely on what the
 * shim's bridge guarantees: by the time a route's own hooks run, the app's middleware has run in
 * the bridge and `request.raw` / `reply.raw` are Express's own request and response. With a
 * hand-over (handOverLines), the module also holds what stops Express at a moved route's place.
 */
import { ROUTES_HOOKS_MARK } from '../../analyzer/generated.js';
import { restyle, type CodeStyle } from '../lib/style.js';

/** What the hooks module's text depends on. */
export interface HooksModuleFacts {
  module: 'esm' | 'commonjs';
  typescript: boolean;
  /** Express 5 passes a middleware's rejected promise on as next(err); the adapters do the same. */
  expressMajor: 4 | 5;
  /** A moved route is registered with arrays of functions (routes-move/chains.ts): the module has `expressChain` too. */
  chains?: boolean;
  /** A moved route keeps a hand-over in Express (`movedToFastify`, with `markMovedRoute` and `keepFastifyContinuation`: handOverLines). */
  handOver?: boolean;
  /** A moved route's handler is a package's Express function (routes-move/package-handler.ts): the module has `notFoundAfterNext`. */
  notFound?: boolean;
}

/** The decorator under which buildFastify keeps the app's not-found handler for notFoundAfterNext (not-found-after-next.ts). */
export const NOT_FOUND_DECORATOR = 'expressNotFound';

/** The functions of the hand-over (handOverLines), as the module exports them. */
export const HAND_OVER_FUNCTIONS = ['keepFastifyContinuation', 'markMovedRoute', 'movedToFastify'] as const;


/** The module text in `style`. */
export function hooksModule(entry: HooksModuleFacts, style: CodeStyle): string {
  const ts = entry.typescript;
  const t = (annotation: string) => (ts ? annotation : '');
  const exported = entry.module === 'esm' ? 'export ' : '';
  const lines = [
    `// Fastify hooks for routes moved off Express: ${ROUTES_HOOKS_MARK} (express-to-fastify migrate).`,
    "// A moved route's Express middleware and param callbacks run through these adapters until the",
    '// plugins and schemas stages replace them with Fastify plugins, hooks and route schemas.',
    ...(entry.module === 'commonjs' && !ts ? ["'use strict';"] : []),
    ...(ts
      ? [
          `import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction${entry.chains ? ', RouteHandlerMethod' : ''} } from 'fastify';`,
          '',
          '/** An Express middleware or param callback, as the app wrote it. The hooks take any route generic, so a typed handler next to them keeps its own (`FastifyRequest<{ Params: … }>`). */',
          'type ExpressFunction = (req: any, res: any, next: (error?: unknown) => void, ...rest: any[]) => unknown;',
        ]
      : []),
    '',
    '/**',
    ' * Runs Express route middleware as a Fastify preHandler hook, as Express ran it for the route: on',
    " * the raw request and response (Express's own while the app's middleware runs in the bridge), with",
    ' * the route\'s params and body. What it sets on the request stays on `request.raw`; a body, query or',
    ' * params it replaces (a validator) comes back to `request`. When it answers, the hooks stop there.',
    ' */',
    `${exported}function expressMiddleware(middleware${t(': ExpressFunction')}) {`,
    `  return function expressRouteMiddleware(request${t(': FastifyRequest<any>')}, reply${t(': FastifyReply<any>')}, done${t(': HookHandlerDoneFunction')}) {`,
    '    const req = toExpress(request);',
    `    ${result(entry)}middleware(req, reply.raw, (error${t('?: unknown')}) => {`,
    '      fromExpress(request, req);',
    `      done(error${t(' as Error | undefined')});`,
    '    });',
    ...settle(entry),
    '  };',
    '}',
    '',
    '/** Runs an Express param callback (`router.param(name, callback)`) as a preHandler hook of a route with that parameter. */',
    `${exported}function expressParam(name${t(': string')}, callback${t(': ExpressFunction')}) {`,
    `  return function expressParamCallback(request${t(': FastifyRequest<any>')}, reply${t(': FastifyReply<any>')}, done${t(': HookHandlerDoneFunction')}) {`,
    '    const req = toExpress(request);',
    `    ${result(entry)}callback(req, reply.raw, (error${t('?: unknown')}) => {`,
    '      fromExpress(request, req);',
    `      done(error${t(' as Error | undefined')});`,
    `    }, ${ts ? '(request.params as Record<string, string>)' : 'request.params'}[name], name);`,
    ...settle(entry),
    '  };',
    '}',
    '',
    '/**',
    " * Express 5's wildcard parameter (`/files/*splat`) on find-my-way's `*`: the segments after the route's",
    " * fixed part, split on `/` and each decoded, as Express gives them (`/files/a%2Fb/c` → ['a/b', 'c']),",
    " * read from the URL as it came (find-my-way's `*` value is decoded whole and drops a trailing slash).",
    ' */',
    `${exported}function expressWildcard(name${t(': string')}) {`,
    `  return function expressWildcardParam(request${t(': FastifyRequest<any>')}, _reply${t(': FastifyReply<any>')}, done${t(': HookHandlerDoneFunction')}) {`,
    `    const params = request.params${t(' as Record<string, unknown>')};`,
    "    if (params['*'] === undefined) return done();",
    `    const pattern = request.routeOptions.url${t(' as string')};`,
    "    const skip = pattern.slice(0, pattern.lastIndexOf('*')).split('/').length - 1;",
    "    const segments = request.raw.url" + t('!') + ".split('?')[0].split('/').slice(skip);",
    "    delete params['*'];",
    '    try {',
    '      params[name] = segments.map(decodeURIComponent);',
    '    } catch (_error) {',
    "      return done(Object.assign(new URIError(`Failed to decode param '${segments.join('/')}'`), { status: 400, statusCode: 400 }));",
    '    }',
    '    done();',
    '  };',
    '}',
    '',
    '/**',
    " * Content-type parser of the moved routes: the body stays unread for the app's Express body parsers,",
    " * which read it in the bridge in the app's middleware order (a body they reject is answered where",
    ' * Express answered it, after the middleware before them), until the plugins stage replaces them.',
    ' */',
    `${exported}function bodyLeftToExpress(_request${t(': FastifyRequest')}, _payload${t(': unknown')}, done${t(': (error: Error | null, body?: unknown) => void')}) {`,
    '  done(null);',
    '}',
    '',
    '/** The moved handlers\' `request.body`: what the app\'s Express body parsers gave (`{}` from Express 4 for no body, Express 5 undefined). */',
    `${exported}function bodyLikeExpress(request${t(': FastifyRequest')}, _reply${t(': FastifyReply')}, done${t(': HookHandlerDoneFunction')}) {`,
    `  request.body = ${ts ? '(request.raw as any)' : 'request.raw'}.body;`,
    '  done();',
    '}',
    '',
    '/** The raw request as Express showed it to route middleware: with the route\'s params (its body is Express\'s already). */',
    `function toExpress(request${t(': FastifyRequest')}) {`,
    `  const req = request.raw${t(' as any')};`,
    '  req.params = request.params;',
    '  return req;',
    '}',
    '',
    '/** What route middleware replaced on the raw request, back on Fastify\'s. */',
    `function fromExpress(request${t(': FastifyRequest')}, req${t(': any')}) {`,
    '  request.params = req.params;',
    '  request.body = req.body;',
    '  request.query = req.query;',
    '}',
    ...(entry.chains ? ['', ...chainLines(entry)] : []),
    ...(entry.handOver ? ['', ...handOverLines(entry)] : []),
    ...(entry.notFound ? ['', ...notFoundLines(entry)] : []),
    ...(entry.module === 'commonjs' && !ts ? ['', `module.exports = { ${exportedNames(entry).join(', ')} };`] : []),
  ];
  return restyle(lines, style);
}

/** Whether the hooks module text `source` (written by an earlier run) lacks `expressChain`, which `entry` needs. */
export function lacksChains(entry: HooksModuleFacts, source: string): boolean {
  return !!entry.chains && !/\bfunction expressChain\(/.test(source);
}

/**
 * The hooks module `source` of an earlier run with `expressChain` added (lacksChains): the function
 * at the end, its export (CommonJS: a `module.exports.expressChain` line; TypeScript: the type it
 * needs imported after the module's first import).
 */
export function withChains(entry: HooksModuleFacts, source: string, style: CodeStyle): string {
  const lines = ['', ...chainLines(entry), ...(entry.module === 'commonjs' && !entry.typescript ? ['', 'module.exports.expressChain = expressChain;'] : [])];
  const added = source.replace(/\s*$/, '') + style.eol + restyle(lines, style);
  return entry.typescript ? added.replace(/^(import .*\r?\n)/m, `$1${restyle(["import type { RouteHandlerMethod } from 'fastify';"], style)}`) : added;
}

/** `expressChain`: route options for Express functions given in arrays (routes-move/chains.ts). */
function chainLines(entry: HooksModuleFacts): string[] {
  const ts = entry.typescript;
  const exported = entry.module === 'esm' ? 'export ' : '';
  return [
    '/**',
    " * Route options for Express functions given in arrays, as Express flattens them (`exports.create =",
    " * [body('name').trim(), …, handler]`, `[requireLogin, ...articleAuth, show]`), read when the route is",
    ' * registered: each function but the last runs as a preHandler hook through expressMiddleware, after',
    " * `hooks` (the route's param callbacks); the last, rewritten to (request, reply), is the handler.",
    ' */',
    ts
      ? `${exported}function expressChain(chain: readonly unknown[], hooks: Array<(request: FastifyRequest<any>, reply: FastifyReply<any>, done: HookHandlerDoneFunction) => void> = []) {`
      : `${exported}function expressChain(chain, hooks = []) {`,
    '  return {',
    `    preHandler: [...hooks, ...${ts ? '(chain.slice(0, -1) as ExpressFunction[])' : 'chain.slice(0, -1)'}.map((middleware) => expressMiddleware(middleware))],`,
    `    handler: chain[chain.length - 1]${ts ? ' as RouteHandlerMethod' : ''},`,
    '  };',
    '}',
  ];
}

/** The names the module exports, sorted. */
function exportedNames(entry: HooksModuleFacts): string[] {
  return ['bodyLeftToExpress', 'bodyLikeExpress', ...(entry.chains ? ['expressChain'] : []), 'expressMiddleware', 'expressParam', 'expressWildcard', ...(entry.handOver ? HAND_OVER_FUNCTIONS : []), ...(entry.notFound ? [NOT_FOUND_AFTER_NEXT] : [])].sort();
}

/** The hooks module's handler of a route whose handler is a package's Express function (routes-move/package-handler.ts). */
export const NOT_FOUND_AFTER_NEXT = 'notFoundAfterNext';

/** Whether the hooks module text `source` (written by an earlier run) lacks `notFoundAfterNext`, which `entry` needs. */
export function lacksNotFound(entry: HooksModuleFacts, source: string): boolean {
  return !!entry.notFound && !new RegExp(`\\bfunction ${NOT_FOUND_AFTER_NEXT}\\(`).test(source);
}

/**
 * A hooks module of an earlier run (`source`, in `style`) with `notFoundAfterNext` added after its
 * functions and exported like them (CommonJS: in its `module.exports = { … }`, or a line of its own
 * after what an earlier run added there); null when it has it already.
 */
export function withNotFound(source: string, entry: HooksModuleFacts, style: CodeStyle): string | null {
  if (!lacksNotFound(entry, source)) return null;
  return withFunctions(source, restyle(notFoundLines(entry), style), [NOT_FOUND_AFTER_NEXT], style, `${source.replace(/\s*$/, '')}${style.eol}${style.eol}`);
}

/**
 * `notFoundAfterNext`: the handler of a moved route whose last function is a package's Express
 * function, which runs before it as a preHandler hook (`expressMiddleware(passport.authenticate(…))`).
 * It is reached when that function called next(): Express went on with the layers after the route,
 * none of which runs for its URLs (the routes stage checked), and ended where the app's 404 answers
 * — the not-found handler buildFastify registered and keeps as `fastify.expressNotFound`, called
 * directly (reply.callNotFound() would run the bridge, the whole Express app, a second time), or,
 * where buildFastify registers none (or under a condition that does not hold), Fastify's default
 * 404, written as Fastify 5 writes it (checked against it at run time: fixture package-handler-ts).
 */
function notFoundLines(entry: HooksModuleFacts): string[] {
  const ts = entry.typescript;
  const t = (annotation: string) => (ts ? annotation : '');
  const exported = entry.module === 'esm' ? 'export ' : '';
  return [
    '/**',
    " * The handler of a moved route whose last function is a package's Express function (`passport.authenticate`),",
    ' * run before it as a preHandler hook: when that function calls next(), Express went on with the layers',
    " * after the route, none of which runs for its URLs, and ended at the app's 404 — the not-found handler",
    ' * buildFastify keeps as `expressNotFound`, or, without one, Fastify\'s own 404 (fastify lib/four-oh-four.js',
    ' * basic404). Not reply.callNotFound(): it would run the bridge, the whole Express app, again.',
    ' */',
    `${exported}function ${NOT_FOUND_AFTER_NEXT}(request${t(': FastifyRequest<any>')}, reply${t(': FastifyReply<any>')}) {`,
    `  const notFound = ${ts ? '(request.server as any)' : 'request.server'}.${NOT_FOUND_DECORATOR};`,
    '  if (notFound) return notFound(request, reply);',
    '  const { method, url } = request.raw;',
    "  return reply.code(404).send({ message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 });",
    '}',
  ];
}

/**
 * A hooks module written before a route handed over (`source`, in `style`), with the hand-over's
 * functions added after its own and exported like them — the text hooksModule writes with
 * `handOver`; null when it has them already.
 */
export function withHandOver(source: string, entry: HooksModuleFacts, style: CodeStyle): string | null {
  if (/\bfunction movedToFastify\(/.test(source)) return null;
  return withFunctions(source, restyle(handOverLines(entry), style), HAND_OVER_FUNCTIONS, style, `${source}${style.eol}`);
}

/**
 * `source` (a hooks module an earlier run wrote) with `functions` (restyled text) added: in a
 * CommonJS module before its `module.exports = { … }` line, which gains `names` (sorted), what an
 * earlier run added after that line (expressChain: withChains) staying after it; in a module without
 * that line (ESM, TypeScript: the functions export themselves), after `head`, the source as it ends.
 */
function withFunctions(source: string, functions: string, names: readonly string[], style: CodeStyle, head: string): string {
  const exports = /^module\.exports = \{([^}]*)\};?\r?\n?$/m.exec(source);
  if (!exports) return `${head}${functions}`;
  const all = [...exports[1].split(',').map((n) => n.trim()).filter(Boolean), ...names].sort();
  const rest = source.slice(exports.index + exports[0].length).replace(/^\r?\n/, '');
  return `${source.slice(0, exports.index)}${functions}${style.eol}${restyle([`module.exports = { ${all.join(', ')} };`], style)}${rest.trim() ? `${style.eol}${rest}` : ''}`;
}

/**
 * The hand-over of a moved route that Express middleware registered after it covers: its
 * registration stays in Express at its place with `movedToFastify` as its only function, and
 * Express's work for the request ends there (express-fastify-mapping.md §1.1: Express runs the
 * layers in registration order and stops at the route that answers). `markMovedRoute` (an
 * onRequest hook of movedRoutes) marks the requests Fastify routed to a moved route; the bridge
 * calls `keepFastifyContinuation` before it runs the app, so that `movedToFastify` can go on to
 * Fastify from where Express reaches it, with the request as Express leaves it once the app is
 * done: the URL the bridge gave it (routers strip their mount path from `req.url` while they run),
 * the app's own request and response prototypes (a sub-app sets its own), then the bridge's `next`.
 */
function handOverLines(entry: HooksModuleFacts): string[] {
  const ts = entry.typescript;
  const t = (annotation: string) => (ts ? annotation : '');
  const exported = entry.module === 'esm' ? 'export ' : '';
  return [
    '/** Where markMovedRoute marks a request Fastify routed to a moved route (a string key: only ES5 globals here). */',
    "const MOVED_ROUTE = '_migrateMovedRoute';",
    '',
    '/** Where keepFastifyContinuation keeps, for movedToFastify, how the bridge goes on to Fastify. */',
    "const CONTINUE_ON_FASTIFY = '_migrateContinueOnFastify';",
    '',
    '/** onRequest hook of the moved routes: Fastify routed this request to one of them (movedToFastify hands only those over). */',
    `${exported}function markMovedRoute(request${t(': FastifyRequest')}, _reply${t(': FastifyReply')}, done${t(': HookHandlerDoneFunction')}) {`,
    `  ${ts ? '(request.raw as any)' : 'request.raw'}[MOVED_ROUTE] = true;`,
    '  done();',
    '}',
    '',
    '/**',
    ' * Called by the bridge before it runs the Express app `app` with its `next`: for a request Fastify',
    ' * routed to a moved route, keeps how movedToFastify goes on to Fastify — the request as Express',
    " * leaves it once the app is done (the URL the bridge gave it, the app's own prototypes), then `next`.",
    ' */',
    `${exported}function keepFastifyContinuation(app${t(': { request: object; response: object }')}, req${t(': any')}, res${t(': object')}, next${t(': (error?: unknown) => void')}) {`,
    '  if (!req[MOVED_ROUTE]) return;',
    '  const url = req.url;',
    '  req[CONTINUE_ON_FASTIFY] = () => {',
    '    req.url = url;',
    '    Object.setPrototypeOf(req, app.request);',
    '    Object.setPrototypeOf(res, app.response);',
    '    next();',
    '  };',
    '}',
    '',
    '/**',
    " * A moved route's registration left in Express at its place (`router.get('/:id', movedToFastify)`):",
    " * Express reaches it after the middleware registered before the route and the route's param",
    " * callbacks, as it reached the route, and ends there; Fastify runs the route's hooks and handler, so",
    ' * middleware registered after the route does not run for it, as in Express. A request Fastify did',
    ' * not route to a moved route goes on through Express.',
    ' */',
    `${exported}function movedToFastify(req${t(': any')}, _res${t(': unknown')}, next${t(': (error?: unknown) => void')}) {`,
    '  const continueOnFastify = req[CONTINUE_ON_FASTIFY];',
    '  if (!continueOnFastify) return next();',
    '  delete req[CONTINUE_ON_FASTIFY];',
    '  continueOnFastify();',
    '}',
  ];
}

/** Express 5 passes a rejected promise of a middleware on as `next(err)` (Express 4 does not look at it). */
function settle(entry: HooksModuleFacts): string[] {
  // Never returned: Fastify would take a returned promise for an async hook and continue twice.
  if (entry.expressMajor !== 5) return [];
  return ["    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(undefined, done);".replace(/ as Promise<unknown>/g, entry.typescript ? ' as Promise<unknown>' : '')];
}

function result(entry: HooksModuleFacts): string {
  return entry.expressMajor === 5 ? 'const result = ' : '';
}
