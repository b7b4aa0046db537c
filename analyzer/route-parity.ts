/**
 * The route parity check run after every stage (issue 7, item 2): does the app still serve every
 * route it served before, each by exactly one route? Routes are compared by their **match key**
 * (DESIGN.md "The Inventory"): the method and the full path with parameter names dropped and
 * wildcards written `*` (`GET /users/:_/posts/*`), so a stage may rename parameters or move a
 * route from Express 5's `/*splat` to Fastify's `/*` without it counting as a change.
 *
 * The comparison is over multisets of match keys, across every app of each inventory (Express and
 * Fastify alike): an app that served `GET /health` twice before (two apps) may still do so after.
 */
import type { Inventory, Route } from './model.js';
import { matchKey, optionalForms } from './path.js';

/** What a stage changed in the routes an app serves, as match keys (sorted). */
export interface RouteParity {
  /** Match keys served before and no longer (as often as they were lost: a key served twice before and once after appears once). */
  missing: string[];
  /** Match keys now served by more than one route, and by more routes than before (e.g. an Express route and a Fastify route of one path); each once. */
  duplicated: string[];
}

/**
 * The match key used for parity, computed from the route's method and full path (so an inventory
 * saved by an older version, with another spelling of `matchKey`, compares alike), with a leading
 * `/` added to a path written without one (Express 4's `app.all('*')` is `ALL *`, the same
 * requests as Fastify's `ALL /*`).
 */
export function parityKey(route: Pick<Route, 'method' | 'path'>): string {
  const key = matchKey(route.method, route.path.full);
  const space = key.indexOf(' ');
  const method = key.slice(0, space);
  const path = key.slice(space + 1);
  return path.startsWith('/') || path.startsWith('RegExp(') || path.startsWith('<unresolved:') ? key : `${method} /${path}`;
}

/**
 * Compares the routes of `before` and `after` (the inventories of one app before and after a
 * stage) by match key. A stage passes the check when both lists are empty; the runner fails the
 * stage otherwise (DESIGN.md, exit code 2).
 */
export function routeParity(before: Inventory, after: Inventory): RouteParity {
  const was = countKeys(before.routes);
  const now = countKeys(after.routes);
  const missing: string[] = [];
  for (const [key, n] of [...was].sort(([a], [b]) => a.localeCompare(b))) {
    if (servedByNotFoundHandler(key, after)) continue;
    for (let lost = n - (now.get(key) ?? 0); lost > 0; lost--) missing.push(key);
  }
  const duplicated = [...now]
    .filter(([key, n]) => n > 1 && n > (was.get(key) ?? 0))
    .map(([key]) => key)
    .sort((a, b) => a.localeCompare(b));
  return { missing, duplicated };
}

/** One line per problem, for the runner's refusal message (empty when the stage kept parity). */
export function describeParity(parity: RouteParity): string[] {
  return [
    ...parity.missing.map((key) => `route ${key} is no longer served`),
    ...parity.duplicated.map((key) => `route ${key} is now served by more than one route`),
  ];
}

/**
 * A catch-all `ALL /*` (`ALL /api/*`) is still served when a Fastify not-found handler of that
 * prefix answers it: the `errors` stage moves an app's last catch-all route (`app.all('*', notFound)`)
 * to `setNotFoundHandler`, which answers the same requests. It counts only against a missing key,
 * never as a duplicate (the shim's `--parity express` 404 page stands behind an Express catch-all).
 */
function servedByNotFoundHandler(key: string, after: Inventory): boolean {
  const catchAll = /^ALL (.*)\/\*$/.exec(key);
  if (!catchAll) return false;
  const prefix = catchAll[1] || '/';
  return (after.notFoundHandlers ?? []).some((h) => h.framework === 'fastify' && h.fullPath === prefix);
}

function countKeys(routes: Inventory['routes']): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of routes) {
    // An Express 5 route with optional parameter groups (`{/:year}`), or an Express 4 one with optional
    // parameters (`/:year?`), serves one route per form: Fastify needs one each. Wildcard groups
    // (`{/*rest}`) keep one key, `/*` (as matchKey writes them).
    const full = r.path.syntax === 'express4' ? r.path.full.replace(/\/:([A-Za-z_$][\w$]*)\?(?=\/|$)/g, '{/:$1}') : r.path.full;
    const forms = /\{[^{}*]*:[^{}*]*\}/.test(full) && !full.includes('*') ? optionalForms(full) : [r.path.full];
    for (const full of forms) {
      const key = parityKey({ method: r.method, path: { ...r.path, full } });
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}
