/**
 * Blocks, until nothing changes, the routes that share something with a route that stays: its
 * statement, its handler, its registration (a router mounted twice), or an overlap Fastify would
 * resolve differently from Express.
 */
import type { Route } from '../../analyzer/model.js';
import { stageThatLifts } from '../../rules/catalogue/blockers.js';
import type { Blocker } from '../model.js';
import { fastifyAgrees, overlaps, sameMethod } from '../lib/route-overlap.js';
import type { RouterErrorHandler } from './router-error-handlers.js';
import type { RouteState } from './state.js';

/**
 * Step 4 of the routes plan: adds to `states` the blockers of the routes that share something with
 * a route that stays (`all`: every Express route of the apps in the plan; `onFastify`: the routes
 * already on Fastify, which a moved route must not overlap unlike Express), until nothing changes.
 */
export function settle(all: Route[], states: Map<string, RouteState>, handlers: RouterErrorHandler[], onFastify: Route[]): void {
  for (const h of handlers) if (h.blocker) for (const id of h.covers) states.get(id)?.blockers.push(h.blocker);
  const moves = (r: Route) => {
    const s = states.get(r.id);
    return !!s && !s.blockers.length;
  };
  for (let changed = true; changed; ) {
    changed = false;
    const stay = (s: RouteState, b: Blocker) => {
      s.blockers.push(b);
      changed = true;
    };
    for (const s of states.values()) {
      if (s.blockers.length) continue;
      const r = s.route;
      // A helper it hands `req` or `res` to is rewritten: every place that calls it must be a handler that moves.
      const inMoving = (file: string, at: number) => [...states.values()].some((o) => !o.blockers.length && o.handlerRange?.file === file && at >= o.handlerRange.range[0] && at <= o.handlerRange.range[1]);
      // …and pass the request and response at the same positions (the helper is rewritten once).
      const positions = (h: RouteState['helpers'][number]) => JSON.stringify(h.options.helperParams ?? {});
      const disagreeing = s.helpers.find((h) => [...states.values()].some((o) => !o.blockers.length && o.helpers.some((g) => g.file === h.file && g.fn.node === h.fn.node && positions(g) !== positions(h))));
      if (disagreeing) {
        stay(s, { code: 'route-helper-shared', reason: `its helper ${disagreeing.fn.node.id?.name ?? ''} is called with the request or response at other positions by another route` });
        continue;
      }
      const stranded = s.helpers.find((h) => h.references.some((r) => !inMoving(r.file, r.at)));
      if (stranded) {
        const where = stranded.references.filter((r) => !inMoving(r.file, r.at)).map((r) => `${r.file}:${r.line}`);
        stay(s, { code: 'route-helper-shared', reason: `its helper ${stranded.fn.node.id?.name ?? ''} is also called where Express still calls it (a route that stays, or outside a handler)`, where });
        continue;
      }
      // What a route shares with another, in words: both move or neither does.
      const shared = (o: Route): string | null => {
        const h = handlers.find((x) => x.covers.includes(r.id) && x.covers.includes(o.id));
        if (h) return `the error middleware of its router (${h.file})`;
        if (s.statementKey && o.registration.file === r.registration.file && states.get(o.id)?.statementKey === s.statementKey) return s.statement && 'table' in s.statement ? 'the loop over its route table' : 'its registration statement';
        if (sameRegistration(o, r)) return 'its registration (the router is mounted twice)';
        if (s.registrar && states.get(o.id)?.registrar?.key === s.registrar.key) return `the function that registers it (${s.registrar.file})`;
        if (s.handlerKey && states.get(o.id)?.handlerKey === s.handlerKey) return 'its handler function';
        return null;
      };
      const staying = all.find((o) => o.id !== r.id && !moves(o) && shared(o));
      if (staying) {
        const waits = stageThatLifts(states.get(staying.id)?.blockers ?? []);
        stay(s, { code: 'route-partner-stays', reason: `it shares ${shared(staying)} with ${staying.method} ${staying.path.full}, which stays on Express`, where: [`${staying.registration.file}:${staying.registration.line}`], at: staying.registration, ...(waits ? { partnerWaitsFor: waits } : {}) });
        continue;
      }
      // Express answers first in the bridge, so a route still on Express answers every URL it matches;
      // on Fastify, a more specific route already there would take the URLs both match.
      const taken = onFastify.find((f) => sameMethod(f, r) && overlaps(f.path.full, r.path.full) && !fastifyAgrees(r.path.full, f.path.full));
      if (taken) {
        stay(s, overlapBlocker(taken));
        continue;
      }
      for (const o of all) {
        if (o.id === r.id || o.appId !== r.appId || !sameMethod(o, r) || !overlaps(o.path.full, r.path.full)) continue;
        const [earlier, later] = o.order < r.order ? [o, r] : [r, o];
        if (moves(o) && headThenGet(earlier, later, states)) continue;
        // A route that hands over (hand-over.ts) stops Express before a later route that stays.
        const clash = moves(earlier) && moves(later) ? !fastifyAgrees(earlier.path.full, later.path.full) : earlier === r && !moves(later) && !s.handOver;
        if (clash) {
          if (!moves(earlier) || !moves(later)) s.laterRouteStays = true;
          stay(s, overlapBlocker(o));
          break;
        }
      }
    }
  }
}

/**
 * `app.head(p, h); app.get(p, h)`, both moving into one plugin in that order: Express answers HEAD
 * with the first and GET with the second; so does Fastify, which makes no HEAD route of its own for
 * a GET whose path has one already (fastify 5 lib/route.js, exposeHeadRoute; fixture
 * table-loop-handed). The other order stays: Express's GET route answers HEAD, and Fastify would
 * refuse the explicit HEAD after the one it made for the GET (FST_ERR_DUPLICATED_ROUTE).
 */
function headThenGet(earlier: Route, later: Route, states: Map<string, RouteState>): boolean {
  const [a, b] = [states.get(earlier.id), states.get(later.id)];
  const samePlugin = earlier.registration.file === later.registration.file && earlier.ownerId === later.ownerId && a?.nested?.key === b?.nested?.key && a?.registrar?.key === b?.registrar?.key;
  return earlier.method === 'HEAD' && later.method === 'GET' && earlier.path.full === later.path.full && samePlugin;
}

/** The same words whichever route it overlaps, on Express or already on Fastify, so a second run keeps the TODO as it is. */
function overlapBlocker(other: Route): Blocker {
  // The other route is named in `where` only: which one is found first changes once routes move, and the TODO must not.
  return { code: 'route-overlap', reason: 'another route also matches its URLs; Express picks the first registered, Fastify the most specific, and they would disagree', where: [`${other.method} ${other.path.full} at ${other.registration.file}:${other.registration.line}`], at: other.registration };
}

function sameRegistration(a: Route, b: Route): boolean {
  return a.registration.file === b.registration.file && a.registration.line === b.registration.line && a.registration.column === b.registration.column && a.method === b.method;
}
