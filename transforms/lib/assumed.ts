/**
 * Whether a record is on Fastify for a planner: it is a Fastify record, or the plan only assesses
 * (PlanContext.assumed) and an earlier stage would have moved it by then.
 */
import type { PlanContext } from '../model.js';

/** True for a Fastify record (`framework: 'fastify'`) and for a record an earlier stage moves when assessing. */
export function isOnFastify(ctx: Pick<PlanContext, 'assumed'>, record: { id: string; framework?: string }): boolean {
  return record.framework === 'fastify' || !!ctx.assumed?.has(record.id);
}
