/**
 * Plans the rewrite of every place that starts an Express app: the `app.listen(…)` calls the
 * analyzer recorded, and `http.createServer(app)` / `https.createServer(options, app)` in the entry
 * and the files that listen (the analyzer does not record those; the transform checks that the
 * argument is the app). Each file gets the specifier of the generated module it must import.
 */
import type { FilePlan, ManualItem, PlanContext, StepPlan } from '../model.js';
import { importSpecifier, listeningApps, serverModuleFor } from '../shim-server/facts.js';

/** One place to rewrite; `line` is 1-based (the call's first line). */
export interface ListenEntry {
  kind: 'listen' | 'create-server';
  line: number;
  /** How the file imports the generated module (`./fastify-server.js`). */
  specifier: string;
  module: 'esm' | 'commonjs';
}

/** `http.createServer(`, `https.createServer(`, … not yet given our request listener. */
const CREATE_SERVER = /\b[A-Za-z_$][\w$]*\.createServer\s*\((?![^;]*requestListener\()/g;

/** @returns one FilePlan per file that starts an app; a ManualItem when nothing starts one. */
export function plan(ctx: PlanContext): StepPlan<ListenEntry> {
  const byFile = new Map<string, FilePlan<ListenEntry>>();
  const add = (file: string, entry: Omit<ListenEntry, 'specifier' | 'module'>) => {
    const target = serverModuleFor(ctx, file);
    const source = ctx.readFile(file) ?? '';
    const plan = byFile.get(file) ?? { file, entries: [] };
    plan.entries.push({ ...entry, specifier: importSpecifier(file, target, source), module: target.module });
    byFile.set(file, plan);
  };
  const apps = listeningApps(ctx.inventory);
  for (const app of apps) for (const site of app.listen) add(site.location.file, { kind: 'listen', line: site.location.line });
  for (const file of candidateFiles(ctx)) {
    const source = ctx.readFile(file) ?? '';
    for (const match of source.matchAll(CREATE_SERVER)) add(file, { kind: 'create-server', line: source.slice(0, match.index).split('\n').length });
  }
  const manual: ManualItem[] = [];
  const sites = [...byFile.values()].reduce((n, f) => n + f.entries.length, 0);
  if (!sites && !alreadyShimmed(ctx)) manual.push(nothingStarts(ctx));
  return { step: 'shim-listen', files: [...byFile.values()], manual, moved: { what: 'places that start the app', done: sites, of: sites } };
}

/** The entry and the app modules: where `http.createServer(app)` is written in practice (bin/www, server.js). */
function candidateFiles(ctx: PlanContext): string[] {
  const files = new Set<string>();
  if (ctx.inventory.project.entry) files.add(ctx.inventory.project.entry);
  for (const app of ctx.inventory.apps) files.add(app.location.file);
  return [...files];
}

/** A generated module next to the entry means the shim ran: nothing left to start. */
function alreadyShimmed(ctx: PlanContext): boolean {
  const entry = ctx.inventory.project.entry;
  return !!entry && /require\(['"][^'"]*fastify-(server|bridge|shim)[^'"]*['"]\)|from ['"][^'"]*fastify-(server|bridge|shim)[^'"]*['"]/.test(ctx.readFile(entry) ?? '');
}

function nothingStarts(ctx: PlanContext): ManualItem {
  const app = ctx.inventory.apps[0];
  return {
    file: app?.location.file ?? ctx.inventory.project.entry ?? 'package.json',
    line: app?.location.line ?? 1,
    code: 'no-listen',
    reason: 'no app.listen(…) or http.createServer(app) was found: start Fastify with listen(buildFastify(app), port) from the generated module where the app is started',
  };
}
