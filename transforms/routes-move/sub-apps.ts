/**
 * Routes of a sub-app (`const admin = express(); app.use('/admin', admin)`, issue 17 item 6). Its
 * routes move as a router's do — a plugin under the mount path, the sub-app's error middleware as
 * the plugin's error handler — but a sub-app is an application of its own, and some of what it
 * gives its routes a Fastify plugin cannot: Fastify has one router and one `trustProxy` per server,
 * which the shim copied from the main app. Express, per sub-app (express 4.x/5.x
 * lib/application.js `defaultConfiguration`, and its `mount` listener):
 * - `trust proxy`: its own setting, else the parent's (inherited on mount). A moved handler reads
 *   `req.ip` and the like on Express's request after the bridge, where they follow the main app's.
 * - `case sensitive routing`, `strict routing`: its own router is made when its first route is
 *   registered, from its own settings (off by default); the parent's apply only to a sub-app mounted
 *   before it registers a route.
 * - `query parser`: Express 4 parses `req.query` once, in the first app the request enters (the
 *   main app), so a sub-app's parser never applies; Express 5 reads `req.query` with the sub-app's
 *   own parser ('simple' by default, not inherited).
 * - `req.app` / `res.app` is the sub-app inside it; on the moved route (`request.raw.app`) it is the
 *   main app.
 * A route under a sub-app whose setting differs, or that reads `req.app`, stays, saying so.
 */
import type { Inventory, Route, Setting } from '../../analyzer/model.js';
import type { Blocker } from '../model.js';

/** The settings Fastify has once per server, by Express setting key, with how a sub-app comes by its value. */
const SERVER_SETTINGS = [
  { key: 'trust proxy', what: 'trust proxy', inherited: true, ownRoutesOnly: false, majors: [4, 5] },
  { key: 'case sensitive routing', what: 'case-sensitive routing', inherited: false, ownRoutesOnly: true, majors: [4, 5] },
  { key: 'strict routing', what: 'strict routing', inherited: false, ownRoutesOnly: true, majors: [4, 5] },
  { key: 'query parser', what: 'query parser', inherited: false, ownRoutesOnly: false, majors: [5] },
] as const;

/** Express's defaults for the settings above (express 4.x/5.x lib/application.js), per major. */
const DEFAULTS: Record<string, (major: 4 | 5) => unknown> = {
  'trust proxy': () => false,
  'case sensitive routing': () => false,
  'strict routing': () => false,
  'query parser': (major) => (major === 5 ? 'simple' : 'extended'),
};

/**
 * Why `route` cannot move as part of a sub-app's plugin: the sub-apps it is mounted under (the
 * innermost decides) have a server-level setting other than the main app's, or its handler reads
 * `req.app`/`res.app`. Null when it is under no sub-app or nothing differs.
 */
export function subAppBlockers(inventory: Inventory, route: Route): Blocker[] {
  const subApps = subAppsAbove(inventory, route);
  if (!subApps.length) return [];
  const major = inventory.project.expressVersion.major === 5 ? 5 : 4;
  const blockers: Blocker[] = [];
  const inner = subApps[subApps.length - 1];
  const differing = SERVER_SETTINGS.filter((s) => s.majors.some((m) => m === major) && (!s.ownRoutesOnly || route.ownerId === inner.id)).flatMap((s) => {
    const main = effective(inventory, [route.appId], s.key, major, true);
    const sub = effective(inventory, [route.appId, ...subApps.map((a) => a.id)], s.key, major, s.inherited);
    if (main.known && sub.known && JSON.stringify(main.value) === JSON.stringify(sub.value)) return [];
    return [`${s.what} (${sub.known ? JSON.stringify(sub.value) : 'known only at run time'} in ${inner.name}, ${main.known ? JSON.stringify(main.value) : 'known only at run time'} in the app)`];
  });
  if (differing.length) blockers.push({ code: 'route-sub-app-settings', reason: `it belongs to the sub-app ${inner.name}, whose ${differing.join(' and ')} differs from the main app's; Fastify has one per server, the main app's` });
  const app = [...route.usage.req, ...route.usage.res].filter((u) => u.api === 'req.app' || u.api === 'res.app');
  if (app.length) blockers.push({ code: 'route-sub-app-api', reason: `its handler reads ${[...new Set(app.map((u) => u.api))].join(' and ')}, the sub-app ${inner.name} in Express; on the moved route it would be the main app` });
  return blockers;
}

/** The sub-apps `route` is mounted under, outermost first (its own owner last when it is one). */
function subAppsAbove(inventory: Inventory, route: Route): Array<{ id: string; name: string }> {
  const ids = route.mountChain.flatMap((m) => {
    const mount = inventory.mounts.find((x) => x.id === m.mountId);
    return mount && !mount.framework ? [mount.child] : [];
  });
  return ids.flatMap((id) => inventory.routers.filter((r) => r.id === id && r.kind === 'sub-app').map((r) => ({ id: r.id, name: r.name })));
}

/**
 * The value of setting `key` for the innermost of `owners` (the app first, then the sub-apps it
 * mounts, outermost first): its own last setting; else, when the setting is `inherited`, the next
 * owner out's; else Express's default. `known: false` when the deciding setting is not a value
 * known before run time.
 */
function effective(inventory: Inventory, owners: string[], key: string, major: 4 | 5, inherited: boolean): { known: boolean; value?: unknown } {
  for (let i = owners.length - 1; i >= 0; i--) {
    const own = inventory.settings.filter((s) => s.ownerId === owners[i] && s.key === key && s.kind !== 'read' && s.kind !== 'locals').at(-1);
    if (own) return own.resolution === 'exact' ? { known: true, value: valueOf(own) } : { known: false };
    if (!inherited) break;
  }
  return { known: true, value: DEFAULTS[key](major) };
}

function valueOf(s: Setting): unknown {
  if (s.kind === 'enable') return true;
  if (s.kind === 'disable') return false;
  return s.value;
}
