/**
 * Plan entries of the `routes-move` step: what the transform does in one file. Nodes are found by
 * the source text they had when the plan was made (`Anchor`), as in the errors stage.
 */
import type { Anchor } from '../lib/anchor.js';
import type { HandlerOptions } from '../handler-rewrite/rewrite.js';
import type { HooksModuleFacts } from '../server-module/hooks-template.js';
import type { LikeExpressFacts } from '../server-module/like-express-template.js';
import type { MovedRoutesRegistration } from '../server-module/moved-routes.js';
import type { HandRoutesEntry } from './start-file.js';
import type { ArrayChain } from './chains.js';
import type { MethodOverride } from './method-override.js';

/** One Fastify route of a plugin, as source text pieces taken from the Express registration. */
export interface PluginRoute {
  /** Upper-case method (`GET`); `ALL` becomes `fastify.all`. */
  method: string;
  /** Source text of the path argument as written (`'/:id'`, `PATHS.home`); several when Express 5 optional groups expand into one Fastify route per form. */
  paths: string[];
  /** Source text of each preHandler hook, in the order Express ran them (`expressMiddleware(requireAuth)`). */
  hooks: string[];
  /** Comments written above the Express registration, as source (`// …`), carried above the Fastify route (the first of its statement). */
  comments: string[];
  /** The handler: source text of a reference (`listNotes`, `ctrl.show`), or an inline function found by its anchor. */
  handler: { reference: string } | { inline: Anchor; options: HandlerOptions; helpers?: string[] };
  /**
   * Set when the registration gives functions in arrays (routes-move/chains.ts): the route is written
   * `fastify.post(path, expressChain(<chain>[, [hooks]]))` — `<chain>` the one array when it is the
   * whole registration (`ctrl.create`), else `[elements…, handler]` — and `hooks` holds only its param
   * callbacks and wildcard.
   */
  chain?: ArrayChain;
}

/**
 * A loop over a route table (route-table.ts), moved into the plugin whole: the routes of every
 * element, registered by one call in it, which the transform rewrites in place — its receiver
 * `fastify`, its middleware arguments the `preHandler` hooks (`form`, route-table.ts tableMiddleware).
 */
export interface PluginLoop {
  loop: Anchor;
  /** The registration call inside the loop. */
  call: Anchor;
  form: 'none' | 'each' | 'flat';
  /** Comments written above the loop, carried above it in the plugin. */
  comments: string[];
}

/**
 * A call of a registrar that moves whole (registrars.ts), moved into the plugin of the router it
 * was given (`crud(users, usersController)` → `crud(fastify, usersController)` in the plugin of
 * `users`): `fastify` takes the place of argument `index`.
 */
export interface PluginCall {
  call: Anchor;
  index: number;
  /** Comments written above the call, carried above it in the plugin. */
  comments: string[];
}

/**
 * A registrar rewritten where it is defined to register its routes on the Fastify instance its
 * calls now pass (registrars.ts): its receiver parameter becomes `fastify` (typed FastifyInstance
 * in TypeScript), each registration statement the Fastify routes of its methods, each loop over a
 * route table its Fastify registration.
 */
export interface RegistrarEntry {
  kind: 'registrar';
  fn: Anchor;
  /** The receiver parameter as written. */
  param: string;
  typescript: boolean;
  module: 'esm' | 'commonjs';
  registrations: Array<{ statement: Anchor; routes: PluginRoute[] } | PluginLoop>;
  /** Import of the adapters its hooks use. */
  adapters: { specifier: string; names: string[] } | null;
}

/** The Express registration statement of moved routes (`router.get(…)`, `router.route(…).get(…)`): delete it. */
export interface UnregisterEntry {
  kind: 'unregister';
  statement: Anchor;
}

/**
 * The Express registration statement of moved routes that later Express middleware may run for
 * (hand-over.ts): it stays where it is with `handOver` (the local name of the hooks module's
 * `movedToFastify`) as the only function of each method, and its comments go with the routes.
 */
export interface HandOverEntry {
  kind: 'hand-over';
  statement: Anchor;
}

/** A handler defined elsewhere in the file (`function show(req, res) {…}`): rewrite it to (request, reply). */
export interface RewriteEntry {
  kind: 'rewrite';
  fn: Anchor;
  options: HandlerOptions;
  /** The file's module system (for the imports the rewrite needs). */
  module: 'esm' | 'commonjs';
  /** Helper functions the function may hand `request` to (HandlerOptions.helpers, as a list: plans cross to workers as JSON). */
  helpers?: string[];
  /** Import of the generated fastify-like-express module's functions the rewrite calls (HandlerRewrite.likeExpress). */
  likeExpress?: ModuleImport;
}

/** Named imports from a generated module: its specifier from the importing file, and the names. */
export interface ModuleImport {
  specifier: string;
  names: string[];
}

/**
 * The plugin of the file's router (or app): a function `name(fastify)` at the end of the file,
 * exported, holding the moved routes. A second run adds routes to the plugin it wrote before.
 */
export interface PluginEntry {
  kind: 'plugin';
  name: string;
  /** The Express router (or app) it takes routes from, for its doc comment (`router notes`). */
  of: string;
  module: 'esm' | 'commonjs';
  typescript: boolean;
  /** Its routes, the loops over route tables that register several (PluginLoop), and the calls of registrars given its router (PluginCall). */
  routes: Array<PluginRoute | PluginLoop | PluginCall>;
  /**
   * The router's own error middleware (`router.use((err, req, res, next) => …)`), which becomes the
   * plugin's `setErrorHandler`: Fastify gives it the errors of the plugin's routes and sends what it
   * passes on (`reply.send(err)`) to the app's error handler, as Express's next(err) did.
   */
  errorHandler?: { reference: string } | { inline: Anchor; options: HandlerOptions };
  /** Import of the adapters when a hook uses them: specifier of the generated hooks module, and the names. */
  adapters: { specifier: string; names: string[] } | null;
  /** Import of the generated fastify-like-express module's functions its inline handlers call. */
  likeExpress?: ModuleImport;
  /** The file starts the app and hands the plugin to buildFastify (start-file.ts): it is not exported. */
  handed?: boolean;
  /**
   * The plugin is defined at the end of a registrar that stays (registrars.ts nestedOf), or of the body of
   * a loop that stays (`inLoop`, route-table.ts LoopStays: `fn` is the loop), which hands it
   * over when it runs: `handRoutes(<receiver>, function <name>(fastify) {…})`, `handRoutes`
   * imported from the server module (`specifier`).
   */
  nested?: { fn: Anchor; receiver: string; specifier: string; inLoop?: true };
}

/** A route that stays on Express: a `// TODO(migrate): …` above its registration (an older one of this step replaced). */
export interface TodoEntry {
  kind: 'todo';
  statement: Anchor;
  reason: string;
}

/** The generated Fastify module: register each plugin under its prefixes, inside `movedRoutes` (server-module/moved-routes.ts). */
export interface RegisterEntry extends MovedRoutesRegistration {
  kind: 'register';
  /** A moved route of the module's app hands over: the bridge and movedRoutes learn it (server-module/hand-over.ts). */
  handOver?: boolean;
  /** The app's method-override, which the listener applies before Fastify routes (server-module/method-override.ts). */
  methodOverride?: MethodOverride;
}

/**
 * The generated hooks module (`fastify-hooks.*`): written once, next to the server module; a
 * module written before a route handed over gains the hand-over's functions (`handOver`).
 */
export interface HooksModuleEntry extends HooksModuleFacts {
  kind: 'hooks-module';
}

/**
 * The generated fastify-like-express module (server-module/like-express-template.ts): written when
 * a moved handler calls it and the file is missing or lacks one of its functions (an older version).
 */
export interface LikeExpressModuleEntry extends LikeExpressFacts {
  kind: 'like-express-module';
}

/** `X.param('id', (…) => …)`: the inline callback becomes `const <name> = (…) => …;` above the statement and the call refers to it. */
export interface NameCallbackEntry {
  kind: 'name-callback';
  statement: Anchor;
  name: string;
}

/**
 * A handler wrapper that only forwarded rejections to next goes (routes-move/unwrap.ts): `call`, the
 * call applying it where the handler is defined (`catchAsync(async (req, res) => …)`), gives way to
 * its argument; null when it was applied in a registration that moved. `local`: the name the file
 * calls the wrapper by, whose import or require goes once nothing uses it.
 */
export interface UnwrapEntry {
  kind: 'unwrap';
  call: Anchor | null;
  local: string | null;
}

export type { HandRoutesEntry };

export type RoutesEntry = NameCallbackEntry | UnregisterEntry | HandOverEntry | RewriteEntry | PluginEntry | TodoEntry | RegisterEntry | HooksModuleEntry | LikeExpressModuleEntry | HandRoutesEntry | UnwrapEntry | RegistrarEntry;
