/**
 * Plans the generated module: one per folder that holds a place that starts an app, written from
 * the facts of that app. When nothing starts an app (an app exported for serverless or tests
 * only), the module is written next to the app and the run says where to start it. A module that
 * exists is never written again: later stages (errors) and the user add to it, and a second run of
 * the shim must not take that back.
 */
import type { App, Inventory } from '../../analyzer/model.js';
import type { FilePlan, ManualItem, PlanContext, StepPlan } from '../model.js';
import { versionOf } from '../../rules/catalogue/versions.js';
import { serverFactsOf } from './facts.js';
import { generatedModuleFor, serverModuleFor } from '../server-module/locate.js';
import { importsGeneratedModule, startSites } from '../server-module/start-sites.js';
import type { ServerFacts } from '../server-module/template.js';
import { detectStyle, type CodeStyle } from '../lib/style.js';

/** The plan entry of the generated module: the facts its text is written from, in the style of the file that listens. */
export interface ServerEntry {
  facts: ServerFacts;
  style: CodeStyle;
}

/** @returns one `create` FilePlan per generated module, the dependencies it imports, and the settings it could not copy. */
export function plan(ctx: PlanContext): StepPlan<ServerEntry> {
  const files = new Map<string, FilePlan<ServerEntry>>();
  const manual: StepPlan['manual'] = [];
  const shimmed: App[] = [];
  const sites = startSites(ctx);
  // Nothing starts an app and the shim has not run: the module goes next to the app.
  const places = sites.length || importsGeneratedModule(ctx) ? sites : ctx.inventory.apps.slice(0, 1).map((app) => ({ file: app.location.file, app }));
  const builtFor = new Map<string, App>();
  for (const { file, app } of places) {
    const target = serverModuleFor(ctx, file);
    const planned = files.get(target.file);
    if (planned) {
      // A second app started in the same folder: shim-listen puts it behind the same module.
      if (!shimmed.includes(app)) shimmed.push(app);
      const { facts } = serverFactsOf(ctx, app, target, file);
      if (!sameFacts(facts, planned.entries[0].facts)) manual.push(sharedSettings(app, builtFor.get(target.file)!, target.file));
      continue;
    }
    if (ctx.readFile(target.file) !== null) continue;
    const { facts, manual: left } = serverFactsOf(ctx, app, target, file);
    builtFor.set(target.file, app);
    const style = detectStyle(ctx.readFile(file) ?? '', file);
    files.set(target.file, { file: target.file, create: true, entries: [{ facts, style }] });
    manual.push(...left);
    if (!shimmed.includes(app)) shimmed.push(app);
  }
  const entries = [...files.values()].map((f) => f.entries[0].facts);
  return {
    step: 'shim-server',
    files: [...files.values()],
    dependencies: entries.length ? dependenciesOf(entries) : undefined,
    manual,
    // Every Express app the plan puts behind Fastify, or that a generated module serves already.
    verdicts: ctx.inventory.apps.filter((a) => a.framework !== 'fastify').map((a) => ({ id: a.id, kind: 'app' as const, moves: shimmed.includes(a) || generatedModuleFor(ctx, a) !== null, blockers: [] })),
    moved: { what: 'apps behind Fastify', done: files.size, of: files.size },
    deltas: ctx.parity === 'express' ? [] : deltasOf(ctx.inventory, shimmed),
  };
}

/** Whether two apps' settings give the same generated module. */
function sameFacts(a: ServerFacts, b: ServerFacts): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * An app behind a module written from another app's settings (both are started in one folder,
 * and the shim writes one module per folder): its own settings differ, so Fastify routes it the
 * way the other app is set up.
 */
function sharedSettings(app: App, builtFor: App, module: string): ManualItem {
  return {
    file: app.location.file,
    line: app.location.line,
    code: 'shared-server-settings',
    reason: `${app.name} is started in the same folder as ${builtFor.name}, so it runs behind ${module}, which copies ${builtFor.name}'s settings (routing, trust proxy, query parser, body parsers) and not its own, which differ; start it from a folder of its own or copy its settings into that module by hand`,
  };
}

/**
 * Framework defaults that differ behind the shim unless `--parity express` (DESIGN.md "Behaviour
 * parity"): Express's built-in 404 page only matters for an app without its own not-found
 * handler, its built-in error page only for an app without its own error middleware.
 */
function deltasOf(inventory: Inventory, apps: App[]): string[] {
  const without = (records: Array<{ appId: string }>) => apps.some((app) => !records.some((r) => r.appId === app.id));
  return [
    ...(without(inventory.notFoundHandlers) ? [DELTAS.notFound] : []),
    ...(without(inventory.errorHandlers.filter((e) => e.scope === 'app')) ? [DELTAS.error] : []),
  ];
}

/** Packages the generated code imports, at the ranges of rules/catalogue/versions.ts. */
function dependenciesOf(entries: ServerFacts[]): Record<string, string> {
  const names = new Set(['fastify', '@fastify/express']);
  for (const e of entries) {
    if (e.queryParser?.imports.some((i) => i.from === 'qs')) names.add('qs');
    if (e.parity === 'express') names.add('finalhandler');
    if (e.parity === 'express' && e.typescript) names.add('@types/finalhandler');
  }
  return Object.fromEntries([...names].map((n) => [n, versionOf(n)]));
}

/** The two deltas' texts. */
const DELTAS = {
  notFound: "A request the Express app leaves unanswered (no route, no 404 handler) gets Fastify's JSON 404 instead of Express's HTML 'Cannot GET' page; --parity express restores it.",
  error: "An error no Express error middleware answers gets Fastify's JSON error instead of Express's HTML error page (and is not printed to stderr); --parity express restores both.",
};
