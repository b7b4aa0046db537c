/** `app.param`/`router.param` callbacks (Express routes only): they become hooks on the routes that have that parameter. */
import { expressRoutes } from '../frameworks.js';
import type { Rule } from '../rule.js';

export const paramCallback: Rule = {
  id: 'param-callback',
  title: 'Parameter callback',
  severity: 'warning',
  stage: 'routes',
  autoFixable: true,
  docs: {
    summary: '`app.param(name, fn)` runs `fn` before every route with that parameter, after app-level middleware and before the route\'s own. Fastify has no parameter callbacks; each route with the parameter gets the callback as a hook, in `preValidation` so it keeps running before body validation, as in Express.',
    fix: 'The `routes` stage adds the callback as the first `preValidation` hook of each route that has the parameter.',
    source: 'express-fastify-mapping.md §2.14',
    example: { express: "router.param('id', loadUser); router.get('/:id', show)", fastify: "fastify.get('/:id', { preValidation: [loadUserHook] }, show)" },
  },
  check: (inventory) =>
    expressRoutes(inventory).flatMap((route) =>
      route.chain
        .filter((c) => c.scope === 'param')
        .map((c) => ({
          subject: route.id,
          message: `${route.key} runs the parameter callback ${c.name}.`,
          fastify: `A preValidation hook running ${c.name} on this route; the value Express passed as its fourth argument (\`(req, res, next, value)\`) comes from \`request.params\`.`,
          location: c.registration,
          related: [{ location: route.registration, message: `the route ${route.key}` }],
        })),
    ),
};
