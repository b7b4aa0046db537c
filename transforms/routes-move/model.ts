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

/** The Express registration statement of moved routes (`router.get(…)`, `router.route(…).get(…)`): delete it. */
export interface UnregisterEntry {
  kind: 'unregister';
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
  routes: PluginRoute[];
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
}

/** The generated hooks module (`fastify-hooks.*`): written once, next to the server module. */
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

export type RoutesEntry = NameCallbackEntry | UnregisterEntry | RewriteEntry | PluginEntry | TodoEntry | RegisterEntry | HooksModuleEntry | LikeExpressModuleEntry | HandRoutesEntry | UnwrapEntry;
