/**
 * The moved routes that run no Express code (`plugins` stage, issue 18 item 1). After the bridge
 * step, the Express app runs as a preHandler hook of the plugin around `movedRoutes`, for every
 * moved route, because Express's middleware covered them in Express. A moved route needs none of it
 * when:
 * - the Express middleware the bridge runs before it (its chain's `bridged` entries) are only the
 *   app's body parsers that the generated module rebuilds (body-parsers.ts), in their order — the
 *   hook then runs those parsers alone, which gives the same body and the same errors;
 * - no Express route still on Express, and no Express middleware under a path, could match one of
 *   its requests (a chain lists what covers the route's whole path; `GET /files/*` on Express
 *   answers some requests of a moved `GET *`): compared segment by segment, a parameter or
 *   wildcard matching anything;
 * - its own chain holds no Express adapter (`expressMiddleware(…)`, `expressParam(…)`): those run
 *   Express middleware on Express's request and response; nor a hook the analyzer could not
 *   resolve (`route.middleware.map(expressMiddleware)` in a loop over a table);
 * - its handler uses nothing of Express's objects: no `request.raw` / `reply.raw`, also in the
 *   helpers it calls (the like-express helpers read Express's response through `reply.raw`);
 * - the app does not send `X-Powered-By` under `--parity express` (only Express's own
 *   initialisation sets it; under the default policy its loss is reported as a framework delta).
 * Such routes are listed in buildFastify: `exceptExpressFree(expressHook(app), { 'GET /x': [] })`
 * (express-hook-template.ts), so the hook lets them pass before Express's router or its request
 * set-up run. The routes stage can move more routes later: they are not listed, so they run the
 * Express app as before until the stage runs again.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { App, Inventory, Middleware, Route } from '../../analyzer/model.js';
import type { Node } from '../lib/ast.js';
import { restyle, type CodeStyle } from '../lib/style.js';
import type { ParityPolicy } from '../model.js';
import { rebuiltBodyParser } from './body-parsers.js';
import { buildFastifyOf } from './build-fastify.js';
import { declarationLines, EXCEPT_EXPRESS_FREE, exceptExpressFreeLines, EXPRESS_HOOK, expressFreeDeclarationLines, THROUGH_EXPRESS, BODY_PARSERS } from './express-hook-template.js';
import { statements } from './hand-over.js';

/** A moved route that runs no Express code: its key as Fastify registered it, and how many of the module's body parsers covered it. */
export interface ExpressFreeRoute {
  key: string;
  parsers: number;
}

/** The moved routes of one generated module: those that run no Express code, and why the others still run the Express app. */
export interface ExpressFreeRoutes {
  routes: ExpressFreeRoute[];
  /** The app's body parsers as the module rebuilds them (`express.json({ limit: '10kb' })`), in order. */
  parsers: string[];
  /** The moved routes that keep the Express app, per reason (one sentence), with how many. */
  kept: Array<{ reason: string; routes: number }>;
  /** Whether the listed routes lose the `X-Powered-By: Express` the app sends (default parity policy). */
  losesPoweredBy: boolean;
}

/**
 * The moved routes of the Fastify app(s) built in `moduleFile` (routes under its `movedRoutes`
 * plugin) that can run no Express code (see the module comment), for the Express app `app` it serves.
 */
export function expressFreeRoutes(inventory: Inventory, moduleFile: string, app: App, parity: ParityPolicy): ExpressFreeRoutes {
  const moved = new Set(inventory.routers.filter((r) => r.framework === 'fastify' && r.name === 'movedRoutes' && r.location?.file === moduleFile).map((r) => r.id));
  const viaMoved = new Set(inventory.mounts.filter((m) => moved.has(m.child)).map((m) => m.id));
  const middleware = new Map(inventory.middleware.map((m) => [m.id, m]));
  const parsers = inventory.middleware.filter((m) => m.appId === app.id && m.ownerId === app.id).flatMap((m) => rebuiltBodyParser(m) ?? []);
  const sends = sendsPoweredBy(inventory, app);
  const poweredBy = parity === 'express' && sends;
  const routes: ExpressFreeRoute[] = [];
  const kept = new Map<string, number>();
  const keys = new Set(inventory.routes.map((r) => r.key));
  const left = inventory.errorHandlers.find((h) => h.framework === 'express' && h.appId === app.id);
  const expressErrors = left ? `Express error middleware ${left.name} (${left.registration.file}:${left.registration.line}) answers their body parsers' errors` : null;
  const onExpress = [
    ...inventory.routes.filter((r) => r.framework === 'express' && r.appId === app.id).map((r) => ({ method: r.method, path: r.path.syntax === 'regexp' ? '*' : r.path.full, prefix: false, what: `Express route ${r.key} (${r.registration.file}:${r.registration.line})` })),
    ...inventory.middleware.filter((m) => m.framework === 'express' && m.appId === app.id && m.fullPath !== '/').map((m) => ({ method: 'ALL', path: m.fullPath, prefix: true, what: `Express middleware ${m.name} at ${m.fullPath} (${m.registration.file}:${m.registration.line})` })),
  ];
  for (const route of inventory.routes) {
    if (route.framework !== 'fastify' || !route.mountChain.some((m) => viaMoved.has(m.mountId))) continue;
    // Express runs a GET route for HEAD too; Fastify's HEAD route of a GET route is listed with it.
    const methods = route.method === 'GET' ? ['GET', 'HEAD', 'ALL'] : [route.method, 'ALL'];
    if (route.method === 'ALL') {
      kept.set('a route for every method (the hook looks routes up by the request method)', (kept.get('a route for every method (the hook looks routes up by the request method)') ?? 0) + 1);
      continue;
    }
    const overlap = onExpress.find((e) => methods.includes(e.method) && mayMatch(e.path, e.prefix, route.path.full));
    const reason = poweredBy ? "--parity express: X-Powered-By, which only Express's own request set-up sends" : (expressNeed(route, middleware, parsers) ?? (overlap ? `${overlap.what} may answer some of their requests` : null));
    if (reason) {
      kept.set(reason, (kept.get(reason) ?? 0) + 1);
      continue;
    }
    const given = route.chain.filter((c) => c.bridged).length;
    // A body-parser error of a listed route goes to Fastify's error handler: not where Express's own error middleware answered it.
    if (given && expressErrors) {
      kept.set(expressErrors, (kept.get(expressErrors) ?? 0) + 1);
      continue;
    }
    routes.push({ key: route.key, parsers: given });
    // Fastify answers HEAD on a GET route (exposeHeadRoutes) with the GET route's hooks, as Express ran the GET route.
    const head = route.key.replace(/^GET /, 'HEAD ');
    if (route.method === 'GET' && !keys.has(head)) routes.push({ key: head, parsers: given });
  }
  return { routes, parsers, kept: [...kept].map(([reason, n]) => ({ reason, routes: n })), losesPoweredBy: sends && routes.length > 0 };
}

/** Why `route` still needs the Express app (one sentence naming the place), or null. */
function expressNeed(route: Route, middleware: Map<string, Middleware>, parsers: string[]): string | null {
  const bridged = route.chain.filter((c) => c.bridged);
  for (const [i, c] of bridged.entries()) {
    const m = c.middlewareId ? middleware.get(c.middlewareId) : undefined;
    if (!m || rebuiltBodyParser(m) !== parsers[i]) return `Express ${c.scope === 'route' ? 'route' : 'middleware'} ${c.name} (${c.registration.file}:${c.registration.line}) runs before them`;
  }
  const unknown = route.chain.find((c) => c.resolution !== 'exact');
  if (unknown) return `their hook ${unknown.name} (${unknown.registration.file}:${unknown.registration.line}) is not known before run time, so it may run Express middleware`;
  const adapter = route.chain.find((c) => c.adapter?.kind === 'express-middleware' || c.adapter?.kind === 'express-param');
  if (adapter) return `their own ${adapter.adapter!.wraps?.name ?? adapter.name} runs as Express middleware (${adapter.adapter!.kind === 'express-param' ? 'expressParam' : 'expressMiddleware'})`;
  const raw = [...route.usage.req, ...route.usage.res].find((u) => u.api === 'req.raw' || u.api === 'res.raw');
  if (raw) return `their handlers use Express's ${raw.api === 'req.raw' ? 'request (request.raw)' : 'response (reply.raw, also through the like-express helpers)'}`;
  return null;
}

/**
 * Whether an Express path (`prefix`: a middleware's, matching what is below it too) may match a
 * request that the Fastify route path `route` matches: segment by segment, case-insensitively, a
 * parameter, a wildcard or an optional segment matching anything.
 */
function mayMatch(express: string, prefix: boolean, route: string): boolean {
  const a = express.toLowerCase().split('/').filter(Boolean);
  const b = route.toLowerCase().split('/').filter(Boolean);
  const open = (seg: string) => /[*:?(+{]/.test(seg);
  // An optional segment (`/:id?`, Express 5's `{/:id}`) anywhere changes the lengths that match.
  if ([...a, ...b].some((seg) => /[?{]/.test(seg))) return true;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i].includes('*') || b[i].includes('*') || /\?/.test(a[i] + b[i])) return true;
    if (!open(a[i]) && !open(b[i]) && a[i] !== b[i]) return false;
  }
  return a.length === b.length || (prefix && a.length < b.length) || [...a, ...b].some((seg) => seg.includes('*'));
}

/** Whether the Express app leaves X-Powered-By on (Express's default: `app.disable('x-powered-by')` turns it off). */
function sendsPoweredBy(inventory: Inventory, app: App): boolean {
  const last = inventory.settings.filter((s) => s.ownerId === app.id && s.key === 'x-powered-by' && s.kind !== 'read').at(-1);
  return !last || (last.kind === 'set' ? last.value !== false : last.kind === 'enable');
}

/**
 * Writes the hook's declaration in buildFastify for `routes` (the plain `expressHook(app)` when
 * there are none), with `function exceptExpressFree` after `function expressHook` while it is
 * used. No change when the module says so already.
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf, or when buildFastify declares no `throughExpress` (the bridge
 *   step has not run on it: the plan leaves such modules out)
 */
export function listExpressFree(j: JSCodeshift, root: Collection, free: Pick<ExpressFreeRoutes, 'routes' | 'parsers'>, typescript: boolean, style: CodeStyle): boolean {
  const build = buildFastifyOf(j, root, 'list the routes that run no Express code');
  const at = build.body.findIndex((s) => declares(s, THROUGH_EXPRESS));
  if (at < 0) throw new Error(`buildFastify declares no ${THROUGH_EXPRESS} hook to list the routes that run no Express code in`);
  const from = at > 0 && declares(build.body[at - 1], BODY_PARSERS) ? at - 1 : at;
  const text = (lines: string[]) => restyle(lines, style).replace(/\s+$/, '');
  const wanted = text(free.routes.length ? expressFreeDeclarationLines(build.app, free.parsers, free.routes, free.parsers.length) : declarationLines(build.app));
  const current = build.body.slice(from, at + 1);
  if (printed(j, current) === printed(j, statements(j, wanted))) return false;
  build.body.splice(from, at + 1 - from, ...statements(j, wanted));
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const helper = program.findIndex((s) => isFunction(s, EXCEPT_EXPRESS_FREE));
  if (free.routes.length && helper < 0) {
    const hook = program.findIndex((s) => isFunction(s, EXPRESS_HOOK));
    program.splice(hook + 1, 0, ...statements(j, text(exceptExpressFreeLines(typescript))));
  } else if (!free.routes.length && helper >= 0) program.splice(helper, 1);
  return true;
}

/** Statements as printed, with their leading comments (what the module would read). */
function printed(j: JSCodeshift, nodes: Node[]): string {
  return nodes.map((n) => [...(n.comments ?? []).filter((c: Node) => c.leading).map((c: Node) => c.value.trim()), j(n).toSource()].join('\n')).join('\n');
}

/** Whether `statement` is `const <name> = …`. */
function declares(statement: Node, name: string): boolean {
  return statement.type === 'VariableDeclaration' && statement.declarations.some((d: Node) => d.id?.type === 'Identifier' && d.id.name === name);
}

/** Whether `statement` is `function <name>(…) {…}` (exported or not). */
function isFunction(statement: Node, name: string): boolean {
  const fn = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
  return fn?.type === 'FunctionDeclaration' && fn.id?.name === name;
}
