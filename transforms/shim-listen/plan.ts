/**
 * Plans the rewrite of every place that starts an Express app, as the analyzer found them
 * (App.starts: `app.listen(…)`, `http.createServer([options,] app)`, `new https.Server(options,
 * app)`, …): each file gets the places, and for each the specifier of the generated module of its
 * app (server-module/locate.ts serverModuleFor: one module per app).
 */
import type { FilePlan, ManualItem, PlanContext, StepPlan } from '../model.js';
import { importSpecifier } from '../lib/module-system.js';
import { serverModuleFor } from '../server-module/locate.js';
import { importsGeneratedModule, startSites } from '../server-module/start-sites.js';

/** One place to rewrite: where the call starts (1-based line and character column), and for a server factory which argument is the app. */
export interface ListenEntry {
  kind: 'listen' | 'create-server';
  line: number;
  column: number;
  /** The callee as the analyzer recorded it (`http.createServer`, `new http.Server`): several calls may start at one place. */
  callee: string;
  appArgument?: number;
  /** How the file imports the generated module of the app started there (`./fastify-server.js`). */
  specifier: string;
  /** The app's name (`admin`): the names imported from the module of a second app in one file carry it (`listenAdmin`). */
  app: string;
  module: 'esm' | 'commonjs';
}

/** @returns one FilePlan per file that starts an app; a ManualItem when nothing starts one. */
export function plan(ctx: PlanContext): StepPlan<ListenEntry> {
  const byFile = new Map<string, FilePlan<ListenEntry>>();
  for (const site of startSites(ctx)) {
    const target = serverModuleFor(ctx, site.file, site.app);
    const plan = byFile.get(site.file) ?? { file: site.file, entries: [] };
    plan.entries.push({ kind: site.kind, line: site.line, column: site.column, callee: site.callee, ...(site.appArgument !== undefined ? { appArgument: site.appArgument } : {}), specifier: importSpecifier(site.file, target, ctx.readFile(site.file) ?? ''), app: site.app.name, module: target.module });
    byFile.set(site.file, plan);
  }
  const manual: ManualItem[] = [];
  const sites = [...byFile.values()].reduce((n, f) => n + f.entries.length, 0);
  if (!sites && !importsGeneratedModule(ctx)) manual.push(nothingStarts(ctx));
  return { step: 'shim-listen', files: [...byFile.values()], manual, moved: { what: 'places that start the app to Fastify', done: sites, of: sites } };
}

function nothingStarts(ctx: PlanContext): ManualItem {
  // The runner refuses a project without an app before any step plans (RunError 'no-app').
  const app = ctx.inventory.apps[0];
  const module = serverModuleFor(ctx, app.location.file, app).file;
  return {
    file: app.location.file,
    line: app.location.line,
    code: 'no-listen',
    reason: `nothing starts the app here (no app.listen(…) or http.createServer(app)); where it is started, use listen(buildFastify(app), port) or requestListener(buildFastify(app)) from ${module}`,
  };
}
