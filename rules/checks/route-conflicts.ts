/**
 * Routes Fastify treats otherwise: the same method and path registered twice (Fastify refuses at
 * boot), and overlapping patterns whose winner changes (Express: first registered; Fastify: most
 * specific — a static segment beats a parameter).
 */
import type { Route } from '../../analyzer/model.js';
import type { Rule } from '../rule.js';

const segments = (r: Route) => r.matchKey.slice(r.matchKey.indexOf(' ') + 1).split('/').filter(Boolean);

export const duplicateRoute: Rule = {
  id: 'duplicate-route',
  title: 'Route registered twice',
  severity: 'error',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: 'Express lets two routes share a method and path (the second runs when the first calls `next()` or `next(\'route\')`). Fastify refuses the second registration at boot (FST_ERR_DUPLICATED_ROUTE), so the app would not start.',
    fix: 'Merge the two handlers into one route that branches, keeping the order Express ran them in.',
    source: 'express-fastify-mapping.md §2.7, §2.14',
    example: { express: "app.get('/a', first); app.get('/a', second)", fastify: "fastify.get('/a', async (req, reply) => (cond(req) ? first(req, reply) : second(req, reply)))" },
  },
  check: (inventory) => {
    const seen = new Map<string, Route>();
    const out = [];
    for (const r of [...inventory.routes].sort((a, b) => a.appId.localeCompare(b.appId) || a.order - b.order)) {
      if (r.path.syntax === 'unresolved') continue;
      const key = `${r.appId} ${r.matchKey.toLowerCase()}`;
      const first = seen.get(key);
      if (!first) {
        seen.set(key, r);
        continue;
      }
      out.push({
        subject: r.id,
        message: `${r.key} is registered again; Fastify refuses a second route with the same method and path.`,
        fastify: 'One route whose handler does what both did.',
        location: r.registration,
        related: [{ location: first.registration, message: `first registration of ${first.key}` }],
      });
    }
    return out;
  },
};

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
    const routes = [...inventory.routes].filter((r) => r.path.syntax !== 'unresolved' && r.path.syntax !== 'regexp').sort((a, b) => a.appId.localeCompare(b.appId) || a.order - b.order);
    const out = [];
    for (const [i, early] of routes.entries()) {
      for (const late of routes.slice(i + 1)) {
        if (late.appId !== early.appId || (late.method !== early.method && early.method !== 'ALL')) continue;
        const [a, b] = [segments(early), segments(late)];
        if (a.length !== b.length || a.some((s) => s === '*')) continue;
        const shadows = a.every((s, k) => s === b[k] || (s === ':_' && b[k] !== ':_'));
        if (!shadows || a.every((s, k) => s === b[k])) continue;
        out.push({
          subject: late.id,
          message: `${late.key} is shadowed by ${early.key} in Express (registered first); Fastify answers it with ${late.key}.`,
          fastify: 'Fastify prefers static segments over parameters: the later, more specific route wins.',
          location: late.registration,
          related: [{ location: early.registration, message: `${early.key}, which Express tries first` }],
        });
      }
    }
    return out;
  },
};
