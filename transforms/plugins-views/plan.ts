/**
 * Plans `plugins-views`: one entry per generated server module whose `movedRoutes` plugin registers
 * the app's views (server-module/root-views.ts viewsInMovedRoutes). What moved counts those
 * registrations.
 */
import { jFor } from '../lib/ast.js';
import type { FilePlan, PlanContext, StepPlan } from '../model.js';
import { generatedModuleFor } from '../server-module/locate.js';
import { viewsInMovedRoutes } from '../server-module/root-views.js';

/** The plan entry of a module: nothing but that it registers views in movedRoutes. */
export interface RootViewsEntry {
  typescript: boolean;
}

/** The step's plan: the modules whose views registration goes to the root of buildFastify. */
export function plan(ctx: PlanContext): StepPlan<RootViewsEntry> {
  const files: Array<FilePlan<RootViewsEntry>> = [];
  for (const app of ctx.inventory.apps.filter((a) => a.framework !== 'fastify')) {
    const module = generatedModuleFor(ctx, app);
    if (!module || files.some((f) => f.file === module.file)) continue;
    const j = jFor(module.file);
    if (viewsInMovedRoutes(j, j(module.source)).length) files.push({ file: module.file, entries: [{ typescript: module.typescript }] });
  }
  return {
    step: 'plugins-views',
    files,
    manual: [],
    moved: files.length ? { what: "view registrations to the root of the Fastify app (one @fastify/view for every context)", done: files.length, of: files.length } : undefined,
    deltas: [],
  };
}
