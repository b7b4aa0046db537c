/**
 * @fastify/view for a moved route that renders: the registration plugin-registrations/view.ts gives
 * for the route's app (computed once per app), and the `views` option of the route's handler
 * rewrite — `true`, or why the route's views cannot be registered exactly.
 */
import type { Route } from '../../analyzer/model.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import type { PlanContext } from '../model.js';
import { viewRegistrationIn, type ViewRegistration } from '../plugin-registrations/view.js';
import type { GeneratedModule } from '../server-module/locate.js';
import { renderReplacedAt } from './replaced-render.js';

/** The views of a route: its app's @fastify/view registration and the handler rewrite's `views` option. */
export type ViewsOf = (route: Route) => { registration: ViewRegistration; option: true | string };

/** ViewsOf for the apps of `modules` (their server modules, whose free names the registration's imports take). */
export function viewsPerApp(ctx: PlanContext, modules: Map<string, GeneratedModule | null>, parsed: ParsedFiles): ViewsOf {
  const cache = new Map<string, ViewRegistration>();
  return (route) => {
    const target = modules.get(route.appId)!;
    if (!cache.has(route.appId)) cache.set(route.appId, viewRegistrationIn(parsed, target, { appId: route.appId, inventory: ctx.inventory, renderReplacedAt: renderReplacedAt(ctx.inventory) }));
    const registration = cache.get(route.appId)!;
    const subApp = ctx.inventory.routers.some((r) => r.kind !== 'router' && (r.id === route.ownerId || route.mountChain.some((m) => ctx.inventory.mounts.find((x) => x.id === m.mountId)?.child === r.id)));
    const option = subApp ? 'renders in a sub-app, with its own locals and settings' : 'refuse' in registration ? registration.refuse : true;
    return { registration, option };
  };
}
