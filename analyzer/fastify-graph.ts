/**
 * The Fastify side of the routing graph the evaluator records (graph.ts holds the Express side):
 * Fastify instances and the encapsulated contexts plugins receive, each with what was registered
 * on it in registration order. fastify-inventory.ts turns it into Inventory records.
 *
 * Fastify semantics modelled here (https://fastify.dev/docs/latest/Reference/Encapsulation/,
 * Plugins, Hooks, Routes; checked against Fastify 5.12):
 * - `register(plugin, { prefix })` runs `plugin` with a child context: its routes get the prefix,
 *   its hooks, decorators, error and not-found handlers apply to it and the contexts below it only.
 *   A plugin wrapped with `fastify-plugin` runs in the registering context itself (no new context;
 *   its `prefix` option is ignored).
 * - Hooks of a context apply to every route of the context and the contexts below it, also routes
 *   registered before the hook; they run phase by phase (onRequest, preParsing, preValidation,
 *   preHandler), in the order they were added (a plugin loads completely where it is registered,
 *   so a hook the parent adds after the `register` call runs after the plugin's own hooks), then
 *   the route's own hooks of that phase.
 */
import type { Node } from 'ts-morph';
import type { EntryRef, RouterNode } from './graph.js';
import type { FastifyHook, Reason } from './model.js';
import type { PathSpec } from './path.js';
import type { Value } from './values.js';

/** Request hooks that run before the handler, in the order Fastify runs them. */
export const FASTIFY_PHASES: readonly FastifyHook[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler'];

/** A Fastify app (`Fastify()`) or the encapsulated context of a plugin (`register(plugin, opts)`). */
export interface FastifyContext {
  uid: number;
  kind: 'app' | 'plugin';
  /** App: the name `Fastify()` is bound to; plugin: the plugin as written at `register` (`userRoutes`). */
  name: string;
  /** App: the `Fastify()` call; plugin: the `register` call. */
  site: Node;
  parent: FastifyContext | null;
  /** A plugin's `prefix` option, one spec per alternative (`dev ? '/a' : '/b'`); empty when none. */
  prefixes: PathSpec[];
  /** The plugin function (for its definition). */
  fn?: Node;
  /** What was registered on this context, in registration order. */
  items: FastifyItem[];
  /** `addContentTypeParser(contentType, [options,] parser)` calls on this context, in order (not in `items`: parsers take no part in routing order); `contentType` folded, or as written when it is not a string. */
  parsers: { site: Node; contentType: string; entry: EntryRef }[];
  /** `decorate(name, value)` on this context (and by plugins wrapped with `fastify-plugin`). */
  decorations: Map<string, Value>;
  listen: { site: Node; args: string[] }[];
  /** What the `register` call sits under (`if (…)`, a loop), for a plugin. */
  conditions: string[];
  reasons: Reason[];
}

interface ItemBase {
  /** Registration order over the whole analysis (Express layers and Fastify items alike). */
  seq: number;
  site: Node;
  conditions: string[];
  reasons: Reason[];
}

export interface FastifyRouteItem extends ItemBase {
  type: 'route';
  /** Upper-case methods; `ALL` for `fastify.all`. */
  methods: string[];
  paths: PathSpec[];
  kind: 'verb' | 'all' | 'route-options';
  /** The route's own hooks (`{ preHandler: [auth] }`), in phase order, each phase as written. */
  hooks: { hook: FastifyHook; entry: EntryRef }[];
  handler: EntryRef | null;
}

/** `addHook(name, fn)`; `hook` is any hook name (only FASTIFY_PHASES run before a handler). */
export interface FastifyHookItem extends ItemBase {
  type: 'hook';
  hook: string;
  entry: EntryRef;
}

/** `register(plugin)` of a project plugin that is encapsulated: its context. */
export interface FastifyPluginItem extends ItemBase {
  type: 'plugin';
  child: FastifyContext;
}

/** `register(pkg)` of a plugin from npm (`@fastify/cors`); `bridgeHook` for `@fastify/express` and `@fastify/middie`. */
export interface FastifyPackageItem extends ItemBase {
  type: 'package';
  package: string;
  options: string | null;
  bridgeHook?: FastifyHook;
}

/**
 * `use([path,] fn)` through `@fastify/express`: Express middleware (`entry`), or an Express app or
 * router it serves (`app`: `use(app)`, or `use(fn)` where `fn` calls the app). `path` is the path
 * as written (the context prefix is applied when records are built, fastify-path.ts
 * bridgeUsePath); null when none was given (the middleware runs for every request of the context).
 * Also an Express app a Fastify hook runs without `@fastify/express` (`hook`, the `plugins`
 * stage's form): `addHook('preHandler', fn)` where `fn` calls the app — its own bridge, for the
 * routes of its context —, or `setNotFoundHandler({ preHandler: fn }, …)` (`notFound`: only the
 * requests no route matched, after every hook of the context; four-oh-four.js `_setNotFoundHandler`).
 */
export interface FastifyUseItem extends ItemBase {
  type: 'use';
  path: PathSpec | null;
  entry?: EntryRef;
  app?: RouterNode;
  hook?: FastifyHook;
  notFound?: true;
}

/** `setErrorHandler(fn)` / `setNotFoundHandler([opts,] fn)`. */
export interface FastifyHandlerItem extends ItemBase {
  type: 'errorHandler' | 'notFoundHandler';
  entry: EntryRef;
}

export type FastifyItem = FastifyRouteItem | FastifyHookItem | FastifyPluginItem | FastifyPackageItem | FastifyUseItem | FastifyHandlerItem;
