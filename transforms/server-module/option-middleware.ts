/**
 * The app's middleware that a Fastify server option replaces (`plugins` stage, issue 19 item 4):
 * those whose catalogue entry names a `serverOption` (rules/catalogue/middleware.ts), morgan →
 * `logger: true`. Fastify then logs every request, those Express answers too, as morgan logged
 * every request it saw: so one moves only when it saw them all —
 * - registered on the app itself, at `/`, under no condition, in a statement of its own (the step
 *   deletes that statement);
 * - called with nothing but what the option takes over: morgan's format (`'dev'`, a name chosen at
 *   run time, a format function), whose line shape the option does not keep anyway; options
 *   (`stream`, `skip`, `immediate`, also morgan 1.0's options object) stay.
 * Each that stays says why, with its place.
 */
import type { App, Location, Middleware } from '../../analyzer/model.js';
import { middlewareFor, type MiddlewareEntry } from '../../rules/catalogue/middleware.js';
import type { PlanContext } from '../model.js';

/** A middleware leaving the Express app for a server option. */
export interface OptionMiddleware {
  middlewareId: string;
  /** As written (`morgan`), and the package. */
  name: string;
  package: string;
  /** The option that replaces it: `logger`, and its source `true`. */
  option: { name: string; value: string };
  /** The format it was given, as written (`'dev'`, `logs`), for the summary; null when none. */
  format: string | null;
  registration: Location;
}

/** The app's middleware a server option replaces, and those of the same packages that stay, each with why. */
export interface OptionMiddlewareOf {
  moving: OptionMiddleware[];
  kept: Array<{ middlewareId: string; registration: Location; reason: string }>;
}

/** The middleware of `app` whose catalogue entry names a server option, and which of them move (module comment). */
export function optionMiddlewareOf(ctx: PlanContext, app: App): OptionMiddlewareOf {
  const out: OptionMiddlewareOf = { moving: [], kept: [] };
  for (const m of ctx.inventory.middleware) {
    if (m.appId !== app.id || m.framework !== 'express') continue;
    const entry = m.package ? middlewareFor(m.name, m.package) : undefined;
    if (!entry?.serverOption) continue;
    const reason = whyStays(ctx, app, m, entry);
    if (typeof reason === 'string') out.kept.push({ middlewareId: m.id, registration: m.registration, reason });
    else out.moving.push({ middlewareId: m.id, name: m.name, package: entry.package, option: { name: entry.serverOption.name, value: entry.serverOption.value }, format: reason.format, registration: m.registration });
  }
  return out;
}

/** Why `m` stays on the Express app (a sentence ending with its place), or what it takes over when it moves. */
function whyStays(ctx: PlanContext, app: App, m: Middleware, entry: MiddlewareEntry): string | { format: string | null } {
  const at = `${m.registration.file}:${m.registration.line}`;
  if (m.ownerId !== app.id || m.scope !== 'app' || m.fullPath !== '/') return `it is registered on a router, a sub-app or under a path (${at}), and Fastify's ${entry.serverOption!.name} would log every request`;
  if (m.resolution !== 'exact') return `it is registered under a condition or in a way the analysis could not resolve (${at})`;
  if (!m.statement?.own || ctx.inventory.middleware.some((o) => o.id !== m.id && o.statement && o.statement.start.line === m.statement!.start.line && o.statement.start.column === m.statement!.start.column)) return `it is not a statement of its own (${at})`;
  const args = m.factory?.args ?? [];
  const [first, ...rest] = args;
  if (rest.length) return `its options \`${rest.map((a) => a.source).join(', ')}\` are not translated to Fastify's ${entry.serverOption!.name} (${at})`;
  if (!first) return { format: null };
  if (!entry.serverOption!.takes.includes('format') || (first.value !== null && typeof first.value === 'object')) return `its argument \`${first.source}\` is not translated to Fastify's ${entry.serverOption!.name} (${at})`;
  return { format: first.source };
}
