/** Shared query for rules about handler API use: every (route, use) pair matching a test. */
import type { ApiUse, Inventory, Route } from '../analyzer/model.js';

/** Pairs of a route and one of its `req`/`res`/`next` uses for which `test` holds, in route order. */
export function usesOf(inventory: Inventory, test: (use: ApiUse, route: Route) => boolean): Array<{ route: Route; use: ApiUse }> {
  return inventory.routes.flatMap((route) => [...route.usage.req, ...route.usage.res, ...route.usage.next].filter((use) => test(use, route)).map((use) => ({ route, use })));
}
