/**
 * The Inventory: one versioned JSON model of an application's routing, read by rules, reports,
 * the checklist, stage plans and the verifier (DESIGN.md, "The Inventory").
 *
 * Conventions: paths are POSIX and relative to the project root; lines and columns are 1-based;
 * ids are stable across codemods (hashes of what a record is about, never of line numbers).
 * The JSON Schema in `inventory.schema.json` describes exactly these types.
 */

/** Semver of the Inventory shape; bump the major when a field changes meaning. */
export const SCHEMA_VERSION = '2.2.0';

/**
 * Diagnostic codes meaning registrations may be missing from the inventory: calls it could not
 * attribute, imports it could not follow, registrars and decorators it could not read, directory
 * scans. Any of them makes the inventory incomplete (analyzer-patterns.md §4.6).
 */
export const BLIND_SPOTS: readonly string[] = ['unresolved-router', 'unresolved-import', 'dynamic-import', 'custom-registrar', 'decorator-routes', 'filesystem-registration'];

/**
 * The statement that holds a registration call: the smallest statement containing it (for a
 * `route(p).get(…).post(…)` chain, the whole chain; the routes of one chain share it). Where a
 * codemod removes or moves a registration from.
 */
export interface StatementSpan {
  /** Start of the statement that holds the registration call (1-based line, 1-based character column). */
  start: { line: number; column: number };
  /** Exclusive end (line and column just after its last character, its `;` included). */
  end: { line: number; column: number };
  /** The statement sits directly in the module's top level (not inside a function, block, if, …). */
  topLevel: boolean;
  /**
   * The statement is exactly the registration (an expression statement whose expression is the
   * call on a plain reference such as `app` or `this.router`, or the whole
   * `app.route(p).get(…).post(…)` chain); false when the call is nested in a larger statement
   * (`const r = app.get(…)`, `module.exports = app.use(…)`, an argument of another call, an
   * expression-bodied function `(app) => app.get(…)`) or chained on another call
   * (`app.use(a).use(b)`: neither is its statement alone).
   */
  own: boolean;
}

/**
 * The call that made a middleware value, when a package's factory made it: `express.json({ limit:
 * '1mb' })`, `bodyParser.urlencoded({ extended: true })`, `cors(corsOptions)`, also when the value
 * is made in one place and registered in another (`const parser = express.json(opts);
 * app.use(parser)`). Its arguments are folded by the evaluator (the values `Setting.value` is
 * folded from), so options held in constants of other modules are read as well.
 */
export interface FactoryCall {
  /** The callee as written at the factory call, line breaks removed (`express.json`, `bodyParser.urlencoded`, `cors`, `new RateLimit`). */
  callee: string;
  /** Where the factory call is (it may be far from the registration). */
  location: Location;
  /** One per argument, in order (a spread argument of a known array counts as its elements). */
  args: FoldedValue[];
}

/** One argument of a factory call, folded. */
export interface FoldedValue {
  /** Source text of the argument (at most 500 characters). */
  source: string;
  /**
   * The JSON value the evaluator folded (objects, arrays, strings, numbers, booleans, null);
   * members it could not fold are left out and listed in `unresolved` (an array with such an
   * element is left out whole); members that are `undefined` are left out as JSON.stringify leaves
   * them out. Absent when nothing folded (or the argument is `undefined`).
   */
  value?: unknown;
  /** `exact` when everything folded; `partial` when some members did not (see `unresolved`); `unresolved` when the argument as a whole did not. */
  resolution: 'exact' | 'partial' | 'unresolved';
  /**
   * Property paths whose value is known only at run time, with why. A path joins keys with `.`
   * and array indexes as `[i]` (`limit`, `cookie.maxAge`, `origin[1]`); `''` is the argument
   * itself; a spread the evaluator could not read is named as written (`...options`, and the
   * properties before it it may replace are listed too); a computed key as `[expression]`. Reasons
   * (folded.ts): the environment expression itself ("process.env.SECRET"), "a function",
   * "a RegExp", "a call (`makeStore()`)", "chosen at run time by `dev`", "a value of the package
   * `connect-redis`", ….
   */
  unresolved?: Array<{
    path: string;
    reason: string;
    /**
     * For a function written in the app's code (reason "a function"; not a class method, nor one
     * bound to a receiver), in a middleware factory's options: where it is written (the function
     * itself), which a transform may export or hoist so the generated module can call it
     * (body-parser's `verify`, serve-static's `setHeaders`), and how it uses its first two
     * parameters as `req` and `res` (as a handler's `usage`). Since schema 2.2.0.
     */
    function?: {
      location: Location;
      /** How many parameters it declares (a generated call passes it no more than it takes, for TypeScript). */
      parameters: number;
      /**
       * Its first two parameters' uses as a handler's (`req.rawBody` written), and `handedOn`: where it
       * hands them on as values the analyzer does not follow (an unresolved call, an alias, a
       * computed member; analyzer/usage.ts unfollowedUses).
       */
      usage: { req: ApiUse[]; res: ApiUse[]; handedOn: Array<{ parameter: 'req' | 'res'; location: Location }> };
    };
  }>;
}

/** How sure the analyzer is about a record. */
export type Resolution = 'exact' | 'partial' | 'inferred' | 'unresolved';

/** A point in the user's source: `file` is POSIX, relative to the project root; 1-based. */
export interface Location {
  file: string;
  line: number;
  column: number;
}

/**
 * Why a record is not `exact`. Codes follow analyzer-patterns.md §4.6: dynamic-path,
 * dynamic-method, call-expression, environment, dynamic-import, filesystem-registration,
 * custom-registrar, unresolved-import, package-handler, parse-error, conditional,
 * unresolved-value, unknown-receiver.
 */
export interface Reason {
  code: string;
  message: string;
  /** Where the blocking expression is. */
  location?: Location;
}

/** Something the analyzer wants a human to know; never dropped silently. */
export interface Diagnostic {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  location?: Location;
}

export type Framework = 'express' | 'fastify';

/**
 * Fastify request hooks that run before a route's handler, in the order Fastify runs them
 * (https://fastify.dev/docs/latest/Reference/Lifecycle/); other hooks (`onSend`, `onResponse`,
 * `onError`, …) run after it or outside requests and are never in a chain.
 */
export type FastifyHook = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler';

/** Which path grammar a path is written in (path-to-regexp 0.1 for Express 4, 8 for Express 5; `fastify`: a Fastify route's path with parameters or wildcards, find-my-way syntax). */
export type PathSyntax = 'plain' | 'express4' | 'express5' | 'fastify' | 'regexp' | 'unresolved';

export interface PathParam {
  name: string;
  optional: boolean;
  /** Express 4 inline pattern, e.g. `\d+` for `/:id(\d+)`. */
  pattern?: string;
  /** `*` (Express 4) or `*name` (Express 5): matches several segments. */
  wildcard: boolean;
  /** True when the parameter is declared in a mount path above the route. */
  fromMount: boolean;
}

export interface RoutePath {
  /** The path as written at the registration site (RegExp as `RegExp(/src/flags)`). */
  raw: string;
  /** Mount prefixes joined with `raw`; no trailing slash except the root. */
  full: string;
  syntax: PathSyntax;
  params: PathParam[];
  /** Set when the path is one element of an array of paths at the registration (`app.get(['/a', '/b'], h)`). */
  element?: boolean;
}

/** One edge of the mount chain, outermost first. */
export interface MountRef {
  mountId: string;
  mountPath: string;
  location: Location;
}

export type ChainScope = 'app' | 'router' | 'route' | 'param';
export type Origin = 'local' | 'package' | 'unknown';

/**
 * An adapter of the hooks module the `routes` stage writes (`fastify-hooks.*`, analyzer/generated.ts),
 * recognised by provenance (the function is that module's): `expressMiddleware(fn)` and
 * `expressParam(name, fn)` run an Express function as a Fastify hook, `expressWildcard(name)` gives
 * an Express 5 wildcard parameter its value, `bodyLikeExpress` (a preHandler hook) and
 * `bodyLeftToExpress` (a content-type parser) leave body parsing to the app's Express parsers; of
 * the `fastify-like-express.*` module (same mark), `wildcardLikeExpress` gives Express 4's `*` its
 * `req.params[0]` (`express-wildcard`) and `paramsLikeExpress(names)` lists Express 4's optional
 * parameters as Express 4 does (`express-params`); `movedToFastify` (`hand-over`), the handler of a
 * moved route's registration left in Express at its place, hands the requests Fastify routed to a
 * moved route over to Fastify there: it is no Express route, and Express middleware after it does
 * not run for them (`markMovedRoute`, an onRequest hook of the moved routes, marks those requests:
 * `hand-over` too).
 */
export interface Adapter {
  kind: 'express-middleware' | 'express-param' | 'express-wildcard' | 'express-body' | 'express-params' | 'hand-over';
  /** express-middleware, express-param: the Express function inside, described as a chain entry is (`requireAuth`, `celebrate [celebrate]`). */
  wraps?: { name: string; origin: Origin; package?: string; definition?: Location };
  /** express-param, express-wildcard: the parameter name (folded from the first argument). */
  param?: string;
}

/** One function that runs before a route's handler (or the handler itself). */
export interface ChainEntry {
  /** Name per fixtures/analyzer/README.md: reference text, or callee without argument lists. */
  name: string;
  scope: ChainScope;
  origin: Origin;
  /** npm package the value comes from (`express` for `express.json()`). */
  package?: string;
  /** Where the function body is, when it is in the project. */
  definition?: Location;
  /** Where it was registered (`app.use`, `router.get`, …). */
  registration: Location;
  /** Id of the `middleware[]` record, for app- and router-level entries. */
  middlewareId?: string;
  /** Wrappers around the innermost function, outermost first (`asyncHandler`). */
  wrappers?: string[];
  resolution: Resolution;
  /** Set when the entry runs only under a condition (`if (env === 'production') app.use(limiter)`): what it is registered under, as source text. */
  conditions?: string[];
  /** For the route's own local middleware (`router.get('/x', protect, h)`) and the local param callbacks of its own parameters: its `req`/`res`/`next` uses, which become a hook's. */
  usage?: { req: ApiUse[]; res: ApiUse[]; next: ApiUse[] };
  /**
   * The Fastify hook it runs in: set for Fastify hooks (`addHook('preHandler', fn)`, a route's
   * `preHandler: [fn]`) and for Express middleware run through `@fastify/express` (then the
   * bridge's `expressHook`, and `bridged` is set). Absent on Express entries of a plain Express app.
   */
  hook?: FastifyHook;
  /** Set when the entry is Express middleware that runs inside `@fastify/express` (`fastify.use(…)`, or an Express app served through it). */
  bridged?: true;
  /** For a `param` entry: the statement of its `router.param(name, fn)` call (StatementSpan). Other entries name their record instead (`middlewareId`, or the route itself). */
  statement?: StatementSpan;
  /** For a package entry a factory made (`express.json({ limit })`): that call, folded. Only on entries without `middlewareId`; app- and router-level entries carry it on their `middleware[]` record. */
  factory?: FactoryCall;
  /** Set when the entry is an adapter of the generated hooks module (`expressMiddleware(requireAuth)` in a moved route's `preHandler`, the `bodyLikeExpress` hook). */
  adapter?: Adapter;
  /** For an Express route's own middleware: where it stands among the registration's arguments (ArgumentSlot). */
  slot?: ArgumentSlot;
}

/**
 * Where one of an Express route's own functions stands in its registration: `argument`, its
 * position among the arguments after the path (0-based; of one verb call in a `route()` chain);
 * `element`, when that argument is an array Express flattens (`router.get('/x', [auth, check], h)`,
 * or a controller `exports.create = [body('name'), …, handler]` registered as
 * `router.post('/x', ctrl.create)`), the index in it, one per level of nesting (`[1]`, `[0, 2]`).
 * Indices are those of the array at run time (spread elements expanded).
 */
export interface ArgumentSlot {
  argument: number;
  element?: number[];
}

export interface Handler {
  name: string;
  origin: Origin;
  package?: string;
  definition?: Location;
  async: boolean;
  /** Declared parameters without default or rest (Function.length); null when unknown. */
  arity: number | null;
  wrappers: string[];
  /** For an Express route: where the handler stands among the registration's arguments (ArgumentSlot), e.g. the last element of a controller's array. */
  slot?: ArgumentSlot;
  /** What reading each of `wrappers` found, in the same order (outermost first); absent when there are none. */
  wrapping?: Wrapping[];
}

/**
 * One wrapper around a handler (`asyncHandler` of `asyncHandler(async (req, res) => …)`), as the
 * analyzer read it (issue 17): whether it only forwards — calls the function it wraps with its
 * own (req, res, next) and hands a throw or a rejection to next, which a Fastify route does itself
 * (Fastify awaits the handler and sends a rejection to the error handler) — and where it is
 * applied, so that the routes stage can unwrap it (analyzer/wrapper-shape.ts; packages: the
 * catalogue's `handlerWrapper`).
 */
export interface Wrapping {
  /** As in `Handler.wrappers` (`catchAsync`, `asyncHandler [express-async-handler]`). */
  name: string;
  /**
   * `forwards`: only forwards (`Promise.resolve(fn(req, res, next)).catch(next)`, `.catch((e) =>
   * next(e))`, an async function awaiting it in a try whose catch calls next); `forwards-promise`:
   * the same through `.catch` on what the function returns (`fn(req, res, next).catch(next)`), alike
   * only for a function that returns a promise; `runs-generator`: it runs the generator function it
   * wraps as co does and returns a promise of its end, handing a rejection to nobody (`co.wrap`,
   * the catalogue's `runs: 'generator'`): it stays on a Fastify route, which awaits that promise as
   * an async handler's (in an Express 4 app a rejection reached no error handler, framework default
   * `async-rejection`); `other`: it does more, said in `beyond`.
   */
  kind: 'forwards' | 'forwards-promise' | 'runs-generator' | 'other';
  /** For `other`: what it does beyond forwarding, completing "which …" (`also runs \`console.log(…)\``). */
  beyond?: string;
  /** The call that applies it (`asyncHandler(…)`), whose only argument is what it wraps; absent when the analysis did not find one. */
  applied?: Location;
  /** Where the function that makes the wrapper is (`const catchAsync = (fn) => …`), for a local wrapper. */
  definition?: Location;
}

export interface ApiUse {
  /**
   * e.g. `req.params`, `res.render`; for the third parameter `next()`, `next(err)`,
   * `next('route')`, `next('router')`; for an error handler's first parameter `err.status`.
   */
  api: string;
  location: Location;
  /** The property is assigned (`req.query = …`, `res.locals.user = …` writes `res.locals`). */
  write?: boolean;
  /** The use sits in a function nested in the handler (a callback), not in its own body. */
  inCallback?: boolean;
  /** For a call (`res.status(201)`), the source of its first argument, at most 60 characters. */
  arg?: string;
  /** Set when the use is in a helper the handler calls (`validate(req)`, in any file): the call site in the handler; for a use in a function `req` is handed to as a value (`usage.handOffs`), where it is handed on. */
  via?: Location;
  /** How the value is used when that matters for a rule: `tested` (`!req.body`, `req.body ||`, `== null`), `dereferenced` (`req.body.x`, `const { x } = req.body`). */
  as?: 'tested' | 'dereferenced';
}

/**
 * `req` handed on as a value to a project function (issue 17): `sendMail({ mailOptions, req })`,
 * `audit(req)`, `const mail = { req }; send(mail)` (analyzer/request-hand-offs.ts). The routes
 * stage hands such a function Express's own request (`request.raw`) on a moved route when every
 * member it reads is one Express's request holds there as on the Express route.
 */
export interface RequestHandOff {
  /** Where `req` is handed on (the identifier: an argument, or a property's value). */
  location: Location;
  /** The callee as written (`nodemailerConfig.sendMail`). */
  callee: string;
  /** Where the callee is defined. */
  definition: Location;
  /** The members the callee uses on the request (`settings.req.flash(…)`: `flash`, called), in source order. */
  reads: Array<{ member: string; location: Location; call?: true; write?: true }>;
  /** Set when the callee does more with it than use its members (hands it on, returns it, stores it): what it reads is not known. */
  opaque?: string;
}

export interface Route {
  id: string;
  framework: Framework;
  appId: string;
  /** Router (or app) the route is registered on. */
  ownerId: string;
  /** Upper-case method; `ALL` for `app.all`. */
  method: string;
  /** The route key (DESIGN.md): `METHOD full-path`. */
  key: string;
  /** The match key: parameter names dropped, wildcards as `*`. */
  matchKey: string;
  path: RoutePath;
  mountChain: MountRef[];
  /** `route-options`: Fastify's `fastify.route({ method, url, handler })`. */
  registration: Location & { kind: 'verb' | 'route-chain' | 'all' | 'route-options' };
  /** The statement that holds the registration (a sibling of `registration`, which points at the verb); the routes of one `route()` chain, or of one call with an array of paths, share it. */
  statement?: StatementSpan;
  /**
   * The call of a project function that ran the registration from inside its body — a registrar:
   * `crud(users, usersController)` for `function crud(router, ctrl) { router.get('/', ctrl.list) }`,
   * `require('./routes')(app, passport)` — the innermost one when registrars call registrars; a loop's
   * callback (`routes.forEach((r) => …)`) is not one. `call` is where the call starts, `statement`
   * the statement that holds it, `definition` where the function starts. Absent for a registration
   * the module runs itself.
   */
  registrar?: { call: Location; statement?: StatementSpan; definition: Location };
  handler: Handler;
  /** Ordered middleware that really runs before the handler. */
  chain: ChainEntry[];
  /**
   * `req.*`, `res.*` and `next(…)` uses in the handler's own body and the helpers it calls (first
   * use of each; writes apart); `calls`: package middleware the handler or the route's own
   * middleware runs itself (`upload.single('f')(req, res, cb)`), as `callee [package]`;
   * `handOffs`: where the handler (or a helper it passes `req` to) hands `req` on as a value to a
   * project function, with what that function reads of it.
   */
  usage: { req: ApiUse[]; res: ApiUse[]; next: ApiUse[]; calls?: ApiUse[]; handOffs?: RequestHandOff[] };
  /** Conditions the registration sits under, as source text (`if (dev)`). */
  conditions: string[];
  /** Position in the flattened routing tree of its app (0-based); first match wins. */
  order: number;
  resolution: Resolution;
  reasons: Reason[];
}

/**
 * One place that starts an app, recognised by the value of the app (through any import, re-export
 * or factory), never by a variable's name: `app.listen(…)` (`listen`; for a Fastify app
 * `fastify.listen(…)`), or a Node server made for it — `http.createServer([options,] app)`,
 * `https.createServer(options, app)`, `http.Server(app)`, `new http.Server(app)`,
 * `require('http').createServer(app)`, with `node:http`/`node:https` alike (`create-server`). A
 * server for another request listener (a redirect function) is not a start site of the app.
 */
export interface StartSite {
  kind: 'listen' | 'create-server';
  /** Start of the call (or `new`) expression. */
  location: Location;
  /** Where that expression ends (1-based line and column of its last character + 1, i.e. exclusive end). */
  end: { line: number; column: number };
  /** The callee as written, line breaks and their indentation removed: `app.listen`, `http.createServer`, `require('https').createServer`, `new http.Server`. */
  callee: string;
  /** Source text of each argument, as written at the call. */
  args: string[];
  /** create-server: index of the argument that is the app. */
  appArgument?: number;
}

/**
 * A place in one of the project's test files that sends requests to the Express app itself (issue
 * 17), the app recognised by its value — an import or `require` of the project module that exports
 * it (tsconfig aliases included), or a variable a test hook assigns that to — never by name:
 * supertest's `request(app)` (`supertest`) and `request.agent(app)` (`supertest-agent`),
 * chai-http's `chai.request(app)`, `chai.request.agent(app)` and `request.execute(app)`
 * (`chai-http`), `app.listen(…)` (`listen`), `http.createServer(app)` and the other Node server
 * forms of StartSite (`create-server`); or the app handed to anything else that may send it requests
 * (`helper`): a function of the project's own (a test helper), a package the analysis does not
 * know, a value the test made (another Express app mounting it: `wrapper.use(app)`) — not an
 * assertion or mocking package, a global (`expect(app)`) or a test callback's parameter
 * (`t.mock.method(app, …)`). Apps a test builds for itself (`express()` in the test) are not the
 * app and are not listed. Read by analyzer/test-drivers.ts.
 */
export interface TestDriver {
  kind: 'supertest' | 'supertest-agent' | 'chai-http' | 'listen' | 'create-server' | 'helper';
  /** The test file (POSIX, relative to the root) and the start of the call (or `new`) expression. */
  location: Location;
  /** The callee as written, line breaks and their indentation removed (`request`, `request.agent`, `chai.request`, `app.listen`, `http.createServer`, `getJson`). */
  callee: string;
  /** The expression that is the app, as written (`app`, `server.app`), where it starts and where it ends (exclusive). */
  app: { text: string; location: Location; end: { line: number; column: number } };
  /** The project module whose export the test got the app from (POSIX, relative to the root). */
  from: string;
  /** The test gets the app late: a `require(…)` inside a function (a test hook), or `import(…)`. */
  late?: true;
  /** `listen`: its last argument may be a callback (anything but a number, string, template or object literal). */
  callback?: true;
}

export interface App {
  id: string;
  name: string;
  location: Location;
  /** How the app was identified: `express()` call, `fastify()` call. */
  createdBy: string;
  /** Ids of sub-apps mounted inside this app are in `routers[]` with kind `sub-app`. */
  listen: { location: Location; args: string[] }[];
  /** Every place that starts the app (StartSite), each once, sorted by file, line and column. `listen` above keeps its own meaning (its `listen` calls only). */
  starts: StartSite[];
  /** The places in test files that send requests to this app itself (TestDriver), sorted by file, line and column; absent when none. */
  testDrivers?: TestDriver[];
  /** `fastify` for a Fastify instance (`Fastify()`); absent for an Express app. */
  framework?: Framework;
  /**
   * For an Express app that a Fastify instance serves through `@fastify/express`
   * (`fastify.use(app)`, or `fastify.use(fn)` where `fn` calls the app): the id of that Fastify
   * app. The edge itself is a `mounts[]` record (parent: the Fastify app or plugin, child: this
   * app, `kind: 'bridge'`), and the app's routes carry it first in their `mountChain`.
   */
  servedBy?: string;
  /** For a Fastify app: the npm plugins registered on it or its plugins (`@fastify/cors`, `@fastify/express`), in registration order. */
  plugins?: { package: string; prefix: string; registration: Location; options: string | null }[];
  /**
   * For a Fastify app: the content-type parsers added on it or its plugins
   * (`addContentTypeParser(contentType, parser)`): the app's, then each plugin's depth-first, each in the order added. `contentType` is the
   * folded string (or the source text when it is not one: an array, a RegExp); `ownerId` the app or
   * plugin context; `adapter` for `bodyLeftToExpress` of the generated hooks module.
   */
  contentTypeParsers?: { contentType: string; ownerId: string; name: string; registration: Location; statement?: StatementSpan; adapter?: Adapter }[];
  /** `server-module` for the Fastify app created in the module the `shim` stage writes (its first line carries analyzer/generated.ts SHIM_MARK). */
  generated?: 'server-module';
  /** For an Express app: the hand-overs of moved routes registered in it (HandOver), in the order Express tries them; absent when none. */
  handOvers?: HandOver[];
}

/**
 * The registration of a moved route left in its Express app at its place, with the hooks module's
 * `movedToFastify` as its only function (Adapter `hand-over`): no route, but the layer where
 * Express stops for a request Fastify routed to a moved route, so the app's later layers (and the
 * param callbacks of later routes) do not run for it.
 */
export interface HandOver {
  /** Upper-case methods it is registered for (a `route()` chain: each). */
  methods: string[];
  /** Full path of the registration, route-key spelling (mount prefixes joined). */
  fullPath: string;
  /** Its position in the app's routing tree, comparable with Route.order and Middleware.order. */
  order: number;
  registration: Location;
}

export interface Router {
  id: string;
  appId: string;
  /** `plugin`: an encapsulated Fastify plugin context (`fastify.register(plugin, { prefix })`). */
  kind: 'router' | 'sub-app' | 'plugin';
  name: string;
  /** Package that created it: `express`, `express-promise-router`, … */
  package: string;
  location: Location;
  options: { mergeParams?: boolean; caseSensitive?: boolean; strict?: boolean };
  mounted: boolean;
  /** `fastify` for a Fastify plugin context; absent for Express routers and sub-apps. */
  framework?: Framework;
}

export interface Mount {
  id: string;
  parent: string;
  child: string;
  mountPath: string;
  /** Full path of the child's root. */
  fullPath: string;
  location: Location;
  resolution: Resolution;
  reasons: Reason[];
  /** `fastify` for an edge made by Fastify (a plugin registration or an `@fastify/express` bridge); absent for Express mounts. */
  framework?: Framework;
  /** `plugin`: `fastify.register(plugin, { prefix })`; `bridge`: an Express app served through `@fastify/express` (`fastify.use([path,] app)`). Absent for Express mounts. */
  kind?: 'plugin' | 'bridge';
}

export interface Middleware {
  id: string;
  framework: Framework;
  appId: string;
  ownerId: string;
  scope: 'app' | 'router';
  name: string;
  /** Mount path as written (`/` when none). */
  path: string;
  /** Full path prefix it applies to. */
  fullPath: string;
  origin: Origin;
  package?: string;
  definition?: Location;
  registration: Location;
  /** The statement that holds the registration call (`app.use(a, b)`: both share it; for Fastify, the `addHook` or `use` call). */
  statement?: StatementSpan;
  wrappers: string[];
  order: number;
  resolution: Resolution;
  reasons: Reason[];
  /** Source text of the registration argument (`session({ secret: '…' })`), at most 500 characters: what rules read options from. */
  source: string;
  /** For package middleware a factory made (`express.json({ limit: '1mb' })`, `cors(corsOptions)`, also when made far from the registration): that call with its arguments folded. */
  factory?: FactoryCall;
  /** Set when the hook is an adapter of the generated hooks module (`addHook('preHandler', bodyLikeExpress)`: `express-body`). */
  adapter?: Adapter;
  /**
   * For `framework: 'fastify'`: the hook it was added for (`addHook('onRequest', fn)`; also
   * `onSend`, `onResponse`, … which are never in a chain). For Express middleware run through
   * `@fastify/express` (`fastify.use(fn)`, `framework: 'express'`): the bridge's `expressHook`.
   */
  hook?: string;
  /**
   * `req.*`, `res.*` and `next(…)` uses of a local middleware function (empty for package
   * middleware); `calls` lists middleware it runs itself (`lusca.csrf()(req, res, next)`), as
   * `callee [package]` when the callee comes from a package; `handOffs` as a route's.
   */
  usage: { req: ApiUse[]; res: ApiUse[]; next: ApiUse[]; calls?: ApiUse[]; handOffs?: RequestHandOff[] };
}

export interface ErrorHandler {
  id: string;
  appId: string;
  ownerId: string;
  scope: 'app' | 'router';
  name: string;
  fullPath: string;
  origin: Origin;
  package?: string;
  definition?: Location;
  registration: Location;
  /** The statement that holds the registration call (`app.use(handler)`, `setErrorHandler(fn)`). */
  statement?: StatementSpan;
  /**
   * Where the handler is written as an element of an array that Express flattens, when the
   * registration passes one (`app.use(errorHandler())` whose factory returns `[notFound,
   * errorHandler]`, `app.use(handlers)`); absent when the handler is an argument of the
   * registration itself.
   */
  element?: Location;
  order: number;
  /** Ids of routes registered before it under its path: the errors it can see. */
  covers: string[];
  /** `err.*` properties the handler reads (`err.status`, `err.type`), first use of each. */
  reads: ApiUse[];
  /** Whether the handler passes errors on (`next(err)`), so the next error handler sees them. */
  passesOn: boolean;
  /** What its registration (or a mount above it) sits under: `if (…)` texts; absent when unconditional. */
  conditions?: string[];
  /** `fastify` for `setErrorHandler(fn)` (it covers the routes of its plugin context and those below, and Express routes served there through `@fastify/express` whose errors no Express error handler takes); absent for Express. */
  framework?: Framework;
}

export interface NotFoundHandler {
  id: string;
  appId: string;
  ownerId: string;
  name: string;
  fullPath: string;
  definition?: Location;
  registration: Location;
  /** The statement that holds the registration call (`app.use(notFound)`, the catch-all route's, `setNotFoundHandler(fn)`). */
  statement?: StatementSpan;
  /**
   * Where the handler is written as an element of an array that Express flattens, when the
   * registration passes one (`app.use(errorHandler())` whose factory returns `[notFound,
   * errorHandler]`, `app.use(handlers)`); absent when the handler is an argument of the
   * registration itself.
   */
  element?: Location;
  resolution: Resolution;
  /** `fastify` for `setNotFoundHandler(fn)` (the 404 of its plugin context's prefix); absent for Express. */
  framework?: Framework;
}

export interface StaticMount {
  id: string;
  appId: string;
  /** The `middleware[]` record of the same registration (its order, scope, statement and folded factory arguments). */
  middlewareId: string;
  fullPath: string;
  /** Directory relative to the project root when inside it, absolute otherwise; null when not known. */
  dir: string | null;
  package: string;
  options: string | null;
  registration: Location;
}

export interface ViewEngine {
  appId: string;
  ext: string;
  /** Package implementing the engine (`pug`, `ejs`) when known. */
  engine: string | null;
  views: string | null;
  location: Location;
}

export interface Setting {
  appId: string;
  /** The app or sub-app (router record id) the setting was made on: a sub-app's settings apply to its own routes. */
  ownerId: string;
  key: string;
  /** JSON value when it could be folded; null otherwise. */
  value: unknown;
  raw: string;
  kind: 'set' | 'enable' | 'disable' | 'locals' | 'read';
  location: Location;
  resolution: Resolution;
  /** The values it may have when a run-time choice decides (`let hops; if (prod) hops = 1; else hops = 0`); resolution `partial`. */
  alternatives?: unknown[];
}

export interface ProjectFacts {
  root: string;
  name: string | null;
  packageManager: 'npm' | 'yarn' | 'pnpm' | 'bun' | null;
  /** `engines.node` as written, or null. */
  nodeEngine: string | null;
  expressVersion: { declared: string | null; installed: string | null; major: number | null };
  fastifyVersion: { declared: string | null; installed: string | null };
  /** The installed version of the body-parser Express re-exports (`express.json` …), resolved from Express's own folder; null when not installed. Since schema 2.1.0. */
  expressBodyParser: string | null;
  /**
   * Every package of package.json `dependencies` and `devDependencies` (a name in both takes its
   * `dependencies` range), keyed by name: the range as written, and the version in
   * `node_modules/<name>/package.json` found the way Node resolves it from the project root (this
   * folder's node_modules, then its parents'), null when not installed. No lockfile is read.
   */
  dependencies: Record<string, { declared: string | null; installed: string | null }>;
  moduleKind: 'esm' | 'commonjs';
  typescript: boolean;
  entry: string | null;
  entrySource: string;
  workspaces: string[];
}

export interface Summary {
  routes: number;
  byResolution: Record<Resolution, number>;
  routers: number;
  mounts: number;
  middleware: number;
  errorHandlers: number;
  /** Files evaluated, files skipped (size, binary, encoding), files that failed to parse, and the
   * folders left out by default (node_modules, dist, build, coverage, …) that exist here. */
  files: { analysed: number; skipped: number; failed: number; skippedFolders: string[] };
  /** True when every registration was resolved exactly. */
  complete: boolean;
  /** Reason code → count over all records. */
  reasons: Record<string, number>;
  /** One line for the first line of every report. */
  headline: string;
}

/** One import of a source file (SourceFileFacts.imports), in source order. */
export interface ImportFact {
  /** The specifier as written (string literals only; computed specifiers are left out, the evaluator reports them). */
  specifier: string;
  /** The project file it names (POSIX, relative to the root), resolved by the analyzer's own resolver (resolve.ts: tsconfig `paths`, `.js` for `.ts`, index files); null for packages, built-ins and specifiers that do not resolve. */
  resolved: string | null;
  /** 1-based line of the import. */
  line: number;
  /** `import` declaration; `require(…)` call (also `import x = require(…)`); `dynamic` `import(…)`; `export-from`: `export … from`. */
  kind: 'import' | 'require' | 'dynamic' | 'export-from';
  /** `import type …` / `export type … from` / `import type x = require(…)`: erased on compilation, never loaded. */
  typeOnly?: true;
}

/** What the analyzer knows of one project source file, whatever the entry reaches. */
export interface SourceFileFacts {
  /** POSIX, relative to the project root. */
  file: string;
  /**
   * How Node runs the file. `.mjs`/`.mts`: esm; `.cjs`/`.cts`: commonjs. Other JavaScript: the
   * `type` of the nearest package.json (Node's rule; the nearest one decides, whether or not it has
   * a `type`); with none, as Node ≥ 20.19 detects it: esm when the file has import/export syntax,
   * else commonjs. Other TypeScript: what tsc compiles it to (so a file written with
   * import/export compiled to CommonJS counts as commonjs): tsconfig `module` `node16`/`node18`/
   * `node20`/`nodenext` follow the package.json `type` as Node does; `es2015`…`esnext`/`preserve`
   * emit esm; `commonjs` (and `amd`/`umd`/`system`/`none`) emit commonjs; without `module`, tsc's
   * default: esm when `target` is ES2015 or later, else commonjs (`target` defaults to ES5).
   */
  moduleSystem: 'esm' | 'commonjs';
  /** What the source itself is written in: import/export declarations (`esm`, which wins when both appear), else `require(…)`, `module.exports`, `exports.x`, `import x = require(…)` or `export =` (`commonjs`), else `none`. */
  syntax: 'esm' | 'commonjs' | 'none';
  imports: ImportFact[];
  /** Set when the file is a module the stages write (analyzer/generated.ts). */
  generated?: 'server-module' | 'hooks-module';
}

export interface Inventory {
  schemaVersion: string;
  tool: { name: string; version: string };
  project: ProjectFacts;
  summary: Summary;
  apps: App[];
  routers: Router[];
  mounts: Mount[];
  routes: Route[];
  middleware: Middleware[];
  errorHandlers: ErrorHandler[];
  notFoundHandlers: NotFoundHandler[];
  staticMounts: StaticMount[];
  viewEngines: ViewEngine[];
  settings: Setting[];
  /**
   * Every project source file discovery lists (files.ts: `.gitignore` honoured; node_modules,
   * build output and unreadable files left out), and the entry when its name has no source
   * extension (`bin/www`), declaration files (`.d.ts`) and files that do not parse excepted,
   * sorted by file: what codemods read instead of walking the tree.
   */
  files: SourceFileFacts[];
  diagnostics: Diagnostic[];
  /** Set once rules run (`rules/`): what each part needs to become Fastify. */
  findings?: Finding[];
  /** Set once the stages were assessed (runner/readiness.ts): per route, whether and when the codemods move it, and the plan per stage. */
  readiness?: Readiness;
}

export type Severity = 'error' | 'warning' | 'info';

/** The stage that acts on a finding (DESIGN.md "Stages"); `manual` when no stage can. */
export type Stage = 'shim' | 'errors' | 'routes' | 'plugins' | 'schemas' | 'unshim' | 'manual';

/**
 * One thing a rule found. `id` is stable across edits: a hash of the rule id, the id of what it is
 * about (`subject`) and the occurrence index (DESIGN.md "The Inventory").
 */
export interface Finding {
  id: string;
  rule: string;
  severity: Severity;
  stage: Stage;
  /** Whether the codemods of `stage` do it unaided. */
  autoFixable: boolean;
  message: string;
  /** What it becomes in Fastify (the form, option or plugin). */
  fastify: string;
  location: Location;
  /** Other places that explain it: the mount chain, the other route of a pair, … */
  related: Array<{ location: Location; message: string }>;
  /** Further caveats that apply here, beyond the one the message names (all of them in JSON, Markdown and HTML). */
  notes?: string[];
  /** Id of the record it is about (route, middleware, router, app), or the project. */
  subject: string;
  /** For a finding about middleware: the routes behind it that it affects — those of these methods, and those whose handler uses one of these APIs (all when absent). */
  appliesTo?: { methods?: string[]; uses?: string[] };
}

/**
 * How ready each route is to move: `auto` (the routes stage moves it unaided), `assisted` (it
 * moves it, and findings ask a human to review it), `later` (it waits for a later stage, which
 * `RouteRating.stage` names: every reason it stays is one that stage lifts), `manual` (it stays
 * on Express until a human acts).
 */
export type RouteReadiness = 'auto' | 'assisted' | 'later' | 'manual';

/** Why a route does not move at the routes stage: a stable code (rules/catalogue/blockers.ts), the planner's words, where. */
export interface RouteBlocker {
  code: string;
  message: string;
  /** The place that holds the route back: the middleware, error handler or finding it names, else the route's registration. */
  location: Location;
}

/** One route's rating: the routes stage's own decision on it (its verdict) and the findings that ask for review. */
export interface RouteRating {
  id: string;
  key: string;
  readiness: RouteReadiness;
  /**
   * The stage that moves it: for `auto` and `assisted` the routes stage (or the errors stage, for
   * a catch-all 404 route it makes Fastify's not-found handler); for `later` the later stage; absent
   * for `manual`.
   */
  stage?: Stage;
  /** Why it stays at the routes stage; empty when it moves there. */
  blockers: RouteBlocker[];
  /** Ids of the findings about it (and about the middleware in its chain that apply to it). */
  findings: string[];
}

export interface Readiness {
  routes: RouteRating[];
  /** Totals per router (owner id) and for the whole project. */
  totals: Array<{ ownerId: string; name: string } & Record<RouteReadiness, number>>;
  overall: Record<RouteReadiness, number>;
  /** Routes per stage that moves them (`routes`, `plugins`, …); manual routes are not counted here. */
  byStage: Partial<Record<Stage, number>>;
  /**
   * Why routes are not `auto` at the routes stage: each blocker (by code and place) or finding (by
   * rule and place) that holds routes back or asks for review, with how many routes it holds at
   * that readiness and stage; most routes first.
   */
  causes: Array<{ readiness: RouteReadiness; stage?: Stage; code: string; message: string; location: Location; routes: number; /** The ids of those routes. */ routeIds: string[] }>;
  /** What each stage will change, in stage order: finding counts and one line per kind of change. */
  plan: Array<{ stage: Stage; findings: number; changes: string[] }>;
  /** Stages whose plan could not be assessed (it refused, left work or failed), in stage order; absent when every one was. */
  unassessed?: Unassessed[];
}

/** A stage the readiness could not assess, and why (the refusal's message). */
export interface Unassessed {
  stage: Stage;
  reason: string;
}
