/**
 * Step 2 of the routes plan, for a route that Express middleware registered after it may run for
 * (route-blockers.ts laterMiddleware: `app.use(express.static(…))` after the routes, a logger or
 * swagger-ui mounted last). In Express those layers never ran for the route's requests: the route
 * answered first. Behind the shim's bridge the whole Express app runs before a Fastify route's
 * hooks, so a route moved as it is would see them. Such a route moves with a **hand-over**: its
 * Express registration stays at its place with `movedToFastify` as its only function
 * (`router.get('/:id', movedToFastify)`, hooks-template.ts), where Express stops and Fastify goes on
 * to the route's hooks and handler — the app's earlier middleware and the route's param callbacks
 * run as they did, nothing after it (measured with Express 4.22 and 5.3 behind @fastify/express
 * 4.0.7: status, headers and body alike; a file of express.static named like the route is not served).
 *
 * A later Express route that stays and matches the route's URLs (`app.get('*', sendIndex)` after
 * the API) held it back (settle.ts, route-overlap) until it hands over too: Express stops at the
 * hand-over before it (plan.ts reads the routes again with those hand-overs, `given`).
 *
 * A hand-over acts only for requests Fastify routed to a moved route, and Express stops at the first
 * it reaches: that is the hand-over of the route Fastify picked when every moved route that a later
 * hand-over may match hands over too (laterLayers) and overlapping moved routes are ones both
 * frameworks agree on (settle.ts).
 */
import type { ChainEntry, Location, Route } from '../../analyzer/model.js';
import { isOnFastify } from '../lib/assumed.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import type { Blocker, PlanContext } from '../model.js';
import { handOverRefusal } from '../server-module/hand-over.js';
import type { GeneratedModule } from '../server-module/locate.js';
import { overlaps, sameMethod } from '../lib/route-overlap.js';
import { laterMiddleware, ownChain } from './route-blockers.js';

/**
 * Whether `route` moves with a hand-over (`true`), without one (`false`), or stays (a blocker
 * `route-later-middleware` saying why the hand-over cannot be made). `lines`: the first and last
 * line of its registration statement, whose routes all hand over when one of them must (a router
 * mounted twice is one statement for both mounts): a route's param callbacks run in Express at a
 * hand-over and through `expressParam` hooks without one, never both.
 */
export function handOverOf(ctx: PlanContext, route: Route, lines: [number, number], target: GeneratedModule, parsed: ParsedFiles, given: Set<string> = NONE): boolean | Blocker {
  const routes = statementRoutes(ctx, route);
  const later = routes.flatMap((r) => laterLayers(ctx, r, given));
  // Held back by a later Express route that stays (plan.ts): without a hand-over it stays for that (route-overlap).
  if (!later.length) return routes.some((r) => given.has(r.id)) && !refusal(target, parsed) && !writesParams(route, lines);
  const names = [...new Set(later.map((l) => l.name))];
  // The reason goes into a TODO(migrate) too: no line numbers in it, they change as the stage edits the file.
  const stays = (why: string, place?: Location): Blocker => ({
    code: 'route-later-middleware',
    reason: `Express layers registered after it may run for its URLs (${names.join(', ')}) and would run before it on Fastify; ${why}`,
    where: [...new Set([...later.map((l) => l.registration), ...(place ? [place] : [])].map((l) => `${l.file}:${l.line}`))],
    at: later[0].registration,
  });
  const bridge = refusal(target, parsed);
  if (bridge) return stays(bridge);
  const writes = writesParams(route, lines);
  if (writes) return stays(`its param callback ${writes.name === '<anonymous>' ? '(written inline)' : writes.name} writes req.params, which its handler would not see on Fastify once Express runs the callback at the hand-over`, writes.registration);
  return true;
}

/** An Express layer after a route that may run for its URLs. */
interface LaterLayer {
  name: string;
  registration: Location;
}

/**
 * The Express layers registered after `route` that may run for its URLs and that only a hand-over
 * at its place stops: middleware (laterMiddleware), and the hand-over of a later route of its
 * method that matches some of its URLs — one a former run left (App.handOvers), or one this run
 * makes (handsOver). A hand-over runs its route's param callbacks (Express's process_params)
 * before it looks at the request, so for another route's request it must not be reached.
 */
function laterLayers(ctx: PlanContext, route: Route, given: Set<string>): LaterLayer[] {
  const method = (m: string) => m === route.method || (route.method === 'HEAD' && m === 'GET') || m === 'ALL';
  const app = ctx.inventory.apps.find((a) => a.id === route.appId);
  const written = (app?.handOvers ?? []).filter((h) => h.order > route.order && h.methods.some(method) && overlaps(h.fullPath, route.path.full));
  const planned = ctx.inventory.routes.filter((o) => !isOnFastify(ctx, o) && o.appId === route.appId && o.order > route.order && sameMethod(o, route) && overlaps(o.path.full, route.path.full) && handsOver(ctx, o, given));
  return [
    ...laterMiddleware(ctx, route).map((m) => ({ name: m.name === '<anonymous>' ? 'an anonymous function' : m.name, registration: m.registration })),
    ...written.map((h) => ({ name: `the hand-over of ${h.methods.join('/')} ${h.fullPath}`, registration: h.registration })),
    ...planned.map((o) => ({ name: `the hand-over of ${o.method} ${o.path.full}`, registration: o.registration })),
  ];
}

/**
 * Whether the registration of `route` becomes a hand-over when it moves (it may stay: then it is an
 * Express route, and settle.ts keeps an earlier route it overlaps on Express anyway): later layers
 * run for its URLs, or a later route that stays held it back (`given`). Memoized per plan and
 * `given`; a route met again while it is being decided counts as none.
 */
function handsOver(ctx: PlanContext, route: Route, given: Set<string>): boolean {
  let plans = DECIDED.get(ctx);
  if (!plans) DECIDED.set(ctx, (plans = new WeakMap()));
  let memo = plans.get(given);
  if (!memo) plans.set(given, (memo = new Map()));
  const known = memo.get(route.id);
  if (known !== undefined) return known;
  memo.set(route.id, false);
  const answer = statementRoutes(ctx, route).some((r) => given.has(r.id) || laterLayers(ctx, r, given).length > 0);
  memo.set(route.id, answer);
  return answer;
}

const DECIDED = new WeakMap<PlanContext, WeakMap<Set<string>, Map<string, boolean>>>();
const NONE = new Set<string>();

/** Why the server module cannot take a hand-over (server-module/hand-over.ts), or null; before the shim ran (analyze assesses), the module it will write can. */
function refusal(target: GeneratedModule, parsed: ParsedFiles): string | null {
  const server = target.source ? parsed(target.file) : null;
  return server ? handOverRefusal(server.j, server.root, target.file) : null;
}

/**
 * A param callback of the route's own parameters that writes `req.params`: Express hands the same
 * object to the handler, while at a hand-over the callback runs in Express and the Fastify handler
 * reads `request.params`.
 */
function writesParams(route: Route, lines: [number, number]): ChainEntry | undefined {
  return ownChain(route, lines).params.find((p) => p.usage?.req.some((u) => u.api === 'req.params' && u.write));
}

/** The Express routes registered by the statement of `route` (itself included). */
function statementRoutes(ctx: PlanContext, route: Route): Route[] {
  const at = route.statement?.start;
  if (!at) return [route];
  return ctx.inventory.routes.filter((r) => r.framework !== 'fastify' && r.registration.file === route.registration.file && r.statement?.start.line === at.line && r.statement.start.column === at.column);
}
