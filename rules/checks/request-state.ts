/** Request and response state that means something else on Fastify: paths inside mounted routers, writes to req.query, res.locals. */
import type { Rule } from '../rule.js';
import { usesOf } from '../uses.js';

export const reqPathInRouter: Rule = {
  id: 'req-path-in-router',
  title: 'req.path, req.baseUrl or req.url inside a mounted router',
  severity: 'warning',
  stage: 'routes',
  autoFixable: false,
  docs: {
    summary: 'Inside a router mounted at `/api`, Express strips the mount path: `req.path` and `req.url` are relative to it and `req.baseUrl` holds it. A Fastify plugin registered with a `prefix` sees the full URL in `request.url`, and has no `baseUrl`.',
    fix: 'Use `request.routeOptions.url` for the route pattern, or strip the prefix yourself where the relative path was meant; `req.originalUrl` becomes `request.url`.',
    source: 'express-fastify-mapping.md §1.3',
    example: { express: "router.get('/x', (req, res) => res.send(req.path)) // mounted at /api: '/x'", fastify: "fastify.get('/x', (request) => request.url.slice(prefix.length)) // '/x'" },
  },
  check: (inventory) =>
    usesOf(inventory, (u, site) => /^req\.(path|baseUrl|url)$/.test(u.api) && site.mounts.some((m) => m.mountPath !== '/')).map(({ site, use }) => ({
      subject: site.subject,
      message: `${site.label} reads ${use.api} inside a router mounted at ${site.mounts.map((m) => m.mountPath).join(' → ')}.`,
      fastify: `${use.api === 'req.baseUrl' ? 'The plugin prefix (no baseUrl in Fastify)' : 'request.url holds the full URL; strip the prefix where a relative path was meant'}.`,
      location: use.location,
      related: site.mounts.map((m) => ({ location: m.location, message: `mounted at ${m.mountPath}` })),
    })),
};

export const reqQueryWrite: Rule = {
  id: 'req-query-write',
  title: 'Write to req.query',
  severity: 'warning',
  stage: 'routes',
  autoFixable: false,
  docs: {
    summary: 'Express 4 lets middleware and handlers assign or change `req.query` (Express 5 made it a getter, so writes are lost there). On Fastify `request.query` is writable but is parsed before hooks run and validated by the route schema; code that rewrites the query to steer later middleware runs in another order.',
    fix: 'Keep the derived values on the request under another name (`request.filters`), set in a hook.',
    source: 'express-fastify-mapping.md §1.3; Express 5 migration guide (req.query is a getter)',
    example: { express: 'req.query.page = Number(req.query.page) || 1', fastify: 'request.page = Number(request.query.page) || 1 // in a preHandler hook' },
  },
  check: (inventory) =>
    usesOf(inventory, (u) => u.api === 'req.query' && u.write === true).map(({ site, use }) => ({
      subject: site.subject,
      message: `${site.label} writes to req.query.`,
      fastify: 'Derived values on the request under their own name, set in a hook.',
      location: use.location,
    })),
};

export const resLocals: Rule = {
  id: 'res-locals',
  title: 'res.locals',
  severity: 'warning',
  stage: 'routes',
  autoFixable: true,
  docs: {
    summary: '`res.locals` carries values to templates and later middleware. Fastify has no locals on the reply: `@fastify/view` takes them from `reply.locals` (a decorator it adds) and the data passed to `reply.view`. Reassigning `res.locals` (not just setting a property) replaces what middleware put there.',
    fix: 'The `routes` stage moves property writes to `reply.locals`; a reassignment is flagged for review.',
    source: 'express-fastify-mapping.md §1.4; @fastify/view README (reply.locals)',
    example: { express: 'res.locals.user = req.user; res.render("page")', fastify: 'reply.locals.user = request.user; return reply.view("page")' },
  },
  check: (inventory) =>
    usesOf(inventory, (u) => u.api === 'res.locals').map(({ site, use }) => ({
      subject: site.subject,
      message: `${site.label} ${use.write ? 'writes' : 'reads'} res.locals.`,
      fastify: 'reply.locals (with @fastify/view), or data passed to reply.view.',
      location: use.location,
      ...(use.write ? { severity: 'warning' as const } : { severity: 'info' as const }),
    })),
};

export const asyncCallbackAnswer: Rule = {
  id: 'async-callback-answer',
  title: 'Async handler answering from a callback',
  severity: 'warning',
  stage: 'routes',
  autoFixable: true,
  docs: {
    summary: 'An async Fastify handler that answers from a callback (`fs.readFile(p, (e, d) => reply.send(d))`) has already returned a promise that resolved to undefined: Fastify then answers too, or logs "Reply was already sent". The handler must `return reply` (or await the callback as a promise).',
    fix: 'The `routes` stage adds `return reply` after the callback is set up; promisifying the callback is better and left to you.',
    source: 'Fastify docs, Routes.md "Promise resolution" and Reply.md; express-fastify-mapping.md §1.5',
    example: { express: 'async (req, res) => { fs.readFile(p, (e, d) => res.send(d)) }', fastify: 'async (request, reply) => { fs.readFile(p, (e, d) => reply.send(d)); return reply }' },
  },
  check: (inventory) =>
    usesOf(inventory, (u, site) => !!site.route?.handler.async && u.inCallback === true && /^res\.(send|json|end|render|redirect|sendFile|download|sendStatus)$/.test(u.api)).map(({ site, use }) => ({
      subject: site.subject,
      message: `${site.label} is async and answers with ${use.api} from a callback.`,
      fastify: '`return reply` after setting up the callback (or await a promise).',
      location: use.location,
    })),
};
