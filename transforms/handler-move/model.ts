/**
 * Plan entries of the `errors` stage steps (errors-handler, errors-not-found), which move an
 * app-level handler to Fastify's error or not-found handler: what the transform
 * does in one file. Entries find their nodes by the source text they had when the plan was made
 * (`Anchor`), not by line alone, because the other step of the stage may have edited the file
 * first (added an import line) by the time this one runs.
 */
import type { HandlerOptions } from '../handler-rewrite/rewrite.js';
import type { Anchor } from '../lib/anchor.js';
import type { HandlerRegistration, ViewsRegistration } from '../server-module/build-fastify.js';

/** Which Fastify method takes the handler. */
export type FastifyMethod = HandlerRegistration['method'];

/** The handler function, where it is defined: rewrite it to Fastify's signature, and export it when it is not. */
export interface RewriteEntry {
  kind: 'rewrite';
  fn: Anchor;
  options: HandlerOptions;
  /** Set when the module does not export the function yet: the name to export it under. */
  exportAs?: string;
  module: 'esm' | 'commonjs';
}

/** A handler written inside its registration (`app.use((err, req, res, next) => …)`): rewrite it and put it in the registration's place as an exported declaration. */
export interface HoistEntry {
  kind: 'hoist';
  statement: Anchor;
  /** Index of the handler among the registration call's arguments. */
  argIndex: number;
  options: HandlerOptions;
  /** Name of the declaration (the function's own name, or a free one). */
  name: string;
  module: 'esm' | 'commonjs';
  /** Registered late (in a start-up callback): the registration becomes `app.enable(flag)` (HandlerRegistration.flag). */
  flag?: string;
}


/** The registration in the Express app: delete it (and the import it leaves unused). */
export interface UnregisterEntry {
  kind: 'unregister';
  statement: Anchor;
  /** Index of the handler among the registration call's arguments (its import goes when unused). */
  argIndex: number;
  /** Registered late (in a start-up callback): replace it with `app.enable(flag)` instead (HandlerRegistration.flag). */
  flag?: string;
}

/** The factory that returned the moved handlers (`export default () => [notFound, errorHandler]`; handler-move/factory.ts): delete its statement. */
export interface UnfactoryEntry {
  kind: 'unfactory';
  statement: Anchor;
  /** The factory's binding: its export apart from the declaration (`module.exports = { handlers }`) goes too. */
  name?: string;
}

/** A handler that stays on Express: a `// TODO(migrate): reason` above its registration. */
export interface TodoEntry {
  kind: 'todo';
  statement: Anchor;
  reason: string;
  /** How the step's TODO comments begin (`error handler stays on Express:`): an older one of the same step is replaced. */
  prefix: string;
}

/**
 * A handler a later stage takes (no TODO wanted): delete the `// TODO(migrate): <prefix> …` comment
 * an earlier run left above its registration.
 */
export interface UntodoEntry {
  kind: 'untodo';
  statement: Anchor;
  /** How the step's TODO comments begin after `TODO(migrate): ` (`error handler stays on Express:`). */
  prefix: string;
}

/** The generated Fastify module: import the handler and register it in `buildFastify` before `return fastify` (server-module/build-fastify.ts). */
export interface RegisterEntry extends HandlerRegistration {
  kind: 'register';
}

/** The generated Fastify module: register @fastify/view at its root for a handler that renders (server-module/build-fastify.ts registerViews). */
export interface ViewsEntry extends ViewsRegistration {
  kind: 'views';
}

export type MoveEntry = RewriteEntry | HoistEntry | UnregisterEntry | UnfactoryEntry | TodoEntry | UntodoEntry | RegisterEntry | ViewsEntry;
