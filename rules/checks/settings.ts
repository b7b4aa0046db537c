/** App settings and their Fastify options: a numeric `trust proxy` (an error), and every other setting with its form. */
import { apiFor } from '../catalogue/api.js';
import type { Rule } from '../rule.js';

export const trustProxyHops: Rule = {
  id: 'trust-proxy-hops',
  title: "Numeric 'trust proxy'",
  severity: 'error',
  stage: 'shim',
  autoFixable: false,
  docs: {
    summary: "`app.set('trust proxy', 1)` trusts one proxy hop. From Fastify 5.12.1 a numeric `trustProxy` is silently ignored: `request.ip` stays the proxy's address, so logs, per-IP rate limits and sessions bound to an IP see every client as one (probed with fastify 5.12.8). A value the analyzer could not fold may be a number too.",
    fix: "Give Fastify the proxies' addresses (`trustProxy: ['10.0.0.0/8']`) or a function: `trustProxy: (address, hop) => isOurProxy(address) && hop < 1`.",
    source: 'express-fastify-mapping.md §0.1 (trust proxy row); fastify lib/request.js',
    example: { express: "app.set('trust proxy', 1)", fastify: "Fastify({ trustProxy: (address, hop) => address === '10.0.0.2' && hop < 1 })" },
  },
  check: (inventory) =>
    inventory.settings
      // A hop count of 0 trusts nothing, as Fastify does by default; any other number is ignored by Fastify.
      .filter((s) => s.key === 'trust proxy' && s.kind === 'set' && (s.alternatives ? s.alternatives.some(hops) : hops(s.value) || (s.resolution !== 'exact' && s.value === null)))
      .map((s) => ({
        subject: s.appId,
        message: s.alternatives
          ? `'trust proxy' is ${s.raw}, one of ${s.alternatives.map((a) => JSON.stringify(a)).join(' or ')} depending on a run-time choice; Fastify 5.12.1+ ignores numeric hop counts.`
          : hops(s.value) ? `'trust proxy' is the hop count ${s.value}; Fastify 5.12.1+ ignores numeric hop counts.` : `'trust proxy' is set to ${s.raw}, which may be a hop count; Fastify 5.12.1+ ignores numeric hop counts.`,
        fastify: 'trustProxy with the proxy addresses (IP/CIDR list) or (address, hop) => …',
        location: s.location,
      })),
};

function hops(value: unknown): boolean {
  return typeof value === 'number' && value > 0;
}

export const appSettings: Rule = {
  id: 'app-settings',
  title: 'App setting with a Fastify form',
  severity: 'info',
  stage: 'shim',
  autoFixable: true,
  docs: {
    summary: "Express settings (`app.set('json spaces', 2)`, `'view engine'`, `'strict routing'`, `'etag'`, …) become Fastify server options, plugin options or hooks, set once when the server is created — also those of a sub-app, which apply only to its own routes in Express. Each setting is reported with its Fastify form and the difference (rules/catalogue/api.ts).",
    fix: 'The stage named in the finding carries the setting over; a sub-app setting becomes an option of its plugin.',
    source: 'express-fastify-mapping.md §1.1',
    example: { express: "admin.set('json spaces', 2)", fastify: "fastify.register(adminPlugin) // with a serializer: reply.serializer((p) => JSON.stringify(p, null, 2))" },
  },
  check: (inventory) =>
    inventory.settings
      .filter((s) => (s.kind === 'set' || s.kind === 'enable' || s.kind === 'disable') && s.key !== 'trust proxy')
      .flatMap((s) => {
        const entry = apiFor(`app.set('${s.key}')`);
        if (!entry || entry.safety === 'safe' || entry.api === 'app.set') return [];
        // 'views' and 'view engine' are one @fastify/view registration: reported once, on the engine.
        if (s.key === 'views' && inventory.settings.some((x) => x.ownerId === s.ownerId && x.key === 'view engine')) return [];
        const value = s.kind === 'set' ? (s.value === null ? s.raw : JSON.stringify(s.value)) : String(s.kind === 'enable');
        const subApp = inventory.routers.find((r) => r.id === s.ownerId && r.kind === 'sub-app');
        const mount = subApp && inventory.mounts.find((m) => m.child === subApp.id);
        return [{
          subject: s.ownerId,
          message: `'${s.key}' is ${value}${subApp ? ` on the sub-app ${subApp.name}${mount ? ` at ${mount.fullPath}` : ''} (its own routes only: an option of its plugin)` : ''}: ${entry.difference}`,
          fastify: entry.api === "app.set('view engine')" ? viewForm(inventory, s.appId) ?? entry.fastify : entry.fastify,
          location: s.location,
          stage: entry.stage,
        }];
      }),
};

/** The @fastify/view registration for the app's own engine and views folder (`pug` in `src/views`), when the analyzer knows them. */
function viewForm(inventory: Parameters<Rule['check']>[0], appId: string): string | null {
  const view = inventory.viewEngines.find((v) => v.appId === appId && v.engine);
  if (!view) return null;
  const root = view.views ? `'${view.views}'` : "'views'";
  return `fastify.register(fastifyView, { engine: { ${view.engine}: require('${view.engine}') }, root: ${root}, viewExt: '${view.ext}' })`;
}
