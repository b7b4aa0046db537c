/**
 * Plan entries of the `errors` stage steps (errors-handler, errors-not-found): what the transform
 * does in one file. Entries find their nodes by the source text they had when the plan was made
 * (`Anchor`), not by line alone, because the other step of the stage may have edited the file
 * first (added an import line) by the time this one runs.
 */
import type { HandlerOptions } from './handler-function.js';

/** A node found by its source text, the nearest to `line` when the text repeats. */
export interface Anchor {
  /** The node's source text when the plan was made. */
  text: string;
  /** 1-based line it started on then. */
  line: number;
}

/** How the generated module imports a handler from the module that defines it. */
export type ImportForm =
  /** `import x from` / `const x = require(…)` (ESM default export, or `module.exports = fn`). */
  | { kind: 'default' }
  /** `import { name } from` / `const { name } = require(…)`. */
  | { kind: 'named'; name: string };

/** Which Fastify method takes the handler. */
export type FastifyMethod = 'setErrorHandler' | 'setNotFoundHandler';

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
}

/** The registration in the Express app: delete it (and the import it leaves unused). */
export interface UnregisterEntry {
  kind: 'unregister';
  statement: Anchor;
  /** Index of the handler among the registration call's arguments (its import goes when unused). */
  argIndex: number;
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

/** The generated Fastify module: import the handler and register it in `buildFastify` before `return fastify`. */
export interface RegisterEntry {
  kind: 'register';
  method: FastifyMethod;
  /** Import specifier from the generated module (`./middleware/error.js`). */
  specifier: string;
  form: ImportForm;
  /** Preferred local name (made collision-free by the transform). */
  local: string;
  module: 'esm' | 'commonjs';
  /** Where the handler came from, for the comment above the call (`src/middleware/error.js`). */
  from: string;
}

export type MoveEntry = RewriteEntry | HoistEntry | UnregisterEntry | TodoEntry | UntodoEntry | RegisterEntry;
