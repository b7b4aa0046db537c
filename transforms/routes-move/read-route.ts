/**
 * Step 2 of the routes plan: everything about one route that does not depend on the other routes —
 * its registration statement as written (lib/route-statement.ts), what the inventory and findings
 * say against it (route-blockers.ts), whether its handler rewrites completely to `(request, reply)`
 * (handler-rewrite/, role `route`, with the helpers it hands `req` to), its hooks, and the Fastify
 * route it becomes.
 */
import { appliesToMajor } from '../../rules/catalogue/framework-defaults.js';
import type { ASTPath } from 'jscodeshift';
import type { App, Inventory, Route } from '../../analyzer/model.js';
import { jsonOptions } from '../handler-rewrite/json-settings.js';
import type { HandlerOptions, HandlerRewrite } from '../handler-rewrite/rewrite.js';
import { anchorOf } from '../lib/anchor.js';
import { functionAt, isTypeScript, textOf, type Node } from '../lib/ast.js';
import { memberOf, placementOf } from '../lib/exports.js';
import { moduleSystemOfFile } from '../lib/module-system.js';
import type { ParsedFile, ParsedFiles } from '../lib/parsed-files.js';
import { otherMemberUses, otherUses, type RegistrationSite } from '../lib/references.js';
import { inRouteStatement, routeStatementOf, usesOnlyModuleScope } from '../lib/route-statement.js';
import { memoOn } from '../lib/memo.js';
import { detectStyle, stringLiteral } from '../lib/style.js';
import type { Blocker, PlanContext } from '../model.js';
import type { GeneratedModule } from '../server-module/locate.js';
import { withHelpers } from './handler-helpers.js';
import { methodOverrideRefusedFor } from './method-override.js';
import { requestHandOffsIn } from './request-hand-offs.js';
import { hookSources } from './hook-sources.js';
import type { PluginRoute } from './model.js';
import { fastifyPaths, strictRouting } from './paths.js';
import { arrayChain } from './chains.js';
import { handOverOf } from './hand-over.js';
import { inventoryBlockers, laterMiddleware, ownChain } from './route-blockers.js';
import { adaptedPackageHandler, fallThroughBlocker } from './package-handler.js';
import { NOT_FOUND_AFTER_NEXT } from '../server-module/hooks-template.js';
import { loopHandOver, tableMiddleware, tableStatementOf, type TableStatement } from './route-table.js';
import { nestedOf, registrarOf } from './registrars.js';
import { startFileRefusal } from './start-file.js';
import { renderReplacedAt, rendersLikeExpress } from './replaced-render.js';
import type { ReplacedSend } from './replaced-send.js';
import { runsAsGenerator, unwrapHandler } from './unwrap.js';
import { collect, newState, type RouteState } from './state.js';
import type { ViewsOf } from './views.js';

/** What reading a route needs besides the route: the parsed files, the app's server module, its views, and the files that start an app. */
export interface ReadInput {
  parsed: ParsedFiles;
  target: GeneratedModule;
  /** The Express apps `target` serves (server-module/locate.ts appsPerModule). */
  servesApps: App[];
  views: ViewsOf;
  /** Whether a file starts the app (it imports the generated server module, or will once the shim ran: server-module/locate.ts startsApp): its plugin is handed to buildFastify there. */
  startsApp: (file: string) => boolean;
  /** The app's replacements of res.send / res.json (replaced-send.ts): the calls that go through Express's own, and what they hold back. */
  replaced: ReplacedSend;
  /** Ids of the routes that take a hand-over because a later Express route that stays held them back (plan.ts, hand-over.ts). */
  handOvers?: Set<string>;
}

/** The state of `route` after reading it: its blockers, or (nothing blocking) the Fastify route it becomes. */
export function readRoute(ctx: PlanContext, route: Route, input: ReadInput): RouteState {
  const { parsed, target, views } = input;
  const state = newState(route, isTypeScript(route.registration.file) || isTypeScript(route.handler.definition?.file ?? ''));
  const block = (b: Blocker) => void state.blockers.push(b);
  const reg = parsed(route.registration.file);
  if (!reg) return block({ code: 'route-parse', reason: `${route.registration.file} could not be parsed` }), state;
  // A loop over a route table is the statement that moves (route-table.ts); otherwise the registration itself.
  const inLoop = tableStatementOf(reg.j, reg.root, reg.source, route);
  // A loop that stays hands its routes over from its end (route-table.ts LoopStays): the registration moves as one of its own.
  const stays = inLoop && 'stays' in inLoop ? inLoop.stays : null;
  const statement = (inLoop && !('stays' in inLoop) ? inLoop : null) ?? routeStatementOf(reg.j, reg.root, reg.source, route);
  if ('refuse' in statement) {
    // Its TODO still goes above the statement, when there is one.
    if (statement.statement) state.todoAt = { anchor: anchorOf(statement.statement), key: `${route.registration.file}:${statement.statement.node.loc?.start.line}` };
    return block({ code: inLoop && !stays ? 'route-table-form' : 'route-registration-shape', reason: statement.refuse }), state;
  }
  state.statement = statement;
  state.statementKey = `${route.registration.file}:${statement.lines[0]}`;
  const renderLike = rendersLikeExpress({ route: state.typescript, server: target.typescript }) && renderReplacedAt(ctx.inventory).length > 0;
  state.blockers.push(...inventoryBlockers(ctx, route, statement.lines, renderLike, input.replaced.skipped));
  // Express layers registered after it: its registration stays as a hand-over (hand-over.ts).
  const table = 'table' in statement ? (statement as TableStatement) : null;
  const handOver = handOverOf(ctx, route, statement.lines, target, parsed, input.handOvers);
  if (typeof handOver === 'object') block(handOver);
  // A table's loop moves whole: it has no single registration to leave in Express as a hand-over.
  else if (handOver && table) block({ code: 'route-table-form', reason: 'Express layers registered after its table may run for its URLs, and a hand-over is made for a registration of its own, not for a loop over a table' });
  else state.handOver = handOver;
  // The app's method-override is applied in the generated listener (method-override.ts): the module must have the shim's listener and bridge.
  const overrideRefused = methodOverrideRefusedFor(ctx, route, target, parsed);
  if (overrideRefused) block({ code: 'route-finding', reason: overrideRefused });
  const registration = table ? table.methods[0] : statement.methods.find((m) => m.method === route.method);
  if (!registration) return block({ code: 'route-registration-shape', reason: `no .${route.method.toLowerCase()}(…) was found in its registration` }), state;
  const topLevel = table ? table.statement.parent.node.type === 'Program' : (route.statement?.topLevel ?? statement.statement.parent.node.type === 'Program');
  // The receiver (`app` of `module.exports = (app) => { app.get(…) }`) does not move: the plugin's `fastify` takes its place.
  const receivers = table ? [table.table.call.node.callee.object] : reg.j(statement.statement).find(reg.j.Identifier, { name: statement.receiver }).nodes().filter((n) => n.loc?.start.line === statement.lines[0] || n === statement.statement.node.expression?.callee?.object);
  // A registrar that reads its own variables moves whole; its calls go into the plugins (registrars.ts).
  // One that cannot moves its registrations that read only the module into a plugin at the top of it, as before.
  // Else its registrations on the app that read its variables go into a plugin it hands over when it runs.
  const registrar = topLevel || stays ? null : registrarOf(ctx, route, parsed, statement);
  if (stays) {
    const loopStays = loopHandOver(ctx, route, stays, statement);
    if ('refuse' in loopStays) block({ code: 'route-table-form', reason: loopStays.refuse });
    else state.nested = loopStays;
  } else if (registrar && !('refuse' in registrar)) state.registrar = registrar;
  else if (!topLevel && !usesOnlyModuleScope(reg.j, statement.statement, receivers)) {
    const nested = registrar ? nestedOf(route, parsed, statement) : null;
    if (nested && !('refuse' in nested)) state.nested = nested;
    else block(registrar ? { code: 'route-registrar', reason: `${registrar.refuse}${nested ? `; and ${nested.refuse}` : ''}` } : { code: 'route-registration-scope', reason: "it is registered inside a function and uses that function's variables, so it cannot move into a plugin at the top of its module" });
  }
  // The plugin lives next to the registration (or the registrar's call) and the generated module
  // imports it; the file that starts the app hands its plugin to buildFastify instead (start-file.ts).
  const home = state.registrar?.call.file ?? route.registration.file;
  const homeFile = parsed(home)!;
  const startFile = input.startsApp(home) ? startFileRefusal(ctx, { ...route, registration: { ...route.registration, file: home } }, homeFile) : null;
  if (startFile) block({ code: 'route-start-file', reason: startFile });
  // A route registered in a buildFastify several apps share would answer for all of them (the errors stage's shared-generated-module).
  if (input.servesApps.length > 1) block({ code: 'route-shared-module', reason: `the generated module ${target.file} builds the Fastify server of ${input.servesApps.length} apps (${input.servesApps.map((a) => a.name).join(', ')}), so a route registered there would answer for all of them; give each app a module of its own` });
  if (target.module === 'commonjs' && moduleSystemOfFile(ctx.inventory, home, homeFile.source) === 'esm') block({ code: 'route-module-system', reason: `${home} is an ES module and the generated module (${target.file}) is CommonJS` });

  // Wrappers that only forward rejections to next go (unwrap.ts); the handler is what they wrap.
  const wrapped = table ? null : unwrapHandler(state, parsed, { file: reg, handler: registration.handler, lines: statement.lines }, block);
  // Express 4 never read the promise of an async handler, or of a generator co.wrap runs; a wrapper that went handed its rejection to next already.
  if (appliesToMajor('async-rejection', ctx.inventory.project.expressVersion.major) && (route.handler.async || runsAsGenerator(route.handler)) && !state.unwraps.length) state.deltas.push('async-rejection');
  const options: HandlerOptions = {
    role: 'route',
    nextToDefault: false,
    ...jsonOptionsOf(ctx.inventory, route),
    typescript: false,
    scope: route.mountChain.length ? 'router' : 'app',
    ...(route.path.params.length ? { routeParams: true } : {}),
    expressMajor: ctx.inventory.project.expressVersion.major === 5 ? 5 : 4,
    views: views(route).option,
    ...(renderLike ? { renderReplaced: true } : {}),
    ...(input.replaced.through.length ? { throughExpress: input.replaced.through } : {}),
    ...(input.replaced.objectSends ? { jsonReplaced: input.replaced.objectSends } : {}),
    ...(state.unwraps.length ? { resultAwaited: true } : {}),
    ...(runsAsGenerator(route.handler) ? { generatorAwaited: true } : {}),
  };
  const style = memoOn(reg.root.paths()[0].node, 'style', () => detectStyle(reg.source, route.registration.file));
  if (table) {
    const middleware = tableMiddleware(route, table);
    if ('refuse' in middleware) block({ code: 'route-table-form', reason: middleware.refuse });
    // Each element's handler is rewritten where it is written (in the table, or inline in the loop, which moves whole).
    const handler = referencedHandler(ctx, state, parsed, registration.handler.node, options, block, null, table.table.range ? [{ file: route.registration.file, range: table.table.range }] : []);
    if (handler && !state.blockers.length && 'form' in middleware) state.pluginRoute = { loop: anchorOf(table.statement), call: anchorOf(table.table.call), form: middleware.form, comments: leadingComments(table.statement.node) };
    return state;
  }
  // Functions given in arrays go to expressChain with the handler (chains.ts); the others become hooks one by one.
  const chain = arrayChain(ownChain(route, statement.lines).middleware, route.handler, registration);
  if (chain && 'refuse' in chain) block({ code: 'route-middleware-array', reason: chain.refuse });
  // A registrar rewritten where it is registers each route once, with hooks of its own: not with expressChain, nor with a hand-over left in Express.
  if (state.registrar && (chain || state.handOver)) block({ code: 'route-registrar', reason: `its registrar (${state.registrar.file}) moves whole, and ${chain ? 'functions given in arrays' : 'a hand-over for Express layers registered after it'} cannot go with it yet` });
  const hooks = hookSources(ctx, route, statement, chain ? null : registration.middleware, parsed, style, block, state);
  // A package's function the adapter cannot run stays for route-handler-package (route-blockers.ts): nothing of the project's to find or rewrite.
  const handler = adaptedPackageHandler(route)
    ? packageHandler(ctx, state, wrapped!.handler.node, hooks, !!chain, block)
    : route.handler.origin === 'package'
      ? null
      : /Function/.test(wrapped!.handler.node.type)
        ? inlineHandler(ctx, state, reg, wrapped!.handler, options, block)
        : referencedHandler(ctx, state, parsed, wrapped!.handler.node, options, block, wrapped!.holder);
  if (handler && !state.blockers.length) {
    const forms = fastifyPaths(route, strictRouting(ctx.inventory, route));
    const paths = 'paths' in forms && route.path.syntax !== 'plain' ? forms.paths.map((p) => stringLiteral(p, style)) : [textOf(statement.path) ?? ''];
    // Express 5's wildcard array, before any middleware sees req.params (as Express's matching did).
    if ('wildcard' in forms && forms.wildcard) hooks.unshift(`expressWildcard(${stringLiteral(forms.wildcard, style)})`);
    // Express 4's wildcard and optional parameters: req.params as Express 4 filled it (fastify-like-express module).
    if ('express4' in forms && forms.express4?.wildcard) hooks.unshift('wildcardLikeExpress');
    if ('express4' in forms && forms.express4?.params) hooks.unshift(`paramsLikeExpress([${forms.express4.params.map((p) => stringLiteral(p, style)).join(', ')}])`);
    const first = statement.methods[0].method === route.method;
    state.pluginRoute = { method: route.method, paths, hooks, handler, comments: first ? leadingComments(statement.statement.node) : [], ...(chain && !('refuse' in chain) ? { chain } : {}) };
  }
  return state;
}

/**
 * A package's Express function as the handler (`passport.authenticate('github')`, package-handler.ts):
 * it becomes the route's last preHandler hook, through the expressMiddleware adapter, and the
 * handler is the hooks module's notFoundAfterNext — what Express reached when it called next(). Not
 * with functions given in arrays (expressChain takes the last as the handler) nor in a registrar
 * that moves whole (its registrations import only the hooks).
 */
function packageHandler(ctx: PlanContext, state: RouteState, node: Node, hooks: string[], chain: boolean, block: (b: Blocker) => void): PluginRoute['handler'] | null {
  const route = state.route;
  const text = textOf(node);
  if (!text || chain || state.registrar) {
    const form = !text ? 'its registration' : chain ? 'functions given in arrays' : 'a registrar that moves whole';
    return block({ code: 'route-handler-package', reason: `its handler ${route.handler.name} comes from the package ${route.handler.package} and works on Express's req/res; it runs through the expressMiddleware adapter, but not after ${form}` }), null;
  }
  const blocker = fallThroughBlocker(ctx, route, !!state.handOver, laterMiddleware(ctx, route));
  if (blocker) return block(blocker), null;
  hooks.push(`expressMiddleware(${text})`);
  return { reference: NOT_FOUND_AFTER_NEXT };
}

/** A handler written in the registration (`router.get('/', (req, res) => …)`): rewritten where it is, then moved into the plugin. */
function inlineHandler(ctx: PlanContext, state: RouteState, reg: ParsedFile, handler: ASTPath<Node>, options: HandlerOptions, block: (b: Blocker) => void): PluginRoute['handler'] {
  const file = state.route.registration.file;
  const own = { ...options, typescript: isTypeScript(file), ...requestHandOffsIn(ctx, state.route, file) };
  const { rewrite, helpers } = withHelpers(ctx, state, file, reg, handler, own);
  handlerBlockers(rewrite).forEach(block);
  collect(state, rewrite);
  state.handlerRange = { file, range: [handler.node.start, handler.node.end] };
  return { inline: anchorOf(handler), options: own, ...(helpers.length ? { helpers } : {}) };
}

/**
 * A handler defined elsewhere (`router.get('/', notes.list)`): rewritten where it is defined,
 * referred to from the plugin; null when it was not found. `holder`: the call of a wrapper that
 * goes (`catchAsync(…)` around it where it is defined), which stands where the handler stands;
 * `tables`: the route tables that name it (route-table.ts), whose uses of it move with it.
 */
function referencedHandler(ctx: PlanContext, state: RouteState, parsed: ParsedFiles, node: Node, options: HandlerOptions, block: (b: Blocker) => void, holder: ASTPath<Node> | null, tables: RegistrationSite[] = []): PluginRoute['handler'] | null {
  const route = state.route;
  const text = textOf(node);
  const def = route.handler.definition;
  const defFile = def ? parsed(def.file) : null;
  const fn = def && defFile ? functionAt(defFile.j, defFile.root, def, defFile.source) : null;
  if (!text || !def || !defFile || !fn) return block({ code: 'route-handler-unknown', reason: 'its handler function was not found where the analysis put it' }), null;
  // `users.list.bind(users)`: `this` stays the controller on Fastify.
  const bound = node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && !node.callee.computed && node.callee.property.name === 'bind' && node.arguments.length === 1;
  const own = { ...options, typescript: isTypeScript(def.file), ...(bound ? { boundThis: true } : {}), ...requestHandOffsIn(ctx, route, def.file) };
  const { rewrite, helpers } = withHelpers(ctx, state, def.file, defFile, fn, own);
  handlerBlockers(rewrite).forEach(block);
  collect(state, rewrite);
  state.handlerKey = `${def.file}:${def.line}:${def.column}`;
  state.rewrite = { file: def.file, fn, options: own, helpers };
  state.handlerRange = { file: def.file, range: [fn.node.start, fn.node.end] };
  // A wrapper that goes stands where the handler stands; the last function of a controller's array: the array is what the registration and any other use refer to.
  const held = holder ?? (route.handler.slot?.element && fn.parent.node.type === 'ArrayExpression' ? fn.parent : fn);
  const placement = placementOf(defFile.j, defFile.root, held);
  const statement = state.statement!.statement.node;
  const registrations = [{ file: route.registration.file, range: [statement.start, statement.end] as [number, number] }, ...tables];
  // A controller's method (an object's or a class's): its other uses are those of the member.
  const member = placement.kind === 'nested' ? memberOf(held) : null;
  const uses = member
    ? otherMemberUses(ctx, { file: def.file, ...member, range: [held.node.start, held.node.end] }, registrations)
    : otherUses(ctx, { file: def.file, binding: placement.kind === 'nested' ? null : placement.name || null, form: placement.kind === 'exported' ? placement.form : null, range: [held.node.start, held.node.end] }, registrations);
  const outside = uses.filter((u) => !(u.file === route.registration.file && inRouteStatement(ctx.inventory, u.file, u.line)));
  if (outside.length) block({ code: 'route-handler-shared', reason: 'its handler is also used outside route registrations, and that use still expects the Express signature', where: outside.map((u) => `${u.file}:${u.line}`) });
  return { reference: text };
}

/**
 * The comments above a statement, and one after it on its last line (`app.head(url, h); // for
 * proxies`, which goes above the route), as source lines; the TODO(migrate) notes of a former run
 * left out (the route moves, the note goes).
 */
function leadingComments(node: Node): string[] {
  return ((node.comments ?? []) as Node[])
    .filter((c) => (c.leading || (c.trailing && c.type === 'CommentLine' && c.loc?.start.line === node.loc?.end.line)) && !String(c.value).includes('TODO(migrate)'))
    .flatMap((c) => (c.type === 'CommentLine' ? [`//${c.value}`] : `/*${c.value}*/`.split('\n').map((l) => l.trim().replace(/^\*/, ' *'))));
}

/** The handler's refusals as one blocker, which waits for the plugins stage when every refusal is one its plugins lift. */
function handlerBlockers(rewrite: HandlerRewrite): Blocker[] {
  if (!rewrite.refusals.length) return [];
  const reason = `its handler ${rewrite.refusals.join('; ')}`.replace(/its handler it /, 'its handler ');
  return [{ code: rewrite.waitsFor === 'plugins' ? 'route-handler-plugin-api' : 'route-handler-api', reason }];
}

/** The JSON print settings of the route's app, its router and the routers and sub-apps above it (handler-rewrite/json-settings.ts). */
export function jsonOptionsOf(inventory: Inventory, route: Route): Pick<HandlerOptions, 'jsonSettings' | 'jsonSpaces'> {
  // The app, the route's router and every router or sub-app it is mounted under (a sub-app's settings reach its routers).
  const owners = new Set([
    route.appId,
    route.ownerId,
    ...route.mountChain.flatMap((m) => {
      const mount = inventory.mounts.find((x) => x.id === m.mountId);
      return mount ? [mount.parent, mount.child] : [];
    }),
  ]);
  return jsonOptions(inventory, route.appId, owners);
}
