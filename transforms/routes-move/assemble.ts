/**
 * Step 6 of the routes plan: the file entries, items, verdicts and counts from the settled states.
 * Each router's moving routes go into a plugin written in its file (with the router's error
 * handler when it moves too), their Express registrations are deleted and their handlers,
 * helpers and native hooks rewritten where they are (the wrappers that only forwarded unwrapped); the generated server module registers each
 * plugin under its mount paths (and @fastify/view when a moved route renders); the hooks module
 * is written once.
 */
import { stageThatLifts } from '../../rules/catalogue/blockers.js';
import { FRAMEWORK_DEFAULTS } from '../../rules/catalogue/framework-defaults.js';
import { isVersioned, versionOf } from '../../rules/catalogue/versions.js';
import { anchorOf } from '../lib/anchor.js';
import { isTypeScript } from '../lib/ast.js';
import { importSpecifier, moduleSystemOfFile } from '../lib/module-system.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import type { FilePlan, FrameworkDelta, PlanContext, StageName, StepPlan, Verdict } from '../model.js';
import { hooksModuleFile, startsApp } from '../server-module/locate.js';
import { lacksChains, lacksNotFound, NOT_FOUND_AFTER_NEXT } from '../server-module/hooks-template.js';
import { leftRoutes } from './left.js';
import { likeExpressImport, likeExpressModulePlan } from './like-express.js';
import type { PluginCall, PluginLoop, PluginRoute, RegisterEntry, RegistrarEntry, RewriteEntry, RoutesEntry } from './model.js';
import { groupName, ownerLabel, pluginName, prefixOf } from './names.js';
import { queryReplacedBy } from './query-hand-over.js';
import { methodOverrideOf } from './method-override.js';
import type { NativeHook } from './native-hooks.js';
import type { RouterErrorHandler } from './router-error-handlers.js';
import { HAND_ROUTES } from '../../analyzer/generated.js';
import type { NestedRead } from './registrars.js';
import type { Selection } from './select.js';
import type { RouteState } from './state.js';
import type { ViewsOf } from './views.js';

/** What assembling reads: the earlier steps' results. */
export interface Settled {
  selection: Selection;
  states: Map<string, RouteState>;
  parsed: ParsedFiles;
  handlers: RouterErrorHandler[];
  hooks: NativeHook[];
  views: ViewsOf;
}

/** One router's plugin, as the moving routes fill it. */
interface PluginDraft {
  file: string;
  owner: string;
  receiver: string;
  routes: Array<PluginRoute | PluginLoop | PluginCall>;
  prefixes: Set<string>;
  adapters: Set<string>;
  /** Functions of the fastify-like-express module its inline handlers call. */
  likeExpress: Set<string>;
  app: string;
  /** The registrar that stays, at whose end the plugin is defined and handed over (registrars.ts nestedOf). */
  nested?: NestedRead;
}

/** The step's plan from the settled states. */
export function assemble(ctx: PlanContext, settled: Settled): StepPlan<RoutesEntry> {
  const { states } = settled;
  const files = new Map<string, FilePlan<RoutesEntry>>();
  const add = (file: string, entry: RoutesEntry) => {
    const plan = files.get(file) ?? { file, entries: [] };
    plan.entries.push(entry);
    files.set(file, plan);
  };
  const moving = [...states.values()].filter((s) => !s.blockers.length);
  const likeImport = (file: string, appId: string, names: Iterable<string>) => likeExpressImport(ctx, settled.selection.modules.get(appId)!, file, names);
  const registrars = new Map<string, RegistrarDraft>();
  const plugins = moveRoutes(ctx, moving, add, likeImport, registrars);
  addRegistrars(ctx, settled, registrars, add);
  for (const h of settled.hooks) add(h.file, { kind: 'rewrite', fn: anchorOf(h.fn), options: h.options, module: moduleOf(ctx, h.file), ...withImport(likeImport(h.file, h.appId, h.likeExpress)) });
  const left = leftRoutes([...states.values()].filter((s) => s.blockers.length));
  for (const t of left.todos) add(t.file, { kind: 'todo', statement: t.statement, reason: t.reason });
  const viewDependencies = registerPlugins(ctx, settled, plugins, add, files);
  const groups = countGroups(ctx, states);
  const done = moving.length;
  return {
    step: 'routes-move',
    files: [...files.values()],
    manual: left.manual,
    deferred: left.deferred,
    verdicts: [...states.values()].map(verdictOf),
    moved: { what: 'routes', done, of: groups.reduce((n, g) => n + g.of, 0), groups },
    deltas: done ? deltaTexts(new Set(moving.flatMap((s) => s.deltas)), moving.some((s) => s.likeExpress.length) || settled.hooks.some((h) => h.likeExpress.length), moving.some((s) => !s.handOver)) : [],
    dependencies: Object.keys(viewDependencies).length ? { ...depsOf(states), ...viewDependencies } : depsOf(states),
  };
}

/** A route's verdict: it moves, or stays with its blockers (waiting for the stage that lifts them all). */
function verdictOf(s: RouteState): Verdict {
  const waitsFor = stageThatLifts(s.blockers);
  return { id: s.route.id, kind: 'route', moves: !s.blockers.length, blockers: s.blockers, ...(waitsFor ? { waitsFor: waitsFor as StageName } : {}) };
}

/** Per router: routes moved, routes that could move (those waiting for a later stage left out), and those waiting. */
function countGroups(ctx: PlanContext, states: Map<string, RouteState>): Array<{ name: string; done: number; of: number; later?: number }> {
  const groups = new Map<string, { done: number; of: number; later?: number }>();
  for (const s of states.values()) {
    const name = groupName(ctx.inventory, s.route);
    const counts = groups.get(name) ?? { done: 0, of: 0 };
    groups.set(name, counts);
    if (!s.blockers.length) counts.done++;
    if (s.blockers.length && stageThatLifts(s.blockers)) counts.later = (counts.later ?? 0) + 1;
    else counts.of++;
  }
  return [...groups].map(([name, g]) => ({ name, ...g }));
}

/** The module system of a project file, as it is now. */
function moduleOf(ctx: PlanContext, file: string): 'esm' | 'commonjs' {
  return moduleSystemOfFile(ctx.inventory, file, ctx.readFile(file) ?? '');
}

/**
 * The entries of the moving routes in their own files — each registration statement deleted once,
 * inline param callbacks named, handlers and the helpers they hand `req` to rewritten once — and
 * the plugin drafts their routes fill, one per router and file.
 */
function moveRoutes(ctx: PlanContext, moving: RouteState[], add: (file: string, entry: RoutesEntry) => void, likeImport: LikeImport, registrars: Map<string, RegistrarDraft>): Map<string, PluginDraft> {
  const plugins = new Map<string, PluginDraft>();
  const unregistered = new Set<string>();
  const rewritten = new Set<string>();
  const once = (key: string) => !rewritten.has(key) && !!rewritten.add(key);
  for (const s of moving) {
    const r = s.route;
    // The plugin goes where the route is registered, or where its registrar is called (registrars.ts).
    const home = s.registrar?.call.file ?? r.registration.file;
    const key = `${home}\0${r.ownerId}${s.nested ? `\0${s.nested.key}` : ''}`;
    const plugin = plugins.get(key) ?? { file: home, owner: r.ownerId, receiver: s.registrar?.call.receiver ?? s.statement!.receiver, routes: [], prefixes: new Set(), adapters: new Set(), likeExpress: new Set(), app: r.appId, ...(s.nested ? { nested: s.nested } : {}) };
    plugins.set(key, plugin);
    plugin.prefixes.add(prefixOf(r));
    if (s.registrar) {
      placeRegistrar(s, plugin, registrars, unregistered, add);
      rewriteOnce(ctx, s, add, once, likeImport);
      continue;
    }
    // Per plugin: a registrar called with two routers makes one statement's route in each (crud(users); crud(posts)).
    const route = s.pluginRoute!;
    // A loop over a route table goes into the plugin once, for all its routes (in the form all of them take: route-table.ts).
    const methodKey = 'loop' in route ? `${key}\0${s.statementKey}` : `${key}\0${s.statementKey}\0${r.method}`;
    if ('loop' in route) {
      const placed = plugin.routes.find((p): p is PluginLoop => 'loop' in p && p.loop.line === route.loop.line && p.loop.text === route.loop.text);
      if (placed && route.form === 'flat') placed.form = 'flat';
      if (route.form !== 'none') plugin.adapters.add('expressMiddleware');
    }
    if (!unregistered.has(methodKey)) {
      plugin.routes.push('loop' in route ? { ...route } : route);
      for (const h of 'hooks' in route ? route.hooks : []) {
        const adapter = /^(expressParam|expressMiddleware|expressWildcard)\(/.exec(h)?.[1];
        if (adapter) plugin.adapters.add(adapter);
        const like = /^(wildcardLikeExpress|paramsLikeExpress)\b/.exec(h)?.[1];
        if (like) plugin.likeExpress.add(like);
      }
      if ('chain' in route && route.chain) plugin.adapters.add('expressChain');
      // A package's Express function as the handler: the route ends at the app's 404 when it calls next() (package-handler.ts).
      if ('handler' in route && 'reference' in route.handler && route.handler.reference === NOT_FOUND_AFTER_NEXT) plugin.adapters.add(NOT_FOUND_AFTER_NEXT);
      unregistered.add(methodKey);
    }
    if (!unregistered.has(s.statementKey!)) {
      // Later Express middleware may run for it: the registration stays as a hand-over (hand-over.ts).
      add(r.registration.file, { kind: s.handOver ? 'hand-over' : 'unregister', statement: anchorOf(s.statement!.statement) });
      if (s.handOver) plugin.adapters.add('movedToFastify');
      unregistered.add(s.statementKey!);
    }
    rewriteOnce(ctx, s, add, once, likeImport);
    // An inline handler is rewritten in the plugin's file.
    if (!s.rewrite) s.likeExpress.forEach((f) => plugin.likeExpress.add(f));
  }
  return plugins;
}

/** The import of the fastify-like-express module's functions `names` into `file` (like-express.ts). */
type LikeImport = (file: string, appId: string, names: Iterable<string>) => RewriteEntry['likeExpress'];

/** What moving `s` rewrites besides its registration, each once: inline param callbacks named, wrappers unwrapped, helpers and handlers rewritten where they are. */
function rewriteOnce(ctx: PlanContext, s: RouteState, add: (file: string, entry: RoutesEntry) => void, once: (key: string) => boolean, likeImport: LikeImport): void {
  for (const n of s.nameCallbacks) if (once(`${n.statement.line}:${n.name}`)) add(s.route.registration.file, { kind: 'name-callback', statement: n.statement, name: n.name });
  for (const h of s.helpers) if (once(`${h.file}:${h.fn.node.start}`)) add(h.file, { kind: 'rewrite', fn: anchorOf(h.fn), options: h.options, helpers: h.names, module: moduleOf(ctx, h.file), ...withImport(likeImport(h.file, s.route.appId, h.likeExpress)) });
  for (const u of s.unwraps) if (once(`unwrap:${u.file}:${u.call ? u.call.node.start : s.statementKey}:${u.local}`)) add(u.file, { kind: 'unwrap', call: u.call ? anchorOf(u.call) : null, local: u.local });
  if (s.rewrite && once(s.handlerKey!)) add(s.rewrite.file, { kind: 'rewrite', fn: anchorOf(s.rewrite.fn), options: s.rewrite.options, ...(s.rewrite.helpers.length ? { helpers: s.rewrite.helpers } : {}), module: moduleOf(ctx, s.rewrite.file), ...withImport(likeImport(s.rewrite.file, s.route.appId, s.likeExpress)) });
}

/** A registrar that moves whole, as its routes fill it: the entry without its adapters' import, and the app whose hooks module they come from. */
interface RegistrarDraft {
  entry: Omit<RegistrarEntry, 'adapters'>;
  adapters: Set<string>;
  app: string;
}

/**
 * A route of a registrar that moves whole (registrars.ts): its call goes into the plugin of the
 * router it was given (once per call, deleted where it was), its registration is rewritten in the
 * registrar once (one statement per method; a loop over a route table once).
 */
function placeRegistrar(s: RouteState, plugin: PluginDraft, registrars: Map<string, RegistrarDraft>, done: Set<string>, add: (file: string, entry: RoutesEntry) => void): void {
  const { registrar, route: r } = s;
  const call = registrar!.call;
  const callKey = `${call.file}:${call.statement.node.loc?.start.line}`;
  if (!done.has(`${plugin.file}\0${plugin.owner}\0${callKey}`)) {
    plugin.routes.push({ call: anchorOf(call.statement), index: registrar!.param.index, comments: [] });
    done.add(`${plugin.file}\0${plugin.owner}\0${callKey}`);
  }
  if (!done.has(callKey)) {
    add(call.file, { kind: 'unregister', statement: anchorOf(call.statement) });
    done.add(callKey);
  }
  const draft = registrars.get(registrar!.key) ?? { entry: { kind: 'registrar' as const, fn: registrar!.fn, param: registrar!.param.name, typescript: isTypeScript(registrar!.file), module: 'commonjs' as const, registrations: [] }, adapters: new Set<string>(), app: r.appId };
  registrars.set(registrar!.key, draft);
  const route = s.pluginRoute!;
  if ('loop' in route) {
    const placed = draft.entry.registrations.find((p): p is PluginLoop => 'loop' in p && p.loop.line === route.loop.line && p.loop.text === route.loop.text);
    if (placed) placed.form = route.form === 'flat' ? 'flat' : placed.form;
    else draft.entry.registrations.push({ ...route });
    if (route.form !== 'none') draft.adapters.add('expressMiddleware');
    return;
  }
  const statement = anchorOf(s.statement!.statement);
  const placed = draft.entry.registrations.find((p): p is { statement: typeof statement; routes: PluginRoute[] } => 'statement' in p && p.statement.line === statement.line && p.statement.text === statement.text);
  const entry = placed ?? { statement, routes: [] as PluginRoute[] };
  if (!placed) draft.entry.registrations.push(entry);
  if (entry.routes.some((x) => x.method === route.method)) return;
  entry.routes.push(route);
  for (const h of route.hooks) {
    const adapter = /^(expressParam|expressMiddleware|expressWildcard)\(/.exec(h)?.[1];
    if (adapter) draft.adapters.add(adapter);
  }
}

/** The registrars that move whole, each rewritten where it is defined, importing the adapters its hooks use from the hooks module of its app's server module. */
function addRegistrars(ctx: PlanContext, settled: Settled, registrars: Map<string, RegistrarDraft>, add: (file: string, entry: RoutesEntry) => void): void {
  for (const [key, draft] of registrars) {
    const file = key.replace(/:\d+:\d+$/, '');
    const target = settled.selection.modules.get(draft.app)!;
    const reg = settled.parsed(file)!;
    const module = moduleSystemOfFile(ctx.inventory, file, reg.source);
    const hooksFile = hooksModuleFile(target.file);
    const importer = [reg.source, ctx.inventory.project.entry ? (ctx.readFile(ctx.inventory.project.entry) ?? '') : ''].join('\n');
    const adapters = draft.adapters.size ? { specifier: importSpecifier(file, { file: hooksFile, module, typescript: isTypeScript(hooksFile) }, importer), names: [...draft.adapters].sort() } : null;
    add(file, { ...draft.entry, module, adapters });
  }
}

/**
 * Each plugin written in its file (with the router's error handler when it moves too), registered
 * in the server module of its app under its prefixes, @fastify/view registered there when a moved
 * route of the app renders, and the hooks module created next to each server module that lacks
 * one. Returns the packages @fastify/view's registration needs.
 */
function registerPlugins(ctx: PlanContext, settled: Settled, plugins: Map<string, PluginDraft>, add: (file: string, entry: RoutesEntry) => void, files: Map<string, FilePlan<RoutesEntry>>): Record<string, string> {
  const { selection, states, parsed, handlers, views } = settled;
  const registrations = new Map<string, RegisterEntry>();
  const namesGiven = new Map<string, Set<string>>();
  const viewDependencies: Record<string, string> = {};
  for (const p of plugins.values()) {
    const target = selection.modules.get(p.app)!;
    const reg = parsed(p.file)!;
    // A registrar's handed-over plugin: the one a former run wrote at its end, or `<app>HandedRoutes`.
    const handedBefore = p.nested ? new RegExp(`${HAND_ROUTES}\\(${p.nested.receiver}, (?:async )?function (\\w+)\\(`).exec(reg.source)?.[1] : undefined;
    const name = handedBefore ?? pluginName(ctx, p.file, p.owner, reg, namesGiven, p.nested ? `${p.receiver}Handed` : [...plugins.values()].filter((o) => o.file === p.file).length > 1 ? p.receiver : null);
    const module = moduleSystemOfFile(ctx.inventory, p.file, reg.source);
    const hooksFile = hooksModuleFile(target.file);
    // How the project writes relative specifiers (with `.js` under NodeNext), read from the file and the entry.
    const importer = [reg.source, ctx.inventory.project.entry ? (ctx.readFile(ctx.inventory.project.entry) ?? '') : ''].join('\n');
    const adapters = p.adapters.size ? { specifier: importSpecifier(p.file, { file: hooksFile, module, typescript: isTypeScript(hooksFile) }, importer), names: [...p.adapters].sort() } : null;
    const errors = handlers.find((h) => !h.blocker && h.ownerId === p.owner && h.file === p.file && h.covers.every((id) => !states.get(id)?.blockers.length));
    if (errors) add(p.file, { kind: 'unregister', statement: anchorOf(errors.statement) });
    if (errors?.rewrite) add(errors.rewrite.file, { kind: 'rewrite', fn: anchorOf(errors.rewrite.fn), options: errors.rewrite.options, module: moduleOf(ctx, errors.rewrite.file) });
    // The file that starts the app hands its plugin to buildFastify; the server module imports the others (start-file.ts);
    // a registrar that stays hands the plugin at its end over when it runs (registrars.ts nestedOf).
    const nested = p.nested ? { fn: p.nested.fn, receiver: p.nested.receiver, specifier: importSpecifier(p.file, { file: target.file, module, typescript: target.typescript }, importer), ...(p.nested.inLoop ? { inLoop: p.nested.inLoop } : {}) } : undefined;
    const handed = !nested && startsApp(ctx, p.file);
    add(p.file, { kind: 'plugin', name, of: ownerLabel(ctx.inventory, p.owner), module, typescript: isTypeScript(p.file), routes: p.routes, adapters, ...withImport(likeExpressImport(ctx, target, p.file, p.likeExpress)), ...(errors ? { errorHandler: errors.handler } : {}), ...(handed ? { handed } : {}), ...(nested ? { nested } : {}) });
    // How the project writes relative specifiers, read from the server module and the entry (a module the shim wrote has none of its own).
    const serverImporter = [target.source, ctx.inventory.project.entry ? (ctx.readFile(ctx.inventory.project.entry) ?? '') : ''].join('\n');
    const register = registrations.get(target.file) ?? { kind: 'register' as const, plugins: [], module: target.module, typescript: target.typescript, hooksSpecifier: importSpecifier(target.file, { file: hooksFile, module: target.module, typescript: target.typescript }, serverImporter) };
    registrations.set(target.file, register);
    // The app's middleware replaces req.query in the bridge: the moved routes read Express's (query-hand-over.ts).
    register.queryFrom ??= queryReplacedBy(ctx, p.app) ?? undefined;
    // The app's method-override: the listener applies it before Fastify routes (method-override.ts).
    const override = methodOverrideOf(ctx.inventory, p.app);
    if (override && !('refuse' in override)) register.methodOverride ??= override;
    if (nested) register.handedByApp = true;
    else if (handed) {
      add(p.file, { kind: 'hand-routes', plugin: name, prefixes: [...p.prefixes].sort() });
      register.handed = true;
    } else register.plugins.push({ name, specifier: importSpecifier(target.file, { file: p.file, module: target.module, typescript: isTypeScript(p.file) }, serverImporter), prefixes: [...p.prefixes].sort(), from: p.file });
    const rendering = [...states.values()].find((s) => !s.blockers.length && s.route.appId === p.app && s.plugins.includes('@fastify/view'));
    const registration = rendering ? views(rendering.route).registration : null;
    if (registration && !('refuse' in registration)) {
      register.views = { imports: registration.imports, statements: registration.statements, ...(registration.renderLikeExpress ? { renderLikeExpress: registration.renderLikeExpress } : {}), ...(registration.renderLikeExpressType ? { renderLikeExpressType: registration.renderLikeExpressType } : {}) };
      Object.assign(viewDependencies, registration.dependencies);
    }
  }
  // The fastify-like-express module next to each server module whose moved handlers or hooks call it.
  const calling = new Set([...[...states.values()].filter((s) => !s.blockers.length && (s.likeExpress.length || s.helpers.some((h) => h.likeExpress.length))).map((s) => s.route.appId), ...settled.hooks.filter((h) => h.likeExpress.length).map((h) => h.appId), ...[...plugins.values()].filter((p) => p.likeExpress.size).map((p) => p.app)]);
  for (const appId of calling) {
    const plan = likeExpressModulePlan(ctx, selection.modules.get(appId)!);
    if (plan) files.set(plan.file, plan);
  }
  for (const [file, entry] of registrations) {
    const target = [...selection.modules.values()].find((m) => m?.file === file)!;
    const handOver = [...states.values()].some((s) => !s.blockers.length && s.handOver && selection.modules.get(s.route.appId)?.file === file);
    // notFoundAfterNext, and the not-found handler buildFastify keeps for it, where a moved route's handler is a package's function.
    const notFound = [...plugins.values()].some((p) => selection.modules.get(p.app)?.file === file && p.adapters.has(NOT_FOUND_AFTER_NEXT));
    add(file, { ...entry, ...(handOver ? { handOver } : {}), ...(notFound ? { notFoundAfterNext: true } : {}) });
    const hooksFile = hooksModuleFile(file);
    // expressChain only where a moved route of the module's apps is registered with arrays (chains.ts).
    const chains = [...plugins.values()].some((p) => selection.modules.get(p.app)?.file === file && p.adapters.has('expressChain'));
    const facts = { kind: 'hooks-module' as const, module: target.module, typescript: target.typescript, expressMajor: ctx.inventory.project.expressVersion.major === 5 ? (5 as const) : (4 as const), ...(chains ? { chains } : {}), ...(handOver ? { handOver } : {}), ...(notFound ? { notFound } : {}) };
    const existing = ctx.readFile(hooksFile);
    if (existing === null) files.set(hooksFile, { file: hooksFile, create: true, entries: [facts] });
    // A hooks module written by an earlier run gains what a route moved now needs (expressChain, the hand-over's functions, notFoundAfterNext).
    else if (lacksChains(facts, existing) || lacksNotFound(facts, existing) || (handOver && !/\bfunction movedToFastify\(/.test(existing))) files.set(hooksFile, { file: hooksFile, entries: [facts] });
  }
  return viewDependencies;
}

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

/** `{ likeExpress }` when there is an import to add, else nothing. */
function withImport(likeExpress: RewriteEntry['likeExpress']): Pick<RewriteEntry, 'likeExpress'> {
  return likeExpress ? { likeExpress } : {};
}

const ASYNC_REJECTION = FRAMEWORK_DEFAULTS['async-rejection'];
const NEXT_NON_ERROR = FRAMEWORK_DEFAULTS['next-non-error'];

/**
 * The framework deltas of moved routes: always ETag (`likeExpress`: some answers run Express's own
 * res.send, which keeps it), the redirect body when a moved router's error handler redirects, the rejections of
 * async handlers and native hooks in an Express 4 app (`async-rejection`, read-route.ts,
 * native-hooks.ts), a value that is not an Error where next(err) became reply.send(err)
 * (`next-non-error`, flow.ts), a directory given to res.sendFile when one sends files, and OPTIONS when a
 * route left Express (`unregistered`): Express still answers OPTIONS for the path of a route that
 * hands over, from its registration.
 */
function deltaTexts(ids: Set<string>, likeExpress: boolean, unregistered: boolean): FrameworkDelta[] {
  const out: FrameworkDelta[] = [
    {
      text: `Answers of the moved routes leave through Fastify's reply: no automatic weak ETag and no 304 for a matching If-None-Match (Express's res.send added both)${likeExpress ? ", except those sent through the generated fastify-like-express module (Express's own res.send)" : ''}; register @fastify/etag ({ weak: true }) if clients rely on them.`,
      restoredByParityExpress: false,
    },
  ];
  if (ids.has('redirect-body')) out.push({ text: "Redirects the moved routers' error handlers answer have an empty body and no Vary: Accept (Express sent 'Found. Redirecting to …'); browsers and clients follow the Location header either way.", restoredByParityExpress: false });
  if (ids.has('async-rejection')) out.push({ text: `${ASYNC_REJECTION.title} (async handlers and hooks, generators co.wrap runs, on the moved routes): ${ASYNC_REJECTION.express} ${ASYNC_REJECTION.fastify} ${ASYNC_REJECTION.fix}`, restoredByParityExpress: false });
  if (ids.has('next-non-error')) out.push({ text: `${NEXT_NON_ERROR.title} (next(err) in a sync handler or a callback of a moved route is reply.send(err)): ${NEXT_NON_ERROR.express} ${NEXT_NON_ERROR.fastify} ${NEXT_NON_ERROR.fix}`, restoredByParityExpress: false });
  if (ids.has('send-file-directory')) out.push({ text: "res.sendFile on the moved routes runs Express's own (headers, ranges, 304 and errors as before), but a path that names a directory, where Express went on to its next route or 404, gives the error handler a 404 error.", restoredByParityExpress: false });
  if (unregistered) out.push({ text: "OPTIONS for the paths of the moved routes: Express answered 200 with an Allow header, Fastify answers 404; @fastify/cors answers CORS preflights, or add an options route where clients need it.", restoredByParityExpress: false });
  return out;
}

