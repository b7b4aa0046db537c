/**
 * Plans the move of the app's catch-all 404 (`app.use((req, res) => res.status(404)…)` or
 * `app.all('*', …)`) to `fastify.setNotFoundHandler`. It moves only when it is the last thing
 * registered on the app (nothing after it but error handlers): Fastify's not-found handler runs
 * when nothing answered, which is exactly when a last catch-all runs in Express.
 */
import type { Inventory, Middleware, NotFoundHandler, Route } from '../../analyzer/model.js';
import type { FrameworkDelta, PlanContext, StepPlan, Verdict } from '../model.js';
import { factoryGroupOf } from './factory.js';
import { settledPlans } from './settle.js';
import type { MoveEntry } from './model.js';
import type { Blocker } from '../model.js';
import { planMoves, type Candidate, type MoveStep } from './plan.js';

const STEP: MoveStep = {
  step: 'errors-not-found',
  role: 'not-found',
  kind: 'not-found-handler',
  method: 'setNotFoundHandler',
  what: 'not-found handlers',
  noun: '404 handler',
  defaultName: 'notFound',
};

/**
 * While the app's own routes stay on Express, its router answers `OPTIONS` for paths it has
 * routes on (`200 Allow: …`) once no catch-all comes last to answer 404 first.
 */
const OPTIONS_DELTA: FrameworkDelta = {
  text: "OPTIONS requests to a path with routes registered on the app itself now get Express's automatic '200 Allow: …' answer instead of the app's 404 (the catch-all no longer runs inside Express); it ends when those routes move (routes stage), as Fastify has no automatic OPTIONS.",
  restoredByParityExpress: false,
};

/**
 * @returns the files to change, a ManualItem per 404 handler that stays, a DeferredItem per one the
 *   routes stage takes (a router's, one under a path, a one-method fallback), and the OPTIONS delta
 *   when it applies.
 * @throws StepRefusal 'shim-missing' when the shim stage has not run (handler-move/plan.ts planMoves)
 */
export function planNotFoundHandlerMoves(ctx: PlanContext): StepPlan<MoveEntry> {
  return settledPlans(ctx).notFound;
}

/**
 * The plan of the 404 handlers given the apps whose error middleware ends in Fastify
 * (`errorsEndInFastify`) and the errors-handler step's verdicts (`errorVerdicts`: for the error
 * handlers a 404 handler moves only with, plan.ts Partner; without them, on its own merits).
 * settle.ts calls it in turn with the error handlers' plans until both agree.
 */
export function planNotFoundHandlerMovesGiven(ctx: PlanContext, errorsEndInFastify: ReadonlySet<string>, errorVerdicts?: Verdict[]): StepPlan<MoveEntry> {
  const handlers = ctx.inventory.notFoundHandlers.filter((h) => h.framework !== 'fastify');
  const candidates = handlers.map((h) => candidateOf(ctx.inventory, h, errorsEndInFastify.has(h.appId)));
  const result = planMoves(ctx, STEP, candidates, errorVerdicts);
  const moved = new Set(result.files.flatMap((f) => f.entries.filter((e) => e.kind === 'register').map(() => f.file)));
  const appRoutes = handlers.some((h) => ctx.inventory.routes.some((r) => r.appId === h.appId && r.ownerId === h.appId && !sameSite(r.registration, h.registration)));
  return { ...result, deltas: [...(result.deltas ?? []), ...(moved.size && appRoutes ? [OPTIONS_DELTA] : [])] };
}

function candidateOf(inventory: Inventory, h: NotFoundHandler, errorsEndInFastify: boolean): Candidate {
  return { id: h.id, appId: h.appId, name: h.name, definition: h.definition, registration: h.registration, blockers: blockersOf(inventory, h), nextToDefault: errorsEndInFastify, ...(h.element ? { factory: factoryGroupOf(inventory, h.id) } : {}) };
}

/**
 * Apps whose app-level error middleware all moves to Fastify in this stage (or that have none):
 * there, `next(err)` from the 404 handler (express-generator's `next(createError(404))`) reaches
 * the same handler as `reply.send(err)` from Fastify's not-found handler.
 */
export function appsWhoseErrorsEndInFastify(ctx: PlanContext, handlers: StepPlan<MoveEntry>): Set<string> {
  // Every handler the errors-handler step does not move is one of its ManualItems or DeferredItems, at its registration.
  const stays = new Set([...handlers.manual, ...(handlers.deferred ?? [])].map((m) => `${m.file}:${m.line}`));
  const appLevel = ctx.inventory.errorHandlers.filter((e) => e.scope === 'app' && e.framework !== 'fastify');
  return new Set(ctx.inventory.apps.filter((app) => appLevel.every((e) => e.appId !== app.id || !stays.has(`${e.registration.file}:${e.registration.line}`))).map((app) => app.id));
}

function blockersOf(inventory: Inventory, h: NotFoundHandler): Blocker[] {
  if (h.ownerId !== h.appId) return [{ code: 'not-found-router', reason: `it belongs to a router (${h.fullPath}); the routes stage moves it with that router, as its plugin's setNotFoundHandler` }];
  const middleware = inventory.middleware.filter((m) => m.appId === h.appId);
  const routes = inventory.routes.filter((r) => r.appId === h.appId);
  const asMiddleware = middleware.find((m) => sameSite(m.registration, h.registration));
  const asRoute = routes.find((r) => sameSite(r.registration, h.registration));
  const self = asMiddleware ?? asRoute;
  if (!self) return [{ code: 'not-found-unknown', reason: 'its registration is not among the app’s middleware and routes' }];
  const blockers: Blocker[] = [];
  const later = [...middleware.filter((m) => m.order > self.order), ...routes.filter((r) => r.order > self.order && r !== asRoute)].sort((a, b) => a.order - b.order);
  if (later.length) {
    const first = later[0];
    blockers.push({ code: 'not-found-not-last', reason: `${nameOf(first)} is registered after it; Fastify's not-found handler answers only what nothing else answered`, where: [`${first.registration.file}:${first.registration.line}`] });
  }
  if (asMiddleware) blockers.push(...middlewareBlockers(asMiddleware));
  if (asRoute && !asMiddleware) blockers.push(...routeBlockers(asRoute));
  return blockers;
}

function middlewareBlockers(m: Middleware): Blocker[] {
  if (m.path !== '/') return [{ code: 'not-found-path', reason: `it is registered under ${m.path}; the routes stage makes it the not-found handler of the plugin with that prefix` }];
  const condition = m.reasons.find((r) => r.code === 'conditional');
  if (condition) return [{ code: 'not-found-conditional', reason: `the analysis found it ${condition.message}; a Fastify not-found handler applies always, so register it at the top level after the app's routes, or as setNotFoundHandler by hand` }];
  return [];
}

function routeBlockers(r: Route): Blocker[] {
  if (r.method !== 'ALL') return [{ code: 'not-found-method', reason: `it answers only ${r.method} requests, so it is a route (an SPA fallback), not a 404 for every method; the routes stage moves it` }];
  if (r.chain.some((e) => e.scope === 'route')) return [{ code: 'not-found-middleware', reason: 'it has middleware of its own; move it by hand as a preHandler of setNotFoundHandler' }];
  if (r.conditions.length) return [{ code: 'not-found-conditional', reason: `it is registered only ${r.conditions.join(' and ')}; a Fastify not-found handler applies always` }];
  return [];
}

function nameOf(x: Middleware | Route): string {
  return 'key' in x ? `the route ${x.key}` : `the middleware ${x.name}`;
}

function sameSite(a: { file: string; line: number; column: number }, b: { file: string; line: number; column: number }): boolean {
  return a.file === b.file && a.line === b.line && a.column === b.column;
}
