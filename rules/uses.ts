/**
 * Shared query for rules about API use: every use in route handlers and in local middleware matching
 * a test. Express's only: Fastify routes and hooks (`framework: 'fastify'`) use `request`/`reply`
 * already (their `usage` is empty anyway, analyzer/model.ts), and are left out.
 */
import type { ApiUse, Inventory, Location, Middleware, Route } from '../analyzer/model.js';
import { onFastify } from './frameworks.js';

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

/**
 * Pairs of a site (an Express route or Express middleware) and one of its `req`/`res`/`next` uses
 * for which `test` holds; routes first, in order. A site's `mounts` leave out the root bridge (an
 * app served by Fastify at `/` sees its own paths as before).
 */
export function usesOf(inventory: Inventory, test: (use: ApiUse, site: UseSite) => boolean): Array<{ site: UseSite; use: ApiUse }> {
  const sites: Array<{ site: UseSite; uses: ApiUse[] }> = [
    ...inventory.routes.filter((route) => !onFastify(route)).map((route) => ({ site: { subject: route.id, label: route.key, mounts: route.mountChain.filter((m) => m.mountPath !== '/' || !isBridge(inventory, m.mountId)), route }, uses: [...route.usage.req, ...route.usage.res, ...route.usage.next] })),
    ...inventory.middleware.filter((m) => !onFastify(m)).map((m) => ({ site: { subject: m.id, label: `middleware ${m.name} at ${m.fullPath}`, mounts: m.scope === 'router' && m.fullPath !== '/' ? [{ mountPath: m.fullPath, location: m.registration }] : [], middleware: m }, uses: [...m.usage.req, ...m.usage.res, ...m.usage.next] })),
  ];
  return sites.flatMap(({ site, uses }) => uses.filter((use) => test(use, site)).map((use) => ({ site, use })));
}

/** Whether mount `id` is an `@fastify/express` bridge (`kind: 'bridge'`). */
function isBridge(inventory: Inventory, id: string): boolean {
  return inventory.mounts.some((m) => m.id === id && m.kind === 'bridge');
}
