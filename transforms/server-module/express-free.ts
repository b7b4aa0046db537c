/**
 * The moved routes that run no Express code (`plugins` stage, issue 18 item 1). After the bridge
 * step, the Express app runs as a preHandler hook of the plugin around `movedRoutes`, for every
 * moved route, because Express's middleware covered them in Express. A moved route needs none of it
 * when:
 * - the Express middleware the bridge runs before it (its chain's `bridged` entries) are only the
 *   app's body parsers that the generated module rebuilds (body-parsers.ts), in their order — the
 *   hook then runs those parsers alone, which gives the same body and the same errors (a parser's
 *   `verify`, a function of the app, is carried when it reads only what Node's request has:
 *   body-parsers.ts carriedAccess);
 * - no Express route still on Express, and no Express middleware under a path, could match one of
 *   its requests (a chain lists what covers the route's whole path; `GET /files/*` on Express
 *   answers some requests of a moved `GET *`): compared segment by segment, a parameter or
 *   wildcard matching anything;
 * - its own chain holds no Express adapter (`expressMiddleware(…)`, `expressParam(…)`): those run
 *   Express middleware on Express's request and response; nor a hook the analyzer could not
 *   resolve (`route.middleware.map(expressMiddleware)` in a loop over a table);
 * - its handler and its hooks use nothing of Express's objects: no `request.raw` / `reply.raw`, also
 *   in the helpers they call (the like-express helpers read Express's response through `reply.raw`);
 * - no Express error middleware is left to answer its body parsers' errors, and it is not a route
 *   for every method (the hook looks routes up by the request method);
 * - neither the app nor a sub-app sends `X-Powered-By` under `--parity express` (only Express's own
 *   initialisation sets it; under the default policy its loss is reported as a framework delta).
 * Middleware leaving the Express app in the same run (a static mount plugins-static moves) counts
 * as gone. Such routes are listed in buildFastify: `exceptExpressFree(expressHook(app), { 'GET /x': [] })`
 * (express-hook.ts listExpressFree, express-hook-template.ts), so the hook lets them pass before Express's router or its request
 * set-up run. The routes stage can move more routes later: they are not listed, so they run the
 * Express app as before until the stage runs again.
 */
import type { App, Inventory, Middleware, Route } from '../../analyzer/model.js';
import type { ParityPolicy, PlanContext } from '../model.js';
import { overlaps, sameMethod } from '../lib/route-overlap.js';
import type { AppFunctionAccess, LiftedNames } from './app-functions.js';
import { BODY_HOOKS } from './bodies-template.js';
import { appBodyParsers, carriedAccess, parserPackage, rebuiltBodyParser } from './body-parsers.js';
import type { Import } from './template.js';
import type { GeneratedModule } from './locate.js';
import { optionMiddlewareOf } from './option-middleware.js';
import { rootPluginsOf } from './root-plugins.js';
import { leavingExpress, staticFilesOf } from './static-files.js';
import { sendsPoweredBy } from './powered-by.js';

/** A moved route that runs no Express code: its key as Fastify registered it, and how many of the module's body parsers covered it. */
export interface ExpressFreeRoute {
  key: string;
  parsers: number;
  /** The HEAD route Fastify adds for a GET route (exposeHeadRoutes), listed with it. */
  head?: true;
}

/** The moved routes of one generated module: those that run no Express code, and why the others still run the Express app. */
export interface ExpressFreeRoutes {
  routes: ExpressFreeRoute[];
  /** The app's body parsers as the module rebuilds them (`express.json({ limit: '10kb' })`), in order, up to the first that cannot be rebuilt. */
  parsers: string[];
  /** Each of the app's body parsers (appBodyParsers), rebuilt with the app functions it carries, or why it cannot be (plugins-bodies reads the same). */
  bodyParsers: RebuiltParser[];
  /** How the module reaches the app's functions those parsers carry (their `verify`), when some listed route has parsers. */
  functions: AppFunctionAccess[];
  /** The packages those parsers come from (`express`, `body-parser`), imported by default, when some listed route has parsers. */
  packages: Import[];
  /** The moved routes that keep the Express app, per reason (one sentence), with how many. */
  kept: Array<{ reason: string; routes: number }>;
  /** Whether the listed routes lose the `X-Powered-By: Express` the app sends (default parity policy). */
  losesPoweredBy: boolean;
}

/**
 * The moved routes of the Fastify app(s) built in `moduleFile` (routes under its `movedRoutes`
 * plugin) that can run no Express code (see the module comment), for the Express app `app` it serves.
 */
function expressFreeRoutes(inventory: Inventory, moduleFile: string, app: App, parity: ParityPolicy, leaving: ReadonlySet<string>, bodyParsers: RebuiltParser[], poweredByRemoved: boolean): ExpressFreeRoutes {
  const moved = new Set(inventory.routers.filter((r) => r.framework === 'fastify' && r.name === 'movedRoutes' && r.location?.file === moduleFile).map((r) => r.id));
  const viaMoved = new Set(inventory.mounts.filter((m) => moved.has(m.child)).map((m) => m.id));
  const rebuilt = bodyParsers.findIndex((p) => 'refuse' in p);
  const usable = (rebuilt < 0 ? bodyParsers : bodyParsers.slice(0, rebuilt)) as Array<Extract<RebuiltParser, { source: string }>>;
  // A sub-app sends it unless it disables it itself (Express sets it on every app it creates).
  const owners = [app.id, ...inventory.routers.filter((r) => r.kind === 'sub-app' && r.appId === app.id).map((r) => r.id)];
  // A helmet the app ran for every request removed the app's own (root-plugins.ts); a sub-app sets it again after it.
  const sends = owners.some((owner) => (owner !== app.id || !poweredByRemoved) && sendsPoweredBy(inventory, owner));
  const keys = new Set(inventory.routes.map((r) => r.key));
  const keptBy = reasons(inventory, app, bodyParsers, parity === 'express' && sends, leaving);
  const routes: ExpressFreeRoute[] = [];
  const kept = new Map<string, number>();
  for (const route of inventory.routes) {
    if (route.framework !== 'fastify' || !route.mountChain.some((m) => viaMoved.has(m.mountId))) continue;
    const reason = keptBy(route);
    if (reason) {
      kept.set(reason, (kept.get(reason) ?? 0) + 1);
      continue;
    }
    const given = route.chain.filter((c) => bridgedHere(c, leaving)).length;
    routes.push({ key: route.key, parsers: given });
    // Fastify answers HEAD on a GET route (exposeHeadRoutes) with the GET route's hooks, as Express ran the GET route.
    const head = route.key.replace(/^GET /, 'HEAD ');
    if (route.method === 'GET' && !keys.has(head)) routes.push({ key: head, parsers: given, head: true });
  }
  const parses = routes.some((r) => r.parsers > 0);
  const packages = usable.map((p) => parserPackage(p.m)!).filter((pkg, i, all) => all.findIndex((o) => o.from === pkg.from) === i);
  return { routes, bodyParsers, parsers: usable.map((p) => p.source), functions: parses ? usable.flatMap((p) => Object.values(p.functions)) : [], packages: parses ? packages : [], kept: [...kept].map(([reason, n]) => ({ reason, routes: n })), losesPoweredBy: sends && routes.length > 0 };
}

/**
 * One of the app's body parsers as the module rebuilds it (`express.json({ verify: keepRaw })`),
 * with the app functions it carries, per option, and their sources there (`{ verify: 'keepRaw' }`);
 * or why it cannot be rebuilt.
 */
export type RebuiltParser = { m: Middleware; source: string; functions: Record<string, AppFunctionAccess>; sources: Record<string, string> } | { m: Middleware; refuse: string };

/**
 * expressFreeRoutes for the module `moduleFile` serving `app` as this run of the plugins stage
 * leaves it: the static mounts plugins-static moves, and the middleware plugins-server-options
 * replaces, no longer run before the moved routes (the stage's steps all plan on one analysis,
 * made before any of them ran).
 */
export function expressFreeRoutesThisRun(ctx: PlanContext, app: App, module: GeneratedModule): ExpressFreeRoutes {
  const given: LiftedNames = new Map();
  const parsers = appBodyParsers(ctx.inventory, app).map((m): RebuiltParser => {
    const access = carriedAccess(ctx, module, m, given);
    if ('refuse' in access) return { m, refuse: access.refuse };
    const sources = Object.fromEntries(Object.entries(access.functions).map(([k, a]) => [k, a.expression]));
    return { m, source: rebuiltBodyParser(m, sources)!, functions: access.functions, sources };
  });
  const roots = rootPluginsOf(ctx, app).moving;
  const leaving = new Set([...leavingExpress(staticFilesOf(ctx, app, module)), ...optionMiddlewareOf(ctx, app).moving.map((m) => m.middlewareId), ...roots.map((m) => m.middlewareId)]);
  return expressFreeRoutes(ctx.inventory, module.file, app, ctx.parity, leaving, parsers, roots.some((m) => m.removesPoweredBy));
}

/**
 * Why a moved route of `app` still needs the Express app (one sentence naming the place), or null:
 * the conditions of the module comment, in that order.
 */
function reasons(inventory: Inventory, app: App, parsers: RebuiltParser[], poweredBy: boolean, leaving: ReadonlySet<string>): (route: Route) => string | null {
  const middleware = new Map(inventory.middleware.map((m) => [m.id, m]));
  const errors = inventory.errorHandlers.find((h) => h.framework === 'express' && h.appId === app.id);
  const expressRoutes = inventory.routes.filter((r) => r.framework === 'express' && r.appId === app.id);
  const scoped = inventory.middleware.filter((m) => m.framework === 'express' && m.appId === app.id && m.fullPath !== '/' && !leaving.has(m.id));
  return (route) => {
    if (poweredBy) return "--parity express: X-Powered-By, which only Express's own request set-up sends";
    // The hook looks a route up by the request's method.
    if (route.method === 'ALL') return 'a route for every method (the hook looks routes up by the request method)';
    const bridged = route.chain.filter((c) => bridgedHere(c, leaving));
    for (const [i, c] of bridged.entries()) {
      const m = c.middlewareId ? middleware.get(c.middlewareId) : undefined;
      const parser = parsers[i];
      if (!m || parser?.m.id !== m.id) return `Express ${c.scope === 'route' ? 'route' : 'middleware'} ${c.name} (${c.registration.file}:${c.registration.line}) runs before them`;
      if ('refuse' in parser) return `the body parser ${parser.refuse}`;
    }
    const unknown = route.chain.find((c) => c.resolution !== 'exact');
    if (unknown) return `their hook ${unknown.name} (${unknown.registration.file}:${unknown.registration.line}) is not known before run time, so it may run Express middleware`;
    const adapter = route.chain.find((c) => c.adapter?.kind === 'express-middleware' || c.adapter?.kind === 'express-param');
    if (adapter) return `their own ${adapter.adapter!.wraps?.name ?? adapter.name} runs as Express middleware (${adapter.adapter!.kind === 'express-param' ? 'expressParam' : 'expressMiddleware'})`;
    const raw = [...route.usage.req, ...route.usage.res].find(isRaw);
    if (raw) return `their handlers use Express's ${raw.api === 'req.raw' ? 'request (request.raw)' : 'response (reply.raw, also through the like-express helpers)'}`;
    // A hook the routes stage rewrote from the app's middleware may use what Express set up (`reply.raw.locals`).
    // (The generated adapters are judged by kind above: bodyLikeExpress reads the body the parsers left on request.raw.)
    const hook = route.chain.find((c) => !c.bridged && !c.adapter && !BODY_HOOKS.has(c.name) && [...(c.usage?.req ?? []), ...(c.usage?.res ?? [])].some(isRaw));
    if (hook) return `their hook ${hook.name} (${hook.registration.file}:${hook.registration.line}) uses Express's request or response (request.raw / reply.raw)`;
    const other = expressRoutes.find((r) => sameMethod(r, route) && overlaps(r.path.syntax === 'regexp' ? '*' : r.path.full, route.path.full));
    if (other) return `Express route ${other.key} (${other.registration.file}:${other.registration.line}) may answer some of their requests`;
    // A middleware under a path runs for everything below it.
    const under = scoped.find((m) => overlaps(`${m.fullPath}/*`, route.path.full));
    if (under) return `Express middleware ${under.name} at ${under.fullPath} (${under.registration.file}:${under.registration.line}) may answer some of their requests`;
    // A body-parser error of a listed route goes to Fastify's error handler, not to the Express error middleware that answered it.
    if (errors && bridged.length) return `Express error middleware ${errors.name} (${errors.registration.file}:${errors.registration.line}) answers their body parsers' errors`;
    return null;
  };
}

/** Whether a chain entry is Express middleware the bridge still runs: not one leaving the app in this run (`leaving`, middleware ids). */
function bridgedHere(entry: Route['chain'][number], leaving: ReadonlySet<string>): boolean {
  return !!entry.bridged && !(entry.middlewareId && leaving.has(entry.middlewareId));
}

/** Whether a request or reply use reaches the raw objects, which are Express's while the app runs first. */
function isRaw(use: { api: string }): boolean {
  return use.api === 'req.raw' || use.api === 'res.raw';
}
