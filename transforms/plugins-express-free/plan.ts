/**
 * Plans `plugins-express-free`: one entry per generated server module whose Express app runs in
 * Fastify hooks (or will, after `plugins-bridge` in the same run), with the moved routes that run
 * no Express code (server-module/express-free.ts). A module that keeps its @fastify/express bridge
 * (plugins-bridge reported why) is left out. A static mount that plugins-static moves in the same
 * run (order 15, planned from the same inventory) is left out of the moved routes' chains: it no
 * longer runs before them. What moved counts the moved routes; the groups say
 * why the others still run the Express app.
 */
import { jFor } from '../lib/ast.js';
import type { ImportRequest } from '../lib/imports.js';
import type { FilePlan, PlanContext, StepPlan } from '../model.js';
import type { AppFunctionEdit } from '../server-module/app-functions.js';
import { hookedAfterBridge } from '../server-module/express-hook.js';
import { expressFreeRoutesThisRun, type ExpressFreeRoutes } from '../server-module/express-free.js';
import { generatedModuleFor } from '../server-module/locate.js';

/**
 * The plan entry of a module: its language and module system, the routes to list, the packages of
 * its body parsers, and the imports of the app functions they carry (ESM).
 */
export interface ExpressFreeEntry extends Pick<ExpressFreeRoutes, 'routes' | 'parsers' | 'packages'> {
  kind: 'list';
  typescript: boolean;
  module: 'esm' | 'commonjs';
  imports: ImportRequest[];
}

/** An entry of the step: a module's list, or the export of an app function its body parsers carry (`verify`) in the module defining it. */
export type ExpressFreeStepEntry = ExpressFreeEntry | AppFunctionEdit;

/**
 * The step's plan: the modules to list routes in, and what moved (the routes listed, HEAD routes
 * Fastify adds for GET routes not counted) out of the moved routes, the others grouped by reason.
 */
export function plan(ctx: PlanContext): StepPlan<ExpressFreeStepEntry> {
  const files: Array<FilePlan<ExpressFreeStepEntry>> = [];
  const groups = new Map<string, number>();
  let free = 0;
  let moved = 0;
  let poweredBy = false;
  for (const app of ctx.inventory.apps.filter((a) => a.framework !== 'fastify')) {
    const module = generatedModuleFor(ctx, app);
    if (!module || files.some((f) => f.file === module.file)) continue;
    const j = jFor(module.file);
    if (!hookedAfterBridge(ctx, j, j(module.source), module.file)) continue;
    const routes = expressFreeRoutesThisRun(ctx, app, module);
    poweredBy ||= routes.losesPoweredBy;
    const listed = routes.routes.filter((r) => !r.head);
    free += listed.length;
    moved += listed.length;
    for (const k of routes.kept) {
      moved += k.routes;
      groups.set(k.reason, (groups.get(k.reason) ?? 0) + k.routes);
    }
    files.push({ file: module.file, entries: [{ kind: 'list', typescript: module.typescript, module: module.module, routes: routes.routes, parsers: routes.parsers, packages: routes.packages, imports: routes.functions.flatMap((f) => (f.import ? [f.import] : [])) }] });
    for (const { edit } of routes.functions) {
      if (!edit) continue;
      const plan = files.find((f) => f.file === edit.file) ?? files[files.push({ file: edit.file, entries: [] }) - 1];
      if (!plan.entries.some((e) => e.kind !== 'list' && e.kind === edit.entry.kind && e.name === edit.entry.name)) plan.entries.push(edit.entry);
    }
  }
  return {
    step: 'plugins-express-free',
    files,
    manual: [],
    moved: {
      what: 'moved routes off the Express app (they run no Express code)',
      done: free,
      of: moved,
      ...(groups.size ? { groups: [...groups].map(([name, n]) => ({ name: `still run the Express app: ${name}`, done: 0, of: n })) } : {}),
    },
    deltas: poweredBy ? [{ text: "The moved routes that run no Express code answer without `X-Powered-By: Express` (Express's own request set-up sent it); `app.disable('x-powered-by')` makes both sides alike, and --parity express keeps those routes on the Express app", restoredByParityExpress: true }] : [],
  };
}
