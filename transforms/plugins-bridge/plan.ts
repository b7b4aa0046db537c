/**
 * Plans `plugins-bridge`: one entry per generated server module that still registers
 * `@fastify/express` (server-module/express-hook.ts says what the entry does). A module converted
 * already is counted as done and left as it is, so a second run changes nothing. Without any
 * generated module the stage is refused: the shim has to run first. A module keeps its bridge, with
 * a ManualItem, where the hooks would not run where the bridge ran (express-hook.ts
 * hookBridgeRefusal), and where its Fastify app has a not-found handler under a prefix: the
 * requests under that prefix that Express answers would reach that handler without the Express hook
 * (only the root one gets it). `@fastify/express` leaves package.json once nothing registers it.
 */
import { jFor } from '../lib/ast.js';
import { StepRefusal, type FilePlan, type ManualItem, type PlanContext, type StepPlan } from '../model.js';
import { bridgeOf } from '../server-module/build-fastify.js';
import { bridgeKept, runsExpressInHooks } from '../server-module/express-hook.js';
import { generatedModuleFor, type GeneratedModule } from '../server-module/locate.js';

/** The plan entry of a module: its language, for the hook's types. */
export interface BridgeEntry {
  typescript: boolean;
}

/**
 * @throws StepRefusal 'shim-missing' when the project has Express apps and no generated module
 *   serves any of them
 */
export function plan(ctx: PlanContext): StepPlan<BridgeEntry> {
  const apps = ctx.inventory.apps.filter((a) => a.framework !== 'fastify');
  const modules = new Map<string, GeneratedModule>();
  for (const app of apps) {
    const module = generatedModuleFor(ctx, app);
    if (module) modules.set(module.file, module);
  }
  if (apps.length && !modules.size) {
    throw new StepRefusal('shim-missing', 'the plugins stage changes the Fastify module that the shim stage generates (fastify-server.*), and there is none: run `migrate run --stage shim` first (and commit it), then this stage');
  }
  const files: Array<FilePlan<BridgeEntry>> = [];
  const manual: ManualItem[] = [];
  let converted = 0;
  for (const module of modules.values()) {
    const j = jFor(module.file);
    const root = j(module.source);
    if (runsExpressInHooks(j, root)) converted++;
    if (!bridgeOf(j, root)) continue;
    const kept = bridgeKept(ctx, j, root, module.file);
    if (kept.length) manual.push(...kept);
    else files.push({ file: module.file, entries: [{ typescript: module.typescript }] });
  }
  // Another registration of @fastify/express (the app's own Fastify code) keeps the package.
  const elsewhere = ctx.inventory.apps.some((a) => (a.plugins ?? []).some((p) => p.package === '@fastify/express' && !modules.has(p.registration.file)));
  const done = files.length;
  return {
    step: 'plugins-bridge',
    files,
    manual,
    moved: { what: 'Express apps from @fastify/express into Fastify hooks that run them only where they still answer', done, of: done + (modules.size - done - converted) },
    ...(done + converted === modules.size && modules.size && !elsewhere ? { removeDependencies: ['@fastify/express'] } : {}),
  };
}
