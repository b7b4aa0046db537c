/**
 * Routes Fastify treats otherwise: the same method and path registered twice (Fastify refuses at
 * boot), and overlapping patterns whose winner changes (Express: first registered; Fastify: most
 * specific — a static segment beats a parameter). Both predict what moving Express routes does:
 * Fastify routes (`framework: 'fastify'`) are already registered and matched by Fastify (which also
 * accepts an explicit HEAD route after its GET, replacing the HEAD it added), so they are left out.
 */
import type { Inventory, Route } from '../../analyzer/model.js';
import { middlewareFor } from '../catalogue/middleware.js';
import { expressRoutes } from '../frameworks.js';
import { staticMountAt } from '../lookups.js';
import type { FindingDraft, Rule } from '../rule.js';

const segments = (r: Route) => r.matchKey.slice(r.matchKey.indexOf(' ') + 1).split('/').filter(Boolean);

export const duplicateRoute: Rule = {
  id: 'duplicate-route',
  title: 'Route registered twice',
  severity: 'error',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: 'Express lets two routes share a method and path (the second runs when the first calls `next()` or `next(\'route\')`). Fastify refuses the second registration at boot (FST_ERR_DUPLICATED_ROUTE), so the app would not start. Paths are compared as Fastify will see them with the router options that keep Express matching (case-insensitive, trailing slash ignored); `all` claims every method, and a GET route brings its HEAD. Routes the replacement plugins register themselves count too: @fastify/cors takes `OPTIONS *` (so `app.options(\'*\', cors())` or a catch-all `app.all(\'*\')` clash), @fastify/static takes `GET`/`HEAD <prefix>/*` (an SPA fallback `app.get(\'*\')` next to `express.static` clashes).',
    fix: 'Merge the two handlers into one route that branches, keeping the order Express ran them in.',
    source: 'express-fastify-mapping.md §2.7, §2.14',
    example: { express: "app.get('/a', first); app.get('/a', second)", fastify: "fastify.get('/a', async (req, reply) => (cond(req) ? first(req, reply) : second(req, reply)))" },
  },
  check: (inventory) => {
    // Keys as Fastify sees them with the router options the shim sets to keep Express matching
    // (case-insensitive, trailing slash ignored); ALL claims every method, GET also HEAD.
    const seen = new Map<string, Route>();
    const out = [];
    for (const r of expressRoutes(inventory).sort((a, b) => a.appId.localeCompare(b.appId) || a.order - b.order)) {
      if (r.path.syntax === 'unresolved') continue;
      const path = r.matchKey.slice(r.matchKey.indexOf(' ') + 1).toLowerCase().replace(/(.)\/$/, '$1');
      const at = (m: string) => seen.get(`${r.appId} ${m} ${path}`);
      // ALL clashes with any method; any method with an earlier ALL; HEAD with a GET (Fastify adds its HEAD).
      const clash = r.method === 'ALL' ? [...seen.entries()].find(([k]) => k.startsWith(`${r.appId} `) && k.endsWith(` ${path}`))?.[1] : (at(r.method) ?? at('ALL'));
      const methods = r.method === 'GET' ? ['GET', 'HEAD'] : [r.method];
      if (clash) {
        out.push({
          subject: r.id,
          message: `${r.key} is registered again (after ${clash.key}); Fastify refuses a second route for the same method and path at boot.`,
          fastify: 'One route whose handler does what both did.',
          location: r.registration,
          related: [{ location: clash.registration, message: `first registration: ${clash.key}` }],
        });
        continue;
      }
      for (const m of methods) seen.set(`${r.appId} ${m} ${path}`, r);
    }
    return [...out, ...pluginRouteClashes(inventory)];
  },
};

/**
 * App routes that take a route a replacement plugin registers itself (rules/catalogue
 * `registersRoutes`): `app.options('*', cors())` or a catch-all `app.all('*')` next to `cors()`
 * (@fastify/cors registers `OPTIONS *`), an SPA `app.get('*')` next to `express.static` at the
 * same prefix (@fastify/static registers `GET`/`HEAD <prefix>/*`). Verified on Fastify 5.12.
 */
function pluginRouteClashes(inventory: Inventory): FindingDraft[] {
  const wildcard = (p: string) => p.replace(/^\*$/, '/*').replace(/\/\*[\w$]*$|\/\{\*[\w$]+\}$|\/\(\.\*\)$/, '/*').toLowerCase();
  const out: FindingDraft[] = [];
  for (const m of inventory.middleware.filter((x) => x.framework !== 'fastify')) {
    const entry = middlewareFor(m.name, m.package);
    const reported = new Set<string>(); // one finding per route and plugin
    for (const taken of entry?.registersRoutes ?? []) {
      const [method, raw] = taken.split(' ');
      const path = wildcard(raw.replace('{prefix}', m.fullPath === '/' ? '' : m.fullPath));
      // Any route of the app, Fastify's too: the plugin that replaces the middleware registers its route next to them.
      for (const r of inventory.routes) {
        if (r.appId !== m.appId || r.path.syntax === 'unresolved' || wildcard(r.path.full) !== path) continue;
        if ((r.method !== method && r.method !== 'ALL' && !(r.method === 'GET' && method === 'HEAD')) || reported.has(r.id)) continue;
        reported.add(r.id);
        out.push({
          subject: r.id,
          message: `${r.key} takes \`${method} ${path}\`, which ${entry!.fastify} registers itself (replacing ${m.name} at ${m.registration.file}:${m.registration.line}); Fastify refuses the second route at boot.`,
          fastify: method === 'OPTIONS' ? 'Drop the route: @fastify/cors answers preflight requests; a catch-all 404 becomes `fastify.setNotFoundHandler`.' : spaFallback(inventory, m),
          location: r.registration,
          related: [{ location: m.registration, message: `${m.name} [${m.package}], replaced by ${entry!.fastify}` }],
        });
      }
    }
  }
  return out;
}

export const overlappingRoutes: Rule = {
  id: 'overlapping-routes',
  title: 'Overlapping routes whose winner changes',
  severity: 'warning',
  stage: 'routes',
  autoFixable: false,
  docs: {
    summary: 'When a parametric route is registered before a static one it also matches (`/users/:id` before `/users/me`), Express answers `/users/me` with the first; Fastify always prefers the static route. The answer to that URL changes.',
    fix: 'Decide which handler should win; if Express behaviour was intended, make the parametric handler check for the static value, or remove the static route.',
    source: 'express-fastify-mapping.md §2.7',
    example: { express: "app.get('/users/:id', show); app.get('/users/me', me) // /users/me → show", fastify: "fastify.get('/users/:id', show); fastify.get('/users/me', me) // /users/me → me" },
  },
  check: (inventory) => {
    const routes = expressRoutes(inventory).filter((r) => r.path.syntax !== 'unresolved' && r.path.syntax !== 'regexp').sort((a, b) => a.appId.localeCompare(b.appId) || a.order - b.order);
    const out = [];
    for (const [i, early] of routes.entries()) {
      for (const late of routes.slice(i + 1)) {
        if (late.appId !== early.appId || (late.method !== early.method && early.method !== 'ALL')) continue;
        if (!shadows(early, late)) continue;
        out.push({
          subject: late.id,
          message: `${late.key} is shadowed by ${early.key} in Express (registered first); Fastify answers it with ${late.key}.`,
          fastify: 'Fastify prefers static segments over parameters and wildcards: the later, more specific route wins.',
          location: late.registration,
          related: [{ location: early.registration, message: `${early.key}, which Express tries first` }],
        });
      }
    }
    return out;
  },
};

/**
 * Whether `early` (a parameter or wildcard where `late` is static) matches every URL of `late`,
 * so Express answers them with `early` while Fastify picks the more specific `late`. A parameter
 * with an inline pattern shadows only the static segments the pattern matches.
 */
function shadows(early: Route, late: Route): boolean {
  const [a, b] = [segments(early), segments(late)];
  const patterns = early.path.params.map((p) => p.pattern);
  let param = 0;
  for (const [k, s] of a.entries()) {
    if (s === '*') return k === a.length - 1 && b.length >= a.length && b.slice(0, k).every((t, j) => t === a[j] || a[j] === ':_') && b[k] !== '*';
    if (k >= b.length) return false;
    if (s === ':_') {
      const pattern = patterns[param++];
      if (b[k] === ':_') continue;
      if (pattern && !new RegExp(`^(?:${pattern})$`).test(b[k])) return false;
      continue;
    }
    if (s !== b[k]) return false;
  }
  return a.length === b.length && a.some((s, k) => s === ':_' && b[k] !== ':_');
}

/**
 * The SPA fallback for a catch-all next to a static mount: `reply.sendFile` with that mount's
 * root as its second argument, since with several @fastify/static registrations the decorated
 * `sendFile` serves from the first one's root (probed on @fastify/static 8).
 */
function spaFallback(inventory: Inventory, m: Inventory['middleware'][number]): string {
  const mount = staticMountAt(inventory, m.registration);
  const root = mount?.dir ? `, '${mount.dir}'` : ', <the static root>';
  return `Serve the fallback from \`fastify.setNotFoundHandler\` (\`reply.sendFile('index.html'${root})\`), or register @fastify/static with \`wildcard: false\`.`;
}
