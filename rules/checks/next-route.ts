/** `next('route')` and `next('router')`: no Fastify counterpart, and the second route cannot even be registered. */
import type { Rule } from '../rule.js';
import { usesOf } from '../uses.js';

export const nextRoute: Rule = {
  id: 'next-route',
  title: "next('route') or next('router')",
  severity: 'error',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: "`next('route')` skips to the next route that matches the same path, `next('router')` out of the router. Fastify has neither, and refuses the second registration of the same method and path (FST_ERR_DUPLICATED_ROUTE).",
    fix: 'Merge the routes into one handler that branches on the condition, or use a route constraint when the condition is a header or the host.',
    source: 'express-fastify-mapping.md §2.14',
    example: { express: "app.get('/a/:slug', guard, show); app.get('/a/:slug', notice) // guard calls next('route')", fastify: "fastify.get('/a/:slug', async (req, reply) => (isDraft(req) ? notice(req, reply) : show(req, reply)))" },
  },
  check: (inventory) =>
    usesOf(inventory, (u) => u.api === "next('route')" || u.api === "next('router')").map(({ site, use }) => ({
      subject: site.subject,
      message: `${site.label} calls ${use.api}.`,
      fastify: use.api === "next('router')" ? 'A plugin whose hook answers or lets the request fall through to routes outside it.' : 'One route whose handler branches on the condition (or a route constraint).',
      location: use.location,
      related: site.route ? [{ location: site.route.registration, message: `the route ${site.route.key}` }] : [],
    })),
};
