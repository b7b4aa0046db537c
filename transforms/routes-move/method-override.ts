/**
 * method-override in the header form (`app.use(methodOverride())`, `methodOverride('X-HTTP-Method')`):
 * Express matches its routes with the method the header names (`POST /users/1` with
 * `X-HTTP-Method-Override: PUT` reaches `PUT /users/:id`), Fastify routes before any middleware
 * runs. When the app applies it in a form the catalogue describes exactly (`overridesMethod`), at
 * the app level before every route, unconditionally, the generated module's request listener
 * applies the same override before Fastify routes and the bridge gives the Express app the method
 * as sent, where the app's own method-override applies it again (server-module/method-override.ts).
 * Then Fastify routes each request as Express did, and the middleware's finding holds no route back.
 */
import type { Inventory, Middleware, Route } from '../../analyzer/model.js';
import { middlewareFor } from '../../rules/catalogue/middleware.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import type { PlanContext } from '../model.js';
import { methodOverrideRefusal, type MethodOverride } from '../server-module/method-override.js';
import type { GeneratedModule } from '../server-module/locate.js';

export type { MethodOverride };

/**
 * The app's method override when the listener can apply it as Express does; `{ refuse }` saying
 * why not when the app has one it cannot; null when the app has none.
 */
export function methodOverrideOf(inventory: Inventory, appId: string): MethodOverride | { refuse: string } | null {
  const overriding = inventory.middleware.filter((m) => m.framework === 'express' && m.appId === appId && !!m.package && !!middlewareFor(m.name, m.package)?.overridesMethod);
  if (!overriding.length) return null;
  if (overriding.length > 1) return { refuse: `the app re-routes by method in ${overriding.length} places` };
  const m = overriding[0];
  const form = middlewareFor(m.name, m.package!)!.overridesMethod!;
  const where = `${m.registration.file}:${m.registration.line}`;
  if (m.scope !== 'app' || m.ownerId !== appId || m.fullPath !== '/') return { refuse: `${m.name} at ${where} is not app middleware for every path` };
  // A condition (`if (…) app.use(…)`) or a part the analysis could not read makes it `partial`.
  if (m.resolution !== 'exact') return { refuse: `${m.name} at ${where} is registered under a condition or in a way the analysis did not fully read` };
  const header = headerOf(m, form.defaultHeader);
  if (!header) return { refuse: `${m.name} at ${where} reads something other than a header (a query key or a function), or options` };
  // Express routes a route registered before it with the method as sent.
  const before = inventory.routes.filter((r) => r.framework === 'express' && r.appId === appId && r.order < m.order);
  if (before.length) return { refuse: `${m.name} at ${where} is registered after routes (${before[0].key}), which Express matches with the method as sent` };
  return { header: header.toLowerCase(), methods: [...form.defaultMethods], at: where };
}

/** The header a factory call without options reads: the default, or a string starting with `X-` (method-override's createGetter); null for any other form. */
function headerOf(m: Middleware, defaultHeader: string): string | null {
  const args = m.factory?.args;
  if (!args) return null;
  if (args.length === 0) return defaultHeader;
  const [getter] = args;
  if (args.length === 1 && getter.resolution === 'exact' && typeof getter.value === 'string' && getter.value.slice(0, 2).toUpperCase() === 'X-') return getter.value;
  return null;
}

/**
 * Why `route` stays although its app's method-override has a form the listener applies: the
 * generated module (`target`) cannot take it (server-module/method-override.ts); null otherwise.
 * Only for the route methods the override reaches per the catalogue (`affectsMethods`), as
 * the middleware's finding did.
 */
export function methodOverrideRefusedFor(ctx: PlanContext, route: Route, target: GeneratedModule, parsed: ParsedFiles): string | null {
  const override = methodOverrideOf(ctx.inventory, route.appId);
  if (!override || 'refuse' in override) return null;
  const m = ctx.inventory.middleware.find((x) => x.appId === route.appId && !!x.package && !!middlewareFor(x.name, x.package)?.overridesMethod);
  const affects = m && middlewareFor(m.name, m.package!)?.affectsMethods;
  if (affects && !affects.includes(route.method)) return null;
  const server = target.source ? parsed(target.file) : null;
  const why = server ? methodOverrideRefusal(server.j, server.root, target.file) : null;
  return why ? `the app's method-override (${override.at}) re-routes requests by a header before Express's routes match, and ${why}` : null;
}
