/**
 * App-level defaults that change when Fastify serves the app: the address it listens on, and the
 * pages it answers unknown routes and unhandled errors with (rules/catalogue framework defaults).
 */
import type { App, Inventory } from '../../analyzer/model.js';
import { API } from '../catalogue/api.js';
import { FRAMEWORK_DEFAULTS, fixFor } from '../catalogue/framework-defaults.js';
import type { FindingDraft, Rule } from '../rule.js';

/** A second `listen` argument that names an address (`'0.0.0.0'`, `HOST`, `config.host`), not a callback. */
const HOST_ARG = /^['"`]|host|addr|\bip\b|interface/i;

export const listenHost: Rule = {
  id: 'listen-host',
  title: 'Listen address changes',
  severity: 'warning',
  stage: 'shim',
  autoFixable: true,
  docs: {
    summary: "`app.listen(port)` without an address binds every interface (Node's default). `fastify.listen({ port })` binds `localhost` only, so in a container or on a PaaS the migrated app is unreachable from outside.",
    fix: "The `shim` stage writes `fastify.listen({ port, host: '0.0.0.0' })` (use `'::'` for IPv6); keep an explicit address where the app gave one.",
    source: 'express-fastify-mapping.md §0.1 ("Listen host default"), §1.1 app.listen; Fastify docs, Server.md#listen',
    example: { express: 'app.listen(process.env.PORT)', fastify: "await fastify.listen({ port: Number(process.env.PORT), host: '0.0.0.0' })" },
  },
  check: (inventory) =>
    inventory.apps.flatMap((app) =>
      app.listen
        .filter((l) => !(l.args[1] && !/=>|function/.test(l.args[1]) && HOST_ARG.test(l.args[1])))
        .map((l): FindingDraft => ({
          subject: app.id,
          message: `${app.name}.listen(${l.args.map((a) => (/=>|function/.test(a) ? '…' : a)).join(', ')}) binds every interface; Fastify listens on localhost unless it is given a host.`,
          fastify: API['app.listen'].fastify,
          location: l.location,
        })),
    ),
};

export const defaultPages: Rule = {
  id: 'default-pages',
  title: 'Built-in 404 and error pages change',
  severity: 'info',
  stage: 'errors',
  autoFixable: true,
  docs: {
    summary: "An app with no not-found handler answers unknown routes with Express's HTML \"Cannot GET /path\" page; Fastify answers JSON. An app with no error handler answers unhandled errors with Express's HTML error page; Fastify answers JSON with the message, even for 5xx. Browsers and clients that read those pages see the change; it is a warning for apps that render views.",
    fix: 'The `errors` stage writes `setNotFoundHandler` / `setErrorHandler` that send what Express sent, where the app relied on it.',
    source: 'express-fastify-mapping.md §2.1, §2.2; rules/catalogue/framework-defaults.ts (default-404-body, default-error-body)',
    example: { express: "app.get('/', home) // GET /nope → 404 text/html 'Cannot GET /nope'", fastify: "fastify.setNotFoundHandler((request, reply) => reply.code(404).type('text/html; charset=utf-8').send(`Cannot ${request.method} ${request.url}`))" },
  },
  check: (inventory) => inventory.apps.filter((app) => inventory.routes.some((r) => r.appId === app.id)).flatMap((app) => pagesOf(inventory, app)),
};

function pagesOf(inventory: Inventory, app: App): FindingDraft[] {
  const browserFacing = inventory.viewEngines.some((v) => v.appId === app.id);
  const version = inventory.project.fastifyVersion.installed;
  const handlers = inventory.errorHandlers.filter((e) => e.appId === app.id);
  // Handlers registered only under a condition (`if (env === 'development') app.use(errorhandler())`) leave the default page in the other case.
  const conditions = [...new Set(handlers.flatMap((e) => e.conditions ?? []))];
  // `if (x)` and `if !(x)` together (the two branches of one if) cover every case.
  const bothBranches = conditions.some((c) => c.startsWith('if (') && conditions.includes(`if !(${c.slice(4, -1)})`));
  const onlyWhen = handlers.length > 0 && handlers.every((e) => e.conditions) && !bothBranches ? conditions : [];
  const missing = [
    !inventory.notFoundHandlers.some((n) => n.appId === app.id) && FRAMEWORK_DEFAULTS['default-404-body'],
    (!handlers.length || onlyWhen.length > 0) && FRAMEWORK_DEFAULTS['default-error-body'],
  ].filter((d) => d !== false);
  return missing.map((d) => ({
    subject: app.id,
    message: `${app.name} has no ${d.id === 'default-404-body' ? 'not-found' : 'error'} handler${d.id === 'default-error-body' && onlyWhen.length ? ` outside ${onlyWhen.join(', ')}` : ''}. Express: ${d.express} Fastify: ${d.fastify}`,
    fastify: fixFor(d, version),
    location: app.location,
    ...(browserFacing ? { severity: 'warning' as const } : {}),
  }));
}
