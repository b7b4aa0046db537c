/**
 * Where the generated server module is: the module the `shim` stage writes for each app next to
 * the file that starts it (`fastify-server.*`; `fastify-server-<app>.*` for the next apps started
 * in that folder; recognised by analyzer/generated.ts SHIM_MARK on its first line), which every
 * later stage edits (server-module/build-fastify.ts, moved-routes.ts), and the hooks module the
 * `routes` stage writes beside it (`fastify-hooks.*`). Every stage names and finds them here, so
 * they all agree on which file it is.
 */
import path from 'node:path';
import { generatedKind } from '../../analyzer/generated.js';
import type { App } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';
import { moduleSystemOfFile, type ModuleFile } from '../lib/module-system.js';
import { isOnFastify } from '../lib/assumed.js';
import { jFor } from '../lib/ast.js';
import { importedSpecifiers } from '../lib/imports.js';
import { importsServerModule, startSites } from './start-sites.js';

/** The generated module of an app. */
export interface GeneratedModule extends ModuleFile {
  source: string;
  /** `--parity express`: the shim registered Express's own error page as the error handler. */
  parityErrorPage: boolean;
}

/**
 * The generated module that serves `app`: the Fastify app the inventory says serves it
 * (`servedBy`), else the module the shim names for the app next to its file, its listen sites or
 * the entry (`serverModuleFor`, so both stages name it alike), else the only one in the project.
 * Null when the shim has not run.
 */
export function generatedModuleFor(ctx: PlanContext, app: App): GeneratedModule | null {
  const inventory = ctx.inventory;
  const server = app.servedBy ? inventory.apps.find((a) => a.id === app.servedBy) : undefined;
  if (server && isGeneratedModule(ctx.readFile(server.location.file))) return describe(ctx, server.location.file);
  const starts = [app.location.file, ...app.listen.map((l) => l.location.file), ...(inventory.project.entry ? [inventory.project.entry] : [])];
  for (const start of starts) {
    const { file } = serverModuleFor(ctx, start, app);
    if (isGeneratedModule(ctx.readFile(file))) return describe(ctx, file);
  }
  const all = ctx.inventory.files.filter((f) => f.generated === 'server-module');
  return all.length === 1 ? describe(ctx, all[0].file) : null;
}

/**
 * The server module a later stage edits for `app`: the generated module that serves it
 * (generatedModuleFor), or, when the plan only assesses and the shim is assumed to have run for
 * the app (PlanContext.assumed), the module the shim would write for it (plannedModuleFor).
 * Null when neither.
 */
export function serverModuleOf(ctx: PlanContext, app: App): GeneratedModule | null {
  return generatedModuleFor(ctx, app) ?? (isOnFastify(ctx, app) ? plannedModuleFor(ctx, app) : null);
}

/**
 * The apps each server module serves (module file → apps), from the module of each app
 * (`modules`: app id → serverModuleOf). The shim writes one module per app, but an earlier version
 * of it wrote one per folder, so two apps started in one folder may share one `buildFastify`:
 * what a later stage registers there answers for both.
 */
export function appsPerModule(apps: App[], modules: Map<string, GeneratedModule | null>): Map<string, App[]> {
  const out = new Map<string, App[]>();
  for (const app of apps) {
    const file = modules.get(app.id)?.file;
    if (file) out.set(file, [...(out.get(file) ?? []), app]);
  }
  return out;
}

/**
 * The module the shim writes for `app`: next to the first place that starts it (or, when nothing
 * does, next to the file that creates it), named as serverModuleFor names it. Its source is empty:
 * it does not exist yet.
 */
export function plannedModuleFor(ctx: PlanContext, app: App): GeneratedModule {
  const start = startSites(ctx).find((s) => s.app.id === app.id)?.file ?? app.location.file;
  return { ...serverModuleFor(ctx, start, app), source: '', parityErrorPage: ctx.parity === 'express' };
}

/**
 * Whether `file` starts an app — it imports a generated server module (the shim
 * rewrote its `app.listen(…)`), or, before the shim ran, it is where the app is started: a module
 * there that the generated one imported back would be a cycle.
 */
export function startsApp(ctx: PlanContext, file: string): boolean {
  return importsServerModule(ctx.inventory, file) || startSites(ctx).some((s) => s.file === file);
}

function describe(ctx: PlanContext, file: string): GeneratedModule {
  const source = ctx.readFile(file) ?? '';
  return {
    file,
    module: moduleSystemOfFile(ctx.inventory, file, source),
    typescript: /\.[mc]?ts$/.test(file),
    source,
    parityErrorPage: /\.setErrorHandler\(\s*\(/.test(source),
  };
}

/** Where the generated module lives (or will live) and how the files that start the app import it. */
export type ServerModule = ModuleFile;

/** Whether `source` is a module the shim stage wrote: its mark on the first line, where the template puts it (analyzer/generated.ts). */
function isGeneratedModule(source: string | null): source is string {
  return !!source && generatedKind(source.split('\n', 1)[0]) === 'server-module';
}

const EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];

const BASE_NAMES = ['fastify-server', 'fastify-bridge', 'fastify-shim'];

/**
 * The generated module of `app` when it listens in `listenFile`: next to it, with its extension and
 * module system. Each app gets its own (its Fastify copies that app's settings, and later stages
 * register that app's handlers and routes in it): the first app started in the folder (start
 * sites in file, line and column order) `fastify-server.<ext>`, the next ones
 * `fastify-server-<app name>.<ext>` (`-2`, `-3` after the name when two apps of the folder share
 * one). A name is free when no file has it, or when it is a generated module that serves no other
 * app; a file of that name that we did not write is never overwritten: `fastify-bridge`,
 * `fastify-shim`, then `fastify-server-migrate` are tried.
 */
export function serverModuleFor(ctx: PlanContext, listenFile: string, app: App): ServerModule {
  const ext = EXTENSIONS.includes(path.posix.extname(listenFile)) ? path.posix.extname(listenFile) : '.js';
  const dir = path.posix.dirname(listenFile);
  const source = ctx.readFile(listenFile) ?? '';
  const typescript = /\.[mc]?ts$/.test(ext);
  // TypeScript gets import/export syntax whatever it compiles to.
  const module = typescript ? 'esm' : moduleSystemOfFile(ctx.inventory, listenFile, source);
  const own = `-${appSlug(ctx, dir, app)}`;
  // The first app of the folder takes the plain name, unless an app started earlier holds it (a shim run before this app was added).
  const suffixes = firstStartedIn(ctx, dir, app) ? ['', own] : [own];
  for (const suffix of suffixes) {
    for (const base of BASE_NAMES) {
      const file = path.posix.join(dir, base + suffix + ext);
      const taken = takenBy(ctx, file, app);
      if (taken === 'free') return { file, module, typescript };
      // Another app's module: this app's name comes next, not another base name.
      if (taken === 'other-app') break;
    }
  }
  return { file: path.posix.join(dir, `fastify-server-migrate${own}${ext}`), module, typescript };
}

/** The Express apps started in `dir`, in the order of their first start site there. */
function appsStartedIn(ctx: PlanContext, dir: string): App[] {
  const apps: App[] = [];
  for (const site of startSites(ctx)) if (path.posix.dirname(site.file) === dir && !apps.some((a) => a.id === site.app.id)) apps.push(site.app);
  return apps;
}

/** Whether `app` is the first app started in `dir`, or, when nothing there starts it (the shim ran, or nothing ever did), no other app is. */
function firstStartedIn(ctx: PlanContext, dir: string, app: App): boolean {
  const apps = appsStartedIn(ctx, dir);
  return apps.length === 0 || apps[0].id === app.id;
}

/**
 * `app`'s name as a file-name part (`adminApp` → `adminapp`, `app$2` → `app-2`), with `-2`, `-3`, …
 * when another app started in `dir` before it gives the same (two files each calling their app `app`).
 */
function appSlug(ctx: PlanContext, dir: string, app: App): string {
  const slug = (a: App) => a.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'app';
  const apps = appsStartedIn(ctx, dir);
  const before = apps.slice(0, Math.max(0, apps.findIndex((a) => a.id === app.id))).filter((a) => slug(a) === slug(app)).length;
  return before ? `${slug(app)}-${before + 1}` : slug(app);
}

/**
 * Whether `file` may be `app`'s module: `free` when no file has the name or it is a generated
 * module serving `app` or no app at all, `other-app` when it is the generated module of another
 * app, `user` when it is a file we did not write.
 */
function takenBy(ctx: PlanContext, file: string, app: App): 'free' | 'other-app' | 'user' {
  const existing = ctx.readFile(file);
  if (existing === null) return 'free';
  if (!isGeneratedModule(existing)) return 'user';
  const apps = ctx.inventory.apps;
  const served = apps.filter((a) => a.framework !== 'fastify' && a.servedBy && apps.find((s) => s.id === a.servedBy)?.location.file === file);
  return served.length === 0 || served.some((a) => a.id === app.id) ? 'free' : 'other-app';
}

/** The fastify-like-express module of a generated server module (server-module/like-express-template.ts): same folder and extension. */
export function likeExpressModuleFile(serverFile: string): string {
  return path.posix.join(path.posix.dirname(serverFile), `fastify-like-express${path.posix.extname(serverFile)}`);
}

/** The hooks module of a generated server module: same folder and extension. */
export function hooksModuleFile(serverFile: string): string {
  return path.posix.join(path.posix.dirname(serverFile), `fastify-hooks${path.posix.extname(serverFile)}`);
}

/** Whether the generated module imports or requires `specifier` (a plugin registered already: `@fastify/cors`). */
export function moduleImports(module: GeneratedModule, specifier: string): boolean {
  const j = jFor(module.file);
  return importedSpecifiers(j, j(module.source)).has(specifier);
}
