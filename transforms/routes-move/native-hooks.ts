/**
 * Step 5 of the routes plan: which local route middleware of the moving routes becomes a native
 * Fastify hook rather than running through the `expressMiddleware` adapter.
 */
import { appliesToMajor } from '../../rules/catalogue/framework-defaults.js';
import type { ASTPath } from 'jscodeshift';
import type { Route } from '../../analyzer/model.js';
import { planHandlerRewrite, type HandlerOptions } from '../handler-rewrite/rewrite.js';
import { functionAt, isTypeScript, type Node } from '../lib/ast.js';
import { placementOf } from '../lib/exports.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import { otherUses } from '../lib/references.js';
import type { PlanContext } from '../model.js';
import { jsonOptionsOf } from './read-route.js';
import { inRouteStatement } from '../lib/route-statement.js';
import type { RouteState } from './state.js';
import type { ReplacedSend } from './replaced-send.js';

/** A local route middleware rewritten in place to a Fastify preHandler hook. */
export interface NativeHook {
  file: string;
  fn: ASTPath<Node>;
  options: HandlerOptions;
  /** Functions of the generated fastify-like-express module the hook calls (HandlerRewrite.likeExpress). */
  likeExpress: string[];
  /** The app whose server module the hook's routes are registered in (where that module is written). */
  appId: string;
}

/**
 * Local route middleware that becomes a native Fastify hook, rewritten where it is defined with the
 * `hook` role (`(request, reply, next)`, or `(request, reply)` when async): when every route whose
 * chain has it moves, nothing else uses it (no `router.use`, no call), and every use in it converts.
 * The others keep running through the `expressMiddleware` adapter. The moved routes' hook text is
 * updated in place (`expressMiddleware(requireToken)` → `requireToken`).
 */
export function nativeHooks(ctx: PlanContext, parsed: ParsedFiles, all: Route[], states: Map<string, RouteState>, replaced?: ReplacedSend): NativeHook[] {
  const byDefinition = new Map<string, Array<{ state: RouteState; index: number; text: string }>>();
  const moving = [...states.values()].filter((s) => !s.blockers.length);
  for (const s of moving) for (const m of s.middleware) {
    const key = `${m.definition.file}:${m.definition.line}:${m.definition.column}`;
    byDefinition.set(key, [...(byDefinition.get(key) ?? []), { state: s, index: m.index, text: m.text }]);
  }
  const out: NativeHook[] = [];
  for (const [key, uses] of byDefinition) {
    const def = uses[0].state.middleware.find((m) => m.index === uses[0].index)!.definition;
    const usedBy = all.filter((r) => r.chain.some((e) => e.definition && `${e.definition.file}:${e.definition.line}:${e.definition.column}` === key));
    if (usedBy.some((r) => !moving.some((s) => s.route.id === r.id))) continue;
    if (ctx.inventory.middleware.some((m) => m.definition && `${m.definition.file}:${m.definition.line}:${m.definition.column}` === key)) continue;
    const file = parsed(def.file);
    const fn = file ? functionAt(file.j, file.root, def, file.source) : null;
    if (!file || !fn || fn.node.params.length !== 3) continue;
    const placement = placementOf(file.j, file.root, fn);
    const registrations = moving.flatMap((s) => (s.statement ? [{ file: s.route.registration.file, range: [s.statement.statement.node.start, s.statement.statement.node.end] as [number, number] }] : []));
    const references = otherUses(ctx, { file: def.file, binding: placement.kind === 'nested' ? null : placement.name || null, form: placement.kind === 'exported' ? placement.form : null, range: [fn.node.start, fn.node.end] }, [registrations[0]]);
    const outside = references.filter((u) => !registrations.some((r) => r.file === u.file && inRouteStatement(ctx.inventory, u.file, u.line)));
    if (outside.length) continue;
    const options: HandlerOptions = { role: 'hook', ...jsonOptionsOf(ctx.inventory, uses[0].state.route), typescript: isTypeScript(def.file), scope: uses.some((u) => u.state.route.mountChain.length) ? 'router' : 'app', expressMajor: ctx.inventory.project.expressVersion.major === 5 ? 5 : 4, ...(replaced?.through.length ? { throughExpress: replaced.through } : {}), ...(replaced?.objectSends ? { jsonReplaced: replaced.objectSends } : {}) };
    const rewrite = planHandlerRewrite(file.j, fn, options);
    if (rewrite.refusals.length || rewrite.imports.length) continue;
    // Express 4 never read an async middleware's promise (through expressMiddleware it still does not); a native hook's rejection reaches the error handler.
    const rejects = !!fn.node.async && appliesToMajor('async-rejection', ctx.inventory.project.expressVersion.major);
    for (const u of uses) {
      const route = u.state.pluginRoute!;
      if ('hooks' in route) route.hooks[u.index] = u.text;
      if (rejects) u.state.deltas.push('async-rejection');
    }
    out.push({ file: def.file, fn, options, likeExpress: rewrite.likeExpress, appId: uses[0].state.route.appId });
  }
  return out;
}
