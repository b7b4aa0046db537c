/**
 * Which records the rules are about. The rules describe what changes when Express code moves to
 * Fastify, so Fastify records (`framework: 'fastify'`: Fastify apps, plugin contexts, routes, hooks,
 * `setErrorHandler`/`setNotFoundHandler`) are already where they are going and most rules skip
 * them. An Express app served through `@fastify/express` (`App.servedBy`, docs/analyzer.md
 * "Fastify") has been through the `shim` stage: what the shim does is done, so no rule plans it
 * again for that app.
 */
import type { App, ErrorHandler, Inventory, Middleware, NotFoundHandler, Route } from '../analyzer/model.js';

/** A record that has a `framework` field (absent on Express records of apps, routers and handlers). */
type Framed = Pick<Route, 'framework'> | Pick<Middleware, 'framework'> | Pick<App, 'framework'> | Pick<ErrorHandler, 'framework'> | Pick<NotFoundHandler, 'framework'>;

/** Whether the record is Fastify's own (a Fastify app, route, hook or handler). */
export function onFastify(record: Framed): boolean {
  return record.framework === 'fastify';
}

/** The Express apps of the inventory (Fastify apps left out). */
export function expressApps(inventory: Inventory): App[] {
  return inventory.apps.filter((a) => !onFastify(a));
}

/** The Express routes of the inventory: those still to move (served through the bridge or not). */
export function expressRoutes(inventory: Inventory): Route[] {
  return inventory.routes.filter((r) => !onFastify(r));
}

/**
 * The id of the Fastify app serving the Express app `appId` through `@fastify/express` (the
 * `shim` stage has run for it), or undefined when the Express app still serves itself.
 */
export function servedBy(inventory: Inventory, appId: string): string | undefined {
  return inventory.apps.find((a) => a.id === appId)?.servedBy;
}

/**
 * The path the Fastify app serves the Express app `appId` at (`fastify.use('/legacy', app)` →
 * `/legacy`; the shim's `fastify.use(bridge)` → `/`): the full path of its `bridge` mount.
 */
export function bridgePath(inventory: Inventory, appId: string): string {
  return inventory.mounts.find((m) => m.kind === 'bridge' && m.child === appId)?.fullPath ?? '/';
}
