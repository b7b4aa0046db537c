/**
 * A moved route's own middleware and param callbacks as the source of its preHandler hooks, in
 * Express's order (param callbacks first): `expressParam('id', loadItem)`, `expressMiddleware(auth)`
 * (the adapters of the hooks module), or why one cannot be a hook.
 */
import type { Route } from '../../analyzer/model.js';
import { prefixCovers } from '../../analyzer/path.js';
import { anchorOf } from '../lib/anchor.js';
import { startsAt, textOf, type Node } from '../lib/ast.js';
import { isOnFastify } from '../lib/assumed.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import type { RouteStatement } from '../lib/route-statement.js';
import { stringLiteral, type CodeStyle } from '../lib/style.js';
import type { Blocker, PlanContext } from '../model.js';
import { ownChain } from './route-blockers.js';
import type { RouteState } from './state.js';

/**
 * The hook sources of `route` (its registration `statement`, `middleware` the arguments before its
 * handler, null when they go to `expressChain` with the handler: chains.ts), string literals in
 * `style`; what cannot be a hook goes to `block`, callbacks to name to `state.nameCallbacks`, local
 * middleware that may become a native hook to `state.middleware`.
 */
export function hookSources(ctx: PlanContext, route: Route, statement: RouteStatement, middleware: Node[] | null, parsed: ParsedFiles, style: CodeStyle, block: (b: Blocker) => void, state: RouteState): string[] {
  const hooks: string[] = [];
  const own = ownChain(route, statement.lines);
  const ownParams = new Set(route.path.params.filter((p) => !p.fromMount).map((p) => p.name));
  for (const entry of own.params) {
    const file = parsed(entry.registration.file);
    const call = file ? file.root.find(file.j.CallExpression).filter((p) => startsAt(p.node, entry.registration, file.source) && (p.node.callee as Node).property?.name === 'param').paths()[0] : undefined;
    const [name, fn] = call ? (call.node.arguments as Node[]) : [];
    if (!call || name?.type !== 'StringLiteral' || !fn) {
      block({ code: 'route-param-shape', reason: `its param callback ${entry.name} is not registered as X.param('name', fn)` });
      continue;
    }
    if (!ownParams.has(name.value)) continue; // a mount path's parameter: the parent router still runs it in the bridge
    // A path middleware of the same router with that parameter (`router.use('/:id', …)`) makes Express run it in the bridge already.
    if (ctx.inventory.middleware.some((m) => !isOnFastify(ctx, m) && m.ownerId === route.ownerId && m.path.includes(`:${name.value}`) && prefixCovers(m.fullPath, route.path.full))) continue;
    if (entry.registration.file !== route.registration.file) {
      block({ code: 'route-param-elsewhere', reason: `its param callback for :${name.value} is registered in ${entry.registration.file}, not next to the route` });
      continue;
    }
    // A callback written inline in router.param(…) gets a name where it is, so each route's hook can refer to it.
    const named = fn.type === 'Identifier' || fn.type === 'MemberExpression' ? textOf(fn) : `${name.value.replace(/[^\w$]/g, '_')}Param`;
    if (!(fn.type === 'Identifier' || fn.type === 'MemberExpression')) state.nameCallbacks.push({ statement: anchorOf(call.parent), name: named! });
    hooks.push(`expressParam(${stringLiteral(name.value, style)}, ${named})`);
  }
  if (!middleware) return hooks;
  if (own.middleware.length !== middleware.length) block({ code: 'route-middleware-unmatched', reason: `the analysis lists ${own.middleware.length} middleware for it where its registration has ${middleware.length} functions before the handler` });
  const entries = own.middleware.length === middleware.length ? own.middleware : [];
  middleware.forEach((node, i) => {
    if (node.type === 'ArrayExpression') {
      block({ code: 'route-middleware-array', reason: 'its middleware is given as an array; list it as separate arguments' });
      return;
    }
    const entry = entries[i];
    // A local function named at the registration may become a native hook (decided once every route settled);
    // not one inside a wrapper (`catchAsync(async (req, res, next) => …)`), which would still call it with (req, res, next).
    if (entry?.origin === 'local' && entry.definition && !entry.wrappers?.length && node.type === 'Identifier') state.middleware.push({ index: hooks.length, text: node.name, definition: entry.definition });
    hooks.push(`expressMiddleware(${textOf(node)})`);
  });
  return hooks;
}
