/** Shared query for rules about API use: every use in route handlers and in local middleware matching a test. */
import type { ApiUse, Inventory, Location, Middleware, Route } from '../analyzer/model.js';

/** Where a use sits: a route (its handler or route middleware) or app/router middleware. */
export interface UseSite {
  /** Id of the route or middleware record (a finding's subject). */
  subject: string;
  /** `GET /users/:id`, or `middleware loadUser at /api`. */
  label: string;
  /** The mount paths above it (routers it sits in), outermost first. */
  mounts: Array<{ mountPath: string; location: Location }>;
  route?: Route;
  middleware?: Middleware;
}

/** Pairs of a site and one of its `req`/`res`/`next` uses for which `test` holds; routes first, in order. */
export function usesOf(inventory: Inventory, test: (use: ApiUse, site: UseSite) => boolean): Array<{ site: UseSite; use: ApiUse }> {
  const sites: Array<{ site: UseSite; uses: ApiUse[] }> = [
    ...inventory.routes.map((route) => ({ site: { subject: route.id, label: route.key, mounts: route.mountChain, route }, uses: [...route.usage.req, ...route.usage.res, ...route.usage.next] })),
    ...inventory.middleware.map((m) => ({ site: { subject: m.id, label: `middleware ${m.name} at ${m.fullPath}`, mounts: m.scope === 'router' && m.fullPath !== '/' ? [{ mountPath: m.fullPath, location: m.registration }] : [], middleware: m }, uses: [...m.usage.req, ...m.usage.res, ...m.usage.next] })),
  ];
  return sites.flatMap(({ site, uses }) => uses.filter((use) => test(use, site)).map((use) => ({ site, use })));
}
