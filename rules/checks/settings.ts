/**
 * App settings and their Fastify options: a numeric `trust proxy` (an error), and every other setting
 * with its form. Settings are Express's (`app.set`); for an Express app already served by Fastify
 * (`servedBy`) the `shim` stage has copied the app's own settings into the generated module, or
 * reported those it could not, so no setting of such an app is planned for the shim again.
 */
import type { Inventory, Setting, Stage } from '../../analyzer/model.js';
import { apiFor } from '../catalogue/api.js';
import { servedBy } from '../frameworks.js';
import type { FindingDraft, Rule } from '../rule.js';

export const trustProxyHops: Rule = {
  id: 'trust-proxy-hops',
  title: "Numeric 'trust proxy'",
  severity: 'error',
  stage: 'shim',
  autoFixable: true,
  docs: {
    summary: "`app.set('trust proxy', 1)` trusts one proxy hop. From Fastify 5.12.1 a numeric `trustProxy` is silently ignored: `request.ip` stays the proxy's address, so logs, per-IP rate limits and sessions bound to an IP see every client as one (probed with fastify 5.12.8). A value the analyzer could not fold may be a number too.",
    fix: "The `shim` stage writes `trustProxy: (address, hop) => hop < N` for a hop count it can read (Express trusts the nearest N hops). A value known only at run time or one of several is not copied (the shim reports it), nor is one set on a sub-app: give Fastify the proxies' addresses (`trustProxy: ['10.0.0.0/8']`) or a function `(address, hop) => isOurProxy(address) && hop < 1` in the generated module.",
    source: 'express-fastify-mapping.md §0.1 (trust proxy row); fastify lib/request.js; docs/stages/shim.md ("The generated module")',
    example: { express: "app.set('trust proxy', 1)", fastify: 'Fastify({ trustProxy: (address, hop) => hop < 1 })' },
  },
  check: (inventory) =>
    inventory.settings
      // A hop count of 0 trusts nothing, as Fastify does by default; any other number is ignored by Fastify.
      .filter((s) => s.key === 'trust proxy' && s.kind === 'set' && (s.alternatives ? s.alternatives.some(hops) : hops(s.value) || (s.resolution !== 'exact' && s.value === null)))
      .flatMap((s): FindingDraft[] => {
        // What the shim copies: the app's own setting, a number it could fold (transforms/shim-server/facts.ts).
        const copied = s.ownerId === s.appId && !s.alternatives && s.resolution === 'exact' && hops(s.value);
        const served = Boolean(servedBy(inventory, s.appId));
        if (served && copied) return [];
        return [{
          subject: s.appId,
          message: s.alternatives
            ? `'trust proxy' is ${s.raw}, one of ${s.alternatives.map((a) => JSON.stringify(a)).join(' or ')} depending on a run-time choice; Fastify 5.12.1+ ignores numeric hop counts.`
            : hops(s.value) ? `'trust proxy' is the hop count ${s.value}; Fastify 5.12.1+ ignores numeric hop counts.` : `'trust proxy' is set to ${s.raw}, which may be a hop count; Fastify 5.12.1+ ignores numeric hop counts.`,
          fastify: copied ? `trustProxy: (address, hop) => hop < ${s.value}` : 'trustProxy with the proxy addresses (IP/CIDR list) or (address, hop) => …',
          location: s.location,
          ...(copied ? {} : { autoFixable: false }),
          // The shim ran for a served app: what it did not copy is left for a human.
          ...(served ? { stage: 'manual' as const } : {}),
        }];
      }),
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
    fix: "The stage named in the finding carries the setting over. The `shim` stage copies the app's own `case sensitive routing`, `strict routing` and `query parser` into the generated module (so an app it already serves gets no such finding); a sub-app's setting becomes an option of its plugin in the `routes` stage.",
    source: 'express-fastify-mapping.md §1.1; docs/stages/shim.md ("The generated module")',
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
        const stage = settingStage(inventory, s, entry.stage);
        if (!stage) return [];
        const value = s.kind === 'set' ? (s.value === null ? s.raw : JSON.stringify(s.value)) : String(s.kind === 'enable');
        const subApp = inventory.routers.find((r) => r.id === s.ownerId && r.kind === 'sub-app');
        const mount = subApp && inventory.mounts.find((m) => m.child === subApp.id);
        return [{
          subject: s.ownerId,
          message: `'${s.key}' is ${value}${subApp ? ` on the sub-app ${subApp.name}${mount ? ` at ${mount.fullPath}` : ''} (its own routes only: an option of its plugin)` : ''}: ${entry.difference}`,
          fastify: entry.api === "app.set('view engine')" ? viewForm(inventory, s.appId) ?? entry.fastify : entry.fastify,
          location: s.location,
          stage,
        }];
      }),
};

/**
 * The stage that carries setting `s` over: the catalogue's, except that the shim copies only the
 * app's own settings (a sub-app's become options of its plugin in `routes`), and has already done
 * so for an app it serves (null: nothing left to report).
 */
function settingStage(inventory: Inventory, s: Setting, stage: Stage): Stage | null {
  if (stage !== 'shim') return stage;
  if (s.ownerId !== s.appId) return 'routes';
  return servedBy(inventory, s.appId) ? null : stage;
}

/** The @fastify/view registration for the app's own engine and views folder (`pug` in `src/views`), when the analyzer knows them. */
function viewForm(inventory: Parameters<Rule['check']>[0], appId: string): string | null {
  const view = inventory.viewEngines.find((v) => v.appId === appId && v.engine);
  if (!view) return null;
  const root = view.views ? `'${view.views}'` : "'views'";
  return `fastify.register(fastifyView, { engine: { ${view.engine}: require('${view.engine}') }, root: ${root}, viewExt: '${view.ext}' })`;
}
