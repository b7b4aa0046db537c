/**
 * Plans the generated modules: one per app, next to the first place that starts it (named by
 * server-module/locate.ts serverModuleFor), written from the facts of that app. When nothing starts
 * an app (an app exported for serverless or tests only), the module is written next to the app and
 * the run says where to start it. A module that exists is never written again — later stages
 * (errors, routes) and the user add to it — but when the app's settings changed since it was
 * written, its settings-derived parts are rewritten (refresh.ts), and only those.
 */
import type { App, Inventory } from '../../analyzer/model.js';
import type { FilePlan, ManualItem, PlanContext, StepPlan } from '../model.js';
import { TYPESCRIPT_FOR_FASTIFY } from '../../rules/catalogue/test-runners.js';
import { versionOf } from '../../rules/catalogue/versions.js';
import { serverFactsOf } from './facts.js';
import { staleModules } from './refresh.js';
import { generatedModuleFor, serverModuleFor } from '../server-module/locate.js';
import { importsGeneratedModule, startSites } from '../server-module/start-sites.js';
import type { ServerFacts, SettingsKey } from '../server-module/template.js';
import { dependencyBelow } from '../lib/dependency-version.js';
import { detectStyle, type CodeStyle } from '../lib/style.js';

/**
 * The plan entry of a generated module: `create` — the facts its text is written from, in the
 * style of the file that listens; `refresh` — the settings-derived parts (`keys`) to rewrite from
 * `facts` in an existing module, and why each is out of date (`reasons`, reported by the transform).
 */
export type ServerEntry = { kind: 'create'; facts: ServerFacts; style: CodeStyle } | { kind: 'refresh'; facts: ServerFacts; keys: SettingsKey[]; reasons: string[] };

/** @returns one `create` FilePlan per app's new module, one FilePlan per module to refresh, the dependencies they import, and the settings that could not be copied. */
export function plan(ctx: PlanContext): StepPlan<ServerEntry> {
  const files = new Map<string, FilePlan<ServerEntry>>();
  const manual: StepPlan['manual'] = [];
  const shimmed: App[] = [];
  const sites = startSites(ctx);
  // Nothing starts an app and the shim has not run: the module goes next to the app.
  const places = sites.length || importsGeneratedModule(ctx) ? sites : ctx.inventory.apps.slice(0, 1).map((app) => ({ file: app.location.file, app }));
  for (const { file, app } of places) {
    const target = serverModuleFor(ctx, file, app);
    // The same app started twice in one folder (listen and https.createServer): one module.
    if (files.has(target.file) || ctx.readFile(target.file) !== null) {
      if (files.has(target.file) && !shimmed.includes(app)) shimmed.push(app);
      continue;
    }
    const { facts, manual: left } = serverFactsOf(ctx, app, target, file);
    const style = detectStyle(ctx.readFile(file) ?? '', file);
    files.set(target.file, { file: target.file, create: true, entries: [{ kind: 'create', facts, style }] });
    manual.push(...left);
    if (!shimmed.includes(app)) shimmed.push(app);
  }
  const created = files.size;
  const typescript = [...files.values()].some(({ entries: [e] }) => e.kind === 'create' && e.facts.typescript) ? typescriptWithoutFastifyTypes(ctx) : null;
  if (typescript) manual.push(typescript);
  const refresh = staleModules(ctx);
  for (const m of refresh.stale) files.set(m.file, { file: m.file, entries: [{ kind: 'refresh', facts: m.facts, keys: m.keys, reasons: m.reasons }] });
  manual.push(...refresh.manual);
  // A refresh writes no --parity express pages: only its query parser can need a package.
  const entries = [...files.values()].map(({ entries: [e] }) => (e.kind === 'refresh' ? { ...e.facts, parity: 'default' as const } : e.facts));
  return {
    step: 'shim-server',
    files: [...files.values()],
    dependencies: entries.length ? dependenciesOf(entries) : undefined,
    manual,
    // Every Express app the plan puts behind Fastify, or that a generated module serves already.
    verdicts: ctx.inventory.apps.filter((a) => a.framework !== 'fastify').map((a) => ({ id: a.id, kind: 'app' as const, moves: shimmed.includes(a) || generatedModuleFor(ctx, a) !== null, blockers: [] })),
    moved: { what: 'apps behind Fastify', done: created, of: created },
    deltas: ctx.parity === 'express' ? [] : deltasOf(ctx.inventory, shimmed),
  };
}

/**
 * The item for a TypeScript project whose TypeScript cannot read Fastify 5's types
 * (rules/catalogue/test-runners.ts TYPESCRIPT_FOR_FASTIFY), at its line in package.json; null otherwise.
 */
function typescriptWithoutFastifyTypes(ctx: PlanContext): ManualItem | null {
  const old = dependencyBelow(ctx, 'typescript', TYPESCRIPT_FOR_FASTIFY.from);
  if (!old) return null;
  return { file: 'package.json', line: old.line, code: 'typescript-without-fastify-types', reason: `typescript ${old.version} lacks ${TYPESCRIPT_FOR_FASTIFY.lacks} (typescript ${TYPESCRIPT_FOR_FASTIFY.from} has them): the project's type-check (tsc, ts-jest) fails on the server module that imports fastify until typescript is raised to ^5` };
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
