/**
 * Whether a record is on Fastify for a planner: it is a Fastify record, or the plan only assesses
 * (PlanContext.assumed) and an earlier stage would have moved it by then.
 */
import type { Location } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';

/** True for a Fastify record (`framework: 'fastify'`) and for a record an earlier stage moves when assessing. */
export function isOnFastify(ctx: Pick<PlanContext, 'assumed'>, record: { id: string; framework?: string }): boolean {
  return record.framework === 'fastify' || !!ctx.assumed?.has(record.id);
}

/**
 * Whether the Express registration at `registration` (a middleware or route record) is a catch-all
 * 404 the errors stage moves to Fastify's not-found handler, when assessing with that stage assumed:
 * once the stage ran, the Express app no longer has it (`app.use(notFound)`, `app.all('*', notFound)`).
 */
export function movedNotFound(ctx: Pick<PlanContext, 'assumed' | 'inventory'>, registration: Location): boolean {
  if (!ctx.assumed) return false;
  return ctx.inventory.notFoundHandlers.some((n) => ctx.assumed!.has(n.id) && n.registration.file === registration.file && n.registration.line === registration.line && n.registration.column === registration.column);
}
