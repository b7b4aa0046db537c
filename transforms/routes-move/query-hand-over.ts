/**
 * Where the app's Express middleware replaces `req.query` (xss-clean, hpp, express-mongo-sanitize:
 * catalogue `replacesRequestQuery`; or the app's own middleware assigning it), Fastify's
 * `request.query` — parsed before the bridge ran that middleware — is not what the Express handlers
 * read. The moved routes then get Express's query handed to `request.query` (server-module/moved-routes.ts),
 * as `bodyLikeExpress` hands them Express's body.
 */
import type { Middleware } from '../../analyzer/model.js';
import { middlewareFor } from '../../rules/catalogue/middleware.js';
import { isOnFastify } from '../lib/assumed.js';
import type { PlanContext } from '../model.js';

/**
 * The app's first Express middleware (app or router level, still in the bridge) that replaces or
 * changes `req.query`, as a comment names it (`xss [xss-clean] at app.js:21`); null when none does.
 */
export function queryReplacedBy(ctx: PlanContext, appId: string): string | null {
  const replaces = (m: Middleware) =>
    m.package ? !!middlewareFor(m.name, m.package)?.replacesRequestQuery : m.usage.req.some((u) => u.api === 'req.query' && u.write);
  const m = ctx.inventory.middleware.find((x) => x.appId === appId && !isOnFastify(ctx, x) && replaces(x));
  return m ? `${m.name}${m.package ? ` [${m.package}]` : ''} at ${m.registration.file}:${m.registration.line}` : null;
}
