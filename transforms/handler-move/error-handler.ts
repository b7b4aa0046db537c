/**
 * Plans the move of the app's error middleware (`app.use((err, req, res, next) => …)`) to
 * `fastify.setErrorHandler`. A handler moves when it is the app's only unconditional app-level
 * error handler, defined in the project, and every use in it converts; router-level handlers and
 * those under a path are left to the routes stage (deferred, no TODO); conditional ones, package
 * ones and chains stay with a TODO(migrate).
 */
import type { ErrorHandler, Inventory } from '../../analyzer/model.js';
import type { PlanContext, StepPlan } from '../model.js';
import type { MoveEntry } from './model.js';
import type { Blocker } from '../model.js';
import { planMoves, type Candidate, type MoveStep } from './plan.js';

const STEP: MoveStep = {
  step: 'errors-handler',
  role: 'error',
  kind: 'error-handler',
  method: 'setErrorHandler',
  what: 'error handlers',
  noun: 'error handler',
  defaultName: 'errorHandler',
};

/**
 * @returns the files to change, a ManualItem per handler that stays, a DeferredItem per handler
 *   the routes stage takes, and how many moved of the app's error handlers.
 * @throws StepRefusal 'shim-missing' when the shim stage has not run (handler-move/plan.ts planMoves)
 */
export function planErrorHandlerMoves(ctx: PlanContext): StepPlan<MoveEntry> {
  return planMoves(ctx, STEP, candidatesOf(ctx.inventory));
}

/** Every Express error handler of the inventory, with what the inventory alone says against moving it. */
function candidatesOf(inventory: Inventory): Candidate[] {
  const handlers = inventory.errorHandlers.filter((h) => h.framework !== 'fastify');
  const appLevel = (h: ErrorHandler) => h.scope === 'app' && h.fullPath === '/' && !h.conditions?.length;
  return handlers.map((h) => {
    const siblings = handlers.filter((o) => o.appId === h.appId && appLevel(o));
    return { id: h.id, appId: h.appId, name: h.name, definition: h.definition, registration: h.registration, blockers: blockersOf(h, siblings), nextToDefault: siblings.length === 1 };
  });
}

function blockersOf(h: ErrorHandler, appLevel: ErrorHandler[]): Blocker[] {
  const blockers: Blocker[] = [];
  if (h.scope === 'router') blockers.push({ code: 'error-handler-router', reason: `it belongs to a router (${h.fullPath}); the routes stage moves it with that router, as its plugin's setErrorHandler` });
  else if (h.fullPath !== '/') blockers.push({ code: 'error-handler-path', reason: `it is registered under ${h.fullPath}; the routes stage makes it the error handler of the plugin with that prefix` });
  if (h.conditions?.length) blockers.push({ code: 'error-handler-conditional', reason: `it is registered only ${h.conditions.join(' and ')}; a Fastify error handler applies always, so keep that condition around fastify.setErrorHandler by hand` });
  if (h.origin !== 'local' || !h.definition) blockers.push({ code: 'error-handler-package', reason: `it comes from ${h.package ? `the package ${h.package}` : 'outside the project'}; write the Fastify error handler that answers as it does` });
  if (appLevel.length > 1 && appLevel.includes(h)) {
    blockers.push({ code: 'error-handler-chain', reason: `the app has ${appLevel.length} error handlers run in turn (${appLevel.map((o) => o.name).join(' → ')}); Fastify has one per context, so merge them into one handler` });
  }
  return blockers;
}
