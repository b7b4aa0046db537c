/**
 * The Express `req.*`, `res.*`, `app.*`, `router.*` and `next(…)` API → its Fastify 5 form, with
 * how safe the mechanical rewrite is, as data. One catalogue for the whole tool: rules name the
 * Fastify form in findings (the `fastify` field of a Finding), the `routes` codemod rewrites by
 * it, and a route moves only when every API it uses has a form at that stage.
 *
 * Source: shared/reference/express-fastify-mapping.md §1.1 (application), §1.2 (router), §1.3
 * (request), §1.4 (response), with §1.5 (handler shape), §2 (observable differences) and §3/§4
 * for APIs that middleware packages add (`req.session`, `req.user`, `req.file`, …). Every row of
 * §1.1–§1.4 has an entry; rows that name several APIs have one entry with `aliases`.
 *
 * Keys follow the analyzer's `ApiUse.api` (analyzer/model.ts): `req.<property>`,
 * `res.<property>`, `next()`, `next(err)`, `next('route')`, `next('router')`. Application and
 * router calls are `app.<method>` / `router.<method>`, a setting is `app.set('<name>')`, and
 * argument-specific forms carry the argument kind in parentheses (`res.send(string)`,
 * `app.use(path, router)`).
 *
 * Safety (mapping §0 legend): Y → `safe`, P → `needs-care`, N → `no-equivalent`. `difference` is
 * the exact behavioural difference (empty for `safe`; remarks on a safe row go to `note`).
 * `stage` is the stage whose codemod rewrites the use: server options the shim copies are
 * `shim`, error handling `errors`; a `req`/`res` use is `routes`, or `plugins` when it needs a
 * plugin that stage registers (`requires`), and every `no-equivalent` entry is `manual`.
 * `rewrite` says whether the handler rewrite has the use's form today: a route moves at the
 * routes stage only when every use it makes has one ("movable at stage S given plugins P").
 */
import type { Stage } from '../../analyzer/model.js';
import type { Safety } from './middleware.js';

/** One Express API and its Fastify form. */
export interface ApiEntry {
  /** The key, e.g. `req.params`, `res.json`, `app.set('trust proxy')`, `next(err)`. */
  api: string;
  /** Other spellings of the same row (`req.header` for `req.get`, `app.post` for `app.METHOD`). */
  aliases?: readonly string[];
  /** The Fastify 5 form, e.g. `request.params`, `reply.send(obj)`. */
  fastify: string;
  safety: Safety;
  /** The exact behavioural difference in one or two sentences; empty when `safe`. */
  difference: string;
  /** A remark that is not a difference (for safe rows), e.g. which plugin provides the form. */
  note?: string;
  /** Packages the Fastify form needs (plugins, helpers); all are in `versions.ts`. */
  requires?: readonly string[];
  /**
   * For `req.*`/`res.*` rows the handler rewrite (transforms/handler-rewrite/) reads: how Express
   * uses the member — called or read, whether the call returns `res` so a chain goes on
   * (`res.status(404).json(x)`), whether it answers the request (Express 4.x/5.x lib/response.js).
   */
  shape?: { use: 'call' | 'property'; chainable?: true; answers?: true };
  /**
   * The form the handler rewrite writes for the use, when it has one: `form` the exact Fastify
   * code (docs/stages list it), `where` it applies — in every handler it rewrites (`everywhere`:
   * error and not-found handlers too) or only on moved routes (`moved-routes`, where the Express
   * app has run first in the @fastify/express bridge and Express's own objects are
   * `request.raw`/`reply.raw`: data Express middleware set there stays readable, express-fastify-mapping.md
   * §4.3); `answersLater` when the Fastify form answers after the call returns (`reply.view`
   * reads the template first: an async handler must return the reply). Absent: the rewrite
   * refuses the use — with the plugins `requires` names when `stage` is `plugins`, else with
   * `difference`. `scope: 'app'`: the form holds at the app level only (inside a router Express's
   * value is relative to the mount path, and the use has no equivalent there). Checked against the
   * rewrite's converters in test/rules/catalogue.test.ts. `note`: where the value comes from on
   * Fastify, when that is not Fastify itself (`set by cookie-parser in the bridge`).
   */
  rewrite?: { form: string; note?: string; where: 'everywhere' | 'moved-routes'; answersLater?: true; scope?: 'app' };
  /**
   * For request properties that Express middleware sets (`req.session`, `req.user`, `req.file`):
   * the npm packages that set them. Rows without it are Express's own request API.
   */
  addedBy?: readonly string[];
  /**
   * The stage whose codemod converts the use. For `req.*`/`res.*` rows: `routes` when the routes
   * stage converts it on a moved route — today only where `rewrite` gives the form; a use without
   * one keeps its route on Express for a human —, `plugins` when its Fastify form needs a plugin
   * the plugins stage registers (`requires`), `manual` when it has no mechanical equivalent.
   */
  stage: Stage;
  /** Section(s) of express-fastify-mapping.md the entry comes from. */
  source: string;
}

/** Every catalogued API, keyed by `api`. */
export const API = {
  // ── §1.1 Application ──────────────────────────────────────────────────────────────────────
  'app.METHOD': {
    api: 'app.METHOD',
    aliases: ['app.get', 'app.post', 'app.put', 'app.patch', 'app.delete', 'app.del'],
    fastify: 'fastify.get/post/put/patch/delete(path, handler) with handler(request, reply)',
    safety: 'needs-care',
    difference: 'Path syntax differs (§1.6) and routes match by specificity, not registration order (§2.7); a duplicate method + path throws FST_ERR_DUPLICATED_ROUTE at boot where Express keeps the first, and routes cannot be added after ready().',
    note: '`app.get(setting)` with one argument is a setting read: see `app.get(setting)`. `app.del` is Express 4 only.',
    stage: 'routes',
    source: '§1.1, §1.6, §2.7',
  },
  'app.METHOD(path, mw, handler)': {
    api: 'app.METHOD(path, mw, handler)',
    aliases: ['router.METHOD(path, mw, handler)'],
    fastify: "fastify.METHOD(path, { preHandler: [mw1', mw2'] }, handler) where mw'(request, reply, done)",
    safety: 'needs-care',
    difference: "`next()` becomes `done()` and `next(err)` `done(err)` (or a throw in an async hook); a hook that sends must not call `done` (or must `return reply` when async), otherwise later hooks and the handler still run. `next('route')`/`next('router')` have no equivalent.",
    stage: 'routes',
    source: '§1.1, §1.5 rule 6',
  },
  'app.all': {
    api: 'app.all',
    aliases: ['router.all'],
    fastify: 'fastify.all(path, handler)',
    safety: 'needs-care',
    difference: 'Fastify registers only its supported methods (DELETE GET HEAD OPTIONS PATCH POST PUT plus addHttpMethod extras; v5 dropped PROPFIND, TRACE, SEARCH …); Express `all` matches any verb.',
    stage: 'routes',
    source: '§1.1',
  },
  'app.head': {
    api: 'app.head',
    aliases: ['router.head'],
    fastify: 'fastify.head(path, handler) registered before the GET, or the GET with exposeHeadRoute: false',
    safety: 'needs-care',
    difference: 'Fastify 5 throws when a HEAD route is added after a GET with its automatic HEAD; in Express a later `app.head` is shadowed by the earlier GET (GET routes answer HEAD).',
    stage: 'routes',
    source: '§1.1, §2.6',
  },
  'app.options': {
    api: 'app.options',
    aliases: ['router.options'],
    fastify: 'fastify.options(path, handler)',
    safety: 'safe',
    difference: '',
    note: 'Fastify has no automatic OPTIONS answers (framework-defaults `auto-options`).',
    stage: 'routes',
    source: '§1.1, §2.6',
  },
  'app.use': {
    api: 'app.use',
    fastify: "fastify.addHook('onRequest' | 'preHandler', hook) / fastify.register(fp(plugin)) / fastify.use(mw) through @fastify/express",
    safety: 'needs-care',
    difference: 'Express middleware is position-dependent (only routes registered after it); a Fastify hook applies to every route of its encapsulation context regardless of order. The body is not parsed yet in onRequest: middleware reading `req.body` needs preValidation/preHandler.',
    requires: ['fastify-plugin'],
    stage: 'routes',
    source: '§1.1',
  },
  'app.use(path, fn)': {
    api: 'app.use(path, fn)',
    aliases: ['router.use(path, fn)'],
    fastify: 'a hook inside fastify.register(plugin, { prefix: path }), or a hook that tests request.url',
    safety: 'needs-care',
    difference: 'Express path middleware also runs for unknown URLs under the path; a hook in a prefixed plugin does not run for them unless the plugin has its own setNotFoundHandler (Express 401 vs Fastify 404 for an auth guard).',
    stage: 'routes',
    source: '§1.1, §2.1',
  },
  'app.use(path, router)': {
    api: 'app.use(path, router)',
    aliases: ['router.use(path, router)'],
    fastify: 'fastify.register(routerPlugin, { prefix: path })',
    safety: 'needs-care',
    difference: '`req.url`, `req.path` and `req.baseUrl` change meaning (Fastify URLs are never mount-relative); see the Router entries for encapsulation.',
    stage: 'routes',
    source: '§1.1, §1.2, §1.3',
  },
  'app.use(errorHandler)': {
    api: 'app.use(errorHandler)',
    aliases: ['router.use(errorHandler)'],
    fastify: 'fastify.setErrorHandler((err, request, reply) => …)',
    safety: 'needs-care',
    difference: 'The Fastify handler is encapsulated per plugin, sees every route of its context (Express: only routes registered before it), never sees 404s, and also receives Fastify’s own errors (parse 400/413/415, validation 400) which carry `statusCode` but no `status` — `err.status || 500` turns them into 500.',
    stage: 'errors',
    source: '§2.12, §2.2',
  },
  'app.use(notFound)': {
    api: 'app.use(notFound)',
    fastify: 'fastify.setNotFoundHandler((request, reply) => …)',
    safety: 'needs-care',
    difference: 'The Fastify not-found handler runs only when no route matched; an Express catch-all also ran for matched routes that called `next()`. Prefix-scoped handlers follow plugin encapsulation.',
    stage: 'errors',
    source: '§2.1',
  },
  'app.route': {
    api: 'app.route',
    aliases: ['router.route'],
    fastify: "fastify.route({ method: 'GET', url: path, handler }) per verb, or method: ['GET', 'POST'] with one handler",
    safety: 'safe',
    difference: '',
    stage: 'routes',
    source: '§1.1',
  },
  'app.param': {
    api: 'app.param',
    fastify: 'A preValidation hook, first in order, on every route whose path has `:name`, reading request.params[name] (what the param-callback rule and the routes stage do)',
    safety: 'needs-care',
    difference: 'Express runs the callback once per request per parameter, only for routes of that app/router, after app middleware and before route middleware; `next(\'route\')` inside it has no counterpart, and as a preHandler it would run after validation (400 instead of the app’s 404), hence preValidation. Express 5 removed `app.param(fn)`.',
    stage: 'routes',
    source: '§1.1, §2.14',
  },
  "app.set('trust proxy')": {
    api: "app.set('trust proxy')",
    aliases: ["app.enable('trust proxy')"],
    fastify: 'Fastify({ trustProxy: value })',
    safety: 'needs-care',
    difference: 'Fastify takes the last X-Forwarded-Host/Proto entry, Express the first, and `request.ips` differs in order and content; from Fastify 5.12.1 a numeric hop count is silently ignored (`request.ip` stays the socket address, so per-IP limits see one client): use an IP/CIDR list or `(addr, hop) => trusted(addr) && hop < n`.',
    stage: 'shim',
    source: '§1.1, §1.3, §0.1',
  },
  "app.set('case sensitive routing')": {
    api: "app.set('case sensitive routing')",
    aliases: ["app.enable('case sensitive routing')", "app.disable('case sensitive routing')"],
    fastify: 'Fastify({ routerOptions: { caseSensitive } })',
    safety: 'needs-care',
    difference: 'Global in Fastify, per app/router in Express; Fastify’s default is case-sensitive, Express’s insensitive.',
    stage: 'shim',
    source: '§1.1, §0.1',
  },
  "app.set('strict routing')": {
    api: "app.set('strict routing')",
    aliases: ["app.enable('strict routing')", "app.disable('strict routing')"],
    fastify: 'Fastify({ routerOptions: { ignoreTrailingSlash: !strict } })',
    safety: 'needs-care',
    difference: 'Global in Fastify, per app/router in Express; Fastify’s default treats `/a/` as another path, Express’s ignores the trailing slash.',
    stage: 'shim',
    source: '§1.1, §0.1',
  },
  "app.set('query parser')": {
    api: "app.set('query parser')",
    fastify: 'Fastify({ routerOptions: { querystringParser: (s) => qs.parse(s, { allowPrototypes: true, arrayLimit: 1000 }) } })',
    safety: 'safe',
    difference: '',
    note: "For Express 4.22 parity ('extended'); `'simple'` is Fastify’s flat default. The parser receives the raw query string; the default parser gives null-prototype objects.",
    requires: ['qs'],
    stage: 'shim',
    source: '§1.1, §2.9',
  },
  "app.set('json spaces')": {
    api: "app.set('json spaces')",
    aliases: ["app.set('json replacer')", "app.set('json escape')"],
    fastify: 'fastify.setReplySerializer((payload) => JSON.stringify(payload, replacer, spaces))',
    safety: 'needs-care',
    difference: 'Does not apply to routes with a response schema (fast-json-stringify serializes those).',
    stage: 'routes',
    source: '§1.1',
  },
  "app.set('etag')": {
    api: "app.set('etag')",
    aliases: ["app.enable('etag')"],
    fastify: '@fastify/etag, or an onSend hook using the etag and fresh packages for Express-identical tags',
    safety: 'needs-care',
    difference: 'Express’s default ETag is weak with a sha1/base64 body hash; @fastify/etag defaults to a strong sha1 tag, so values never match (only the onSend shim reproduces them).',
    requires: ['@fastify/etag'],
    stage: 'plugins',
    source: '§1.1, §2.3',
  },
  "app.disable('etag')": {
    api: "app.disable('etag')",
    aliases: ["app.set('etag', false)"],
    fastify: 'nothing (Fastify sends no ETag)',
    safety: 'safe',
    difference: '',
    stage: 'shim',
    source: '§0.1, §2.3',
  },
  "app.set('x-powered-by')": {
    api: "app.set('x-powered-by')",
    aliases: ["app.disable('x-powered-by')", "app.set('x-powered-by', false)"],
    fastify: 'nothing (Fastify never sends X-Powered-By)',
    safety: 'safe',
    difference: '',
    stage: 'shim',
    source: '§1.1',
  },
  "app.set('view engine')": {
    api: "app.set('view engine')",
    aliases: ["app.set('views')", 'app.engine'],
    fastify: "fastify.register(fastifyView, { engine: { ejs }, root: 'views', viewExt: 'ejs' })",
    safety: 'needs-care',
    difference: '@fastify/view supports a fixed list of engines (ejs, handlebars, pug, nunjucks, mustache, twig, liquid, doT, eta …): arbitrary `app.engine(ext, fn)` callbacks have no slot. Express’s default views dir is `./views`, @fastify/view’s root `./`, and the extension is not appended without `viewExt`/`includeViewExtension`.',
    requires: ['@fastify/view'],
    stage: 'routes',
    source: '§1.1, §3 (view engine rows)',
  },
  'app.locals': {
    api: 'app.locals',
    fastify: "template data: @fastify/view `defaultContext`; other data: fastify.decorate('locals', { … })",
    safety: 'needs-care',
    difference: 'Fastify 5 forbids reference-type values in decorateRequest/decorateReply (use a getter, factory or hook); templates see app.locals only through `defaultContext`.',
    stage: 'routes',
    source: '§1.1',
  },
  'app.listen': {
    api: 'app.listen',
    fastify: "await fastify.listen({ port, host: '0.0.0.0' })",
    safety: 'needs-care',
    difference: 'Fastify binds localhost when the host is omitted (Express: all interfaces); the variadic `listen(port)` is gone in v5, and Express 5 passes listen errors to the callback.',
    stage: 'shim',
    source: '§1.1, §0.1',
  },
  'app.set': {
    api: 'app.set',
    fastify: "a Fastify option per known setting (see the app.set('<setting>') entries); an app-defined setting → fastify.decorate(name, value)",
    safety: 'needs-care',
    difference: 'Express settings are a mutable bag read at request time; Fastify options are fixed at construction and decorations are encapsulated per plugin.',
    stage: 'shim',
    source: '§1.1',
  },
  'app.get(setting)': {
    api: 'app.get(setting)',
    aliases: ['app.enable', 'app.disable', 'app.enabled', 'app.disabled', 'app.settings'],
    fastify: 'none: the options object / fastify.initialConfig (read-only)',
    safety: 'no-equivalent',
    difference: 'Fastify has no settings bag: options are fixed at construction and `initialConfig` is read-only, so settings toggled or read at run time need restructuring.',
    stage: 'manual',
    source: '§1.1',
  },
  'app.render': {
    api: 'app.render',
    fastify: 'const html = await fastify.view(view, data)',
    safety: 'needs-care',
    difference: 'Needs @fastify/view; the callback form becomes a promise, and render errors reject instead of reaching the callback.',
    requires: ['@fastify/view'],
    stage: 'routes',
    source: '§1.4 (res.render row)',
  },
  'app.mountpath': {
    api: 'app.mountpath',
    fastify: 'fastify.prefix (inside the plugin)',
    safety: 'needs-care',
    difference: 'The prefix is known at registration only; a sub-app mounted at several paths (array mountpath) becomes one registration per path.',
    stage: 'routes',
    source: '§1.3 (req.baseUrl row), §1.2',
  },

  // ── §1.2 Router ───────────────────────────────────────────────────────────────────────────
  'express.Router': {
    api: 'express.Router',
    aliases: ['Router'],
    fastify: "async function routes(fastify) { … } + fastify.register(routes, { prefix: '/p' })",
    safety: 'needs-care',
    difference: "A plugin is encapsulated: its hooks and decorators do not leak unless wrapped in fastify-plugin, and fastify-plugin disables `prefix`. Under prefix `/p`, a `'/'` route matches both `/p` and `/p/` (prefixTrailingSlash 'both').",
    stage: 'routes',
    source: '§1.2',
  },
  'router.METHOD': {
    api: 'router.METHOD',
    aliases: ['router.get', 'router.post', 'router.put', 'router.patch', 'router.delete', 'router.del'],
    fastify: 'fastify.get/post/… (path, handler) inside the router’s plugin',
    safety: 'needs-care',
    difference: 'As `app.METHOD`: path syntax (§1.6), specificity ordering (§2.7), duplicate routes throw at boot; the path is relative to the plugin prefix.',
    stage: 'routes',
    source: '§1.1, §1.2',
  },
  'router.mergeParams': {
    api: 'router.mergeParams',
    aliases: ['Router({ mergeParams: true })'],
    fastify: 'default behaviour (prefix params such as /users/:id are always in request.params)',
    safety: 'needs-care',
    difference: 'With `mergeParams: false` (Express’s default) the child router does not see parent params; Fastify always does, so a handler that tests `req.params.id === undefined` behaves differently.',
    stage: 'routes',
    source: '§1.2',
  },
  'router.strict': {
    api: 'router.strict',
    aliases: ['Router({ strict: true })'],
    fastify: 'routerOptions.ignoreTrailingSlash: false (Fastify’s default)',
    safety: 'needs-care',
    difference: 'Global in Fastify, not per router.',
    stage: 'shim',
    source: '§1.2',
  },
  'router.caseSensitive': {
    api: 'router.caseSensitive',
    aliases: ['Router({ caseSensitive: true })'],
    fastify: 'routerOptions.caseSensitive: true (Fastify’s default)',
    safety: 'needs-care',
    difference: 'Global in Fastify, not per router.',
    stage: 'shim',
    source: '§1.2',
  },
  'router.use': {
    api: 'router.use',
    fastify: 'fastify.addHook(…) inside the router’s plugin',
    safety: 'needs-care',
    difference: 'The hook applies to every route of the plugin regardless of order, and not to unknown URLs under the prefix (Express router middleware ran for those: 401 vs 404 for an auth guard).',
    stage: 'routes',
    source: '§1.2, §1.1',
  },
  'router.param': {
    api: 'router.param',
    fastify: 'As app.param: a preValidation hook on the router\'s routes whose path has `:name`',
    safety: 'needs-care',
    difference: 'Same as `app.param`; Express 5 `router.param` no longer accepts an array of names.',
    stage: 'routes',
    source: '§1.2, §2.14',
  },

  // ── next ──────────────────────────────────────────────────────────────────────────────────
  next: {
    api: 'next',
    fastify: 'handlers: none (return or reply.send); hooks: done (callback style) or return (async style)',
    safety: 'needs-care',
    difference: 'Fastify route handlers have no `next`; in hooks `done` takes its place, and an async hook must not call it.',
    stage: 'routes',
    source: '§1.1, §1.5, §5 #4',
  },
  'next()': {
    api: 'next()',
    fastify: 'done() in a callback hook; return in an async hook',
    safety: 'needs-care',
    difference: 'A hook that has already sent must not call `done()`; in a route handler `next()` (fall through to later routes or the 404) has no counterpart.',
    stage: 'routes',
    source: '§1.1, §1.5',
  },
  'next(err)': {
    api: 'next(err)',
    fastify: 'throw err (async) / reply.send(err) (sync handler) / done(err) (callback hook)',
    safety: 'needs-care',
    difference: 'The error reaches the plugin’s setErrorHandler (Fastify’s default answers JSON `{statusCode, error, message}`, message exposed for 5xx) instead of the Express error middleware / finalhandler HTML page.',
    stage: 'routes',
    source: '§1.5 rule 5, §2.2, §2.12',
  },
  "next('route')": {
    api: "next('route')",
    fastify: 'none: merge the routes into one conditional handler (or a route constraint when the condition is a header/host)',
    safety: 'no-equivalent',
    difference: 'Fastify cannot skip to the next route with the same path, and cannot even register it (FST_ERR_DUPLICATED_ROUTE).',
    stage: 'manual',
    source: '§2.14, §1.1',
  },
  "next('router')": {
    api: "next('router')",
    fastify: 'none',
    safety: 'no-equivalent',
    difference: 'Fastify has no way to leave a plugin and continue matching in the parent; the routes must be restructured.',
    stage: 'manual',
    source: '§1.1',
  },

  // ── §1.3 Request ──────────────────────────────────────────────────────────────────────────
  'req.body': {
    api: 'req.body',
    fastify: 'request.body',
    safety: 'needs-care',
    difference: '`undefined` for GET/HEAD, without a body and for content types without a parser (Express 4 `{}`); Fastify parses text/plain to a string and accepts non-object JSON, and validation schemas coerce and strip (§2.8).',
    shape: { use: 'property' },
    rewrite: { form: 'request.body', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3, §2.10',
  },
  'req.params': {
    api: 'req.params',
    fastify: 'request.params',
    safety: 'needs-care',
    difference: "A null-prototype object (as Express 5; Express 4 plain); the wildcard is `params['*']` (\"a/b\") where Express 4 had `params[0]` and Express 5 `params.splat` (an array); unmatched optional params are absent (Express 4: key with undefined).",
    shape: { use: 'property' },
    rewrite: { form: 'request.params', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.query': {
    api: 'req.query',
    fastify: 'request.query',
    safety: 'needs-care',
    difference: 'Flat parsing: `?a[b]=1&d[]=x` gives `{"a[b]":"1","d[]":"x"}` (Express 4 `{a:{b:"1"},d:["x"]}`) unless the shim sets a qs parser; `;` no longer separates pairs; writable (Express 5 `req.query` is a getter).',
    shape: { use: 'property' },
    rewrite: { form: 'request.query', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3, §2.9',
  },
  'req.cookies': {
    api: 'req.cookies',
    fastify: 'request.cookies (@fastify/cookie)',
    safety: 'needs-care',
    difference: 'cookie-parser decoded `j:{…}` JSON cookies into objects and moved `s:`-signed ones into signedCookies; @fastify/cookie does neither.',
    requires: ['@fastify/cookie'],
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.cookies', note: 'set by cookie-parser in the bridge', where: 'moved-routes' },
    addedBy: ['cookie-parser'],
    stage: 'routes',
    source: '§1.3, §3 (cookie-parser)',
  },
  'req.signedCookies': {
    api: 'req.signedCookies',
    fastify: 'request.unsignCookie(request.cookies[name]) → { valid, renew, value }',
    safety: 'needs-care',
    difference: 'Express-signed values carry an `s:` prefix (`s:value.sig`), Fastify signs `value.sig` with the same HMAC-SHA256: strip `s:` before unsigning legacy cookies; the result is an object, not the value.',
    requires: ['@fastify/cookie'],
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.signedCookies', note: 'set by cookie-parser in the bridge', where: 'moved-routes' },
    addedBy: ['cookie-parser'],
    stage: 'routes',
    source: '§1.3',
  },
  'req.ip': {
    api: 'req.ip',
    fastify: 'request.ip',
    safety: 'needs-care',
    difference: 'Without trust proxy, Express shows `::ffff:127.0.0.1` where Fastify shows `127.0.0.1` on the same dual-stack socket (depends on the listen address).',
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.ip', note: "Express's own getter on its request in the bridge (the app's trust proxy setting applies, as in Express)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.ips': {
    api: 'req.ips',
    fastify: 'request.ips',
    safety: 'needs-care',
    difference: 'Express: `[]` without trust, furthest-first excluding the socket peer with it; Fastify: `undefined` without trustProxy, closest-first including the socket address with it.',
    stage: 'routes',
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.ips', note: "Express's own getter on its request in the bridge (the app's trust proxy setting applies, as in Express)", where: 'moved-routes' },
    source: '§1.3',
  },
  'req.hostname': {
    api: 'req.hostname',
    fastify: 'request.hostname',
    safety: 'needs-care',
    difference: 'Behind a trusted proxy Express uses the first X-Forwarded-Host entry, Fastify the last; a missing host is `undefined` in Express, `\'\'` in Fastify.',
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.hostname', note: "Express's own getter on its request in the bridge (the app's trust proxy setting applies, as in Express)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.host': {
    api: 'req.host',
    fastify: 'Express 4: request.hostname; Express 5: request.host',
    safety: 'needs-care',
    difference: 'Express 4 `req.host` is the deprecated alias of hostname (no port), Express 5 includes the port; Fastify 5 `hostname` has no port (Fastify 4’s had).',
    stage: 'routes',
    source: '§1.3',
  },
  'req.protocol': {
    api: 'req.protocol',
    fastify: 'request.protocol',
    safety: 'needs-care',
    difference: 'Behind a trusted proxy Express uses the first X-Forwarded-Proto entry, Fastify the last.',
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.protocol', note: "Express's own getter on its request in the bridge (the app's trust proxy setting applies, as in Express)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.secure': {
    api: 'req.secure',
    fastify: "request.protocol === 'https'",
    safety: 'safe',
    difference: '',
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.secure', note: "Express's own getter on its request in the bridge (the app's trust proxy setting applies, as in Express)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.path': {
    api: 'req.path',
    fastify: "request.url.split('?')[0]",
    safety: 'no-equivalent',
    difference: 'Express’s value is relative to the mount point (`/info` under `/mount`); Fastify’s URL is always the full path.',
    shape: { use: 'property' },
    rewrite: { form: 'request.url.split(\'?\')[0], at the app level only', where: 'everywhere', scope: 'app' },
    stage: 'manual',
    source: '§1.3',
  },
  'req.originalUrl': {
    api: 'req.originalUrl',
    fastify: 'request.originalUrl',
    safety: 'safe',
    difference: '',
    note: 'Differs only when Fastify’s `rewriteUrl` is used.',
    shape: { use: 'property' },
    rewrite: { form: 'request.originalUrl', where: 'everywhere' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.baseUrl': {
    api: 'req.baseUrl',
    fastify: 'none (the plugin prefix is known at registration: fastify.prefix)',
    safety: 'no-equivalent',
    difference: 'Fastify requests carry no mount path; the prefix must be captured at registration.',
    shape: { use: 'property' },
    rewrite: { form: '\'\' at the app level only (inside a router it is the mount path)', where: 'moved-routes', scope: 'app' },
    stage: 'manual',
    source: '§1.3',
  },
  'req.url': {
    api: 'req.url',
    fastify: 'request.url',
    safety: 'no-equivalent',
    difference: 'Express strips the mount path inside routers (`/info?z=1` vs `/mount/info?z=1`); Fastify’s is the full URL.',
    shape: { use: 'property' },
    rewrite: { form: 'request.url, at the app level only (Express strips the mount path inside routers)', where: 'everywhere', scope: 'app' },
    stage: 'manual',
    source: '§1.3',
  },
  'req.get': {
    api: 'req.get',
    aliases: ['req.header'],
    fastify: 'request.headers[name.toLowerCase()]',
    safety: 'needs-care',
    difference: 'Express treats `Referer` and `Referrer` as the same header; the plain lookup does not.',
    shape: { use: 'call' },
    rewrite: { form: 'request.headers[\'name\'] (lower-cased; Referer/Referrer aliased)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.is': {
    api: 'req.is',
    fastify: 'request.is(types) (@fastify/sensible) or type-is',
    safety: 'safe',
    difference: '',
    requires: ['@fastify/sensible'],
    shape: { use: 'call' },
    rewrite: { form: 'request.raw.is(types)', note: "Express's own method on its request in the bridge (type-is over the headers)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.accepts': {
    api: 'req.accepts',
    fastify: 'request.accepts().type(types) (@fastify/accepts)',
    safety: 'needs-care',
    difference: 'Different call shape (`accepts()` returns the negotiator); the returned values are the same (accepts package).',
    requires: ['@fastify/accepts'],
    shape: { use: 'call' },
    rewrite: { form: 'request.raw.accepts(types)', note: "Express's own method on its request in the bridge (negotiates over the Accept header)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.acceptsCharsets': {
    api: 'req.acceptsCharsets',
    aliases: ['req.acceptsCharset'],
    fastify: 'request.charsets(list) (@fastify/accepts)',
    safety: 'needs-care',
    difference: 'Different call shape; the Express 4 singular name is deprecated and removed in Express 5.',
    requires: ['@fastify/accepts'],
    stage: 'routes',
    source: '§1.3',
  },
  'req.acceptsEncodings': {
    api: 'req.acceptsEncodings',
    aliases: ['req.acceptsEncoding'],
    fastify: 'request.encodings(list) (@fastify/accepts)',
    safety: 'needs-care',
    difference: 'Different call shape; the Express 4 singular name is deprecated and removed in Express 5.',
    requires: ['@fastify/accepts'],
    stage: 'routes',
    source: '§1.3',
  },
  'req.acceptsLanguages': {
    api: 'req.acceptsLanguages',
    aliases: ['req.acceptsLanguage'],
    fastify: 'request.languages(list) (@fastify/accepts)',
    safety: 'needs-care',
    difference: 'Different call shape; the Express 4 singular name is deprecated and removed in Express 5.',
    requires: ['@fastify/accepts'],
    stage: 'routes',
    source: '§1.3',
  },
  'req.xhr': {
    api: 'req.xhr',
    fastify: "(request.headers['x-requested-with'] || '').toLowerCase() === 'xmlhttprequest'",
    safety: 'safe',
    difference: '',
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.xhr', note: "Express's own getter on its request in the bridge (the app's trust proxy setting applies, as in Express)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.fresh': {
    api: 'req.fresh',
    fastify: "fresh(request.headers, { etag: reply.getHeader('etag'), 'last-modified': reply.getHeader('last-modified') })",
    safety: 'needs-care',
    difference: 'Only meaningful when the reply carries validators, and Fastify emits none by default (Express adds an ETag to every send).',
    requires: ['fresh'],
    stage: 'routes',
    source: '§1.3, §2.3',
  },
  'req.stale': {
    api: 'req.stale',
    fastify: "!fresh(request.headers, { etag: reply.getHeader('etag'), 'last-modified': reply.getHeader('last-modified') })",
    safety: 'needs-care',
    difference: 'Only meaningful when the reply carries validators, and Fastify emits none by default (Express adds an ETag to every send).',
    requires: ['fresh'],
    stage: 'routes',
    source: '§1.3, §2.3',
  },
  'req.range': {
    api: 'req.range',
    fastify: 'rangeParser(size, request.headers.range)',
    safety: 'safe',
    difference: '',
    requires: ['range-parser'],
    stage: 'routes',
    source: '§1.3',
  },
  'req.route': {
    api: 'req.route',
    fastify: 'request.routeOptions (.url = full pattern incl. prefix, .method, .config)',
    safety: 'needs-care',
    difference: 'Express `req.route.path` excludes the mount path, `routeOptions.url` includes the prefix; it is `undefined` in the 404 handler.',
    stage: 'routes',
    source: '§1.3',
  },
  'req.app': {
    api: 'req.app',
    fastify: 'request.server',
    safety: 'needs-care',
    difference: 'The encapsulated Fastify instance of the route’s plugin, not one global app: decorations of sibling plugins are invisible.',
    shape: { use: 'property' },
    rewrite: { form: 'request.raw.app', note: "Express's app, on its request in the bridge (`req.app.get('env')` reads the app's settings)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.3',
  },
  'req.res': {
    api: 'req.res',
    fastify: 'reply (the second handler argument); reply.request for the reverse',
    safety: 'needs-care',
    difference: 'There is no link from request to reply: code that reaches `req.res` from helpers must be given the reply.',
    stage: 'routes',
    source: '§1.3',
  },
  'req.param': {
    api: 'req.param',
    fastify: 'request.params[n] ?? request.body?.[n] ?? request.query[n]',
    safety: 'needs-care',
    difference: 'Express 4 only (removed in 5): the explicit lookup must keep its params → body → query precedence.',
    stage: 'routes',
    source: '§1.3',
  },
  'req.subdomains': {
    api: 'req.subdomains',
    fastify: "request.hostname.split('.').reverse().slice(subdomainOffset)",
    safety: 'needs-care',
    difference: 'Computed by hand; Express honours the `subdomain offset` setting and returns `[]` for IP hosts.',
    stage: 'routes',
    source: '§1.3',
  },
  'req.method': {
    api: 'req.method',
    fastify: 'request.method',
    safety: 'safe',
    difference: '',
    shape: { use: 'property' },
    rewrite: { form: 'request.method', where: 'everywhere' },
    stage: 'routes',
    source: '§1.3 (same Node value)',
  },
  'req.headers': {
    api: 'req.headers',
    fastify: 'request.headers',
    safety: 'safe',
    difference: '',
    note: 'The same lower-cased Node headers object.',
    shape: { use: 'property' },
    rewrite: { form: 'request.headers', where: 'everywhere' },
    stage: 'routes',
    source: '§1.3 (same Node value)',
  },
  'req.session': {
    api: 'req.session',
    fastify: 'request.session (@fastify/session, or @fastify/secure-session for cookie-session)',
    safety: 'needs-care',
    difference: '`destroy()`/`regenerate()` return promises; with @fastify/session’s default `cookie.secure: true` nothing is stored over plain HTTP; inside the bridge the Express session lives on `request.raw`.',
    requires: ['@fastify/session', '@fastify/cookie'],
    rewrite: { form: 'request.raw.session', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['express-session', 'cookie-session'],
    stage: 'routes',
    source: '§3 (express-session), §4.3',
  },
  'req.sessionID': {
    api: 'req.sessionID',
    fastify: 'request.session.sessionId',
    safety: 'needs-care',
    difference: 'Another property path; the id format differs unless the generator is carried over (`genid` → `idGenerator`).',
    requires: ['@fastify/session'],
    rewrite: { form: 'request.raw.sessionID', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['express-session'],
    stage: 'routes',
    source: '§3 (express-session)',
  },
  'req.user': {
    api: 'req.user',
    fastify: 'request.user (@fastify/passport, or @fastify/jwt with decoratorName)',
    safety: 'needs-care',
    difference: 'Set by the auth plugin only after it runs (preValidation for @fastify/passport); data set by Express middleware in the bridge lives on `request.raw.user`, not `request.user`.',
    requires: ['@fastify/passport'],
    rewrite: { form: 'request.raw.user', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['passport'],
    stage: 'routes',
    source: '§3 (passport, express-jwt), §4.3',
  },
  'req.auth': {
    api: 'req.auth',
    fastify: "request.auth with @fastify/jwt `decoratorName: 'auth'` (express-jwt v7+)",
    safety: 'needs-care',
    difference: 'The property exists only if @fastify/jwt is registered with that decorator name; its 401 bodies differ (§3 express-jwt).',
    requires: ['@fastify/jwt'],
    rewrite: { form: 'request.raw.auth', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['express-jwt'],
    stage: 'routes',
    source: '§3 (express-jwt)',
  },
  'req.file': {
    api: 'req.file',
    fastify: 'const file = await request.file() (@fastify/multipart)',
    safety: 'needs-care',
    difference: 'A stream part with `filename`/`file`, not multer’s `originalname`/`buffer`/`path`; `fileSize` defaults to `bodyLimit`.',
    requires: ['@fastify/multipart'],
    rewrite: { form: 'request.raw.file', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['multer'],
    stage: 'routes',
    source: '§3 (multer)',
  },
  'req.files': {
    api: 'req.files',
    fastify: 'request.parts() / await request.saveRequestFiles() (@fastify/multipart)',
    safety: 'needs-care',
    difference: 'Async iteration or saved temp files instead of multer arrays / express-fileupload objects (`mv()` is gone).',
    requires: ['@fastify/multipart'],
    rewrite: { form: 'request.raw.files', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['multer', 'express-fileupload'],
    stage: 'routes',
    source: '§3 (multer, express-fileupload)',
  },
  'req.csrfToken': {
    api: 'req.csrfToken',
    fastify: 'reply.generateCsrf() (@fastify/csrf-protection)',
    safety: 'needs-care',
    difference: 'Generated on the reply; the token is not read from `query._csrf` by default.',
    requires: ['@fastify/csrf-protection'],
    rewrite: { form: 'request.raw.csrfToken', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['csurf'],
    stage: 'routes',
    source: '§3 (csurf)',
  },
  'req.flash': {
    api: 'req.flash',
    fastify: 'request.flash(type, msg) to write; reply.flash(type) to read (@fastify/flash)',
    safety: 'needs-care',
    difference: 'Reads move to the reply: `req.flash(type)` with one argument becomes `reply.flash(type)`.',
    requires: ['@fastify/flash'],
    rewrite: { form: 'request.raw.flash(type, msg)', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['connect-flash'],
    stage: 'routes',
    source: '§3 (connect-flash)',
  },
  'req.login': {
    api: 'req.login',
    aliases: ['req.logIn', 'req.logout', 'req.logOut', 'req.isAuthenticated', 'req.isUnauthenticated'],
    fastify: 'request.logIn / request.logOut / request.isAuthenticated / request.isUnauthenticated (@fastify/passport)',
    safety: 'needs-care',
    difference: 'Promise-based (`await request.logIn(user)`); the session is cleared on login by default (`clearSessionOnLogin`).',
    requires: ['@fastify/passport'],
    rewrite: { form: 'request.raw.login', note: 'set by its Express middleware in the bridge', where: 'moved-routes' },
    addedBy: ['passport'],
    stage: 'routes',
    source: '§3 (passport)',
  },

  // ── §1.4 Response ─────────────────────────────────────────────────────────────────────────
  'res.status': {
    api: 'res.status',
    fastify: 'reply.code(c) / reply.status(c)',
    safety: 'needs-care',
    difference: 'Fastify throws FST_ERR_BAD_STATUS_CODE outside 100–599 (Express 5 accepts 100–999, Express 4 anything and fails later in writeHead).',
    shape: { use: 'call', chainable: true },
    rewrite: { form: 'reply.code(c)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.send': {
    api: 'res.send',
    fastify: "reply.send(body), with reply.type('text/html; charset=utf-8') for string bodies",
    safety: 'needs-care',
    difference: 'A bare `reply.send(string)` goes out as text/plain; charset=utf-8 where Express sent text/html; `null` becomes the JSON body `null`, and Express 4 treats a number as a status code. No automatic ETag/304.',
    shape: { use: 'call', chainable: true, answers: true },
    rewrite: { form: 'reply.send(x); a string gets reply.type(\'text/html; charset=utf-8\') first; res.send(null) → reply.send(); on a moved route, a value whose kind is known only at run time (or a number) → sendLikeExpress(reply, x), the choice Express\'s res.send makes for the app\'s major made at run time (fastify-like-express module)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4, §2.4, §2.5; Express 4.x/5.x lib/response.js send',
  },
  'res.send(string)': {
    api: 'res.send(string)',
    fastify: "reply.type('text/html; charset=utf-8').send(s)",
    safety: 'needs-care',
    difference: 'Without the explicit type, `reply.send(s)` is text/plain; charset=utf-8 (Express: text/html; charset=utf-8).',
    stage: 'routes',
    source: '§1.4, §2.4',
  },
  'res.send(object)': {
    api: 'res.send(object)',
    fastify: 'reply.send(obj)',
    safety: 'safe',
    difference: '',
    note: 'Same JSON text when the route has no response schema; headers per §2.',
    stage: 'routes',
    source: '§1.4',
  },
  'res.send(null)': {
    api: 'res.send(null)',
    fastify: 'reply.send()',
    safety: 'needs-care',
    difference: 'Express sends an empty body with no Content-Type and CL 0; `reply.send(null)` sends the body `null` as application/json, so the codemod must drop the argument.',
    stage: 'routes',
    source: '§1.4, §2.5',
  },
  'res.send(undefined)': {
    api: 'res.send(undefined)',
    fastify: 'reply.send()',
    safety: 'safe',
    difference: '',
    note: 'Both: CL 0, no Content-Type.',
    stage: 'routes',
    source: '§1.4',
  },
  'res.send(number)': {
    api: 'res.send(number)',
    fastify: 'Express 5: reply.send(n); Express 4: reply.code(n).send(http.STATUS_CODES[n])',
    safety: 'needs-care',
    difference: 'Express 4 treats the number as a status (`res.send(200)` → "OK" text/plain, `res.send(42)` → 500 RangeError page); Express 5 and Fastify send it as JSON.',
    stage: 'routes',
    source: '§1.4, §2.5',
  },
  'res.send(buffer)': {
    api: 'res.send(buffer)',
    fastify: 'reply.send(buf)',
    safety: 'safe',
    difference: '',
    note: 'Both application/octet-stream (Express 5.1+ also takes Uint8Array).',
    stage: 'routes',
    source: '§1.4',
  },
  'res.send(body, status)': {
    api: 'res.send(body, status)',
    aliases: ['res.send(status, body)'],
    fastify: 'reply.code(status).send(body)',
    safety: 'safe',
    difference: '',
    note: 'Express 4 only (removed in 5).',
    stage: 'routes',
    source: '§1.4',
  },
  'res.json': {
    api: 'res.json',
    fastify: "reply.send(obj); strings: reply.type('application/json; charset=utf-8').send(JSON.stringify(x))",
    safety: 'needs-care',
    difference: "`reply.send('x')` sends raw text where `res.json('x')` sent `\"x\"`; `res.json(undefined)` is an empty body with application/json; `res.json(err)` is `{}` 200 but `reply.send(err)` takes the 500 error path; buffers are sent raw, not as `{type:'Buffer',data}`; a response schema reshapes the body (§2.8).",
    shape: { use: 'call', chainable: true, answers: true },
    rewrite: { form: 'reply.send(obj) for an object; otherwise reply.type(\'application/json; charset=utf-8\').send(JSON.stringify(x))', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4, §2.5, §2.8',
  },
  'res.jsonp': {
    api: 'res.jsonp',
    fastify: "none; hand-written: callback from request.query.callback, reply.type('text/javascript; charset=utf-8'), X-Content-Type-Options: nosniff, body `/**/ typeof cb === 'function' && cb(json);`",
    safety: 'no-equivalent',
    difference: 'Fastify has no JSONP: the callback validation, content type and wrapper must be written by hand (or JSONP retired in favour of CORS).',
    shape: { use: 'call', answers: true },
    stage: 'manual',
    source: '§1.4',
  },
  'res.sendStatus': {
    api: 'res.sendStatus',
    fastify: 'reply.code(c).send(http.STATUS_CODES[c] ?? String(c))',
    safety: 'safe',
    difference: '',
    note: 'Observed identical body and text/plain; charset=utf-8 [probe]; the codemod sets the type explicitly.',
    shape: { use: 'call', chainable: true, answers: true },
    rewrite: { form: 'reply.code(c).type(\'text/plain; charset=utf-8\').send(\'<status text>\')', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.set': {
    api: 'res.set',
    aliases: ['res.header'],
    fastify: 'reply.header(k, v) / reply.headers(obj)',
    safety: 'needs-care',
    difference: "Express adds a charset to Content-Type (`res.set('Content-Type', 'text/plain')` → `text/plain; charset=utf-8`), Fastify writes it literally (only JSON types gain a charset); `reply.header('set-cookie', …)` appends, other names overwrite.",
    shape: { use: 'call', chainable: true },
    rewrite: { form: 'reply.header(k, v) / reply.headers({…}); a literal Content-Type gets Express\'s charset', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4, §2.4',
  },
  'res.get': {
    api: 'res.get',
    fastify: 'reply.getHeader(k)',
    safety: 'safe',
    difference: '',
    shape: { use: 'call' },
    rewrite: { form: 'reply.getHeader(k)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.type': {
    api: 'res.type',
    aliases: ['res.contentType'],
    fastify: "reply.type(fullMime): html → 'text/html; charset=utf-8', json → 'application/json; charset=utf-8', txt/text → 'text/plain; charset=utf-8', else mime.contentType(t)",
    safety: 'needs-care',
    difference: "Express resolves extensions (`'json'`, `'html'`, `'.png'`) and adds a charset; `reply.type('json')` stores the literal `json`, which Fastify treats as invalid (string bodies go out as text/plain), so the codemod must expand it.",
    requires: ['mime-types'],
    shape: { use: 'call', chainable: true },
    rewrite: { form: 'reply.type(\'<full type>; charset=utf-8\') (html, json, txt, text, xml, css, csv or a full type)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4, §2.4',
  },
  'res.redirect': {
    api: 'res.redirect',
    fastify: 'reply.redirect(encodeurl(url), status) — url first in v5',
    safety: 'needs-care',
    difference: "Express writes a short body (\"Found. Redirecting to …\" or HTML) with Vary: Accept and percent-encodes the URL; Fastify sends an empty body, no Content-Type, no Vary, and the URL as given. `res.status(301).redirect(u)` gives 302 in Express but 301 in Fastify; Express 4 `'back'` → `request.headers.referer || '/'`.",
    requires: ['encodeurl'],
    shape: { use: 'call', answers: true },
    rewrite: { form: "redirectLikeExpress(reply, …) on a moved route (fastify-like-express module: Express's own res.redirect, body, Vary and 'back' included); in a moved error handler reply.redirect(encodeUrl(url), status?) (the body differs: framework default redirect-body)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4, §2.11',
  },
  'res.location': {
    api: 'res.location',
    fastify: "reply.header('location', encodeurl(url))",
    safety: 'safe',
    difference: '',
    requires: ['encodeurl'],
    shape: { use: 'call', chainable: true },
    rewrite: { form: 'reply.header(\'location\', encodeUrl(url))', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.render': {
    api: 'res.render',
    fastify: 'reply.view(view, data) / return reply.viewAsync(view, data); callback form → const html = await fastify.view(view, data)',
    safety: 'needs-care',
    difference: 'Needs @fastify/view; the content type is text/html; charset=utf-8 (option `charset`), and render errors go to Fastify’s JSON error path instead of the Express error middleware.',
    requires: ['@fastify/view'],
    shape: { use: 'call', answers: true },
    rewrite: { form: 'reply.view(view, locals) on a moved route whose context registers @fastify/view as the app\'s views (transforms/plugin-registrations/view.ts)', where: 'moved-routes', answersLater: true },
    stage: 'routes',
    source: '§1.4, §3 (view engines)',
  },
  'res.sendFile': {
    api: 'res.sendFile',
    fastify: 'reply.sendFile(relName, rootDir?, opts?) (@fastify/static, `serve: false` when only used programmatically)',
    safety: 'needs-care',
    difference: 'The absolute path must be split into root + name and the callback form is unsupported; headers follow @fastify/send (`Cache-Control: public, max-age=0`, weak `W/"size-mtime"` ETag), and Express 4 wrote `charset=UTF-8` where @fastify/static writes `utf-8`.',
    requires: ['@fastify/static'],
    shape: { use: 'call', answers: true },
    rewrite: { form: "sendFileLikeExpress(reply, path[, options]) (fastify-like-express module: Express's own res.sendFile on Express's response) for a call without a callback, options an object literal", where: 'moved-routes', answersLater: true },
    stage: 'routes',
    source: '§1.4, §2.4; Express 4.x/5.x lib/response.js sendFile',
  },
  'res.download': {
    api: 'res.download',
    fastify: 'reply.download(relName, name?, opts?) (@fastify/static)',
    safety: 'needs-care',
    difference: 'Same root caveat as sendFile; @fastify/static (content-disposition 3) writes token filenames unquoted (`filename=user.html`) like Express 5.3, where Express 4 quoted them.',
    requires: ['@fastify/static'],
    shape: { use: 'call', answers: true },
    stage: 'plugins',
    source: '§1.4',
  },
  'res.attachment': {
    api: 'res.attachment',
    fastify: "reply.header('content-disposition', contentDisposition(name)).type(mime.contentType(extname(name)))",
    safety: 'safe',
    difference: '',
    requires: ['content-disposition', 'mime-types'],
    shape: { use: 'call', chainable: true },
    rewrite: { form: 'reply.header(\'content-disposition\', contentDisposition(name)).type(\'<type of the extension>\') in an Express 4 app, chained before .send(<string>)/.send()/.type(…)', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.cookie': {
    api: 'res.cookie',
    fastify: "reply.setCookie(n, String(v), { path: '/', sameSite: false, maxAge: ms / 1000, expires: new Date(Date.now() + ms), …o }) (@fastify/cookie)",
    safety: 'needs-care',
    difference: 'Fastify adds `SameSite=Lax` by default, no `Path` unless given, and takes `maxAge` in seconds (Express: milliseconds, plus `Expires`); object values (`j:`) and `signed` (`s:` prefix) differ, and a second cookie with the same name/domain/path replaces the first (Express emits both).',
    requires: ['@fastify/cookie'],
    shape: { use: 'call', chainable: true },
    rewrite: { form: "cookieLikeExpress(reply, name, value, options) (fastify-like-express module: Express's own res.cookie on Express's response, so the Set-Cookie header is Express's, signed ones with cookie-parser's secret)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4; Express 4.x/5.x lib/response.js cookie',
  },
  'res.clearCookie': {
    api: 'res.clearCookie',
    fastify: 'reply.clearCookie(n, o) (@fastify/cookie)',
    safety: 'needs-care',
    difference: 'Fastify writes `a=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`, Express `a=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`; Express 5 ignores a user `maxAge`/`expires`.',
    requires: ['@fastify/cookie'],
    shape: { use: 'call', chainable: true },
    rewrite: { form: "clearCookieLikeExpress(reply, name, options) (fastify-like-express module: Express's own res.clearCookie on Express's response, as the app's Express major writes it)", where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4; Express 4.x/5.x lib/response.js clearCookie',
  },
  'res.locals': {
    api: 'res.locals',
    fastify: "reply.locals (with @fastify/view), or decorateReply('locals', null) + an onRequest hook setting {}",
    safety: 'needs-care',
    difference: '`reply.locals` exists only when @fastify/view is registered (or the decorator is added); inside the bridge, Express middleware writes `reply.raw.locals`, not `reply.locals`.',
    shape: { use: 'property' },
    rewrite: { form: 'reply.raw.locals (Express middleware filled it in the bridge)', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4, §4.3, §5 #6',
  },
  'res.append': {
    api: 'res.append',
    fastify: "set-cookie: reply.header('set-cookie', v) (appends); other headers: reply.header(k, [].concat(reply.getHeader(k) ?? [], v))",
    safety: 'needs-care',
    difference: '`reply.header` overwrites every header but set-cookie, so appending needs the explicit concat.',
    shape: { use: 'call', chainable: true },
    rewrite: { form: 'appendLikeExpress(reply, name, value) (fastify-like-express module: the value after the header\'s, as strings) for a literal name other than Content-Type', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4; Express 4.x/5.x lib/response.js append',
  },
  'res.vary': {
    api: 'res.vary',
    fastify: 'reply.vary(f) (@fastify/sensible) or vary.append',
    safety: 'safe',
    difference: '',
    note: 'Express 5 throws when the field is missing.',
    requires: ['@fastify/sensible'],
    shape: { use: 'call', chainable: true },
    rewrite: { form: 'varyLikeExpress(reply, field) (fastify-like-express module: vary.append with the vary Express loads; Express 4 ignores an empty field)', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4; Express 4.x/5.x lib/response.js vary',
  },
  'res.links': {
    api: 'res.links',
    fastify: "reply.header('link', built by hand)",
    safety: 'safe',
    difference: '',
    note: 'Express 5.1+ accepts arrays per rel.',
    shape: { use: 'call', chainable: true },
    rewrite: { form: 'linksLikeExpress(reply, links) (fastify-like-express module: Express\'s Link text for the app\'s major, after the Link set before)', where: 'moved-routes' },
    stage: 'routes',
    source: '§1.4; Express 4.x/5.x lib/response.js links',
  },
  'res.format': {
    api: 'res.format',
    fastify: "@fastify/accepts + a switch on request.accepts().type([...]), reply.header('vary', 'Accept'), and a 406 fallback",
    safety: 'needs-care',
    difference: 'Express’s 406 goes through `next(err)` (the HTML error page); the hand-written fallback answers what the code sends.',
    requires: ['@fastify/accepts'],
    shape: { use: 'call' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.end': {
    api: 'res.end',
    fastify: 'reply.send(data)',
    safety: 'needs-care',
    difference: 'Node `res.end(str)` sends no Content-Type, `reply.send(str)` adds text/plain; charset=utf-8; exact parity only with `reply.hijack(); reply.raw.end(data)`, which skips onSend hooks (cookies, CORS, helmet headers set via reply are lost).',
    shape: { use: 'call', answers: true },
    rewrite: { form: 'reply.send() (no body only)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.headersSent': {
    api: 'res.headersSent',
    fastify: 'reply.sent (true after send or hijack()) / reply.raw.headersSent',
    safety: 'needs-care',
    difference: '`reply.sent` is also true after `hijack()` and before the headers are written.',
    shape: { use: 'property' },
    rewrite: { form: 'reply.raw.headersSent', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.send (in a hook)': {
    api: 'res.send (in a hook)',
    aliases: ['res.status().json() (in a hook)', 'res.sendStatus (in a hook)'],
    fastify: 'callback hook: reply.code(c).send(x) and do not call done; async hook: return reply.code(c).send(x)',
    safety: 'needs-care',
    difference: 'Sending and then calling `done` (or not returning reply) sends twice: a FST_ERR_REP_ALREADY_SENT warning and the later hooks/handler still run.',
    stage: 'routes',
    source: '§1.4',
  },
  'res.statusCode': {
    api: 'res.statusCode',
    fastify: 'reply.statusCode',
    safety: 'safe',
    difference: '',
    shape: { use: 'property' },
    rewrite: { form: 'reply.statusCode (read and write)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4 (res.status row)',
  },
  'res.setHeader': {
    api: 'res.setHeader',
    fastify: 'reply.header(k, v)',
    safety: 'needs-care',
    difference: 'Node’s setHeader on `reply.raw` bypasses the reply’s header store; via `reply.header` names are lower-cased and set-cookie appends. A Content-Type set with it gets a charset from Express’s res.send for string bodies, and is written as given by Fastify: it converts only where every answer goes through sendLikeExpress (or is res.end() / res.sendStatus).',
    shape: { use: 'call' },
    rewrite: { form: 'reply.header(k, v) (a literal name; Content-Type only in a moved route handler whose every answer is res.send (→ sendLikeExpress), res.end() or res.sendStatus)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4 (res.set row), §2.3; Express 4/5 lib/response.js send (setCharset on a string body)',
  },
  'res.getHeader': {
    api: 'res.getHeader',
    fastify: 'reply.getHeader(k)',
    safety: 'safe',
    difference: '',
    note: "reply.getHeader reads the reply's headers, then Node's response (where the app's Express middleware set them in the bridge).",
    shape: { use: 'call' },
    rewrite: { form: 'reply.getHeader(k)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4 (res.get row)',
  },
  'res.removeHeader': {
    api: 'res.removeHeader',
    fastify: 'reply.removeHeader(k)',
    safety: 'safe',
    difference: '',
    note: "reply.removeHeader removes it from the reply's headers and from Node's response.",
    shape: { use: 'call' },
    rewrite: { form: 'reply.removeHeader(k)', where: 'everywhere' },
    stage: 'routes',
    source: '§1.4',
  },
  'res.write': {
    api: 'res.write',
    aliases: ['res.writeHead', 'res.flushHeaders'],
    fastify: 'reply.send(stream), or reply.hijack() + reply.raw.write(…)',
    safety: 'no-equivalent',
    difference: 'Fastify replies are sent once; incremental writes need a stream payload or a hijacked raw response, which skips onSend hooks (cookies, CORS, compression).',
    stage: 'manual',
    source: '§1.4 (res.end row)',
  },
  'res.app': {
    api: 'res.app',
    fastify: 'reply.server',
    safety: 'needs-care',
    difference: 'The encapsulated instance of the route’s plugin, not a global app.',
    stage: 'routes',
    source: '§1.3 (req.app row)',
  },
  'res.req': {
    api: 'res.req',
    fastify: 'reply.request',
    safety: 'safe',
    difference: '',
    stage: 'routes',
    source: '§1.3 (req.res row)',
  },
} as const satisfies Record<string, ApiEntry>;

/** A catalogued API key. */
export type ApiKey = keyof typeof API;

const ALIASES: ReadonlyMap<string, ApiEntry> = new Map(
  Object.values(API as Record<string, ApiEntry>).flatMap((e) => (e.aliases ?? []).map((a) => [a, e] as const)),
);

function lookup(key: string): ApiEntry | undefined {
  return Object.hasOwn(API, key) ? (API as Record<string, ApiEntry>)[key] : ALIASES.get(key);
}

/**
 * The entry for an Express API use, or `undefined` when it is not catalogued.
 *
 * Accepts a key or an alias (`req.header` → the `req.get` entry, `app.post` → `app.METHOD`),
 * and normalises what the analyzer and rules write: double quotes become single quotes
 * (`app.set("trust proxy")`), `request.`/`response.` prefixes become `req.`/`res.`, a trailing
 * call `()` is dropped (`res.json()` → `res.json`; `next()` stays), and a property path falls
 * back to its first two segments (`req.body.name` → `req.body`, `res.locals.user` → `res.locals`,
 * `req.session.destroy` → `req.session`). A setting call with a value resolves to the setting's
 * entry (`app.set('trust proxy', 1)` → `app.set('trust proxy')`, `app.enable('strict routing')`
 * → `app.set('strict routing')`), else to the method's (`app.set('my thing', x)` → `app.set`);
 * `app.get('<name>')` with a single argument is a setting read (`app.get(setting)`).
 */
export function apiFor(api: string): ApiEntry | undefined {
  const key = api.trim().replace(/"/g, "'").replace(/^request\./, 'req.').replace(/^response\./, 'res.');
  const direct = lookup(key);
  if (direct) return direct;
  const setting = /^(app\.\w+)\('([^']*)'.*\)$/.exec(key);
  if (setting && setting[1] === 'app.get' && key.endsWith(`'${setting[2]}')`)) return lookup('app.get(setting)');
  if (setting) return lookup(`${setting[1]}('${setting[2]}')`) ?? lookup(`app.set('${setting[2]}')`) ?? lookup(setting[1]);
  const uncalled = key.replace(/\(\)$/, '');
  if (uncalled !== key && lookup(uncalled)) return lookup(uncalled);
  const path = /^((?:req|res|app|router)\.[A-Za-z_$][\w$]*)[.[(]/.exec(uncalled);
  return path ? lookup(path[1]) : undefined;
}

/**
 * The members an Express app (the function `express()` returns) has, own and inherited: Express 4
 * and 5 lib/application.js, the HTTP method names of the `methods` package, EventEmitter's. A
 * property of that name set on the app (`module.exports.handle = handle` next to
 * `module.exports = app`) replaces it: the errors stage never exports a moved handler so.
 */
export const EXPRESS_APP_MEMBERS: ReadonlySet<string> = new Set(
  (
    'acl addListener all bind cache checkout connect copy defaultConfiguration del delete disable disabled emit enable enabled engine engines eventNames get ' +
    'getMaxListeners handle head init lazyrouter link listen listenerCount listeners locals lock merge mkactivity mkcalendar mkcol mountpath move notify off on once ' +
    'options param patch path post prependListener prependOnceListener propfind proppatch purge put query rawListeners rebind removeAllListeners removeListener render ' +
    'report request response route router search set setMaxListeners settings source subscribe trace unbind unlink unlock unsubscribe use _router'
  ).split(' '),
);

/**
 * The members Node's own request (`http.IncomingMessage`, with its Readable stream and EventEmitter
 * members) has before Express sets its prototype: what a function of the app handed Fastify's
 * `request.raw` finds there on a route that runs no Express code. Node's http documentation
 * (class http.IncomingMessage); Express's additions (`req.get`, `req.originalUrl`, `req.query`, …)
 * are not among them.
 */
export const NODE_REQUEST_MEMBERS: ReadonlySet<string> = new Set(
  (
    'aborted complete connection destroy headers headersDistinct httpVersion httpVersionMajor httpVersionMinor method rawHeaders rawTrailers setTimeout socket ' +
    'statusCode statusMessage trailers trailersDistinct url addListener emit on once off pipe read removeListener'
  ).split(' '),
);
