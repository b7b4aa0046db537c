/**
 * Where the generated server module is: the module the `shim` stage writes next to the file that
 * starts the app (`fastify-server.*`, recognised by analyzer/generated.ts SHIM_MARK on its first line), which every
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
import { importsServerModule, startSites } from './start-sites.js';

/** The generated module of an app. */
export interface GeneratedModule extends ModuleFile {
  source: string;
  /** `--parity express`: the shim registered Express's own error page as the error handler. */
  parityErrorPage: boolean;
}

/**
 * The generated module that serves `app`: the Fastify app the inventory says serves it
 * (`servedBy`), else the module the shim names for the app's file, its listen sites or the entry
 * (`serverModuleFor`, so both stages name it alike), else the only one in the project. Null when
 * the shim has not run.
 */
export function generatedModuleFor(ctx: PlanContext, app: App): GeneratedModule | null {
  const inventory = ctx.inventory;
  const server = app.servedBy ? inventory.apps.find((a) => a.id === app.servedBy) : undefined;
  if (server && isGeneratedModule(ctx.readFile(server.location.file))) return describe(ctx, server.location.file);
  const starts = [app.location.file, ...app.listen.map((l) => l.location.file), ...(inventory.project.entry ? [inventory.project.entry] : [])];
  for (const start of starts) {
    const { file } = serverModuleFor(ctx, start);
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
 * (`modules`: app id → serverModuleOf). The shim writes one module per folder that starts an
 * app, so two apps started in one folder share one `buildFastify`: what a later stage registers
 * there answers for both.
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
function plannedModuleFor(ctx: PlanContext, app: App): GeneratedModule {
  const start = startSites(ctx).find((s) => s.app.id === app.id)?.file ?? app.location.file;
  return { ...serverModuleFor(ctx, start), source: '', parityErrorPage: ctx.parity === 'express' };
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
 * The generated module for the app listening in `listenFile`: next to it, with its extension and
 * module system. An existing file of that name that we did not write is never overwritten: the
 * next free name is taken.
 */
export function serverModuleFor(ctx: PlanContext, listenFile: string): ServerModule {
  const ext = EXTENSIONS.includes(path.posix.extname(listenFile)) ? path.posix.extname(listenFile) : '.js';
  const dir = path.posix.dirname(listenFile);
  const source = ctx.readFile(listenFile) ?? '';
  const typescript = /\.[mc]?ts$/.test(ext);
  // TypeScript gets import/export syntax whatever it compiles to.
  const module = typescript ? 'esm' : moduleSystemOfFile(ctx.inventory, listenFile, source);
  for (const base of BASE_NAMES) {
    const file = path.posix.join(dir, base + ext);
    const existing = ctx.readFile(file);
    if (existing === null || isGeneratedModule(existing)) return { file, module, typescript };
  }
  return { file: path.posix.join(dir, `fastify-server-migrate${ext}`), module, typescript };
}

/** The hooks module of a generated server module: same folder and extension. */
export function hooksModuleFile(serverFile: string): string {
  return path.posix.join(path.posix.dirname(serverFile), `fastify-hooks${path.posix.extname(serverFile)}`);
}
