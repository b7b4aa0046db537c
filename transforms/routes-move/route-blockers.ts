/**
 * What the inventory and its findings say against moving a route to Fastify now (the source-level
 * checks — the handler's API uses, shared functions, scope of the registration — are read-route.ts's;
 * what a route shares with others, settle.ts's). Each check
 * keeps a moved route seeing exactly what it saw in Express (DESIGN.md "Stages", routes):
 * - nothing registered after it may now run before it: a later Express route that matches its URLs
 *   would run in the bridge first (Express middleware after it is stopped by a hand-over: hand-over.ts);
 * - nothing it saw may go missing: its own middleware and param callbacks become hooks, and the
 *   error handler that caught its errors must already be Fastify's (the errors stage);
 * - Fastify matches by specificity, Express by order (express-fastify-mapping.md §1.6, §2.7):
 *   routes that overlap move only when both agree on which answers.
 */
import { FASTIFY_ROUTE_METHODS } from '../../analyzer/fastify-api.js';
import type { ChainEntry, Finding, Inventory, Location, Middleware, Route } from '../../analyzer/model.js';
import { prefixMayMatch } from '../../analyzer/path.js';
import { BLOCKERS, type BlockerCode } from '../../rules/catalogue/blockers.js';
import { middlewareFor, runsThroughAdapter } from '../../rules/catalogue/middleware.js';
import { methodOverrideOf } from './method-override.js';
import { isOnFastify, movedNotFound } from '../lib/assumed.js';
import type { Blocker, PlanContext } from '../model.js';
import { fastifyPaths, strictRouting } from './paths.js';
import { replacements } from './replaced-render.js';
import { adaptedPackageHandler } from './package-handler.js';
import { subAppBlockers } from './sub-apps.js';
import { wrapperBlocker } from './unwrap.js';
import type { ReplacedSend } from './replaced-send.js';

/** The replaced methods replaced-send.ts decides about (the route's calls that reach them go through Express's own, or stay for its reason). */
const SEND_REPLACEMENTS: ReadonlySet<string> = new Set(['res.send', 'res.json']);

/** A route's own chain entries that become hooks: its route-level middleware and the param callbacks of its own parameters. */
export interface OwnChain {
  middleware: ChainEntry[];
  params: ChainEntry[];
}

/**
 * The route-level and param entries of `route`'s chain that were registered with it: route-scope
 * entries inside its registration statement (`lines`: first and last line of that statement, in
 * the registration's file), and param callbacks (`router.param`). Route-scope entries outside it
 * belong to an earlier route layer (`app.all('/api/*', auth)`, a duplicate route with next('route')).
 */
export function ownChain(route: Route, lines: [number, number]): OwnChain {
  return {
    middleware: route.chain.filter((e) => e.scope === 'route' && inStatement(route, e, lines)),
    params: route.chain.filter((e) => e.scope === 'param'),
  };
}

function inStatement(route: Route, e: ChainEntry, [first, last]: [number, number]): boolean {
  return e.registration.file === route.registration.file && e.registration.line >= first && e.registration.line <= last;
}

/**
 * Blockers the inventory and its findings show for `route` (all of them, most fundamental first);
 * `lines`: the first and last line of its registration statement; `renderLikeExpress`: a replaced
 * res.render does not hold it back (its render goes through the replacement: replaced-render.ts).
 */
export function inventoryBlockers(ctx: PlanContext, route: Route, lines: [number, number], renderLikeExpress = false, sendReplaced: ReplacedSend['skipped'] = new Map()): Blocker[] {
  const inventory = ctx.inventory;
  const blockers: Blocker[] = [];
  const add = (code: BlockerCode, reason: string, where?: string[], at?: Location) => blockers.push({ code, reason, ...(where ? { where } : {}), ...(at ? { at } : {}) });
  if (route.resolution !== 'exact') add('route-unresolved', `the analysis resolved it only ${route.resolution}ly (${route.reasons.map((r) => r.message ?? r.code).join('; ')})`);
  const paths = fastifyPaths(route, strictRouting(inventory, route));
  if ('refuse' in paths) add('route-path-syntax', paths.refuse);
  if (!FASTIFY_ROUTE_METHODS.has(route.method.toLowerCase())) add('route-method', `Fastify routes ${route.method} only once it is added with fastify.addHttpMethod('${route.method}')`);
  if (route.registration.kind === 'all') add('route-all', "app.all() matches every method; Fastify's all() registers only the methods it knows");
  if (route.conditions.length) add('route-conditional', `it is registered only ${route.conditions.join(' and ')}`);
  // A package's Express function as the handler runs through the expressMiddleware adapter where the catalogue allows (package-handler.ts).
  if ((route.handler.origin !== 'local' || !route.handler.definition) && !adaptedPackageHandler(route)) add('route-handler-package', `its handler ${route.handler.name} comes from ${route.handler.package ? `the package ${route.handler.package}` : 'outside the project'} and works on Express's req/res`);
  const wrapped = wrapperBlocker(route.handler);
  if (wrapped) add('route-handler-wrapped', wrapped);
  const earlier = route.chain.filter((e) => e.scope === 'route' && !inStatement(route, e, lines));
  if (earlier.length) add('route-earlier-layer', `route middleware of an earlier route runs before it (${earlier.map((e) => e.name).join(', ')})`, earlier.map((e) => `${e.registration.file}:${e.registration.line}`), earlier[0].registration);
  for (const e of ownChain(route, lines).middleware) {
    if (e.resolution !== 'exact') add('route-middleware-unresolved', `its middleware ${e.name} was not resolved exactly`);
    else if (e.conditions?.length) add('route-middleware-conditional', `its middleware ${e.name} runs only ${e.conditions.join(' and ')}`);
    // Packages the catalogue says run unchanged on Express's own request and response (validators,
    // passport, rate limiters, multer on the body stream a moved route leaves unread) run through the
    // expressMiddleware adapter; the others wait for their Fastify plugin.
    else if (e.origin === 'package' && !runsThroughAdapter(middlewareFor(e.name, e.package))) add('route-middleware-package', `its middleware ${e.name} [${e.package}] is not known to work unchanged on Express's request and response behind a moved route; it moves with its Fastify plugin in the plugins stage`);
    else if (e.origin === 'package' && middlewareFor(e.name, e.package)?.readsRequestPath && route.mountChain.some((m) => m.mountPath !== '/')) add('route-middleware-package', `its middleware ${e.name} [${e.package}] reads req.path, which Express gave it relative to the router's mount path and the adapter gives whole; it moves with its Fastify plugin in the plugins stage`);
  }
  // A router-level handler of the route's own router moves with the router's plugin (router-error-handlers.ts).
  const catching = inventory.errorHandlers.filter((h) => !isOnFastify(ctx, h) && h.covers.includes(route.id) && !(h.scope === 'router' && h.ownerId === route.ownerId));
  const parents = catching.filter((h) => h.scope === 'router');
  const appLevel = catching.filter((h) => h.scope !== 'router');
  if (parents.length) add('route-parent-error-handler', `its errors go first to the error middleware of a router it is mounted under (${parents.map((h) => h.name).join(', ')}); a plugin per router cannot give that handler to this router's routes yet — move it into the routers below by hand, or leave these routes on Express`, parents.map((h) => `${h.registration.file}:${h.registration.line}`), parents[0].registration);
  if (appLevel.length) add('route-app-error-handler', `its errors go to Express error middleware (${appLevel.map((h) => h.name).join(', ')}) that stays on Express: the errors stage does not move it (the errors stage's item for it says why)`, appLevel.map((h) => `${h.registration.file}:${h.registration.line}`), appLevel[0].registration);
  // Middleware that replaces a response method (`res.render = …`) wraps it on Express's response only;
  // res.send and res.json, which Express's methods call, run through Express's own where the
  // replacement allows (replaced-send.ts: `sendReplaced` says what the route's calls would skip).
  const replaced = replacements(inventory)
    .flatMap((f) => (f.appliesTo?.uses ?? []).filter((api) => !SEND_REPLACEMENTS.has(api) && route.usage.res.some((u) => u.api === api)).map((api) => ({ f, api })))
    .filter((r) => !(renderLikeExpress && r.api === 'res.render'));
  if (replaced.length) add('route-res-method-replaced', `middleware replaces ${replaced.map((r) => r.api).join(', ')}, which its handler calls; on Fastify's reply the replacement would not apply`, replaced.map((r) => `${r.f.location.file}:${r.f.location.line}`), replaced[0].f.location);
  const skipped = [...sendReplaced].filter(([use]) => route.usage.res.some((u) => u.api === use));
  if (skipped.length) add('route-res-method-replaced', `middleware replaces ${[...new Set(skipped.map(([, s]) => s.finding.appliesTo?.uses?.join(', ')))].join(', ')}, which runs for its handler's ${skipped.map(([use]) => use).join(', ')} in Express; ${skipped[0][1].reason}`, skipped.map(([, s]) => `${s.finding.location.file}:${s.finding.location.line}`), skipped[0][1].finding.location);
  for (const f of humanFindings(inventory, route)) add('route-finding', f.message, [`${f.location.file}:${f.location.line}`], f.location);
  const own = ownChain(route, lines);
  if (readsUnmergedParams(inventory, route, own.middleware.length + own.params.length > 0)) add('route-merge-params', "it sits under a mount path with parameters in a router without mergeParams: Express hides those parameters from req.params, Fastify's prefix shows them");
  const options = routerOptionsDiffer(inventory, route);
  if (options) add('route-router-options', options);
  blockers.push(...subAppBlockers(inventory, route));
  return blockers;
}

/**
 * Express middleware of the route's app registered after it (a larger `order`) whose mount path
 * may match a URL of its path (`/users/me` after `/users/:id`); a catch-all the errors stage moves
 * to Fastify's not-found handler (when the plan assesses with that stage assumed) is not one. In
 * the bridge they run before a moved route's hooks unless a hand-over stops Express at the
 * route's place (hand-over.ts).
 */
export function laterMiddleware(ctx: PlanContext, route: Route): Middleware[] {
  return ctx.inventory.middleware.filter((m) => !isOnFastify(ctx, m) && m.appId === route.appId && m.order > route.order && prefixMayMatch(m.fullPath, route.path.full) && !movedNotFound(ctx, m.registration));
}

/**
 * The findings about `route`, or about middleware in its chain that apply to it (their
 * `appliesTo`), that need a human — an error, or a finding no stage acts on (stage `manual`), not
 * fixed unaided — other than those a check of this step decides itself (BlockerFacts.covers):
 * method-override at app level would re-route a moved route's requests in Express, after Fastify
 * routed them — unless the generated listener applies its header form first (method-override.ts). A
 * finding about app or router middleware the bridge keeps for moved routes (catalogue
 * `keptInBridge`: xss-clean) holds none back: what it does still reaches them.
 */
function humanFindings(inventory: Inventory, route: Route): Finding[] {
  const covered = new Set<string>(Object.values(BLOCKERS).flatMap((b) => ('covers' in b ? [...b.covers] : [])));
  const uses = new Set([...route.usage.req, ...route.usage.res, ...route.usage.next].map((u) => u.api));
  const subjects = new Set([route.id, ...route.chain.flatMap((c) => (c.middlewareId ? [c.middlewareId] : []))]);
  const applies = (f: Finding) => (!f.appliesTo?.methods || f.appliesTo.methods.includes(route.method)) && (!f.appliesTo?.uses || f.appliesTo.uses.some((u) => uses.has(u)));
  const kept = (f: Finding) => inventory.middleware.some((m) => m.id === f.subject && !!m.package && !!middlewareFor(m.name, m.package)?.keptInBridge);
  // method-override's header form, which the generated listener applies before Fastify routes (method-override.ts).
  const override = methodOverrideOf(inventory, route.appId);
  const overridden = (f: Finding) => !!override && !('refuse' in override) && inventory.middleware.some((m) => m.id === f.subject && !!m.package && !!middlewareFor(m.name, m.package)?.overridesMethod);
  return (inventory.findings ?? []).filter((f) => subjects.has(f.subject) && !covered.has(f.rule) && !f.autoFixable && (f.severity === 'error' || f.stage === 'manual') && applies(f) && !kept(f) && !overridden(f));
}

/** Under a mount path with parameters, in a router without mergeParams, where the handler or its own middleware would see req.params. */
function readsUnmergedParams(inventory: Inventory, route: Route, hasOwnChain: boolean): boolean {
  if (!route.mountChain.some((m) => m.mountPath.includes(':'))) return false;
  const router = inventory.routers.find((r) => r.id === route.ownerId);
  return !!router && !router.options?.mergeParams && (hasOwnChain || route.usage.req.some((u) => u.api === 'req.params'));
}

/**
 * Fastify matches case and trailing slashes one way for every route (the shim copied the app's
 * 'case sensitive routing' and 'strict routing'); an Express router matches by its own options
 * (`Router({ caseSensitive, strict })`, default off, not inherited from the app). The reason when
 * they differ for the route's router, else null.
 */
function routerOptionsDiffer(inventory: Inventory, route: Route): string | null {
  const router = inventory.routers.find((r) => r.id === route.ownerId && r.kind === 'router');
  if (!router) return null;
  const app = (key: string) => inventory.settings.some((s) => s.appId === route.appId && s.ownerId === route.appId && s.key === key && (s.kind === 'enable' || (s.kind === 'set' && s.value === true)));
  const differs = [
    (router.options.caseSensitive ?? false) !== app('case sensitive routing') ? 'letter case' : null,
    (router.options.strict ?? false) !== app('strict routing') ? 'trailing slashes' : null,
  ].filter(Boolean);
  return differs.length ? `its router matches ${differs.join(' and ')} by its own options, unlike the app; Fastify matches every route one way` : null;
}

