/**
 * The app's middleware that an official plugin registered at the root of the Fastify server
 * replaces (`plugins` stage, issue 19 item 1): those whose catalogue entry names a `rootPlugin`
 * (cors → @fastify/cors, helmet → @fastify/helmet). The plugin's hook runs at `onRequest` for
 * every request, those the Express app answers too (the Express hook puts the headers Fastify's
 * hooks set on Node's response before the app runs), so one moves only when it ran for them all and
 * nothing before it made an answer it did not see:
 * - registered on the app itself at `/`, under no condition, in a statement of its own
 *   (every-request.ts);
 * - everything the app registered before it is either moving to the Fastify server too, earlier (a
 *   root plugin, a server option: registered in the app's order), or ends no request and changes
 *   nothing it reads (catalogue `passesEveryRequest`; method-override where the generated module's
 *   listener applies it before Fastify routes, so the plugin's hook reads the method it made) — for a plugin that answers requests itself
 *   (cors's preflights, made before Express runs) one that adds headers to answers stays in the way,
 *   since those answers would lose them —, or is a body parser: a parser ends only the requests whose
 *   body it refuses (the error handler's answers: 400, 413, 415, or what it maps them to), which
 *   then carry the plugin's headers, where they did not in Express. Under the default parity policy that is a framework delta the summary names
 *   (`plugin-headers-on-refused-bodies`); under `--parity express` the middleware stays. A request
 *   logger that stays before a plugin answering requests itself no longer logs those (the summary
 *   says so);
 * - its options translate exactly (root-plugin-options.ts);
 * - a plugin that answers requests itself does not run into a moved route of the same method and
 *   path (@fastify/cors registers `OPTIONS *`), and under `--parity express` the app sends no
 *   X-Powered-By (those answers, made before the Express app runs, lack it).
 * A moving middleware that removed X-Powered-By (helmet's `xPoweredBy`, on unless the app turns it
 * off) leaves `app.disable('x-powered-by')` in its place when the app sends it: Express sets the
 * header as it starts handling a request, after the plugin ran.
 */
import type { App, Location, Middleware, Route } from '../../analyzer/model.js';
import { middlewareFor, packageRoot, type MiddlewareEntry } from '../../rules/catalogue/middleware.js';
import { appVersion } from '../../rules/lookups.js';
import type { Anchor } from '../lib/anchor.js';
import type { PlanContext } from '../model.js';
import { isBodyParser } from './body-parsers.js';
import { appFunctionAccess, functionOptions, type AppFunctionAccess, type LiftedNames } from './app-functions.js';
import { generatedModuleFor, moduleImports, type GeneratedModule } from './locate.js';
import { appliesMethodOverride } from './method-override.js';
import { notForEveryRequest } from './every-request.js';
import { notDeletable, registrationAnchorOf } from './registration-anchor.js';
import { optionMiddlewareOf } from './option-middleware.js';
import { sendsPoweredBy } from './powered-by.js';
import { rootPluginOptions } from './root-plugin-options.js';

/** A middleware leaving the Express app for its plugin at the root of the Fastify server. */
export interface RootPlugin {
  middlewareId: string;
  /** As written (`cors`), and the catalogue's package. */
  name: string;
  package: string;
  /** The factory as written (`cors`), for the summary and the comment above the registration. */
  callee: string;
  /** Where the factory is called: the file whose import of the package it uses. */
  factory: Location;
  registration: Location;
  /** The registration's call as the plan read it (lib/anchor.ts), for the step that deletes it. */
  anchor: Anchor;
  /** The plugin: its package (`@fastify/cors`) and the local name it is imported as. */
  plugin: { specifier: string; local: string };
  /** Its options as source (`{ methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false }`). */
  options: string;
  /** How the generated module reaches the app's functions among its options (cors's `origin`). */
  functions: AppFunctionAccess[];
  /** The source calling the app's origin function, which the plugin asks per request (root-plugin-registration.ts). */
  delegate?: string;
  /** Headers the middleware sent that the plugin has no option for (helmet 4's `Expect-CT`), set by a hook registered after it; and the version it came from, for the comment. */
  headers?: { values: Record<string, string>; version: string };
  /** It removed X-Powered-By in Express (helmet): the app's own answers never had it. */
  removesPoweredBy: boolean;
  /** The middleware's statement becomes `app.disable('x-powered-by')` (module comment). */
  disablesPoweredBy: boolean;
  /** What changes, one sentence each (the summary's deltas), and whether `--parity express` keeps it from changing (the middleware then stays). */
  deltas: Array<{ text: string; restoredByParityExpress: boolean }>;
}

/** The app's middleware that move to root plugins, and those of the same packages that stay, each with why. */
export interface RootPluginsOf {
  moving: RootPlugin[];
  kept: Array<{ middlewareId: string; package: string; registration: Location; reason: string }>;
}

/** The middleware of `app` whose catalogue entry names a root plugin, and which of them move (module comment). */
export function rootPluginsOf(ctx: PlanContext, app: App): RootPluginsOf {
  const out: RootPluginsOf = { moving: [], kept: [] };
  const moving = new Set(optionMiddlewareOf(ctx, app).moving.map((m) => m.middlewareId));
  // Whether the app's answers still carry X-Powered-By where the next one runs (a helmet before it removed it).
  let poweredBy = sendsPoweredBy(ctx.inventory, app.id);
  // The plugins that move, each with the middleware that takes it (`cors (app.js:9)`).
  const plugins = new Map<string, string>();
  // The names functions lifted out of their options take (app-functions.ts).
  const given: LiftedNames = new Map();
  const ordered = ctx.inventory.middleware.filter((m) => m.appId === app.id && m.framework === 'express').sort((a, b) => a.order - b.order);
  for (const m of ordered) {
    const entry = m.package ? middlewareFor(m.name, m.package) : undefined;
    if (!entry?.rootPlugin) continue;
    const decided = decide(ctx, app, m, entry, { moving, plugins, given }, poweredBy);
    if ('reason' in decided) out.kept.push({ middlewareId: m.id, package: entry.package, registration: m.registration, reason: decided.reason });
    else {
      out.moving.push(decided);
      moving.add(m.id);
      plugins.set(decided.plugin.specifier, `${decided.callee} (${decided.registration.file}:${decided.registration.line})`);
      if (decided.removesPoweredBy) poweredBy = false;
    }
  }
  return out;
}

/**
 * What the app ran before `m` that stays on Express (module comment): the body parsers and request
 * loggers, which let it move; or why something else keeps it, a sentence ending with its place.
 * `overridden`: the module's listener applies the app's method override before Fastify routes.
 */
function ranBefore(ctx: PlanContext, app: App, m: Middleware, plugin: string, answers: boolean, moving: ReadonlySet<string>, overridden: boolean): { parsers: Middleware[]; loggers: Middleware[] } | { reason: string } {
  const at = `${m.registration.file}:${m.registration.line}`;
  const out = { parsers: [] as Middleware[], loggers: [] as Middleware[] };
  for (const o of [...ctx.inventory.middleware, ...ctx.inventory.routes]) {
    if (o.appId !== app.id || o.order >= m.order || o.framework !== 'express' || moving.has(o.id)) continue;
    if ('key' in o) return { reason: `route ${(o as Route).key} (${o.registration.file}:${o.registration.line}) comes before it in Express, so it did not run for that route's requests, where ${plugin} would (${at})` };
    const before = o as Middleware;
    if (isBodyParser(before)) {
      out.parsers.push(before);
      continue;
    }
    const catalogued = before.package ? middlewareFor(before.name, before.package) : undefined;
    // method-override ends no request; where the module's listener applies it before Fastify routes, the plugin's hook sees the method it made (method-override.ts).
    const passes = catalogued?.overridesMethod && overridden ? 'unchanged' : catalogued?.passesEveryRequest;
    if (!passes) return { reason: `middleware ${before.name} (${before.registration.file}:${before.registration.line}) comes before it in Express and may answer requests it never saw, which ${plugin} would see (${at})` };
    if (passes === 'log') out.loggers.push(before);
    if (answers && passes === 'headers') return { reason: `middleware ${before.name} (${before.registration.file}:${before.registration.line}) comes before it in Express and adds headers to the answers it gives itself (preflights), which ${plugin} gives before the Express app runs (${at})` };
  }
  const handOver = (app.handOvers ?? []).find((h) => h.order < m.order);
  if (handOver) return { reason: `the moved route ${handOver.methods.join(', ')} ${handOver.fullPath} (${handOver.registration.file}:${handOver.registration.line}) comes before it in Express, so it did not run for that route's requests, where ${plugin} would (${at})` };
  return out;
}

/**
 * The move of `m` (module comment), or why it stays: a sentence ending with its place. `run`: the
 * ids of the app's middleware that leave before it (`moving`), the plugins they take (`plugins`,
 * each with the middleware taking it), the names given to functions lifted so far (`given`);
 * `poweredBy`: whether the answers it made carried Express's X-Powered-By (the app sends it, and no
 * helmet before it removed it).
 */
function decide(ctx: PlanContext, app: App, m: Middleware, entry: MiddlewareEntry, run: { moving: ReadonlySet<string>; plugins: ReadonlyMap<string, string>; given: LiftedNames }, poweredBy: boolean): RootPlugin | { reason: string } {
  const { moving, plugins: movingPlugins } = run;
  const at = `${m.registration.file}:${m.registration.line}`;
  const plugin = entry.fastify;
  const callee = m.factory?.callee ?? m.name;
  if (/\./.test(callee)) return { reason: `${callee} is one part of ${entry.package}; only ${entry.package}() itself moves to ${plugin} (${at})` };
  const partial = notForEveryRequest(ctx, app, m, `${plugin} would run for every request`);
  if (partial) return { reason: partial };
  // One registration per server: the plugin decorates the request and registers its OPTIONS route once.
  const first = movingPlugins.get(plugin);
  if (first) return { reason: `${first} moves to ${plugin} already, which a Fastify server registers once (${at})` };
  const module = generatedModuleFor(ctx, app);
  if (module && moduleImports(module, plugin)) return { reason: `the generated module registers ${plugin} already (${module.file}); merge its options with these by hand (${at})` };
  const answers = entry.rootPlugin!.answers !== undefined;
  const before = ranBefore(ctx, app, m, plugin, answers, moving, appliesMethodOverride(module?.source ?? ''));
  if ('reason' in before) return before;
  const { parsers: parsersBefore, loggers: loggersBefore } = before;
  if (parsersBefore.length && ctx.parity === 'express') return { reason: `--parity express: the body parser ${parsersBefore[0].name} (${parsersBefore[0].registration.file}:${parsersBefore[0].registration.line}) comes before it, so the answers to the bodies it refuses did not carry its headers, which ${plugin} would add (${at})` };
  const functions = module ? carriedFunctions(ctx, module, m, entry, run.given) : {};
  if ('refuse' in functions) return { reason: `${functions.refuse} (${at})` };
  const version = appVersion(ctx.inventory.project, packageRoot(entry.package))?.version ?? null;
  const options = rootPluginOptions(entry, m.factory?.args ?? [], version, Object.fromEntries(Object.entries(functions).map(([path, access]) => [path, access.callee])));
  if ('refuse' in options) return { reason: `${options.refuse} (${at})` };
  if (answers) {
    const clash = ctx.inventory.routes.find((r) => r.appId === app.id && r.framework === 'fastify' && ['OPTIONS *', 'OPTIONS /*'].includes(r.key));
    if (clash) return { reason: `the moved route ${clash.key} (${clash.registration.file}:${clash.registration.line}) has the method and path ${plugin} registers for preflights (${at})` };
    if (poweredBy && ctx.parity === 'express') return { reason: `--parity express: its answers to OPTIONS requests carried Express's X-Powered-By, which ${plugin}'s, made before the Express app runs, lack (${at})` };
  }
  const anchor = registrationAnchorOf(ctx, m);
  if (!anchor) return { reason: notDeletable(m) };
  // helmet removed X-Powered-By unless its options (as helmet 8 reads them) say not to.
  const removesPoweredBy = entry.package === 'helmet' && options.value.xPoweredBy !== false && options.value.hidePoweredBy !== false;
  const deltas: RootPlugin['deltas'] = [];
  const parsers = parsersBefore.map((p) => `${p.name} (${p.registration.file}:${p.registration.line})`).join(', ');
  const poweredByGoes = removesPoweredBy && poweredBy ? ' and lose X-Powered-By (the app now turns it off)' : '';
  if (parsersBefore.length) deltas.push({ text: `the answers to bodies ${parsers} refuse${parsersBefore.length === 1 ? 's' : ''} (the error handler's answers: 400, 413, 415 unless it maps them) now carry ${callee}'s headers${poweredByGoes}: it ran after ${parsersBefore.length === 1 ? 'that parser' : 'those parsers'} in Express, ${plugin} runs before them (framework delta plugin-headers-on-refused-bodies)`, restoredByParityExpress: true });
  // A logger that stays on Express no longer sees the requests the plugin answers (the log's difference, not a client's).
  if (answers) for (const l of loggersBefore) deltas.push({ text: `${l.name} (${l.registration.file}:${l.registration.line}) no longer logs the OPTIONS requests ${plugin} answers: it answers them before the Express app runs`, restoredByParityExpress: false });
  if (answers && poweredBy) deltas.push({ text: 'its answers to OPTIONS requests no longer carry X-Powered-By: Express (framework delta x-powered-by)', restoredByParityExpress: true });
  return {
    middlewareId: m.id,
    name: m.name,
    package: entry.package,
    callee,
    factory: m.factory?.location ?? m.registration,
    registration: m.registration,
    anchor,
    plugin: { specifier: plugin, local: entry.rootPlugin!.local },
    options: options.source,
    functions: Object.values(functions),
    ...(options.delegate ? { delegate: options.delegate } : {}),
    ...(options.headers ? { headers: { values: options.headers, version: version! } } : {}),
    removesPoweredBy,
    disablesPoweredBy: removesPoweredBy && poweredBy,
    deltas,
  };
}

/**
 * How `module` reaches the app's functions among `m`'s options that the plugin calls as the
 * middleware did (catalogue `rootPlugin.carries`: cors's `origin`), by path; none when another part
 * of the options is known only at run time (the translator says why), or why one cannot be reached.
 */
function carriedFunctions(ctx: PlanContext, module: GeneratedModule, m: Middleware, entry: MiddlewareEntry, given: LiftedNames): Record<string, AppFunctionAccess> | { refuse: string } {
  const found = functionOptions(m.factory?.args[0], new Set(entry.rootPlugin!.carries ?? [])) ?? [];
  const out: Record<string, AppFunctionAccess> = {};
  for (const fn of found) {
    const access = appFunctionAccess(ctx, module, fn.function.location, `${entry.package}${fn.path[0].toUpperCase()}${fn.path.slice(1)}`, given);
    if ('refuse' in access) return { refuse: `its ${fn.path}: ${access.refuse}` };
    out[fn.path] = access;
  }
  return out;
}
