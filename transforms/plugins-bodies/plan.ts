/**
 * Plans `plugins-bodies`: one entry per generated server module whose Express app runs in Fastify
 * hooks (or will, after `plugins-bridge` in the same run) and lists moved routes that run no
 * Express code and have body parsers (server-module/express-free.ts), when the app's body parsers
 * all translate (server-module/fastify-bodies.ts). What moved counts the body parsers; a module
 * whose parsers do not translate says why in a group.
 */
import { versionOf } from '../../rules/catalogue/versions.js';
import { jFor } from '../lib/ast.js';
import type { FilePlan, PlanContext, StepPlan } from '../model.js';
import { hookedAfterBridge } from '../server-module/express-hook.js';
import { expressFreeRoutesThisRun } from '../server-module/express-free.js';
import { fastifyBodiesOf } from '../server-module/fastify-bodies.js';
import { generatedModuleFor } from '../server-module/locate.js';
import type { ParseBodiesEntry } from '../server-module/parse-bodies.js';

/** The step's plan: the modules whose listed routes' bodies Fastify parses, and the body parsers moved. */
export function plan(ctx: PlanContext): StepPlan<ParseBodiesEntry> {
  const files: Array<FilePlan<ParseBodiesEntry>> = [];
  const groups = new Map<string, number>();
  let done = 0;
  let qs = false;
  for (const app of ctx.inventory.apps.filter((a) => a.framework !== 'fastify')) {
    const module = generatedModuleFor(ctx, app);
    if (!module || files.some((f) => f.file === module.file)) continue;
    const j = jFor(module.file);
    if (!hookedAfterBridge(ctx, j, j(module.source), module.file)) continue;
    const free = expressFreeRoutesThisRun(ctx, app, module);
    if (!free.routes.some((r) => r.parsers > 0)) continue;
    const parsers = free.bodyParsers.map((p) => p.m);
    // The app's functions the parsers carry, as plugins-express-free (order 20) imported them.
    const bodies = fastifyBodiesOf(ctx.inventory, parsers, module.typescript, (m) => {
      const rebuilt = free.bodyParsers.find((p) => p.m.id === m.id)!;
      return 'refuse' in rebuilt ? rebuilt : rebuilt.sources;
    });
    if ('refuse' in bodies) {
      groups.set(bodies.refuse, (groups.get(bodies.refuse) ?? 0) + parsers.length);
      continue;
    }
    done += bodies.parsers.length;
    qs ||= bodies.uses.qs;
    files.push({ file: module.file, entries: [{ bodies, typescript: module.typescript, module: module.module }] });
  }
  const of = done + [...groups.values()].reduce((a, b) => a + b, 0);
  return {
    step: 'plugins-bodies',
    files,
    manual: [],
    ...(qs ? { dependencies: { qs: versionOf('qs') } } : {}),
    moved: of
      ? {
          what: "body parsers to Fastify's content-type parsers (for the moved routes that run no Express code)",
          done,
          of,
          ...(groups.size ? { groups: [...groups].map(([name, n]) => ({ name: `still read by body-parser in the Express hook: ${name}`, done: 0, of: n })) } : {}),
        }
      : undefined,
    deltas: [],
  };
}
