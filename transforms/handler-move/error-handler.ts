/**
 * Plans the move of the app's error middleware (`app.use((err, req, res, next) => …)`) to
 * `fastify.setErrorHandler`. A handler moves when it is an unconditional app-level error handler
 * defined in the project and every use in it converts; several such handlers are a chain, moved
 * together as one Fastify error handler that runs them in turn (issue 16). A handler registered
 * under a condition (`if (process.env.NODE_ENV === 'development')`, or its `else`) moves under the
 * same condition when the app registers all its error handlers under conditions; router-level
 * handlers and those under a path are left to the routes stage (deferred, no TODO); package ones,
 * and conditional ones among unconditional ones, stay with a TODO(migrate).
 */
import type { ErrorHandler, Inventory } from '../../analyzer/model.js';
import type { PlanContext, StepPlan } from '../model.js';
import type { MoveEntry, RegisterEntry } from './model.js';
import type { Blocker } from '../model.js';
import { planMoves, type Candidate, type MoveStep } from './plan.js';
import { settledPlans } from './settle.js';
import { factoryGroupOf } from './factory.js';
import { middlewareFor } from '../../rules/catalogue/middleware.js';

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
 *   the routes stage takes, and how many moved of the app's error handlers — as both steps agree
 *   (settle.ts).
 * @throws StepRefusal 'shim-missing' when the shim stage has not run (handler-move/plan.ts planMoves)
 */
export function planErrorHandlerMoves(ctx: PlanContext): StepPlan<MoveEntry> {
  return settledPlans(ctx).errors;
}

/**
 * The plan of the error handlers given the errors-not-found step's plan (`notFound`; null when the
 * app has no Express 404 handler): the 404 handlers error handlers move only with (plan.ts Partner:
 * one factory, calls handing req and res on) are read from its verdicts, and the registration of a
 * 404 handler an error handler's `next()` reaches from its entries.
 */
export function planErrorHandlerMovesGiven(ctx: PlanContext, notFound: StepPlan<MoveEntry> | null): StepPlan<MoveEntry> {
  const candidates = candidatesOf(ctx.inventory);
  if (!notFound) return planMoves(ctx, STEP, candidates);
  const moving = new Set((notFound.verdicts ?? []).filter((v) => v.moves).map((v) => v.id));
  // next() in an error handler runs the 404 handler registered after it: the registration hands it on when that one moves too.
  for (const c of candidates.filter((x) => x.notFoundAfter?.length === 1)) {
    const [id] = c.notFoundAfter!;
    const handler = ctx.inventory.notFoundHandlers.find((n) => n.id === id)!;
    // Its registration in the generated module, as the errors-not-found step writes it (same import, same local).
    const register = notFound.files.flatMap((f) => f.entries).find((e): e is RegisterEntry => e.kind === 'register' && e.from === (handler.definition?.file ?? handler.registration.file));
    if (moving.has(id) && register) c.notFound = register.import;
  }
  return planMoves(ctx, STEP, candidates, notFound.verdicts ?? []);
}

/**
 * The 404 handlers an error handler's `next()` reaches, when only they (or nothing) are registered
 * after it on its app besides error middleware: Express then leaves error handling for them
 * (HandlerRegistration.notFound hands `next()` to the moved one). Undefined when anything else
 * comes after it (a route, ordinary middleware).
 */
function notFoundAfter(inventory: Inventory, h: ErrorHandler): string[] | undefined {
  const notFound = inventory.notFoundHandlers.filter((n) => n.appId === h.appId && n.framework !== 'fastify');
  const errorSites = new Set(inventory.errorHandlers.map((e) => siteOf(e.registration)));
  const at = (l: { file: string; line: number; column: number }) => notFound.filter((n) => siteOf(n.registration) === siteOf(l));
  const after = [...inventory.middleware.filter((m) => m.appId === h.appId && m.order > h.order && !errorSites.has(siteOf(m.registration))), ...inventory.routes.filter((r) => r.appId === h.appId && r.order > h.order)];
  const reached = after.map((x) => at(x.registration));
  if (reached.some((r) => !r.length)) return undefined;
  return [...new Set(reached.flat().map((n) => n.id))];
}

function siteOf(l: { file: string; line: number; column: number }): string {
  return `${l.file}:${l.line}:${l.column}`;
}

/**
 * Every Express error handler of the inventory, with what the inventory alone says against moving
 * it. The app's unconditional app-level handlers, when there are several, are one chain (Express
 * runs them in turn: `next(err)` in one reaches the next), moved together or not at all.
 */
function candidatesOf(inventory: Inventory): Candidate[] {
  const handlers = inventory.errorHandlers.filter((h) => h.framework !== 'fastify');
  const appLevel = (h: ErrorHandler) => h.scope === 'app' && h.fullPath === '/';
  const level = (h: ErrorHandler) => `${h.appId} ${JSON.stringify(h.conditions ?? [])}`;
  return handlers.map((h) => {
    const app = handlers.filter((o) => o.appId === h.appId && appLevel(o));
    // Conditional handlers move under their condition when the app registers all its error handlers under conditions (if/else by environment).
    const mixed = !!h.conditions?.length && app.some((o) => !o.conditions?.length);
    const siblings = app.filter((o) => level(o) === level(h)).sort((a, b) => a.order - b.order);
    const index = siblings.indexOf(h);
    const chain = siblings.length > 1 && index >= 0 ? { key: level(h), index, names: siblings.map((o) => o.name) } : undefined;
    const last = index === siblings.length - 1;
    return {
      id: h.id,
      appId: h.appId,
      name: h.name,
      definition: h.definition,
      registration: h.registration,
      blockers: blockersOf(h, mixed, !!chain),
      nextToDefault: index >= 0 && last,
      nextToChain: !!chain && !last,
      ...(appLevel(h) && !h.conditions?.length ? { notFoundAfter: notFoundAfter(inventory, h) } : {}),
      ...(chain ? { chain } : {}),
      ...(h.conditions?.length && appLevel(h) && !mixed ? { guarded: true } : {}),
      ...(h.origin === 'package' && h.package && middlewareFor(h.package)?.answersErrorsOnRaw && !chain ? { package: h.package } : {}),
      ...(h.element ? { factory: factoryGroupOf(inventory, h.id) } : {}),
    };
  });
}

function blockersOf(h: ErrorHandler, mixed: boolean, inChain: boolean): Blocker[] {
  const blockers: Blocker[] = [];
  if (h.scope === 'router') blockers.push({ code: 'error-handler-router', reason: `it belongs to a router (${h.fullPath}); the routes stage moves it with that router, as its plugin's setErrorHandler` });
  else if (h.fullPath !== '/') blockers.push({ code: 'error-handler-path', reason: `it is registered under ${h.fullPath}; the routes stage makes it the error handler of the plugin with that prefix` });
  if (mixed) blockers.push({ code: 'error-handler-conditional', reason: `it is registered only ${h.conditions!.join(' and ')}, among error handlers the app registers always; Fastify has one error handler, so run it under that condition inside one handler by hand` });
  // A package's error middleware that answers on Node's request and response runs as it is (rules/catalogue/middleware.ts
  // answersErrorsOnRaw) when it is the only handler at its level: in a chain, headers the others set on the reply would be lost.
  const onRaw = h.origin === 'package' && !!h.package && !!middlewareFor(h.package)?.answersErrorsOnRaw && !inChain;
  if ((h.origin !== 'local' || !h.definition) && !onRaw) blockers.push({ code: 'error-handler-package', reason: `it comes from ${h.package ? `the package ${h.package}` : 'outside the project'}; write the Fastify error handler that answers as it does` });
  return blockers;
}
