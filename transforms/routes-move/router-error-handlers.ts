/**
 * Step 3 of the routes plan: a router's own error middleware, which moves into the router's plugin
 * (as its `setErrorHandler`) when every route it covers moves.
 */
import type { ASTPath } from 'jscodeshift';
import { planHandlerRewrite, type HandlerOptions } from '../handler-rewrite/rewrite.js';
import { anchorOf } from '../lib/anchor.js';
import { functionAt, isTypeScript, startsAt, textOf, type Node } from '../lib/ast.js';
import { isOnFastify } from '../lib/assumed.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import type { Blocker, PlanContext } from '../model.js';
import type { PluginEntry } from './model.js';
import { jsonOptionsOf } from './read-route.js';
import type { RouteState } from './state.js';

/** One router error handler and its planned move, or why it cannot move. */
export interface RouterErrorHandler {
  id: string;
  ownerId: string;
  file: string;
  covers: string[];
  statement: ASTPath<Node>;
  handler: NonNullable<PluginEntry['errorHandler']>;
  /** A handler defined outside its registration: rewritten where it is. */
  rewrite?: { file: string; fn: ASTPath<Node>; options: HandlerOptions };
  /** Why it cannot move (then neither can the routes it covers). */
  blocker?: Blocker;
}

/**
 * The router-level error handlers of the candidate routes' routers, each with its move planned:
 * registered as `X.use(fn)` next to the routes, rewritten to `(error, request, reply)` with
 * `next(err)` → `reply.send(err)` (Fastify hands an error a child context's handler sends on to
 * the parent context's handler — the app's, moved by the errors stage).
 */
export function routerErrorHandlers(ctx: PlanContext, parsed: ParsedFiles, states: Map<string, RouteState>): RouterErrorHandler[] {
  const out: RouterErrorHandler[] = [];
  for (const h of ctx.inventory.errorHandlers) {
    if (isOnFastify(ctx, h) || h.scope !== 'router' || !h.covers.some((id) => states.has(id))) continue;
    const reg = parsed(h.registration.file);
    const statement = reg?.root.find(reg.j.ExpressionStatement).filter((p) => startsAt(p.node, h.registration, reg.source) || startsAt((p.node.expression as Node), h.registration, reg.source)).paths()[0];
    const call: Node = statement?.node.expression;
    const stay = (reason: string): RouterErrorHandler => ({ id: h.id, ownerId: h.ownerId, file: h.registration.file, covers: h.covers, statement: statement!, handler: { reference: '' }, blocker: { code: 'route-router-error-handler', reason } });
    if (!reg || !statement || call?.type !== 'CallExpression' || call.arguments.length !== 1 || call.callee.property?.name !== 'use') {
      out.push(stay(`its router's error handler ${h.name} is not registered as X.use(handler) in a statement of its own`));
      continue;
    }
    // A router's chain (routerLog → routerSend): the plugin has one error handler, and moving the first alone would hand its next(err) past the others to the app's.
    const chain = ctx.inventory.errorHandlers.filter((o) => o.ownerId === h.ownerId && o.fullPath === h.fullPath && !isOnFastify(ctx, o));
    if (chain.length > 1) {
      out.push(stay(`its router has ${chain.length} error handlers run in turn (${chain.map((o) => o.name).join(' → ')}); its plugin has one error handler, so merge them into one by hand`));
      continue;
    }
    // Its router's (or sub-app's) own middleware before it hands it errors for any request that enters the router, also those no route
    // of it answers; moved into the plugin, it would see only the errors of the moved routes (the others would reach the app's handler).
    // Middleware that passes errors: a package's, or the app's own that calls next(err) or hands next on (not one that only answers or calls next()).
    const middleware = ctx.inventory.middleware.filter((m) => !isOnFastify(ctx, m) && m.ownerId === h.ownerId && m.order < h.order && (m.origin !== 'local' || m.usage.next.some((u) => u.api === 'next(err)') || !!m.usage.calls?.length));
    if (middleware.length) {
      out.push(stay(`its router's error handler${h.name === '<anonymous>' ? '' : ` ${h.name}`} also answers the errors of the router's own middleware (${middleware.map((m) => (m.name === '<anonymous>' ? 'an anonymous function' : m.name)).join(', ')}) for requests no route of the router answers; moved into the router's plugin it would no longer see them`));
      continue;
    }
    if (h.conditions?.length || statement.parent.node.type !== 'Program') {
      out.push(stay(`its router's error handler ${h.name} is registered under a condition or inside a function`));
      continue;
    }
    const arg = statement.get('expression', 'arguments', 0);
    const inline = /Function/.test(arg.node.type);
    const def = inline ? { j: reg.j, root: reg.root, source: reg.source, file: h.registration.file } : h.definition && parsed(h.definition.file) ? { ...parsed(h.definition.file)!, file: h.definition.file } : null;
    const fn = inline ? arg : def && h.definition ? functionAt(def.j, def.root, h.definition, def.source) : null;
    if (!def || !fn) {
      out.push(stay(`its router's error handler ${h.name} was not found`));
      continue;
    }
    const covered = ctx.inventory.routes.find((r) => h.covers.includes(r.id));
    const options: HandlerOptions = { role: 'error', nextToDefault: true, ...(covered ? jsonOptionsOf(ctx.inventory, covered) : { jsonSettings: false }), typescript: isTypeScript(def.file) };
    const rewrite = planHandlerRewrite(def.j, fn, options);
    if (rewrite.refusals.length) {
      out.push(stay(`its router's error handler ${h.name} ${rewrite.refusals.join('; ')}`));
      continue;
    }
    out.push({ id: h.id, ownerId: h.ownerId, file: h.registration.file, covers: h.covers, statement, handler: inline ? { inline: anchorOf(fn), options } : { reference: textOf(arg.node) ?? h.name }, ...(inline ? {} : { rewrite: { file: def.file, fn, options } }) });
  }
  return out;
}
