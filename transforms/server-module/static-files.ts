/**
 * Which static mounts of an Express app leave it for @fastify/static (`plugins` stage, issue 18
 * item 3), read from the inventory (`staticMounts[]` and their `middleware[]` records, with the
 * folded factory arguments) and from the folder on disk at plan time (static-folder.ts).
 *
 * A mount moves when all of these hold, checked in this order (the first that fails is its reason):
 * - it is `express.static` or `serve-static`, registered on the app itself, under no condition, in
 *   a statement of its own (the step deletes that statement: Express then never runs it again, not
 *   even for a missing file, which Fastify hands to the app through the not-found handler's hook);
 * - its folder and options are known before run time, and every option has a @fastify/static
 *   counterpart (OPTIONS): `setHeaders`, the app's function written for Express's response, is
 *   carried (app-functions.ts) when it only writes headers of the response that
 *   `staticResponseLikeExpress` gives it over Fastify's reply (SET_HEADERS_USES); `fallthrough: false`
 *   answers a missing file with an error where Fastify goes on to the app;
 * - its folder exists; under Express 4 without `dotfiles`, it holds no file inside a dot-folder
 *   (send 0.19 ignores only a path whose last segment starts with a dot, @fastify/send any
 *   segment); under a mount path, it has no index at its root (Fastify, which the shim set to
 *   ignore a trailing slash, routes `/static/` as `/static`, which @fastify/static's `/static/*`
 *   does not match);
 * - nothing but the app's body parsers (which read no GET or HEAD without a body) and static mounts
 *   that move too runs before it in Express for its requests: Fastify serves the file before any
 *   Express middleware; a second mount at the same path stays (one wildcard route per prefix);
 * - no earlier mount that moves serves a path this folder also has (`/assets` before `/` with a
 *   public/assets/): a file missing there fell through to this folder in Express;
 * - no route, moved or not, answers a URL a file or folder of it answers: Express picks by order,
 *   find-my-way the most specific route whatever the order;
 * - not `--parity express`: @fastify/static answers some requests otherwise (staticDeltas).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { App, Inventory, Location, Middleware, Route, StaticMount } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';
import { appFunctionAccess, functionOptions, type AppFunctionAccess, type FunctionOption, type LiftedNames } from './app-functions.js';
import type { GeneratedModule } from './locate.js';
import { FRAMEWORK_DEFAULTS, type FrameworkDefault, type FrameworkDefaultId } from '../../rules/catalogue/framework-defaults.js';
import { overlaps } from '../lib/route-overlap.js';
import { isRebuiltBodyParser } from './body-parsers.js';
import { optionMiddlewareOf } from './option-middleware.js';
import { rootPluginsOf } from './root-plugins.js';
import { filesInDotFolders, folderEntries, rootIndexes, servedUrls } from './static-folder.js';
import type { Anchor } from '../lib/anchor.js';
import { notDeletable, registrationAnchorOf } from './registration-anchor.js';

/** serve-static options and what @fastify/static takes for each (`null`: none, the mount stays). Sources: serve-static 1.16.3/2.2.1 README, @fastify/static 10.1 index.js `sendOptions`. */
export const OPTIONS: Record<string, string | null> = {
  index: 'index',
  dotfiles: 'dotfiles',
  maxAge: 'maxAge',
  immutable: 'immutable',
  etag: 'etag',
  lastModified: 'lastModified',
  redirect: 'redirect',
  extensions: 'extensions',
  acceptRanges: 'acceptRanges',
  cacheControl: 'cacheControl',
  // true is serve-static's default and what the not-found handler's hook does; false stays (below).
  fallthrough: null,
  // The app's function, carried (SET_HEADERS_USES).
  setHeaders: null,
};

/**
 * What an app's `setHeaders(res, path, stat)` may do with `res` to be carried: write headers, with
 * the methods `staticResponseLikeExpress` (static-registration.ts) gives it over Fastify's reply —
 * Node's `setHeader`, and Express's `set`/`header` — each with one literal header name. serve-static
 * calls it before send sets its own headers, which do not replace the app's (send index.js
 * setHeader); @fastify/static after, replacing them: the app's headers win either way, but for
 * those UNCARRIED_HEADERS names. Reading or removing a header differs (the app saw none of send's
 * in Express), so those stay.
 */
export const SET_HEADERS_USES: ReadonlySet<string> = new Set(['setHeader', 'set', 'header']);

/**
 * Headers a carried setHeaders may not write: ETag and Last-Modified (send compared the app's
 * with If-None-Match / If-Modified-Since, @fastify/send decides a 304 before setHeaders runs), and
 * Content-Type through Express's `set`/`header` (Express adds a charset: lib/response.js) — checked
 * lower-cased; `content-type` is allowed with Node's setHeader.
 */
const UNCARRIED_HEADERS: Record<string, ReadonlySet<string>> = {
  setHeader: new Set(['etag', 'last-modified']),
  set: new Set(['etag', 'last-modified', 'content-type']),
  header: new Set(['etag', 'last-modified', 'content-type']),
};

/**
 * The differences @fastify/static keeps whatever the options (rules/catalogue/framework-defaults.ts,
 * probed against express 4.22.3 and 5.x's serve-static 2.2.1, @fastify/static 10.1.11): reported
 * under the default parity policy, a reason to stay under `--parity express`. A mount under a path
 * adds `static-mount-case`.
 */
export function staticDeltas(mounts: Array<Pick<MovingMount, 'prefix'>>): FrameworkDefault[] {
  const ids: FrameworkDefaultId[] = ['static-content-type', 'static-redirect-page', 'static-forbidden-path', 'static-range-unsatisfiable', ...(mounts.some((m) => m.prefix !== '/') ? (['static-mount-case'] as const) : [])];
  return ids.map((id) => FRAMEWORK_DEFAULTS[id]);
}

/** A static mount that moves: what the module registers for it. */
export interface MovingMount {
  /** The StaticMount and Middleware ids. */
  id: string;
  middlewareId: string;
  /** `/static/` (a trailing slash: no redirect route of @fastify/static's own, see the module comment) or `/`. */
  prefix: string;
  /** The folder: from the module's folder (POSIX, for `path.join(__dirname, …)`), from the working directory (as serve-static resolved a relative path), or absolute. */
  root: { fromModule: string } | { fromCwd: string } | { absolute: string };
  /** The @fastify/static options after root and prefix, in the app's order, then the defaults that differ. */
  options: Array<[string, unknown]>;
  /** The mount path without its slash (`/static`) when a request for the folder itself is redirected (serve-static `redirect`). */
  folderRedirect?: string;
  /** Where the app registered it, and the statement the step deletes. */
  registration: Location;
  /** The registration's call as the plan read it (lib/anchor.ts): found there after an earlier step of the stage edited the file. */
  anchor: Anchor;
  statement: { start: { line: number; column: number } };
  /** As written (`express.static`, `serveStatic`), for comments. */
  name: string;
  /** The app's `setHeaders`, as the generated module reaches it, and how many parameters it declares. */
  setHeaders?: AppFunctionAccess & { parameters: number };
}

/** What the app's static mounts do in this run. */
export interface StaticFiles {
  moving: MovingMount[];
  /** The mounts that stay on the Express app, each with why (one sentence, with file:line). */
  kept: Array<{ id: string; registration: Location; reason: string }>;
}

/** The package the catalogue keys a static mount by. */
const STATIC = new Set(['express', 'serve-static']);

/**
 * The static mounts of `app` and which of them move (module comment), the generated module at
 * `moduleFile` registering the moving ones.
 */
export function staticFilesOf(ctx: PlanContext, app: App, module: GeneratedModule): StaticFiles {
  const inventory = ctx.inventory;
  const mounts = inventory.staticMounts.filter((s) => s.appId === app.id && STATIC.has(s.package));
  const middleware = new Map(inventory.middleware.map((m) => [m.id, m]));
  const out: StaticFiles = { moving: [], kept: [] };
  const given: LiftedNames = new Map();
  // The mounts that move, and the middleware plugins-server-options and plugins-middleware replace in the same run (they run first).
  const movingIds = new Set([...mounts.map((s) => s.middlewareId), ...optionMiddlewareOf(ctx, app).moving.map((m) => m.middlewareId), ...rootPluginsOf(ctx, app).moving.map((m) => m.middlewareId)]);
  for (const mount of mounts) {
    const m = middleware.get(mount.middlewareId);
    const headers = m ? setHeadersOf(ctx, module, m, given) : null;
    const stays = m ? whyStays(ctx, app, mount, m, movingIds, out.moving, headers) : 'the analysis has no middleware record of it';
    const anchor = stays || !m ? null : registrationAnchorOf(ctx, m);
    const reason = stays ?? (anchor ? null : notDeletable(m!));
    if (reason) {
      out.kept.push({ id: mount.id, registration: mount.registration, reason });
      movingIds.delete(mount.middlewareId);
    } else out.moving.push({ ...moving(ctx, mount, m!, module.file, out.moving.length === 0), anchor: anchor!, ...(headers ? { setHeaders: headers as AppFunctionAccess & { parameters: number } } : {}) });
  }
  return out;
}

/** The middleware ids of the mounts leaving the Express app in this run. */
export function leavingExpress(files: StaticFiles): Set<string> {
  return new Set(files.moving.map((m) => m.middlewareId));
}

/**
 * Why `mount` (middleware `m`) of `app` stays on Express, one sentence ending with its place, or
 * null when it moves: the conditions of the module comment, in their order. `movingIds` and `moved`
 * are the mounts before it that move (their middleware ids, and what they register); `headers` its
 * setHeaders as setHeadersOf carries it, or why not.
 */
function whyStays(ctx: PlanContext, app: App, mount: StaticMount, m: Middleware, movingIds: Set<string>, moved: MovingMount[], headers: ReturnType<typeof setHeadersOf>): string | null {
  const at = `${m.registration.file}:${m.registration.line}`;
  if (m.ownerId !== app.id || m.scope !== 'app') return `it is registered on a router or sub-app (${at}); only the app's own mounts move`;
  if (m.resolution !== 'exact') return `it is registered under a condition or in a way the analysis could not resolve (${at})`;
  if (!m.statement?.own || ctx.inventory.middleware.some((o) => o.id !== m.id && o.statement && sameStart(o.statement.start, m.statement!.start))) return `it is not a statement of its own (${at}): register it alone, \`app.use('/path', express.static(dir))\``;
  const [dir, opts] = m.factory?.args ?? [];
  if (!dir || dir.resolution !== 'exact' || typeof dir.value !== 'string') return `its folder \`${dir?.source ?? '?'}\` is known only at run time (${at})`;
  if (headers && 'refuse' in headers) return headers.refuse;
  if (opts && opts.resolution !== 'exact' && !carriedSetHeaders(m)) return `its options \`${opts.source}\` are known only at run time (${(opts.unresolved ?? []).map((u) => `${u.path || 'the object'}: ${u.reason}`).join('; ')}) (${at})`;
  const options = (opts?.value ?? {}) as Record<string, unknown>;
  if (typeof options !== 'object' || Array.isArray(options)) return `its options \`${opts?.source}\` are not an object (${at})`;
  if (options.fallthrough === false) return `fallthrough: false (${at}) answers a missing file with an error, where Fastify goes on to the Express app`;
  const unknown = Object.keys(options).find((k) => !(k in OPTIONS) || (OPTIONS[k] === null && k !== 'fallthrough'));
  if (unknown) return `its option \`${unknown}\` has no @fastify/static counterpart (${at})`;
  const folder = path.resolve(ctx.root, dir.value);
  const entries = folderEntries(folder);
  if (!entries.length) return `its folder ${rel(ctx, folder)} is empty or does not exist at plan time (${at}), so its files cannot be checked against the routes`;
  if (options.dotfiles === undefined && ctx.inventory.project.expressVersion.major === 4) {
    const dotted = filesInDotFolders(entries);
    if (dotted.length) return `Express 4 serves ${rel(ctx, path.join(folder, dotted[0]))} (send 0.19 ignores only a name starting with a dot), @fastify/send ignores any dot segment (${at})`;
  }
  if (mount.fullPath !== '/') {
    const [index] = rootIndexes(entries, options.index);
    if (index) return `its index ${rel(ctx, path.join(folder, index))} answers ${mount.fullPath}/, which Fastify (ignoring a trailing slash) routes as ${mount.fullPath}, outside @fastify/static's ${mount.fullPath}/* (${at})`;
  }
  const before = ctx.inventory.middleware.find((o) => o.appId === app.id && o.framework === 'express' && o.order < m.order && overlaps(`${o.fullPath}/*`, `${mount.fullPath}/*`) && !isRebuiltBodyParser(o) && !movingIds.has(o.id));
  if (before) return `Express middleware ${before.name} (${before.registration.file}:${before.registration.line}) runs before it, and would not run for the files Fastify serves (${at})`;
  const same = moved.find((o) => o.prefix === prefixOf(mount.fullPath));
  if (same) return `a static mount at ${mount.fullPath} moves already (${same.registration.file}:${same.registration.line}); @fastify/static registers one wildcard route per prefix (${at})`;
  const covering = moved.find((o) => `${mount.fullPath}/`.startsWith(o.prefix));
  if (covering) return `the static mount at ${covering.prefix} (${covering.registration.file}:${covering.registration.line}) runs before it in Express, and Fastify would prefer this one's more specific ${mount.fullPath}/* (${at})`;
  // An earlier, more specific mount that moves: what it misses fell through to this folder in Express (`/assets/x` to
  // public/assets/x); in Fastify it goes on to the Express app, which no longer has this mount.
  const own = prefixOf(mount.fullPath);
  const under = moved.find((o) => o.prefix !== own && o.prefix.startsWith(own) && existsSync(path.join(folder, o.prefix.slice(own.length))));
  if (under) return `a file missing from the static mount at ${under.prefix} (${under.registration.file}:${under.registration.line}) falls through to this one's ${rel(ctx, path.join(folder, under.prefix.slice(own.length)))} in Express, which Fastify would not reach (${at})`;
  const collision = collisionOf(ctx.inventory, app, mount, entries, options);
  if (collision) return `${collision.route.key} (${collision.route.registration.file}:${collision.route.registration.line}) and ${rel(ctx, path.join(folder, collision.entry))} both answer ${collision.url}: Express picks the one registered first, Fastify the more specific route (${at})`;
  if (ctx.parity === 'express') return `--parity express: ${staticDeltas([{ prefix: prefixOf(mount.fullPath) }]).map((d) => d.fastify).join(' ')} (${at})`;
  return null;
}

/** The mount's options' one part known only at run time, when it is `setHeaders`, a function of the app; else null. */
function carriedSetHeaders(m: Middleware): FunctionOption | null {
  const [, opts] = m.factory?.args ?? [];
  return functionOptions(opts, SET_HEADERS_OPTION)?.[0] ?? null;
}

/** The serve-static option that is a function of the app the generated module carries. */
const SET_HEADERS_OPTION: ReadonlySet<string> = new Set(['setHeaders']);

/**
 * How `module` reaches the `setHeaders` of mount `m` (null: it has none to carry), or why it stays:
 * a use of the response other than SET_HEADERS_USES, or appFunctionAccess's refusal.
 */
function setHeadersOf(ctx: PlanContext, module: GeneratedModule, m: Middleware, given: LiftedNames): (AppFunctionAccess & { parameters: number }) | { refuse: string } | null {
  const fn = carriedSetHeaders(m);
  if (!fn) return null;
  const at = `${m.registration.file}:${m.registration.line}`;
  // Its first parameter is the response: the analyzer lists a function's first parameter's uses as `req.*` (the second, the file's path, as `res.*`).
  for (const use of fn.function.usage.req) {
    const member = use.api.split('.')[1] ?? '';
    const name = /^(['"`])([^'"`]+)\1$/.exec(use.arg ?? '')?.[2]?.toLowerCase();
    if (!SET_HEADERS_USES.has(member) || use.write || !name || UNCARRIED_HEADERS[member].has(name)) return { refuse: `its setHeaders (${use.location.file}:${use.location.line}) uses res.${member}${use.arg ? `(${use.arg})` : ''}, which has no exact form on Fastify's reply (${at})` };
  }
  const handed = fn.function.usage.handedOn.find((h) => h.parameter === 'req');
  if (handed) return { refuse: `its setHeaders hands the response on (${handed.location.file}:${handed.location.line}) to code the analysis does not follow (${at})` };
  const access = appFunctionAccess(ctx, module, fn.function.location, 'staticHeaders', given);
  return 'refuse' in access ? { refuse: `its setHeaders: ${access.refuse} (${at})` } : { ...access, parameters: fn.function.parameters };
}

/** The first route of the app (Express, or moved to Fastify) answering GET or HEAD at a URL the mount serves. */
function collisionOf(inventory: Inventory, app: App, mount: StaticMount, entries: ReturnType<typeof folderEntries>, options: Record<string, unknown>): { route: Route; url: string; entry: string } | null {
  const urls = servedUrls(mount.fullPath, entries, { index: options.index, extensions: options.extensions, redirect: options.redirect, dotfiles: options.dotfiles === 'allow' });
  const fastifyApps = new Set(inventory.apps.filter((a) => a.framework === 'fastify').map((a) => a.id));
  const routes = inventory.routes.filter((r) => (r.appId === app.id || fastifyApps.has(r.appId)) && ['GET', 'HEAD', 'ALL'].includes(r.method));
  for (const route of routes) {
    const pattern = route.path.syntax === 'regexp' || route.path.syntax === 'unresolved' ? '*' : route.path.full;
    const hit = urls.find((u) => overlaps(pattern, u.url));
    if (hit) return { route, ...hit };
  }
  return null;
}

/** What the module registers for `mount` (middleware `m`): prefix, folder, options, the folder redirect; `first` is the first mount that moves (the others take `decorateReply: false`). */
function moving(ctx: PlanContext, mount: StaticMount, m: Middleware, moduleFile: string, first: boolean): Omit<MovingMount, 'anchor'> {
  const [dir, opts] = m.factory!.args;
  const options = Object.entries((opts?.value ?? {}) as Record<string, unknown>).filter(([k]) => k !== 'fallthrough');
  const given = new Set(options.map(([k]) => k));
  // serve-static's defaults where @fastify/static's differ (index.js: `opts.dotfiles ??= 'allow'`; redirect false).
  if (!given.has('dotfiles')) options.push(['dotfiles', 'ignore']);
  if (!given.has('redirect')) options.push(['redirect', true]);
  if (!first) options.push(['decorateReply', false]);
  const redirect = options.find(([k]) => k === 'redirect')![1] !== false;
  return {
    id: mount.id,
    middlewareId: m.id,
    prefix: prefixOf(mount.fullPath),
    root: rootOf(ctx, dir.value as string, moduleFile),
    options,
    ...(redirect && mount.fullPath !== '/' ? { folderRedirect: mount.fullPath } : {}),
    registration: m.registration,
    statement: { start: m.statement!.start },
    name: m.name,
  };
}

/** How the module names the folder: serve-static resolved a relative path against the working directory, an absolute one as it is. */
function rootOf(ctx: PlanContext, dir: string, moduleFile: string): MovingMount['root'] {
  if (!path.isAbsolute(dir)) return { fromCwd: dir };
  const fromRoot = path.relative(ctx.root, dir);
  if (fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) return { absolute: dir };
  return { fromModule: path.posix.relative(path.posix.dirname(moduleFile), fromRoot.split(path.sep).join('/')) || '.' };
}

function prefixOf(fullPath: string): string {
  return fullPath === '/' ? '/' : `${fullPath}/`;
}

function rel(ctx: PlanContext, abs: string): string {
  return path.relative(ctx.root, abs).split(path.sep).join('/');
}

function sameStart(a: { line: number; column: number }, b: { line: number; column: number }): boolean {
  return a.line === b.line && a.column === b.column;
}
