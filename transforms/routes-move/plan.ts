/**
 * Plans the `routes` stage: which Express routes move to Fastify now, and what each file gets. The
 * recipe, one file per step:
 *   1. select.ts — the routes of the apps a generated server module serves (`--only` narrows them);
 *   2. read-route.ts — each route on its own: its registration, what the inventory and the findings
 *      say against it, whether it keeps a hand-over in Express (hand-over.ts), whether its handler
 *      rewrites completely to `(request, reply)`, its hooks;
 *      registrars.ts — the routes a registrar makes are one Fastify route for every call of it;
 *   3. router-error-handlers.ts — the routers' own error middleware, which moves with its routes;
 *   4. settle.ts — what routes share (a statement, a handler, an error handler, a mount, URLs):
 *      both move or neither does;
 *   5. native-hooks.ts — local route middleware that becomes a native Fastify hook;
 *   6. assemble.ts — the file entries, the items for what stays (a DeferredItem when a later stage
 *      lifts every reason, else a ManualItem and a `TODO(migrate)`), the verdicts and counts.
 * Steps 2–4 decide — once more, with a hand-over for each route that only a later Express route
 * that stays held back (hand-over.ts) — and the same decision rates routes in `migrate analyze`
 * (the verdicts, with earlier stages assumed: PlanContext.assumed).
 */
import type { Route } from '../../analyzer/model.js';
import { parsedFiles } from '../lib/parsed-files.js';
import type { PlanContext, StepPlan } from '../model.js';
import { appsPerModule, startsApp } from '../server-module/locate.js';
import { assemble } from './assemble.js';
import type { RoutesEntry } from './model.js';
import { nativeHooks } from './native-hooks.js';
import { readRoute } from './read-route.js';
import { sameForEveryCall } from './registrars.js';
import { replacedSend } from './replaced-send.js';
import { routerErrorHandlers } from './router-error-handlers.js';
import { selectRoutes } from './select.js';
import { settle } from './settle.js';
import type { RouteState } from './state.js';
import { viewsPerApp } from './views.js';

/**
 * The plan of the `routes-move` step.
 * @throws StepRefusal 'shim-missing' when no generated module serves any Express app (select.ts);
 *   'only-none' when `--only` names no Express route
 */
export function plan(ctx: PlanContext): StepPlan<RoutesEntry> {
  const selection = selectRoutes(ctx);
  const parsed = parsedFiles(ctx);
  const views = viewsPerApp(ctx, selection.modules, parsed);
  const apps = appsPerModule(ctx.inventory.apps.filter((a) => a.framework !== 'fastify'), selection.modules);
  const replaced = replacedSend(ctx.inventory, parsed);
  const read = (r: Route, handOvers: Set<string>) => {
    const target = selection.modules.get(r.appId)!;
    return readRoute(ctx, r, { parsed, target, servesApps: apps.get(target.file)!, views, startsApp: (file) => startsApp(ctx, file), replaced, handOvers });
  };
  // Steps 2–4, again with a hand-over for each route a later Express route that stays held back (hand-over.ts).
  let handOvers = new Set<string>();
  let states: Map<string, RouteState>;
  let handlers: ReturnType<typeof routerErrorHandlers>;
  for (;;) {
    const given = handOvers;
    states = new Map(selection.candidates.map((r) => [r.id, read(r, given)]));
    sameForEveryCall(states);
    handlers = routerErrorHandlers(ctx, parsed, states);
    settle(selection.expressRoutes, states, handlers, selection.onFastify);
    const more = [...states.values()].filter((s) => s.laterRouteStays && !given.has(s.route.id)).map((s) => s.route.id);
    if (!more.length) break;
    handOvers = new Set([...given, ...more]);
  }
  const hooks = nativeHooks(ctx, parsed, selection.expressRoutes, states, replaced);
  return assemble(ctx, { selection, states, parsed, handlers, hooks, views });
}
