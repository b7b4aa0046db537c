/**
 * Plans the `routes` stage: which Express routes move to Fastify now, and what each file gets.
 * A route moves when the inventory shows nothing against it (candidates.ts), its registration is a
 * statement the codemod can read (registration.ts), its handler rewrites completely to
 * `(request, reply)` (transforms/handler-rewrite/rewrite.ts, role 'route'), and everything
 * that shares something with it moves too: the other routes of its statement, the other routes of
 * its handler, the other mounts of its router, and routes it overlaps (Express picks by order,
 * Fastify by specificity). The rest stays on Express behind the shim, with its reason: a DeferredItem
 * when the plugins stage takes it (render, cookies, multer, passport), else a ManualItem and a
 * `TODO(migrate)` above its registration.
 */
import path from 'node:path';
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { joinPaths, prefixCovers } from '../../analyzer/path.js';
import type { Inventory, Route } from '../../analyzer/model.js';
import { StepRefusal, type DeferredItem, type FilePlan, type FrameworkDelta, type ManualItem, type PlanContext, type StepPlan } from '../model.js';
import { generatedModuleFor, hooksModuleFile, type GeneratedModule } from '../server-module/locate.js';
import { planHandlerRewrite, type HandlerOptions, type HandlerRewrite } from '../handler-rewrite/rewrite.js';
import { functionAt, isTypeScript, parseOrNull, startsAt, textOf, type Node } from '../lib/ast.js';
import type { Blocker } from '../handler-move/plan.js';
import { otherUses } from '../lib/references.js';
import { placementOf } from '../lib/exports.js';
import { importSpecifier, moduleSystemOfFile } from '../lib/module-system.js';
import { anchorOf } from '../lib/anchor.js';
import { fastifyAgrees, inventoryBlockers, overlaps, ownChain, sameMethod } from './candidates.js';
import { detectStyle } from '../lib/style.js';
import { fastifyPaths } from './paths.js';
import { jsonOptions } from '../handler-rewrite/json-settings.js';
import { viewRegistration, type ViewRegistration } from '../plugin-registrations/view.js';
import { isVersioned, versionOf } from '../../rules/catalogue/versions.js';
import type { PluginEntry, PluginRoute, RoutesEntry } from './model.js';
import { routeStatementAt, usesOnlyModuleScope, type RouteStatement } from '../lib/route-statement.js';

/** What the plan knows of one route. */
interface RouteState {
  route: Route;
  blockers: Blocker[];
  /** Registration statement key (`file:firstLine`), when found. */
  statementKey?: string;
  statement?: RouteStatement;
  /** Handler definition key (`file:line:column`) for handlers defined outside the registration. */
  handlerKey?: string;
  pluginRoute?: PluginRoute;
  /** The rewrite of a handler defined elsewhere (`helpers`: the helpers it may hand `request` to). */
  rewrite?: { file: string; fn: ASTPath<Node>; options: HandlerOptions; helpers: string[] };
  deltas: string[];
  imports: Array<{ local: string; from: string }>;
  /** Where the handler function is (file and source range), to tell which helper calls move with it. */
  handlerRange?: { file: string; range: [number, number] };
  /** Helper functions that take `req` from the handler, rewritten with it (role `helper`). */
  helpers: Array<{ file: string; fn: ASTPath<Node>; options: HandlerOptions; names: string[]; references: number[] }>;
  /** Fastify plugins the rewritten handler needs in its context (`@fastify/view`). */
  plugins: string[];
  /** Local route middleware referenced by name: candidates for a native Fastify hook (`index` in the hooks). */
  middleware: Array<{ index: number; text: string; definition: { file: string; line: number; column: number } }>;
  /** Where the TODO of a route that stays goes when its statement could not be read as a registration. */
  todoAt?: { anchor: ReturnType<typeof anchorOf>; key: string };
  /** Inline param callbacks to name where they are registered (`router.param('id', (…) => …)`). */
  nameCallbacks: Array<{ statement: ReturnType<typeof anchorOf>; name: string }>;
  /** Whether a file the move rewrites is TypeScript (its imports need types). */
  typescript: boolean;
  adapters: string[];
}

/** `migrate run --stage routes --only <router file | "METHOD /full/path">`: which routes the run may move. */
export function selectedByOnly(route: Route, only: string | undefined, root = ''): boolean {
  if (!only) return true;
  if (/^[A-Za-z]+\s+\//.test(only)) {
    const [method, ...rest] = only.trim().split(/\s+/);
    return route.method === method.toUpperCase() && route.path.full === rest.join(' ');
  }
  const file = path.isAbsolute(only) ? path.relative(root, only) : only;
  return route.registration.file === path.posix.normalize(file.replace(/\\/g, '/').replace(/^\.\//, ''));
}

/**
 * The plan of the `routes-move` step.
 * @throws StepRefusal 'shim-missing' when no generated module serves any Express app; 'only-none'
 *   when `--only` names no Express route of the project
 */
export function plan(ctx: PlanContext): StepPlan<RoutesEntry> {
  const inventory = ctx.inventory;
  const apps = inventory.apps.filter((a) => a.framework !== 'fastify');
  const modules = new Map(apps.map((a) => [a.id, generatedModuleFor(ctx, a)]));
  if (apps.length && [...modules.values()].every((m) => m === null)) throw new StepRefusal('shim-missing', 'the routes stage moves routes into the Fastify server that the shim stage generates (fastify-server.*), and none serves the app: run `migrate run --stage shim` and `--stage errors` first');
  const expressRoutes = inventory.routes.filter((r) => r.framework !== 'fastify' && modules.get(r.appId));
  const candidates = expressRoutes.filter((r) => selectedByOnly(r, ctx.only, ctx.root));
  if (ctx.only && !inventory.routes.some((r) => selectedByOnly(r, ctx.only, ctx.root))) throw new StepRefusal('only-none', `--only ${ctx.only} names no Express route: give a router file (as \`migrate analyze\` prints it) or a route key such as "GET /api/notes/:id"`);

  const parsed = parsedFiles(ctx);
  const views = viewsPerApp(ctx, modules, parsed);
  const states = new Map(candidates.map((r) => [r.id, analyse(ctx, r, parsed, modules.get(r.appId)!, views)]));
  const handlers = routerErrorHandlers(ctx, parsed, states);
  settle(expressRoutes, states, handlers, inventory.routes.filter((r) => r.framework === 'fastify'));
  const hooks = nativeHooks(ctx, parsed, expressRoutes, states);
  return assemble(ctx, modules, states, parsed, handlers, hooks, views);
}

type Parsed = (file: string) => { j: JSCodeshift; root: Collection; source: string } | null;

function parsedFiles(ctx: PlanContext): Parsed {
  const cache = new Map<string, ReturnType<Parsed>>();
  return (file) => {
    if (!cache.has(file)) {
      const source = ctx.readFile(file);
      const p = source === null ? null : parseOrNull(file, source);
      cache.set(file, p && source !== null ? { ...p, source } : null);
    }
    return cache.get(file)!;
  };
}

/** Everything about one route that does not depend on the other routes. */
/**
 * @fastify/view for each Express app, as plugin-registrations/view.ts gives it (null: it refuses, with the
 * reason) — computed once per app; a moved route that renders needs it.
 */
function viewsPerApp(ctx: PlanContext, modules: Map<string, GeneratedModule | null>, parsed: Parsed): (route: Route) => { registration: ViewRegistration; option: true | string } {
  const cache = new Map<string, ViewRegistration>();
  return (route) => {
    const target = modules.get(route.appId)!;
    if (!cache.has(route.appId)) {
      const server = parsed(target.file);
      const taken = new Set<string>();
      server?.root.find(server.j.Identifier).forEach((p) => void taken.add(p.node.name));
      cache.set(route.appId, viewRegistration({ appId: route.appId, inventory: ctx.inventory, server: { typescript: target.typescript }, taken }));
    }
    const registration = cache.get(route.appId)!;
    const subApp = ctx.inventory.routers.some((r) => r.kind !== 'router' && (r.id === route.ownerId || route.mountChain.some((m) => ctx.inventory.mounts.find((x) => x.id === m.mountId)?.child === r.id)));
    const option = subApp ? 'renders in a sub-app, with its own locals and settings' : 'refuse' in registration ? registration.refuse : true;
    return { registration, option };
  };
}

function analyse(ctx: PlanContext, route: Route, parsed: Parsed, target: GeneratedModule, views: ReturnType<typeof viewsPerApp>): RouteState {
  const state: RouteState = { route, blockers: [], deltas: [], imports: [], adapters: [], plugins: [], helpers: [], middleware: [], nameCallbacks: [], typescript: isTypeScript(route.registration.file) || isTypeScript(route.handler.definition?.file ?? '') };
  const block = (b: Blocker) => void state.blockers.push(b);
  const reg = parsed(route.registration.file);
  if (!reg) return block({ code: 'route-parse', reason: `${route.registration.file} could not be parsed` }), state;
  const statement = routeStatementAt(reg.j, reg.root, route.registration);
  if ('refuse' in statement) {
    // Its TODO still goes above the statement, when there is one.
    if (statement.statement) state.todoAt = { anchor: anchorOf(statement.statement), key: `${route.registration.file}:${statement.statement.node.loc?.start.line}` };
    return block({ code: 'route-registration-shape', reason: statement.refuse }), state;
  }
  state.statement = statement;
  state.statementKey = `${route.registration.file}:${statement.lines[0]}`;
  state.blockers.push(...inventoryBlockers(ctx.inventory, route, statement.lines));
  const registration = statement.methods.find((m) => m.method === route.method);
  if (!registration) return block({ code: 'route-registration-shape', reason: `no .${route.method.toLowerCase()}(…) was found in its registration` }), state;
  const topLevel = statement.statement.parent.node.type === 'Program';
  // The receiver (`app` of `module.exports = (app) => { app.get(…) }`) does not move: the plugin's `fastify` takes its place.
  const receivers = reg.j(statement.statement).find(reg.j.Identifier, { name: statement.receiver }).nodes().filter((n) => n.loc?.start.line === statement.lines[0] || n === statement.statement.node.expression?.callee?.object);
  if (!topLevel && !usesOnlyModuleScope(reg.j, statement.statement, receivers)) block({ code: 'route-registration-scope', reason: 'it is registered inside a function and uses that function\'s variables, so it cannot move into a plugin at the top of its module' });
  // The plugin lives next to the registration and the generated module imports it: from the file that
  // starts the app (which imports the generated module) that is a cycle — CommonJS hands out a half-built
  // module, and the route parity check cannot follow it.
  const stem = path.posix.basename(target.file).replace(/\.[^.]+$/, '');
  if (new RegExp(`(from|require\\()\\s*['"][^'"]*/${stem}(\\.[cm]?[jt]s)?['"]`).test(reg.source)) block({ code: 'route-start-file', reason: `it is registered in ${route.registration.file}, the file that starts the app, which the generated server module would have to import back (a cycle); move the routes into a module of their own` });
  if (target.module === 'commonjs' && moduleSystemOfFile(route.registration.file, reg.source, ctx.inventory.project.moduleKind) === 'esm') block({ code: 'module-system', reason: `${route.registration.file} is an ES module and the generated module (${target.file}) is CommonJS` });

  const options: HandlerOptions = {
    role: 'route',
    nextToDefault: false,
    ...jsonOptionsOf(ctx.inventory, route),
    typescript: false,
    scope: route.mountChain.length ? 'router' : 'app',
    expressMajor: ctx.inventory.project.expressVersion.major === 5 ? 5 : 4,
    views: views(route).option,
  };
  const hooks = hookSources(ctx, route, statement, registration.middleware, parsed, block, state);
  const handlerNode: Node = registration.handler.node;
  let handler: PluginRoute['handler'];
  if (/Function/.test(handlerNode.type)) {
    const own = { ...options, typescript: isTypeScript(route.registration.file) };
    const { rewrite, helpers } = withHelpers(state, route.registration.file, reg, registration.handler, own);
    refusalsOf(rewrite.refusals).forEach(block);
    collect(state, rewrite);
    handler = { inline: anchorOf(registration.handler), options: own, ...(helpers.length ? { helpers } : {}) };
    state.handlerRange = { file: route.registration.file, range: [handlerNode.start, handlerNode.end] };
  } else {
    const text = textOf(handlerNode);
    const def = route.handler.definition;
    const defFile = def ? parsed(def.file) : null;
    const fn = def && defFile ? functionAt(defFile.j, defFile.root, def, defFile.source) : null;
    if (!text || !def || !defFile || !fn) block({ code: 'route-handler-unknown', reason: 'its handler function was not found where the analysis put it' });
    else {
      const own = { ...options, typescript: isTypeScript(def.file) };
      const { rewrite, helpers } = withHelpers(state, def.file, defFile, fn, own);
      refusalsOf(rewrite.refusals).forEach(block);
      collect(state, rewrite);
      state.handlerKey = `${def.file}:${def.line}:${def.column}`;
      state.rewrite = { file: def.file, fn, options: own, helpers };
      state.handlerRange = { file: def.file, range: [fn.node.start, fn.node.end] };
      const placement = placementOf(defFile.j, defFile.root, fn);
      const uses = otherUses(ctx, { file: def.file, binding: placement.kind === 'nested' ? null : placement.name || null, form: placement.kind === 'exported' ? placement.form : null, range: [fn.node.start, fn.node.end] }, { file: route.registration.file, range: [statement.statement.node.start, statement.statement.node.end] });
      const outside = uses.filter((u) => !(u.file === route.registration.file && isRegistrationLine(reg, u.line)));
      if (outside.length) block({ code: 'route-handler-shared', reason: 'its handler is also used outside route registrations, and that use still expects the Express signature', where: outside.map((u) => `${u.file}:${u.line}`) });
      handler = { reference: text };
    }
  }
  if (handler! && !state.blockers.length) {
    const forms = fastifyPaths(route);
    const paths = 'paths' in forms && route.path.syntax !== 'plain' ? forms.paths.map((p) => quote(ctx, route, p)) : [textOf(statement.path) ?? ''];
    // Express 5's wildcard array, before any middleware sees req.params (as Express's matching did).
    if ('wildcard' in forms && forms.wildcard) hooks.unshift(`expressWildcard(${quote(ctx, route, forms.wildcard)})`);
    const first = statement.methods[0].method === route.method;
    state.pluginRoute = { method: route.method, paths, hooks, handler, comments: first ? leadingComments(statement.statement.node) : [] };
  }
  return state;
}

/** The comments above a statement as source lines, the TODO(migrate) notes of a former run left out (the route moves, the note goes). */
function leadingComments(node: Node): string[] {
  return ((node.comments ?? []) as Node[])
    .filter((c) => c.leading && !String(c.value).includes('TODO(migrate)'))
    .flatMap((c) => (c.type === 'CommentLine' ? [`//${c.value}`] : `/*${c.value}*/`.split('\n').map((l) => l.trim().replace(/^\*/, ' *'))));
}

/**
 * The handler's rewrite, with the helper functions it hands `req` to (`ownOrder(req)`) rewritten too
 * when each is a function of the same module whose uses all convert (role `helper`): then the call
 * passes `request`. The helpers' moves and the places that refer to them go to `state`, so the
 * route moves only when every one of those places moves with it (settle).
 */
function withHelpers(state: RouteState, file: string, parsedFile: { j: JSCodeshift; root: Collection }, fn: ASTPath<Node>, options: HandlerOptions): { rewrite: HandlerRewrite; helpers: string[] } {
  const first = planHandlerRewrite(parsedFile.j, fn, options);
  if (!first.helperCalls.length) return { rewrite: first, helpers: [] };
  const names = new Set(first.helperCalls);
  const found = first.helperCalls.map((name) => moduleFunction(parsedFile, name));
  if (found.some((f) => !f)) return { rewrite: first, helpers: [] };
  const rewrite = planHandlerRewrite(parsedFile.j, fn, { ...options, helpers: names });
  for (const [i, helper] of found.entries()) {
    const helperOptions: HandlerOptions = { ...options, role: 'helper', helpers: names };
    const own = planHandlerRewrite(parsedFile.j, helper!.fn, helperOptions);
    if (own.refusals.length) return { rewrite: { ...rewrite, refusals: [...rewrite.refusals, `its helper ${first.helperCalls[i]} ${own.refusals.join('; ')}`] }, helpers: [] };
    collect(state, own);
    state.helpers.push({ file, fn: helper!.fn, options: { ...options, role: 'helper' }, names: [...names], references: helper!.references });
  }
  return { rewrite, helpers: [...names] };
}

/** A function declared at the top level of the module under `name`, and the places that refer to it (start offsets). */
function moduleFunction(file: { j: JSCodeshift; root: Collection }, name: string): { fn: ASTPath<Node>; references: number[] } | null {
  const declaration = file.root.find(file.j.FunctionDeclaration, { id: { name } }).filter((p) => p.parent.node.type === 'Program' || /^Export/.test(p.parent.node.type)).paths()[0];
  if (!declaration) return null;
  const references = file.root
    .find(file.j.Identifier, { name })
    .filter((p) => p.node !== declaration.node.id && !(p.parent.node.type === 'MemberExpression' && p.parent.node.property === p.node && !p.parent.node.computed))
    .nodes()
    .map((n) => (n as Node).start as number);
  return { fn: declaration, references };
}

/** Whether line `line` of a registration file lies in a route registration statement (another route sharing the handler). */
function isRegistrationLine(reg: { j: JSCodeshift; root: Collection }, line: number): boolean {
  return reg.root
    .find(reg.j.ExpressionStatement)
    .filter((p) => (p.node.loc?.start.line ?? 0) <= line && (p.node.loc?.end.line ?? 0) >= line && /\.(get|post|put|patch|delete|head|options|all|route)\s*\(/.test(textOf(p.node) ?? ''))
    .size() > 0;
}

/** The route's own middleware and param callbacks as preHandler hook sources, in Express's order (params first). */
function hookSources(ctx: PlanContext, route: Route, statement: RouteStatement, middleware: Node[], parsed: Parsed, block: (b: Blocker) => void, state: RouteState): string[] {
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
    if (ctx.inventory.middleware.some((m) => m.framework !== 'fastify' && m.ownerId === route.ownerId && m.path.includes(`:${name.value}`) && prefixCovers(m.fullPath, route.path.full))) continue;
    if (entry.registration.file !== route.registration.file) {
      block({ code: 'route-param-elsewhere', reason: `its param callback for :${name.value} is registered in ${entry.registration.file}, not next to the route` });
      continue;
    }
    // A callback written inline in router.param(…) gets a name where it is, so each route's hook can refer to it.
    const named = fn.type === 'Identifier' || fn.type === 'MemberExpression' ? textOf(fn) : `${name.value.replace(/[^\w$]/g, '_')}Param`;
    if (!(fn.type === 'Identifier' || fn.type === 'MemberExpression')) state.nameCallbacks.push({ statement: anchorOf(call.parent), name: named! });
    hooks.push(`expressParam(${quote(ctx, route, name.value)}, ${named})`);
  }
  if (own.middleware.length !== middleware.length) block({ code: 'route-middleware-unmatched', reason: `the analysis lists ${own.middleware.length} middleware for it where its registration has ${middleware.length} functions before the handler` });
  const entries = own.middleware.length === middleware.length ? own.middleware : [];
  middleware.forEach((node, i) => {
    if (node.type === 'ArrayExpression') {
      block({ code: 'route-middleware-array', reason: 'its middleware is given as an array; list it as separate arguments' });
      return;
    }
    const entry = entries[i];
    // A local function named at the registration may become a native hook (decided once every route settled).
    if (entry?.origin === 'local' && entry.definition && node.type === 'Identifier') state.middleware.push({ index: hooks.length, text: node.name, definition: entry.definition });
    hooks.push(`expressMiddleware(${textOf(node)})`);
  });
  return hooks;
}

/** `text` as a string literal in the quotes of the route's file (transforms/lib/style.ts). */
function quote(ctx: PlanContext, route: Route, text: string): string {
  const double = detectStyle(ctx.readFile(route.registration.file) ?? '', route.registration.file).quote === 'double';
  return double ? JSON.stringify(text) : `'${text.replace(/'/g, "\\'")}'`;
}

/** Handler refusals as blockers; those a plugin of the plugins stage lifts are deferred to it. */
function refusalsOf(refusals: string[]): Blocker[] {
  if (!refusals.length) return [];
  const plugins = refusals.every((r) => /plugins stage/.test(r));
  return [{ code: 'route-handler-api', reason: `its handler ${refusals.join('; ')}`.replace(/its handler it /, 'its handler '), ...(plugins ? { deferTo: 'plugins' as const } : {}) }];
}

function collect(state: RouteState, rewrite: HandlerRewrite): void {
  state.imports.push(...rewrite.imports);
  state.deltas.push(...rewrite.deltas);
  state.plugins.push(...rewrite.plugins);
}

/** A local route middleware rewritten in place to a Fastify preHandler hook. */
interface NativeHook {
  file: string;
  fn: ASTPath<Node>;
  options: HandlerOptions;
}

/**
 * Local route middleware that becomes a native Fastify hook, rewritten where it is defined with the
 * `hook` role (`(request, reply, next)`, or `(request, reply)` when async): when every route whose
 * chain has it moves, nothing else uses it (no `router.use`, no call), and every use in it converts.
 * The others keep running through the `expressMiddleware` adapter. The moved routes' hook text is
 * updated in place (`expressMiddleware(requireToken)` → `requireToken`).
 */
function nativeHooks(ctx: PlanContext, parsed: Parsed, all: Route[], states: Map<string, RouteState>): NativeHook[] {
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
    const references = otherUses(ctx, { file: def.file, binding: placement.kind === 'nested' ? null : placement.name || null, form: placement.kind === 'exported' ? placement.form : null, range: [fn.node.start, fn.node.end] }, registrations[0]);
    const outside = references.filter((u) => !registrations.some((r) => r.file === u.file && isRegistrationLine(parsed(r.file)!, u.line)));
    if (outside.length) continue;
    const options: HandlerOptions = { role: 'hook', ...jsonOptionsOf(ctx.inventory, uses[0].state.route), typescript: isTypeScript(def.file), scope: uses.some((u) => u.state.route.mountChain.length) ? 'router' : 'app', expressMajor: ctx.inventory.project.expressVersion.major === 5 ? 5 : 4 };
    const rewrite = planHandlerRewrite(file.j, fn, options);
    if (rewrite.refusals.length || rewrite.imports.length) continue;
    for (const u of uses) u.state.pluginRoute!.hooks[u.index] = u.text;
    out.push({ file: def.file, fn, options });
  }
  return out;
}

/** A router's own error middleware, which moves into the router's plugin when every route it covers moves. */
interface RouterErrorHandler {
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
function routerErrorHandlers(ctx: PlanContext, parsed: Parsed, states: Map<string, RouteState>): RouterErrorHandler[] {
  const out: RouterErrorHandler[] = [];
  for (const h of ctx.inventory.errorHandlers) {
    if (h.framework === 'fastify' || h.scope !== 'router' || !h.covers.some((id) => states.has(id))) continue;
    const reg = parsed(h.registration.file);
    const statement = reg?.root.find(reg.j.ExpressionStatement).filter((p) => startsAt(p.node, h.registration, reg.source) || startsAt((p.node.expression as Node), h.registration, reg.source)).paths()[0];
    const call: Node = statement?.node.expression;
    const stay = (reason: string): RouterErrorHandler => ({ id: h.id, ownerId: h.ownerId, file: h.registration.file, covers: h.covers, statement: statement!, handler: { reference: '' }, blocker: { code: 'route-error-handler', reason } });
    if (!reg || !statement || call?.type !== 'CallExpression' || call.arguments.length !== 1 || call.callee.property?.name !== 'use') {
      out.push(stay(`its router's error handler ${h.name} is not registered as X.use(handler) in a statement of its own`));
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

/**
 * Blocks, until nothing changes, the routes that share something with a route that stays: its
 * statement, its handler, its registration (a router mounted twice), or an overlap Fastify would
 * resolve differently from Express.
 */
function settle(all: Route[], states: Map<string, RouteState>, handlers: RouterErrorHandler[], onFastify: Route[]): void {
  for (const h of handlers) if (h.blocker) for (const id of h.covers) states.get(id)?.blockers.push(h.blocker);
  const moves = (r: Route) => {
    const s = states.get(r.id);
    return !!s && !s.blockers.length;
  };
  for (let changed = true; changed; ) {
    changed = false;
    const stay = (s: RouteState, b: Blocker) => {
      s.blockers.push(b);
      changed = true;
    };
    for (const s of states.values()) {
      if (s.blockers.length) continue;
      const r = s.route;
      // A helper it hands `req` to is rewritten: every place that calls it must be a handler that moves.
      const inMoving = (file: string, at: number) => [...states.values()].some((o) => !o.blockers.length && o.handlerRange?.file === file && at >= o.handlerRange.range[0] && at <= o.handlerRange.range[1]);
      const stranded = s.helpers.find((h) => h.references.some((at) => !inMoving(h.file, at)));
      if (stranded) {
        stay(s, { code: 'route-helper-shared', reason: `its helper ${stranded.fn.node.id?.name ?? ''} is also called where Express still calls it (a route that stays, or outside a handler)` });
        continue;
      }
      // What a route shares with another, in words: both move or neither does.
      const shared = (o: Route): string | null => {
        const h = handlers.find((x) => x.covers.includes(r.id) && x.covers.includes(o.id));
        if (h) return `the error middleware of its router (${h.file})`;
        if (s.statementKey && o.registration.file === r.registration.file && states.get(o.id)?.statementKey === s.statementKey) return 'its registration statement';
        if (sameRegistration(o, r)) return 'its registration (the router is mounted twice)';
        if (s.handlerKey && states.get(o.id)?.handlerKey === s.handlerKey) return 'its handler function';
        return null;
      };
      const staying = all.find((o) => o.id !== r.id && !moves(o) && shared(o));
      if (staying) {
        const why = states.get(staying.id)?.blockers[0];
        stay(s, { code: 'route-partner-stays', reason: `it shares ${shared(staying)} with ${staying.method} ${staying.path.full}, which stays on Express`, where: [`${staying.registration.file}:${staying.registration.line}`], ...(why?.deferTo ? { deferTo: why.deferTo } : {}) });
        continue;
      }
      // Express answers first in the bridge, so a route still on Express answers every URL it matches;
      // on Fastify, a more specific route already there would take the URLs both match.
      const taken = onFastify.find((f) => sameMethod(f, r) && overlaps(f.path.full, r.path.full) && !fastifyAgrees(r.path.full, f.path.full));
      if (taken) {
        stay(s, overlapBlocker(taken));
        continue;
      }
      for (const o of all) {
        if (o.id === r.id || o.appId !== r.appId || !sameMethod(o, r) || !overlaps(o.path.full, r.path.full)) continue;
        const [earlier, later] = o.order < r.order ? [o, r] : [r, o];
        const clash = moves(earlier) && moves(later) ? !fastifyAgrees(earlier.path.full, later.path.full) : earlier === r && !moves(later);
        if (clash) {
          stay(s, overlapBlocker(o));
          break;
        }
      }
    }
  }
}

/** The same words whichever route it overlaps, on Express or already on Fastify, so a second run keeps the TODO as it is. */
function overlapBlocker(other: Route): Blocker {
  // The other route is named in `where` only: which one is found first changes once routes move, and the TODO must not.
  return { code: 'route-overlap', reason: 'another route also matches its URLs; Express picks the first registered, Fastify the most specific, and they would disagree', where: [`${other.method} ${other.path.full} at ${other.registration.file}:${other.registration.line}`] };
}

function sameRegistration(a: Route, b: Route): boolean {
  return a.registration.file === b.registration.file && a.registration.line === b.registration.line && a.registration.column === b.registration.column && a.method === b.method;
}

/** The file plans, items and counts from the settled states. */
function assemble(ctx: PlanContext, modules: Map<string, GeneratedModule | null>, states: Map<string, RouteState>, parsed: Parsed, handlers: RouterErrorHandler[], hooks: NativeHook[], views: ReturnType<typeof viewsPerApp>): StepPlan<RoutesEntry> {
  const files = new Map<string, FilePlan<RoutesEntry>>();
  const add = (file: string, entry: RoutesEntry) => {
    const plan = files.get(file) ?? { file, entries: [] };
    plan.entries.push(entry);
    files.set(file, plan);
  };
  const manual: ManualItem[] = [];
  const deferred: DeferredItem[] = [];
  const todos = new Map<string, { statement: ReturnType<typeof anchorOf>; reasons: string[]; file: string; items: ManualItem[] }>();
  const plugins = new Map<string, { file: string; owner: string; receiver: string; routes: PluginRoute[]; prefixes: Set<string>; adapters: Set<string>; app: string }>();
  const unregistered = new Set<string>();
  const rewritten = new Set<string>();
  const deltas = new Set<string>();
  const groups = new Map<string, { done: number; of: number; later?: number }>();
  for (const s of states.values()) {
    const r = s.route;
    const group = groupName(ctx.inventory, r);
    const counts: { done: number; of: number; later?: number } = groups.get(group) ?? { done: 0, of: 0 };
    groups.set(group, counts);
    const blocker = s.blockers[0];
    if (!blocker) {
      counts.done++;
      counts.of++;
      const key = `${r.registration.file}\0${r.ownerId}`;
      const plugin = plugins.get(key) ?? { file: r.registration.file, owner: r.ownerId, receiver: s.statement!.receiver, routes: [], prefixes: new Set(), adapters: new Set(), app: r.appId };
      plugins.set(key, plugin);
      plugin.prefixes.add(prefixOf(r));
      const methodKey = `${s.statementKey}\0${r.method}`;
      if (!unregistered.has(methodKey)) {
        plugin.routes.push(s.pluginRoute!);
        for (const h of s.pluginRoute!.hooks) {
          const adapter = /^(expressParam|expressMiddleware|expressWildcard)\(/.exec(h)?.[1];
          if (adapter) plugin.adapters.add(adapter);
        }
        unregistered.add(methodKey);
      }
      if (!unregistered.has(s.statementKey!)) {
        add(r.registration.file, { kind: 'unregister', statement: anchorOf(s.statement!.statement) });
        unregistered.add(s.statementKey!);
      }
      for (const n of s.nameCallbacks) {
        if (rewritten.has(`${n.statement.line}:${n.name}`)) continue;
        rewritten.add(`${n.statement.line}:${n.name}`);
        add(r.registration.file, { kind: 'name-callback', statement: n.statement, name: n.name });
      }
      for (const h of s.helpers) {
        const key = `${h.file}:${h.fn.node.start}`;
        if (rewritten.has(key)) continue;
        rewritten.add(key);
        add(h.file, { kind: 'rewrite', fn: anchorOf(h.fn), options: h.options, helpers: h.names, module: moduleSystemOfFile(h.file, ctx.readFile(h.file) ?? '', ctx.inventory.project.moduleKind) });
      }
      if (s.rewrite && !rewritten.has(s.handlerKey!)) {
        add(s.rewrite.file, { kind: 'rewrite', fn: anchorOf(s.rewrite.fn), options: s.rewrite.options, ...(s.rewrite.helpers.length ? { helpers: s.rewrite.helpers } : {}), module: moduleSystemOfFile(s.rewrite.file, ctx.readFile(s.rewrite.file) ?? '', ctx.inventory.project.moduleKind) });
        rewritten.add(s.handlerKey!);
      }
      s.deltas.forEach((d) => deltas.add(d));
      continue;
    }
    // Every reason, not only the first: a human sees at once all that holds the route back. It waits
    // for a later stage only when every reason is that stage's.
    const reasons = [...new Map(s.blockers.map((b) => [b.reason, b])).values()];
    const deferTo = reasons.every((b) => b.deferTo === reasons[0].deferTo) ? reasons[0].deferTo : undefined;
    const shown = deferTo ? reasons : reasons.filter((b) => !b.deferTo || reasons.length === 1);
    const where = [...new Set(shown.flatMap((b) => b.where ?? []))];
    const text = `${shown.map((b) => b.reason).join('; ')}${where.length ? ` (${where.join(', ')})` : ''}`;
    if (!deferTo) counts.of++;
    // At the statement's first line, where its TODO goes above (a route() chain's verb can be lines below).
    const line = s.statement?.lines[0] ?? (s.todoAt ? s.todoAt.anchor.line : r.registration.line);
    const item: ManualItem = { file: r.registration.file, line, code: blocker.deferTo && !deferTo ? shown[0].code : blocker.code, reason: `${r.method} ${r.path.full} stays on Express: ${text}` };
    if (deferTo) {
      counts.later = (counts.later ?? 0) + 1;
      deferred.push({ ...item, reason: `${r.method} ${r.path.full} stays on Express until then: ${text}`, stage: deferTo });
      continue;
    }
    manual.push(item);
    const at = s.statement && s.statementKey ? { anchor: anchorOf(s.statement.statement), key: s.statementKey } : s.todoAt;
    if (at) {
      const todo = todos.get(at.key) ?? { statement: at.anchor, reasons: [], file: r.registration.file, items: [] };
      for (const b of shown) if (!todo.reasons.includes(b.reason)) todo.reasons.push(b.reason);
      todo.items.push(item);
      todos.set(at.key, todo);
    }
  }
  for (const h of hooks) add(h.file, { kind: 'rewrite', fn: anchorOf(h.fn), options: h.options, module: moduleSystemOfFile(h.file, ctx.readFile(h.file) ?? '', ctx.inventory.project.moduleKind) });
  // One TODO per statement, naming every reason; each of its items is paired with it.
  for (const t of todos.values()) {
    const reason = `${TODO_PREFIX} ${t.reasons.join('; ')}`;
    add(t.file, { kind: 'todo', statement: t.statement, reason });
    for (const item of t.items) item.todo = reason;
  }

  const registrations = new Map<string, RoutesEntry & { kind: 'register' }>();
  const namesGiven = new Map<string, Set<string>>();
  const viewDependencies: Record<string, string> = {};
  for (const p of plugins.values()) {
    const target = modules.get(p.app)!;
    const reg = parsed(p.file)!;
    const name = pluginName(ctx, p.file, p.owner, reg, namesGiven, [...plugins.values()].filter((o) => o.file === p.file).length > 1 ? p.receiver : null);
    const module = moduleSystemOfFile(p.file, reg.source, ctx.inventory.project.moduleKind);
    const hooksFile = hooksModuleFile(target.file);
    // How the project writes relative specifiers (with `.js` under NodeNext), read from the file and the entry.
    const importer = [reg.source, ctx.inventory.project.entry ? (ctx.readFile(ctx.inventory.project.entry) ?? '') : ''].join('\n');
    const adapters = p.adapters.size ? { specifier: importSpecifier(p.file, { file: hooksFile, module, typescript: isTypeScript(hooksFile) }, importer), names: [...p.adapters].sort() } : null;
    const errors = handlers.find((h) => !h.blocker && h.ownerId === p.owner && h.file === p.file && h.covers.every((id) => !states.get(id)?.blockers.length));
    if (errors) add(p.file, { kind: 'unregister', statement: anchorOf(errors.statement) });
    if (errors?.rewrite) add(errors.rewrite.file, { kind: 'rewrite', fn: anchorOf(errors.rewrite.fn), options: errors.rewrite.options, module: moduleSystemOfFile(errors.rewrite.file, ctx.readFile(errors.rewrite.file) ?? '', ctx.inventory.project.moduleKind) });
    add(p.file, { kind: 'plugin', name, of: ownerLabel(ctx.inventory, p.owner), module, typescript: isTypeScript(p.file), routes: p.routes, adapters, ...(errors ? { errorHandler: errors.handler } : {}) });
    const register = registrations.get(target.file) ?? { kind: 'register' as const, plugins: [], module: target.module, typescript: target.typescript, hooksSpecifier: importSpecifier(target.file, { file: hooksFile, module: target.module, typescript: target.typescript }, target.source) };
    registrations.set(target.file, register);
    register.plugins.push({ name, specifier: importSpecifier(target.file, { file: p.file, module: target.module, typescript: isTypeScript(p.file) }, target.source), prefixes: [...p.prefixes].sort(), from: p.file });
    const rendering = [...states.values()].find((s) => !s.blockers.length && s.route.appId === p.app && s.plugins.includes('@fastify/view'));
    const registration = rendering ? views(rendering.route).registration : null;
    if (registration && !('refuse' in registration)) {
      register.views = { imports: registration.imports, statements: registration.statements };
      Object.assign(viewDependencies, registration.dependencies);
    }
  }
  for (const [file, entry] of registrations) {
    add(file, entry);
    const hooksFile = hooksModuleFile(file);
    if (ctx.readFile(hooksFile) === null) {
      const target = [...modules.values()].find((m) => m?.file === file)!;
      files.set(hooksFile, { file: hooksFile, create: true, entries: [{ kind: 'hooks-module', module: target.module, typescript: target.typescript, expressMajor: ctx.inventory.project.expressVersion.major === 5 ? 5 : 4 }] });
    }
  }
  const done = [...groups.values()].reduce((n, g) => n + g.done, 0);
  const of = [...groups.values()].reduce((n, g) => n + g.of, 0);
  return {
    step: 'routes-move',
    files: [...files.values()],
    manual,
    deferred,
    moved: { what: 'routes', done, of, groups: [...groups].map(([name, g]) => ({ name, ...g })) },
    deltas: done ? deltaTexts(deltas) : [],
    dependencies: Object.keys(viewDependencies).length ? { ...depsOf(states), ...viewDependencies } : depsOf(states),
  };
}

/** How this step's TODO(migrate) comments begin (after `TODO(migrate): `). */
export const TODO_PREFIX = 'route stays on Express:';

/**
 * The packages the moved handlers now import (`encodeurl` for a Location), at the catalogued range
 * (rules/catalogue/versions.ts), and their `@types` where a TypeScript file imports one that ships
 * no types.
 */
function depsOf(states: Map<string, RouteState>): Record<string, string> | undefined {
  const deps: Record<string, string> = {};
  for (const s of states.values()) {
    if (s.blockers.length) continue;
    for (const i of s.imports) {
      deps[i.from] = versionOf(i.from);
      if (s.typescript && isVersioned(`@types/${i.from}`)) deps[`@types/${i.from}`] = versionOf(`@types/${i.from}`);
    }
  }
  return Object.keys(deps).length ? deps : undefined;
}

function deltaTexts(ids: Set<string>): FrameworkDelta[] {
  const out: FrameworkDelta[] = [
    {
      text: "Answers of the moved routes leave through Fastify's reply: no automatic weak ETag and no 304 for a matching If-None-Match (Express's res.send added both); register @fastify/etag ({ weak: true }) if clients rely on them.",
      restoredByParityExpress: false,
    },
  ];
  if (ids.has('redirect-body')) out.push({ text: "Redirects of the moved routes have an empty body and no Vary: Accept (Express sent 'Found. Redirecting to …'); browsers and clients follow the Location header either way.", restoredByParityExpress: false });
  out.push({ text: "OPTIONS for the paths of the moved routes: Express answered 200 with an Allow header, Fastify answers 404; @fastify/cors answers CORS preflights, or add an options route where clients need it.", restoredByParityExpress: false });
  return out;
}

/** The full mount prefix of a route's router ('' at the app itself). */
function prefixOf(route: Route): string {
  const joined = route.mountChain.reduce((p, m) => joinPaths(p, m.mountPath), '');
  return joined === '/' ? '' : joined;
}

/** The router a route belongs to, as the summary names it (`router notes at /api/notes`, `app`). */
function groupName(inventory: Inventory, route: Route): string {
  const prefix = prefixOf(route);
  return `${ownerLabel(inventory, route.ownerId)}${prefix ? ` at ${prefix}` : ''} (${route.registration.file})`;
}

function ownerLabel(inventory: Inventory, ownerId: string): string {
  const router = inventory.routers.find((r) => r.id === ownerId);
  const kind = router?.kind === 'router' ? 'router' : 'sub-app';
  if (router) return router.name === 'router' || router.name === 'app' ? `${kind} of ${path.posix.basename(router.location.file)}` : `${kind} ${router.name}`;
  const app = inventory.apps.find((a) => a.id === ownerId);
  return !app?.name || app.name === 'app' ? 'app' : `app ${app.name}`;
}

/** `<file stem>Routes`, or the plugin a former run wrote in the file for the same router. */
function pluginName(ctx: PlanContext, file: string, owner: string, reg: { j: JSCodeshift; root: Collection; source: string }, given: Map<string, Set<string>>, receiver: string | null): string {
  // A file with one router: `<file stem>Routes`; with several: `<router variable>Routes`.
  const stem = (receiver ?? path.posix.basename(file).replace(/\.[^.]+$/, '')).replace(/[^A-Za-z0-9]+(.)/g, (_, c: string) => c.toUpperCase());
  const base = `${/^[0-9]/.test(stem) ? '_' : ''}${stem}Routes`;
  const inFile = given.get(file) ?? new Set<string>();
  given.set(file, inFile);
  const existing = new RegExp(`Fastify routes of the Express ${escape(ownerLabel(ctx.inventory, owner))}[\\s\\S]*?function (\\w+)\\(`).exec(reg.source);
  if (existing) return existing[1];
  const taken = new Set<string>();
  reg.root.find(reg.j.Identifier).forEach((p) => void taken.add(p.node.name));
  let name = base;
  for (let i = 2; taken.has(name) || inFile.has(name); i++) name = `${base}${i}`;
  inFile.add(name);
  return name;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The JSON print settings of the route's app, its router and the routers and sub-apps above it (transforms/handler-rewrite/json-settings.ts). */
function jsonOptionsOf(inventory: Inventory, route: Route): Pick<HandlerOptions, 'jsonSettings' | 'jsonSpaces'> {
  // The app, the route's router and every router or sub-app it is mounted under (a sub-app's settings reach its routers).
  const owners = new Set([route.appId, route.ownerId, ...route.mountChain.flatMap((m) => {
    const mount = inventory.mounts.find((x) => x.id === m.mountId);
    return mount ? [mount.parent, mount.child] : [];
  })]);
  return jsonOptions(inventory, route.appId, owners);
}
