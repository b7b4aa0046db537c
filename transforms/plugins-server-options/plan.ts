/**
 * Plans `plugins-server-options`: per Express app whose generated module runs it in Fastify hooks
 * (or will, after plugins-bridge in the same run), the middleware a server option replaces
 * (server-module/option-middleware.ts says which and why the others stay): an entry for the module
 * (the options to set) and one for each app file that registered them (the statements to delete).
 * What moved counts those middleware; the groups say why the others stay; the deltas say what
 * changes in the log; a package nothing reads any more leaves package.json.
 */
import type { FilePlan, FrameworkDelta, PlanContext, StepPlan } from '../model.js';
import { leavingMiddleware, stayGroups } from '../server-module/leaving-middleware.js';
import { optionMiddlewareOf, unusedAfterMove, type OptionMiddleware } from '../server-module/option-middleware.js';

/** A file's plan entry: the module sets the options; an app file loses the middleware's registrations. */
export type ServerOptionsEntry = { kind: 'module'; options: Array<Pick<OptionMiddleware, 'option' | 'callee' | 'registration'>> } | { kind: 'express'; middleware: Array<Pick<OptionMiddleware, 'name' | 'anchor'>> };

/** The step's plan (module comment). */
export function plan(ctx: PlanContext): StepPlan<ServerOptionsEntry> {
  const files = new Map<string, ServerOptionsEntry[]>();
  const leaving = leavingMiddleware(ctx, (app) => optionMiddlewareOf(ctx, app));
  const moved = leaving.modules.flatMap((l) => l.moving);
  for (const { module, moving } of leaving.modules) {
    files.set(module.file, [...(files.get(module.file) ?? []), { kind: 'module', options: moving.map(({ option, callee, registration }) => ({ option, callee, registration })) }]);
    for (const m of moving) {
      const entries = files.get(m.registration.file) ?? [];
      const entry = entries.find((e) => e.kind === 'express');
      if (entry) entry.middleware.push({ name: m.name, anchor: m.anchor });
      else files.set(m.registration.file, [...entries, { kind: 'express', middleware: [{ name: m.name, anchor: m.anchor }] }]);
    }
  }
  // A package nothing reads once its middleware left (none stays, no other use), out of package.json.
  const removable = [...new Set(moved.map((m) => m.package))].filter((pkg) => !leaving.keptPackages.has(pkg) && unusedAfterMove(ctx, pkg, moved));
  const deltas: FrameworkDelta[] = moved.map((m) => ({
    text: `Request logging: ${m.callee}(${m.format ?? ''}) (${m.registration.file}:${m.registration.line}) is Fastify's logger now: pino JSON lines on stdout ('incoming request', 'request completed' with responseTime) instead of its access-log lines, for every request, those the Express app answers too; tools that read the log must follow`,
    restoredByParityExpress: false,
  }));
  const groups = stayGroups(leaving.groups);
  return {
    step: 'plugins-server-options',
    files: [...files].map(([file, entries]): FilePlan<ServerOptionsEntry> => ({ file, entries })),
    manual: [],
    moved: leaving.all ? { what: "middleware to Fastify's server options (request logging to its logger)", done: moved.length, of: leaving.all, ...(groups ? { groups } : {}) } : undefined,
    ...(removable.length ? { removeDependencies: removable } : {}),
    deltas,
  };
}
