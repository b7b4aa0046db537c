/**
 * A route whose handler — the last function of its registration, or the only one — is a package's
 * Express function (`app.get('/auth/github', passport.authenticate('github'))`). Where the middleware
 * catalogue says the package works unchanged on Express's request and response (`runsThroughAdapter`),
 * the function runs as the route's last preHandler hook through the `expressMiddleware` adapter, as
 * route middleware of a package does (hook-sources.ts). It answers there (a redirect, a 401) or
 * calls `next(err)`, which the adapter hands to Fastify's error handler; or it calls `next()`
 * (passport on a success without `successRedirect`, a strategy's `pass()`): Express then went on
 * with the layers registered after the route (express-fastify-mapping.md §1.1; Express 4.x
 * lib/router/index.js `next`). When none of them may run for the route's URLs, Express ended where
 * the app's 404 answers — after the shim and the errors stage, the not-found handler of the Fastify
 * server, or Fastify's default 404 — and the route's Fastify handler is the hooks module's
 * `notFoundAfterNext`, which answers as that handler (reply.callNotFound() would run the route's
 * request through the bridge, the whole Express app, a second time). Otherwise the route stays,
 * naming the later layers.
 */
import type { Location, Middleware, Route } from '../../analyzer/model.js';
import { middlewareFor, runsThroughAdapter, type MiddlewareEntry } from '../../rules/catalogue/middleware.js';
import { prefixMayMatch } from '../../analyzer/path.js';
import { isOnFastify, movedNotFound } from '../lib/assumed.js';
import type { Blocker, PlanContext } from '../model.js';
import { overlaps } from '../lib/route-overlap.js';

/**
 * The catalogue entry of the package whose function is `route`'s handler, when that function can
 * run through the `expressMiddleware` adapter: a package function (not wrapped), whose package works
 * on Express's request and response, and, under a router's mount path, does not read `req.path`
 * (Express gave it the path relative to the mount path, the adapter gives it whole). Else undefined.
 */
export function adaptedPackageHandler(route: Route): MiddlewareEntry | undefined {
  const handler = route.handler;
  if (handler.origin !== 'package' || handler.wrappers.length) return undefined;
  const entry = middlewareFor(handler.name, handler.package);
  if (!runsThroughAdapter(entry)) return undefined;
  if (entry!.readsRequestPath && route.mountChain.some((m) => m.mountPath !== '/')) return undefined;
  return entry;
}

/**
 * Why what Express did after `route`'s package handler called `next()` cannot be reproduced on
 * Fastify, or null. Express went on with the layers registered after the route
 * (express-fastify-mapping.md §1.1): `handOver` says the route would keep a hand-over in Express
 * (later middleware, or a later route that stays, may run for its URLs: hand-over.ts);
 * `laterMiddleware` is the Express middleware after it that may run for its URLs
 * (route-blockers.ts); besides, an Express route registered after it that matches some of its URLs
 * and methods (Express runs it next, moving or not), or a hand-over a former run left there. With
 * none of them, Express ended at the app's 404, which notFoundAfterNext reaches — unless a Fastify
 * plugin's own not-found handler (a prefix's) answers there.
 */
export function fallThroughBlocker(ctx: PlanContext, route: Route, handOver: boolean, laterMiddleware: Middleware[]): Blocker | null {
  const name = route.handler.name;
  const method = (m: string) => m === route.method || m === 'ALL' || (route.method === 'GET' && m === 'HEAD') || (route.method === 'HEAD' && m === 'GET');
  const app = ctx.inventory.apps.find((a) => a.id === route.appId);
  const later: Array<{ name: string; registration: Location }> = [
    ...laterMiddleware.map((m) => ({ name: m.name === '<anonymous>' ? 'an anonymous function' : m.name, registration: m.registration })),
    ...ctx.inventory.routes
      // The app's catch-all 404 the errors stage moves (when the plan assesses) is where it ends, not a later layer.
      .filter((r) => r.id !== route.id && !isOnFastify(ctx, r) && !movedNotFound(ctx, r.registration) && r.appId === route.appId && r.order > route.order && method(r.method) && overlaps(r.path.full, route.path.full))
      .map((r) => ({ name: `the route ${r.method} ${r.path.full}`, registration: r.registration })),
    ...(app?.handOvers ?? []).filter((h) => h.order > route.order && h.methods.some(method) && overlaps(h.fullPath, route.path.full)).map((h) => ({ name: `the hand-over of ${h.methods.join('/')} ${h.fullPath}`, registration: h.registration })),
  ];
  const why = `its handler ${name} [${route.handler.package}] runs through the expressMiddleware adapter, and when it calls next() Express goes on with the layers registered after it`;
  if (later.length || handOver) {
    const names = later.length ? [...new Set(later.map((l) => l.name))].join(', ') : 'Express layers after it that may run for its URLs';
    return { code: 'route-handler-next', reason: `${why}: ${names}, which a Fastify route cannot hand the request back to`, ...(later.length ? { where: [...new Set(later.map((l) => `${l.registration.file}:${l.registration.line}`))], at: later[0].registration } : {}) };
  }
  // notFoundAfterNext calls the server's root not-found handler; a Fastify plugin's own (a prefix's) would answer there instead.
  const prefixed = ctx.inventory.notFoundHandlers.find((n) => n.framework === 'fastify' && n.fullPath !== '/' && prefixMayMatch(n.fullPath, route.path.full));
  if (prefixed) return { code: 'route-handler-next', reason: `${why} and ends at the 404: the not-found handler of the Fastify prefix ${prefixed.fullPath} answers some of its URLs, where the moved route would reach the server's root one`, where: [`${prefixed.registration.file}:${prefixed.registration.line}`], at: prefixed.registration };
  return null;
}
