/**
 * Plans `plugins-static`: per Express app whose generated module runs it in Fastify hooks (or will,
 * after plugins-bridge in the same run), the static mounts that move (server-module/static-files.ts
 * says which and why the others stay): an entry for the module (their registrations) and one for
 * each app file that registered them (the statements to delete). What moved counts the app's
 * express.static / serve-static mounts; the groups say why the others stay on Express.
 */
import { jFor } from '../lib/ast.js';
import type { FilePlan, FrameworkDelta, PlanContext, StepPlan } from '../model.js';
import { versionOf } from '../../rules/catalogue/versions.js';
import { hookedAfterBridge } from '../server-module/express-hook.js';
import { generatedModuleFor } from '../server-module/locate.js';
import { staticDeltas, staticFilesOf, type MovingMount } from '../server-module/static-files.js';
import type { StaticModule } from '../server-module/static-registration.js';
import type { AppFunctionEdit } from '../server-module/app-functions.js';

/**
 * A file's plan entry: the module registers mounts; an app file loses their registrations; the
 * module defining a mount's setHeaders exports it (or lifts it out of the options) first.
 */
export type StaticEntry = ({ kind: 'module'; mounts: MovingMount[] } & StaticModule) | { kind: 'express'; mounts: Array<Pick<MovingMount, 'anchor' | 'name'>> } | AppFunctionEdit;

/** The step's plan (module comment). */
export function plan(ctx: PlanContext): StepPlan<StaticEntry> {
  const files = new Map<string, StaticEntry[]>();
  const groups = new Map<string, number>();
  let moved = 0;
  const movingMounts: MovingMount[] = [];
  let all = 0;
  for (const app of ctx.inventory.apps.filter((a) => a.framework !== 'fastify')) {
    const module = generatedModuleFor(ctx, app);
    if (!module) continue;
    const j = jFor(module.file);
    const found = staticFilesOf(ctx, app, module);
    all += found.moving.length + found.kept.length;
    const hooked = hookedAfterBridge(ctx, j, j(module.source), module.file);
    const kept = hooked ? found.kept : [...found.kept, ...found.moving.map((m) => ({ reason: `the Express app still runs behind @fastify/express (plugins-bridge says why), before every Fastify route (${m.registration.file}:${m.registration.line})` }))];
    for (const k of kept) groups.set(k.reason, (groups.get(k.reason) ?? 0) + 1);
    if (!hooked || !found.moving.length) continue;
    moved += found.moving.length;
    movingMounts.push(...found.moving);
    add(files, module.file, { kind: 'module', mounts: found.moving, module: module.module, typescript: module.typescript });
    for (const m of found.moving) {
      const edit = m.setHeaders?.edit;
      // Before the mount's statement goes: a function lifted out of it is found where the plan saw it.
      const planned = files.get(edit?.file ?? '') ?? [];
      if (edit && !planned.some((e) => e.kind === edit.entry.kind && 'name' in e && e.name === edit.entry.name)) files.set(edit.file, [edit.entry, ...planned]);
      const entry = files.get(m.registration.file)?.find((e) => e.kind === 'express');
      if (entry) entry.mounts.push({ anchor: m.anchor, name: m.name });
      else add(files, m.registration.file, { kind: 'express', mounts: [{ anchor: m.anchor, name: m.name }] });
    }
  }
  const deltas: FrameworkDelta[] = (movingMounts.length ? staticDeltas(movingMounts) : []).map((d) => ({ text: `Static files moved to @fastify/static: ${d.fastify} Express: ${d.express} (${d.id})`, restoredByParityExpress: true }));
  return {
    step: 'plugins-static',
    files: [...files].map(([file, entries]): FilePlan<StaticEntry> => ({ file, entries })),
    manual: [],
    moved: all ? { what: 'static-file mounts from the Express app to @fastify/static', done: moved, of: all, ...(groups.size ? { groups: [...groups].map(([name, n]) => ({ name: `stay on Express: ${name}`, done: 0, of: n })) } : {}) } : undefined,
    ...(moved ? { dependencies: { '@fastify/static': versionOf('@fastify/static') } } : {}),
    deltas,
  };
}

/** Appends `entry` to the plan entries of `file`. */
function add(files: Map<string, StaticEntry[]>, file: string, entry: StaticEntry): void {
  files.set(file, [...(files.get(file) ?? []), entry]);
}
