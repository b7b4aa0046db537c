/**
 * What a `plugins` step that replaces app middleware (plugins-server-options, plugins-middleware)
 * plans the same way: per Express app whose generated module runs it in Fastify hooks (or will,
 * after plugins-bridge in the same run), the middleware that leave; the others, with why they stay
 * (while the module still runs the app behind @fastify/express, every one does); and the packages a
 * middleware that stays still comes from.
 */
import type { App, Location } from '../../analyzer/model.js';
import { jFor } from '../lib/ast.js';
import type { PlanContext } from '../model.js';
import { hookedAfterBridge } from './express-hook.js';
import { generatedModuleFor, type GeneratedModule } from './locate.js';

/** The middleware of one app's generated module that leave the Express app. */
export interface LeavingFromModule<M> {
  app: App;
  module: GeneratedModule;
  moving: M[];
}

/** What the step moves, and what stays. */
export interface LeavingMiddleware<M> {
  /** Per module with something to move. */
  modules: LeavingFromModule<M>[];
  /** How many of the step's middleware the apps have, moving or not. */
  all: number;
  /** Why the others stay (one sentence with its place), with how many each. */
  groups: Map<string, number>;
  /** The packages of the middleware that stay. */
  keptPackages: Set<string>;
}

/** A step's decision for one app: which of its middleware move, and which stay with why. */
export interface MiddlewareDecision<M> {
  moving: M[];
  kept: Array<{ package: string; reason: string }>;
}

/** `decide` for every Express app with a generated module, gathered (module comment). */
export function leavingMiddleware<M extends { package: string; registration: Location }>(ctx: PlanContext, decide: (app: App, module: GeneratedModule) => MiddlewareDecision<M>): LeavingMiddleware<M> {
  const out: LeavingMiddleware<M> = { modules: [], all: 0, groups: new Map(), keptPackages: new Set() };
  for (const app of ctx.inventory.apps.filter((a) => a.framework !== 'fastify')) {
    const module = generatedModuleFor(ctx, app);
    if (!module) continue;
    const found = decide(app, module);
    out.all += found.moving.length + found.kept.length;
    const j = jFor(module.file);
    const hooked = hookedAfterBridge(ctx, j, j(module.source), module.file);
    const bridged = hooked ? [] : found.moving.map((m) => ({ package: m.package, reason: `the Express app still runs behind @fastify/express (plugins-bridge says why) (${m.registration.file}:${m.registration.line})` }));
    for (const k of [...found.kept, ...bridged]) {
      out.groups.set(k.reason, (out.groups.get(k.reason) ?? 0) + 1);
      out.keptPackages.add(k.package);
    }
    if (hooked && found.moving.length) out.modules.push({ app, module, moving: found.moving });
  }
  return out;
}

/** The summary's groups for what stays: `stay on Express: <reason>`, none moved of how many. */
export function stayGroups(groups: Map<string, number>): Array<{ name: string; done: number; of: number }> | undefined {
  return groups.size ? [...groups].map(([name, n]) => ({ name: `stay on Express: ${name}`, done: 0, of: n })) : undefined;
}
