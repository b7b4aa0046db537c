/** Plans step 3 of `shim`: the app's tests onto the Fastify server (transforms/app-tests/plan.ts). */
import type { PlanContext, StepPlan } from '../model.js';
import type { AppTestsEntry } from '../app-tests/model.js';
import { planAppTests } from '../app-tests/plan.js';

export function plan(ctx: PlanContext): StepPlan<AppTestsEntry> {
  return planAppTests(ctx, 'shim-tests', 'shim');
}
