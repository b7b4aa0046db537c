/**
 * Whether an app middleware ran for every request the app saw, in a statement a step can delete:
 * the first conditions under which the `plugins` stage moves a middleware to something Fastify runs
 * for every request (a server option: option-middleware.ts; a plugin at the root: root-plugins.ts).
 */
import type { App, Middleware } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';

/**
 * Why `m` did not run for every request of `app` in a statement of its own (a sentence ending with
 * its place), or null when it did: registered on the app itself at `/`, under no condition and not
 * in a way the analysis could not resolve, alone in its registration call. `consequence` completes
 * the first reason (`Fastify's logger would log every request`).
 */
export function notForEveryRequest(ctx: PlanContext, app: App, m: Middleware, consequence: string): string | null {
  const at = `${m.registration.file}:${m.registration.line}`;
  if (m.ownerId !== app.id || m.scope !== 'app' || m.fullPath !== '/') return `it is registered on a router, a sub-app or under a path (${at}), and ${consequence}`;
  if (m.resolution !== 'exact') return `it is registered under a condition or in a way the analysis could not resolve (${at})`;
  const start = m.statement?.start;
  if (!start || !m.statement!.own || ctx.inventory.middleware.some((o) => o.id !== m.id && o.statement && o.statement.start.line === start.line && o.statement.start.column === start.column)) return `it is registered together with other middleware in one call (${at}); register it on its own`;
  return null;
}
