/**
 * Plans `plugins-middleware`: per Express app whose generated module runs it in Fastify hooks (or
 * will, after plugins-bridge in the same run), the middleware an official plugin at the root
 * replaces (server-module/root-plugins.ts says which and why the others stay): an entry for the
 * module (the plugins to register) and one for each app file that registered them (the statements
 * to delete). What moved counts those middleware; the groups say why the others stay; the deltas
 * say what a client sees change; the plugins join package.json, and a package nothing reads any
 * more leaves it.
 */
import type { FilePlan, FrameworkDelta, PlanContext, StepPlan } from '../model.js';
import { versionOf } from '../../rules/catalogue/versions.js';
import { leavingMiddleware, stayGroups } from '../server-module/leaving-middleware.js';
import { unusedAfterMove } from '../server-module/option-middleware.js';
import type { ImportRequest } from '../lib/imports.js';
import type { AppFunctionEdit } from '../server-module/app-functions.js';
import type { RootPluginRegistration } from '../server-module/root-plugin-registration.js';
import { rootPluginsOf, type RootPlugin } from '../server-module/root-plugins.js';

/**
 * A file's plan entry: the module registers the plugins (importing the app's functions they call);
 * an app file loses the middleware (helmet's for `app.disable('x-powered-by')`); the module
 * defining such a function exports it (or lifts it out of the options) first.
 */
export type MiddlewareEntry =
  | { kind: 'module'; module: 'esm' | 'commonjs'; typescript: boolean; plugins: RootPluginRegistration[]; imports: ImportRequest[] }
  | { kind: 'express'; middleware: Array<Pick<RootPlugin, 'name' | 'anchor' | 'disablesPoweredBy'>> }
  | AppFunctionEdit;

/** The step's plan (module comment). */
export function plan(ctx: PlanContext): StepPlan<MiddlewareEntry> {
  const files = new Map<string, MiddlewareEntry[]>();
  const leaving = leavingMiddleware(ctx, (app) => rootPluginsOf(ctx, app));
  const moved = leaving.modules.flatMap((l) => l.moving);
  for (const { module, moving } of leaving.modules) {
    const imports = moving.flatMap((m) => m.functions.flatMap((f) => f.import ?? []));
    add(files, module.file, { kind: 'module', module: module.module, plugins: moving.map(({ plugin, options, callee, registration, headers, delegate }) => ({ plugin, options, callee, registration, ...(headers ? { headers } : {}), ...(delegate ? { delegate } : {}) })), imports, typescript: module.typescript });
    for (const m of moving) {
      // Before the middleware's statement goes: a function lifted out of it is found where the plan saw it.
      for (const edit of m.functions.flatMap((f) => f.edit ?? [])) {
        const planned = files.get(edit.file) ?? [];
        if (!planned.some((e) => e.kind === edit.entry.kind && 'name' in e && e.name === edit.entry.name)) files.set(edit.file, [edit.entry, ...planned]);
      }
      const entry = files.get(m.registration.file)?.find((e) => e.kind === 'express');
      const taken = { name: m.name, anchor: m.anchor, disablesPoweredBy: m.disablesPoweredBy };
      if (entry) entry.middleware.push(taken);
      else add(files, m.registration.file, { kind: 'express', middleware: [taken] });
    }
  }
  // A package nothing reads once its middleware left (none stays, no other use), out of package.json.
  const removable = [...new Set(moved.map((m) => m.package))].filter((pkg) => !leaving.keptPackages.has(pkg) && unusedAfterMove(ctx, pkg, moved));
  const deltas: FrameworkDelta[] = moved.flatMap((m) => m.deltas.map((d) => ({ ...d, text: `${m.callee} (${m.registration.file}:${m.registration.line}) moved to ${m.plugin.specifier}: ${d.text}` })));
  const plugins = [...new Set(moved.map((m) => m.plugin.specifier))];
  const groups = stayGroups(leaving.groups);
  return {
    step: 'plugins-middleware',
    files: [...files].map(([file, entries]): FilePlan<MiddlewareEntry> => ({ file, entries })),
    manual: [],
    moved: leaving.all ? { what: 'middleware to official Fastify plugins at the root (cors, helmet)', done: moved.length, of: leaving.all, ...(groups ? { groups } : {}) } : undefined,
    ...(plugins.length ? { dependencies: Object.fromEntries(plugins.map((p) => [p, versionOf(p)])) } : {}),
    ...(removable.length ? { removeDependencies: removable } : {}),
    deltas,
  };
}

/** Appends `entry` to the plan entries of `file`. */
function add(files: Map<string, MiddlewareEntry[]>, file: string, entry: MiddlewareEntry): void {
  files.set(file, [...(files.get(file) ?? []), entry]);
}
