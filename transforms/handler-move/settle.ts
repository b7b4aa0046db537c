/**
 * The plans of both `errors` steps, agreed. Each step's handlers may move only with handlers of the
 * other — a 404 handler whose `next(err)` reaches the error handlers moves only when they all do
 * (not-found-handler.ts errorsEndInFastify), and a factory's members and handlers that hand req and
 * res on to each other are partners (plan.ts Partner) — so what one step moves decides what the
 * other may, and both must read the same answer (otherwise one rewrites a handler the other leaves
 * registered on Express). Starting from the 404 handlers on their own merits, the error handlers
 * are planned, then the 404 handlers given them, then the error handlers given those, until the
 * verdicts no longer change: each round can only make more handlers stay, so it ends.
 */
import type { PlanContext, StepPlan } from '../model.js';
import type { MoveEntry } from './model.js';
import { planErrorHandlerMovesGiven } from './error-handler.js';
import { appsWhoseErrorsEndInFastify, planNotFoundHandlerMovesGiven } from './not-found-handler.js';

/** Both steps' plans, as they agree. */
export interface SettledPlans {
  errors: StepPlan<MoveEntry>;
  notFound: StepPlan<MoveEntry>;
}

const SETTLED = new WeakMap<PlanContext, SettledPlans>();

/**
 * The agreed plans for `ctx`, computed once per plan context (both steps plan with the same one).
 * @throws StepRefusal 'shim-missing' as planMoves
 */
export function settledPlans(ctx: PlanContext): SettledPlans {
  const known = SETTLED.get(ctx);
  if (known) return known;
  const hasNotFound = ctx.inventory.notFoundHandlers.some((n) => n.framework !== 'fastify');
  const allApps = new Set(ctx.inventory.apps.map((a) => a.id));
  let errors = planErrorHandlerMovesGiven(ctx, hasNotFound ? planNotFoundHandlerMovesGiven(ctx, allApps) : null);
  let notFound = planNotFoundHandlerMovesGiven(ctx, appsWhoseErrorsEndInFastify(ctx, errors), errors.verdicts ?? []);
  for (let round = 0; hasNotFound && round < ctx.inventory.errorHandlers.length + ctx.inventory.notFoundHandlers.length; round++) {
    const next = planErrorHandlerMovesGiven(ctx, notFound);
    if (moving(next) === moving(errors)) break;
    errors = next;
    notFound = planNotFoundHandlerMovesGiven(ctx, appsWhoseErrorsEndInFastify(ctx, errors), errors.verdicts ?? []);
  }
  const settled = { errors, notFound };
  SETTLED.set(ctx, settled);
  return settled;
}

/** The ids a plan moves, as one comparable string. */
function moving(plan: StepPlan<MoveEntry>): string {
  return (plan.verdicts ?? []).filter((v) => v.moves).map((v) => v.id).sort().join(' ');
}
