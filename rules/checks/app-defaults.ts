/**
 * App-level defaults that change when Fastify serves the app: the address it listens on, and the
 * pages it answers unknown routes and unhandled errors with (rules/catalogue framework defaults).
 * Both are about Express apps: a Fastify app already has Fastify's defaults, and an Express app
 * already served by Fastify (`servedBy`) has been through the `shim` stage.
 */
import type { App, Inventory } from '../../analyzer/model.js';
import { API } from '../catalogue/api.js';
import { FRAMEWORK_DEFAULTS, fixFor } from '../catalogue/framework-defaults.js';
import { bridgePath, expressApps, onFastify } from '../frameworks.js';
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
    summary: "`app.listen(port)` without an address binds every interface (Node's default). `fastify.listen({ port })` binds `localhost` only, so in a container or on a PaaS the migrated app is unreachable from outside. Only Express apps that still start themselves are flagged: a Fastify app's `listen` is already Fastify's, and the shim's `listen(buildFastify(app), …)` keeps the app's arguments.",
    fix: "The `shim` stage starts Fastify's server with the app's own `listen` arguments (`listen(buildFastify(app), port[, host], …)`), so it binds what the Express app bound — every interface when no address was given. Starting Fastify by hand, pass `host: '0.0.0.0'` (`'::'` for IPv6).",
    source: 'express-fastify-mapping.md §0.1 ("Listen host default"), §1.1 app.listen; Fastify docs, Server.md#listen; docs/stages/shim.md',
    example: { express: 'app.listen(process.env.PORT)', fastify: "await fastify.listen({ port: Number(process.env.PORT), host: '0.0.0.0' })" },
  },
  check: (inventory) =>
    expressApps(inventory)
      .filter((app) => !app.servedBy)
      .flatMap((app) =>
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
  stage: 'shim',
  autoFixable: true,
  docs: {
    summary: "An Express app with no not-found handler answers unknown routes with Express's HTML \"Cannot GET /path\" page; Fastify answers JSON. An app with no error handler answers unhandled errors with Express's HTML error page; Fastify answers JSON with the message, even for 5xx. Once the `shim` stage puts Fastify in front, what the app leaves unanswered goes to Fastify's not-found and error handlers, so browsers and clients that read those pages see the change; it is a warning for apps that render views. An app whose errors or unknown routes reach a Fastify `setErrorHandler`/`setNotFoundHandler` (the `errors` stage moved the app's own there) is not flagged, nor are Fastify apps.",
    fix: "`migrate run --stage shim --parity express` answers them with Express's own pages (`finalhandler`, in the `setNotFoundHandler`/`setErrorHandler` of the generated module); without `--parity express` the shim reports them as framework deltas. On an app the shim already ran on, the finding goes to `manual`: run the shim again with `--parity express` (it adds the handlers to the generated module) or write the handlers there by hand. An app's own 404 and error middleware are not this rule's: the `errors` stage moves them.",
    source: 'express-fastify-mapping.md §2.1, §2.2; rules/catalogue/framework-defaults.ts (default-404-body, default-error-body); docs/stages/shim.md "Framework deltas"',
    example: { express: "app.get('/', home) // GET /nope → 404 text/html 'Cannot GET /nope'", fastify: "fastify.setNotFoundHandler((request, reply) => { reply.hijack(); finalhandler(request.raw, reply.raw, { env: app.get('env') })(undefined) })" },
  },
  check: (inventory) => expressApps(inventory).filter((app) => inventory.routes.some((r) => r.appId === app.id)).flatMap((app) => pagesOf(inventory, app)),
};

function pagesOf(inventory: Inventory, app: App): FindingDraft[] {
  const browserFacing = inventory.viewEngines.some((v) => v.appId === app.id);
  const version = inventory.project.fastifyVersion.installed;
  const handlers = [...inventory.errorHandlers.filter((e) => e.appId === app.id && !onFastify(e)), ...fastifyErrorHandlersOf(inventory, app)];
  // Handlers registered only under a condition (`if (env === 'development') app.use(errorhandler())`) leave the default page in the other case.
  const conditions = [...new Set(handlers.flatMap((e) => e.conditions ?? []))];
  // `if (x)` and `if !(x)` together (the two branches of one if) cover every case.
  const bothBranches = conditions.some((c) => c.startsWith('if (') && conditions.includes(`if !(${c.slice(4, -1)})`));
  const onlyWhen = handlers.length > 0 && handlers.every((e) => e.conditions) && !bothBranches ? conditions : [];
  const notFound = inventory.notFoundHandlers.some((n) => n.appId === app.id && !onFastify(n)) || hasFastifyNotFound(inventory, app);
  const missing = [!notFound && FRAMEWORK_DEFAULTS['default-404-body'], (!handlers.length || onlyWhen.length > 0) && FRAMEWORK_DEFAULTS['default-error-body']].filter((d) => d !== false);
  return missing.map((d) => {
    const what = d.id === 'default-404-body' ? 'not-found' : 'error';
    const outside = d.id === 'default-error-body' && onlyWhen.length ? ` outside ${onlyWhen.join(', ')}` : '';
    return {
      subject: app.id,
      message: app.servedBy
        ? `${app.name} has no ${what} handler${outside}, nor has the Fastify server in front of it: Fastify's own answers them. Express: ${d.express} Fastify: ${d.fastify}`
        : `${app.name} has no ${what} handler${outside}. Express: ${d.express} Fastify: ${d.fastify}`,
      fastify: fixFor(d, version),
      location: app.location,
      // The shim already ran for a served app: restoring the page is now a decision for a human.
      ...(app.servedBy ? { stage: 'manual' as const } : {}),
      ...(browserFacing ? { severity: 'warning' as const } : {}),
    };
  });
}

/**
 * The Fastify error handlers (`setErrorHandler`) of the Fastify app serving `app` that take errors
 * of its routes (their `covers` holds Express routes no Express error handler takes).
 */
function fastifyErrorHandlersOf(inventory: Inventory, app: App): Inventory['errorHandlers'] {
  if (!app.servedBy) return [];
  const routes = new Set(inventory.routes.filter((r) => r.appId === app.id).map((r) => r.id));
  return inventory.errorHandlers.filter((e) => onFastify(e) && e.appId === app.servedBy && e.covers.some((id) => routes.has(id)));
}

/** Whether a Fastify `setNotFoundHandler` of the app serving `app` answers every path the bridge serves it at (its prefix is at or above the bridge's path). */
function hasFastifyNotFound(inventory: Inventory, app: App): boolean {
  if (!app.servedBy) return false;
  const at = bridgePath(inventory, app.id);
  return inventory.notFoundHandlers.some((n) => onFastify(n) && n.appId === app.servedBy && (n.fullPath === '/' || at === n.fullPath || at.startsWith(`${n.fullPath}/`)));
}
