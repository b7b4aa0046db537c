/** Helpers shared by the report renderers. */
import type { Inventory, Location, Route } from '../analyzer/model.js';

/** `file:line` of a location. */
export function loc(l: Location | undefined): string {
  return l ? `${l.file}:${l.line}` : '';
}

export interface RouteGroup {
  title: string;
  where: string;
  routes: Route[];
}

/**
 * Routes of one app grouped by the router that registers them, groups in the order their first
 * route runs, routes in registration order.
 */
export function groupRoutes(inv: Inventory, appId: string): RouteGroup[] {
  const groups = new Map<string, RouteGroup>();
  for (const r of inv.routes.filter((x) => x.appId === appId)) {
    let g = groups.get(r.ownerId);
    if (!g) {
      const router = inv.routers.find((x) => x.id === r.ownerId);
      const app = inv.apps.find((a) => a.id === r.ownerId);
      const mount = r.mountChain.map((m) => m.mountPath).join(' → ');
      const title = router ? `${router.kind === 'sub-app' ? 'Sub-app' : 'Router'} ${router.name}${mount ? ` mounted at ${mount}` : ''}` : `App ${app?.name ?? ''} routes`;
      g = { title, where: loc(router?.location ?? app?.location), routes: [] };
      groups.set(r.ownerId, g);
    }
    g.routes.push(r);
  }
  return [...groups.values()];
}

/** Short note for a route that is not exact, e.g. `partial: conditional`. */
export function resolutionNote(r: Route): string {
  if (r.resolution === 'exact') return '';
  const codes = [...new Set(r.reasons.map((x) => x.code))].join(', ');
  return `${r.resolution}${codes ? `: ${codes}` : ''}`;
}
