/**
 * Where the Express apps are started, as the analyzer found them (App.starts: `app.listen(…)`,
 * `http.createServer([options,] app)`, `http.Server(app)`, `new https.Server(options, app)`, the
 * app recognised by its value through any import form, tsconfig path aliases included), and
 * whether the shim already rewrote them (a file that starts an app imports the generated module).
 */
import type { App, Inventory } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';

/** One place that starts an Express app; `line` and `column` are the 1-based start of the call. */
export interface StartSite {
  file: string;
  line: number;
  column: number;
  kind: 'listen' | 'create-server';
  /** The callee as written, line breaks removed (`app.listen`, `require('http').createServer`, `new http.Server`). */
  callee: string;
  /** create-server: the index of the argument that is the app. */
  appArgument?: number;
  app: App;
}

/** Every place that starts an Express app, sorted by file, line and column. */
export function startSites(ctx: Pick<PlanContext, 'inventory'>): StartSite[] {
  return ctx.inventory.apps
    .filter((app) => app.framework !== 'fastify')
    .flatMap((app) => app.starts.map((s): StartSite => ({ file: s.location.file, line: s.location.line, column: s.location.column, kind: s.kind, callee: s.callee, ...(s.appArgument !== undefined ? { appArgument: s.appArgument } : {}), app })))
    .sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : a.file < b.file ? -1 : 1));
}

/**
 * Whether a file of the app (the entry or a file that creates an app) imports a generated server
 * module: the shim ran, and nothing is left to start.
 */
export function importsGeneratedModule(ctx: Pick<PlanContext, 'inventory'>): boolean {
  const { inventory } = ctx;
  const files = new Set([inventory.project.entry, ...inventory.apps.map((a) => a.location.file)].filter((f): f is string => !!f));
  return inventory.files.some((f) => files.has(f.file) && importsServerModule(inventory, f.file));
}

/** Whether the project file `file` imports (or requires) a module the shim stage generated. */
export function importsServerModule(inventory: Pick<Inventory, 'files'>, file: string): boolean {
  const generated = new Set(inventory.files.filter((f) => f.generated === 'server-module').map((f) => f.file));
  return !!inventory.files.find((f) => f.file === file)?.imports.some((i) => i.resolved !== null && generated.has(i.resolved));
}
