/**
 * Step 1 of the routes plan: which routes it looks at — the Express routes of the apps a generated
 * server module serves (or, when the plan only assesses, will serve), narrowed by `--only`.
 */
import path from 'node:path';
import type { Route } from '../../analyzer/model.js';
import { isOnFastify, movedNotFound } from '../lib/assumed.js';
import { StepRefusal, type PlanContext } from '../model.js';
import { serverModuleOf, type GeneratedModule } from '../server-module/locate.js';

/** The routes the plan looks at and the server module of each Express app. */
export interface Selection {
  /** App id → its generated server module (null: none serves it). */
  modules: Map<string, GeneratedModule | null>;
  /** Every Express route of an app a server module serves: what the moved routes must not clash with. */
  expressRoutes: Route[];
  /** Those `--only` picks (all of them without it): the routes the plan may move. */
  candidates: Route[];
  /** Routes already on Fastify (moved by a former run, or, when assessing, by this one). */
  onFastify: Route[];
}

/**
 * The selection of `ctx`.
 * @throws StepRefusal 'shim-missing' when no generated module serves any Express app (and the plan
 *   is not assessing with the shim assumed); 'only-none' when `--only` names no Express route
 */
export function selectRoutes(ctx: PlanContext): Selection {
  const inventory = ctx.inventory;
  const apps = inventory.apps.filter((a) => a.framework !== 'fastify');
  const modules = new Map(apps.map((a) => [a.id, serverModuleOf(ctx, a)]));
  if (apps.length && [...modules.values()].every((m) => m === null)) throw new StepRefusal('shim-missing', 'the routes stage moves routes into the Fastify server that the shim stage generates (fastify-server.*), and none serves the app: run `migrate run --stage shim` and `--stage errors` first');
  // A catch-all route the errors stage moves to Fastify's not-found handler is gone by then (assessing).
  const expressRoutes = inventory.routes.filter((r) => !isOnFastify(ctx, r) && modules.get(r.appId) && !movedNotFound(ctx, r.registration));
  if (ctx.only && !inventory.routes.some((r) => selectedByOnly(r, ctx.only, ctx.root))) throw new StepRefusal('only-none', `--only ${ctx.only} names no Express route: give a router file (as \`migrate analyze\` prints it) or a route key such as "GET /api/notes/:id"`);
  return { modules, expressRoutes, candidates: expressRoutes.filter((r) => selectedByOnly(r, ctx.only, ctx.root)), onFastify: inventory.routes.filter((r) => isOnFastify(ctx, r)) };
}

/** `migrate run --stage routes --only <router file | "METHOD /full/path">`: whether the run may move `route` (`root`: the project root, for an absolute file). */
function selectedByOnly(route: Route, only: string | undefined, root = ''): boolean {
  if (!only) return true;
  if (/^[A-Za-z]+\s+\//.test(only)) {
    const [method, ...rest] = only.trim().split(/\s+/);
    return route.method === method.toUpperCase() && route.path.full === rest.join(' ');
  }
  const file = path.isAbsolute(only) ? path.relative(root, only) : only;
  return route.registration.file === path.posix.normalize(file.replace(/\\/g, '/').replace(/^\.\//, ''));
}
