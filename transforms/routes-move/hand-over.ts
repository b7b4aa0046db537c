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
 */
import type { ChainEntry, Location, Route } from '../../analyzer/model.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import type { Blocker, PlanContext } from '../model.js';
import { handOverRefusal } from '../server-module/hand-over.js';
import type { GeneratedModule } from '../server-module/locate.js';
import { laterMiddleware, ownChain } from './route-blockers.js';

/**
 * Whether `route` moves with a hand-over (`true`), without one (`false`), or stays (a blocker
 * `route-later-middleware` saying why the hand-over cannot be made). `lines`: the first and last
 * line of its registration statement, whose routes all hand over when one of them must (a router
 * mounted twice is one statement for both mounts): a route's param callbacks run in Express at a
 * hand-over and through `expressParam` hooks without one, never both.
 */
export function handOverOf(ctx: PlanContext, route: Route, lines: [number, number], target: GeneratedModule, parsed: ParsedFiles): boolean | Blocker {
  const later = [...new Set(statementRoutes(ctx, route).flatMap((r) => laterMiddleware(ctx, r)))];
  if (!later.length) return false;
  // The reason goes into a TODO(migrate) too: no line numbers in it, they change as the stage edits the file.
  const stays = (why: string, place?: Location): Blocker => ({
    code: 'route-later-middleware',
    reason: `Express middleware registered after it may run for its URLs (${later.map((m) => (m.name === '<anonymous>' ? 'an anonymous function' : m.name)).join(', ')}) and would run before it on Fastify; ${why}`,
    where: [...later.map((m) => m.registration), ...(place ? [place] : [])].map((l) => `${l.file}:${l.line}`),
    at: later[0].registration,
  });
  const bridge = refusal(target, parsed);
  if (bridge) return stays(bridge);
  const writes = writesParams(route, lines);
  if (writes) return stays(`its param callback ${writes.name === '<anonymous>' ? '(written inline)' : writes.name} writes req.params, which its handler would not see on Fastify once Express runs the callback at the hand-over`, writes.registration);
  return true;
}

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
