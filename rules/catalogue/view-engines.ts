/**
 * The Express view engines whose `res.render` @fastify/view reproduces byte for byte, and what
 * Express hands each engine besides the template's data. Read by the `res.render` row
 * (view-render.ts) and by the routes stage's registration of @fastify/view
 * (transforms/plugin-registrations/view.ts).
 *
 * Probed (scratch probe, not kept): Express 4.22.3 `res.render` against Fastify 5.12.8 +
 * @fastify/express 4.0.7 + @fastify/view 12.0.0, with ejs 3.1.10 and pug 3.0.4, in development and
 * production: same status, content type and body for the url-shortener (pug, `extends`) and
 * legacy-cjs (ejs, includes, res.locals from middleware) views, for app.locals < res.locals <
 * locals, 'view options' (ejs) and an app.locals compile option (pug `pretty`).
 *
 * Why the option names matter: Express merges app.locals, res.locals and the render's locals into
 * one object and gives it to the engine as its options too (express 4.x lib/application.js
 * `render`, lib/view.js), so a local named like a compile option changes the output:
 * - pug's `__express` → `renderFile(path, options)` compiles with the whole object
 *   (pug 3 lib/index.js `compile`: the keys listed in PUG_OPTIONS);
 * - ejs's `renderFile` copies `_OPTS_PASSABLE_WITH_DATA_EXPRESS` from it (ejs 3 lib/ejs.js), after
 *   the app's `settings['view options']`.
 * @fastify/view compiles with its `options` only and passes the locals as data.
 */

/** An engine the codemod registers: its @fastify/view `engine` key and package, and the extension @fastify/view appends by default. */
export interface ViewEngineFacts {
  /** The npm package (also the key of @fastify/view's `engine` option). */
  package: 'ejs' | 'pug';
  /** The extension @fastify/view appends to a view name without one (index.js `getDefaultExtension`): the engine's name. */
  defaultExtension: string;
  /** Whether Express's engine reads `app.get('view options')` (ejs does; pug and Express itself do not). */
  readsViewOptions: boolean;
  /**
   * Locals Express's engine reads as compile options (see the module comment). `filename` and
   * `cache` are left out: @fastify/view sets the file name itself, and the cache changes no byte.
   */
  options: readonly string[];
}

/** pug 3 `compile` options (lib/index.js). */
const PUG_OPTIONS = ['basedir', 'compileDebug', 'debug', 'doctype', 'filterAliases', 'filterOptions', 'filters', 'globals', 'inlineRuntimeFunctions', 'plugins', 'pretty', 'self'] as const;

/** ejs 3 `_OPTS_PASSABLE_WITH_DATA` without `filename` (lib/ejs.js). */
const EJS_OPTIONS = ['_with', 'async', 'client', 'compileDebug', 'context', 'debug', 'delimiter', 'rmWhitespace', 'scope', 'strict'] as const;

/** The engines, by npm package name. */
export const VIEW_ENGINES: Readonly<Record<string, ViewEngineFacts>> = {
  ejs: { package: 'ejs', defaultExtension: 'ejs', readsViewOptions: true, options: EJS_OPTIONS },
  pug: { package: 'pug', defaultExtension: 'pug', readsViewOptions: false, options: PUG_OPTIONS },
};

/** Every local name some engine reads as a compile option (the `res.render` row does not know the app's engine). */
export const ENGINE_OPTION_LOCALS: ReadonlySet<string> = new Set([...PUG_OPTIONS, ...EJS_OPTIONS]);
