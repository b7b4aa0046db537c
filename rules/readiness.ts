/**
 * The readiness of every Express route, from the routes stage's own decision on it (its verdict,
 * made by the routes plan with the earlier stages assumed: runner/readiness.ts) and the findings
 * that ask a human to review it: one decision for `migrate analyze` and `migrate run`.
 *
 * A route the routes stage moves is `assisted` when a finding about it (or about middleware in its
 * chain that applies to it) is a warning or error no stage fixes unaided, else `auto`; one whose
 * every reason to stay is lifted by a later stage is `later` (its `stage` names it); any other
 * route is `manual`. Only Express routes are routes to move: Fastify routes are
 * left out of `routes`, `totals`, `overall`, `byStage` and `causes`.
 */
import type { Finding, Inventory, Location, Readiness, RouteBlocker, RouteReadiness, Stage, Unassessed } from '../analyzer/model.js';
import { expressRoutes } from './frameworks.js';
import { RULES, STAGES } from './index.js';

/** The routes stage's decision on one route (transforms/model.ts Verdict, as the Inventory keeps it). */
export interface RouteVerdict {
  moves: boolean;
  /** The stage that moves it when `moves` (default `routes`; `errors` for a catch-all 404 route that stage moves). */
  movesAt?: Stage;
  blockers: RouteBlocker[];
  /** The stage that lifts every blocker, when one does. */
  waitsFor?: Stage;
}

/**
 * The readiness of `inventory`'s Express routes; `verdicts` by route id; `unassessed`: the stages
 * whose plans could not be assessed. A route without a verdict is manual: `route-not-assessed`
 * (with the refusals' reasons) when the routes stage is among `unassessed`, else `route-no-server`
 * (the routes plan did not look at it: no server module serves its app).
 */
export function readinessOf(inventory: Inventory, findings: Finding[], verdicts: ReadonlyMap<string, RouteVerdict>, unassessed: Unassessed[] = []): Readiness {
  const about = new Map<string, Finding[]>();
  for (const f of findings) about.set(f.subject, [...(about.get(f.subject) ?? []), f]);
  const toMove = expressRoutes(inventory);
  const rated = toMove.map((r) => {
    const uses = new Set([...r.usage.req, ...r.usage.res, ...r.usage.next].map((u) => u.api));
    const applies = (f: Finding) => (!f.appliesTo?.methods || f.appliesTo.methods.includes(r.method)) && (!f.appliesTo?.uses || f.appliesTo.uses.some((u) => uses.has(u)));
    // A route inherits what is found about the middleware that runs before it.
    const inherited = r.chain.flatMap((c) => (c.middlewareId ? (about.get(c.middlewareId) ?? []) : [])).filter(applies);
    const fs = [...(about.get(r.id) ?? []), ...inherited];
    const review = fs.filter((f) => !f.autoFixable && f.severity !== 'info');
    const verdict = verdicts.get(r.id) ?? { moves: false, blockers: [unrated(r.registration, unassessed)] };
    const stage: Stage | undefined = verdict.moves ? (verdict.movesAt ?? 'routes') : verdict.waitsFor;
    const readiness: RouteReadiness = verdict.moves ? (review.length ? 'assisted' : 'auto') : stage ? 'later' : 'manual';
    return { rating: { id: r.id, key: r.key, readiness, ...(stage ? { stage } : {}), blockers: verdict.moves ? [] : verdict.blockers, findings: fs.map((f) => f.id) }, review, route: r };
  });
  return {
    routes: rated.map((x) => x.rating),
    ...totalsOf(inventory, rated.map((x) => ({ ownerId: x.route.ownerId, readiness: x.rating.readiness }))),
    byStage: countBy(rated.flatMap((x) => (x.rating.stage ? [x.rating.stage] : []))),
    causes: causesOf(rated),
    plan: STAGES.map((stage) => {
      const here = findings.filter((f) => f.stage === stage);
      const byRule = new Map<string, number>();
      for (const f of here) byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
      return { stage, findings: here.length, changes: [...byRule].map(([rule, n]) => `${RULES.find((x) => x.id === rule)?.title ?? rule}: ${n}`) };
    }),
    ...(unassessed.length ? { unassessed } : {}),
  };
}

/** The blocker of a route the routes plan gave no verdict. */
function unrated(location: Location, unassessed: Unassessed[]): RouteBlocker {
  if (unassessed.some((u) => u.stage === 'routes')) {
    return { code: 'route-not-assessed', message: `the routes stage could not be assessed: ${unassessed.map((u) => `${u.stage}: ${u.reason}`).join('; ')}`, location };
  }
  return { code: 'route-no-server', message: 'no server module the shim stage generated serves its app (the routes stage moves routes into that module only; run the shim stage, or move them by hand into the Fastify server that serves the app)', location };
}

/** Per owner (routers told apart by where they are mounted: many share a variable name) and overall. */
function totalsOf(inventory: Inventory, routes: Array<{ ownerId: string; readiness: RouteReadiness }>): Pick<Readiness, 'totals' | 'overall'> {
  const empty = (): Record<RouteReadiness, number> => ({ auto: 0, assisted: 0, later: 0, manual: 0 });
  const mountOf = (id: string) => inventory.mounts.find((m) => m.child === id)?.fullPath;
  const names = new Map([...inventory.apps.map((a) => [a.id, a.name] as const), ...inventory.routers.map((r) => [r.id, mountOf(r.id) ? `${r.name} at ${mountOf(r.id)}` : r.name] as const)]);
  const owners = new Map<string, { ownerId: string; name: string } & Record<RouteReadiness, number>>();
  const overall = empty();
  for (const r of routes) {
    const owner = owners.get(r.ownerId) ?? { ownerId: r.ownerId, name: names.get(r.ownerId) ?? r.ownerId, ...empty() };
    owner[r.readiness]++;
    overall[r.readiness]++;
    owners.set(r.ownerId, owner);
  }
  return { totals: [...owners.values()], overall };
}

function countBy(stages: Stage[]): Partial<Record<Stage, number>> {
  const out: Partial<Record<Stage, number>> = {};
  for (const s of stages) out[s] = (out[s] ?? 0) + 1;
  return out;
}

/**
 * One cause per code (or rule) and place, with how many routes it holds: the blockers of routes
 * that do not move at the routes stage, and the findings that make moving routes `assisted`.
 */
function causesOf(rated: Array<{ rating: Readiness['routes'][number]; review: Finding[] }>): Readiness['causes'] {
  const causes = new Map<string, Readiness['causes'][number]>();
  const count = (route: string, readiness: RouteReadiness, stage: Stage | undefined, code: string, message: string, location: Location) => {
    const key = `${readiness}\0${stage ?? ''}\0${code}\0${location.file}:${location.line}:${location.column}`;
    const cause = causes.get(key) ?? { readiness, ...(stage ? { stage } : {}), code, message, location, routes: 0, routeIds: [] };
    if (cause.routeIds.includes(route)) return;
    cause.routeIds.push(route);
    cause.routes++;
    causes.set(key, cause);
  };
  for (const { rating, review } of rated) {
    for (const b of rating.blockers) count(rating.id, rating.readiness, rating.stage, b.code, b.message, b.location);
    if (rating.readiness === 'assisted') for (const f of review) count(rating.id, 'assisted', rating.stage, f.rule, f.message, f.location);
  }
  const weight = (c: Readiness['causes'][number]) => ({ manual: 0, later: 1, assisted: 2, auto: 3 })[c.readiness];
  return [...causes.values()].sort((a, b) => b.routes - a.routes || weight(a) - weight(b));
}
