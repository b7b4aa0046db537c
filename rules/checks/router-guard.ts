/** Express router middleware that answers (a guard): unknown URLs under its mount path change status. A Fastify plugin's hook already runs only for its routes. */
import { onFastify } from '../frameworks.js';
import type { Rule } from '../rule.js';

const ANSWERS = /^res\.(status|json|send|sendStatus|end|redirect|render)$/;

export const routerGuardUnknownPaths: Rule = {
  id: 'router-guard-unknown-paths',
  title: 'Router guard answers unknown URLs',
  severity: 'warning',
  stage: 'routes',
  autoFixable: false,
  docs: {
    summary: "Middleware on a router mounted under a path runs for every request under that path, also for URLs no route of the router matches: an auth guard answers 401 (itself or through `next(err)`) to `/api/nope`. In Fastify a plugin's hooks run only for its routes, so the same URL gets the 404 of the not-found handler — a client probing or mistyping sees another status.",
    fix: 'Accept the 404 (usually better), or give the plugin its own `setNotFoundHandler` that runs the guard first.',
    source: 'express-fastify-mapping.md §1.2, §2.1; Fastify docs, Hooks.md (hooks run for routes of the plugin)',
    example: { express: "api.use(requireAuth); app.use('/api', api) // GET /api/nope → 401", fastify: "fastify.register(async (api) => { api.addHook('preHandler', requireAuth); api.setNotFoundHandler({ preHandler: requireAuth }, notFound) }, { prefix: '/api' })" },
  },
  check: (inventory) =>
    inventory.middleware
      .filter((m) => !onFastify(m) && m.scope === 'router' && m.fullPath !== '/' && m.origin === 'local' && (m.usage.res.some((u) => ANSWERS.test(u.api)) || m.usage.next.some((u) => u.api === 'next(err)')))
      .map((m) => ({
        subject: m.id,
        message: `${m.name} can end requests (an answer or an error) and runs for every URL under ${m.fullPath}; for a URL no route there matches, Express ends it there and Fastify answers 404.`,
        fastify: `A setNotFoundHandler in the ${m.fullPath} plugin that runs ${m.name} first, or the 404 accepted.`,
        location: m.registration,
      })),
};
