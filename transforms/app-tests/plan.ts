/**
 * Plans the app's own tests onto the Fastify server (issue 17): every place a test file sends
 * requests to the Express app itself (the analyzer's App.testDrivers) is pointed at the request
 * listener of the Fastify server in front of it — `request(app)` → `request(fastifyListener(app))` —
 * which the generated server module gains. A test driving the Express app directly would miss what
 * the later stages move to Fastify (the error handlers, the routes: 404 for every moved route).
 *
 * The shim does it, so the tests drive Fastify from the first stage on (the bridge answers exactly
 * as Express); the errors and routes stages do the same for an app shimmed before the shim did it,
 * and for tests written since. What cannot be pointed (a test helper the app is handed to, an
 * Express 5 `app.listen(…, callback)`, an ES module test that loads the app late) is an item with
 * a `TODO(migrate)`.
 */
import path from 'node:path';
import type { App, TestDriver } from '../../analyzer/model.js';
import { TEST_RUNNER_LIMITS } from '../../rules/catalogue/test-runners.js';
import { isTypeScript } from '../lib/ast.js';
import { dependencyBelow } from '../lib/dependency-version.js';
import { importSpecifier, moduleSystemOfFile, type ModuleFile } from '../lib/module-system.js';
import type { FilePlan, ManualItem, PlanContext, StageName, StepPlan } from '../model.js';
import { generatedModuleFor, plannedModuleFor } from '../server-module/locate.js';
import { startSites } from '../server-module/start-sites.js';
import { LISTENER, TODO_PREFIX, type AppTestsEntry, type TestFileEntry } from './model.js';

/**
 * The plan of the step `step` of `stage`: a `test-file` entry per test file with places to point or
 * to mark, a `listener` entry per generated module those places import, an item per place left.
 * Nothing when only assessing (`migrate analyze`: no verdicts here) or when no generated module
 * serves the app (before the shim, the errors and routes stages refuse on their own).
 */
export function planAppTests(ctx: PlanContext, step: string, stage: StageName): StepPlan<AppTestsEntry> {
  const plan: Planned = { files: new Map(), modules: new Set(), manual: [], groups: new Map() };
  if (ctx.assumed) return { step, files: [], manual: [] };
  const major = ctx.inventory.project.expressVersion.major === 5 ? 5 : 4;
  const runner = runnerWithoutFastify(ctx);
  for (const app of ctx.inventory.apps.filter((a) => a.framework !== 'fastify' && a.testDrivers?.length)) {
    const target = moduleForTests(ctx, app, stage);
    if (!target) continue;
    if (runner) leaveForRunner(plan, app, runner);
    else for (const d of app.testDrivers!) planPlace(ctx, plan, d, target, major);
  }
  for (const file of plan.modules) plan.files.set(file, { file, entries: [{ kind: 'listener' }] });
  const counted = [...plan.groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const done = counted.reduce((n, [, g]) => n + g.done, 0);
  const of = counted.reduce((n, [, g]) => n + g.of, 0);
  return {
    step,
    files: [...plan.files.values()],
    manual: plan.manual,
    ...(of ? { moved: { what: 'places in test files that sent requests to the Express app, onto its Fastify server', done, of, groups: counted.map(([name, g]) => ({ name, ...g })) } } : {}),
  };
}

/** What the plan collects: file plans, the generated modules the tests import, items, and per test file the places pointed (`done`) of those found (`of`). */
interface Planned {
  files: Map<string, FilePlan<AppTestsEntry>>;
  modules: Set<string>;
  manual: ManualItem[];
  groups: Map<string, { done: number; of: number }>;
}

/** One place a test drives the app: a site to point at `target`'s fastifyListener, or a TODO and an item saying why not. */
function planPlace(ctx: PlanContext, plan: Planned, d: TestDriver, target: ModuleFile, major: 4 | 5): void {
  const file = d.location.file;
  const source = ctx.readFile(file);
  if (source === null) return;
  const filePlan = plan.files.get(file) ?? { file, entries: [{ kind: 'test-file', module: moduleSystemOfFile(ctx.inventory, file, source), sites: [], todos: [] } satisfies TestFileEntry] };
  plan.files.set(file, filePlan);
  const entry = filePlan.entries[0] as TestFileEntry;
  const specifier = specifierOf(ctx, file, source, entry.module, d.from, target);
  const group = plan.groups.get(file) ?? { done: 0, of: 0 };
  plan.groups.set(file, group);
  group.of++;
  const left = whyLeft(d, major, target, specifier);
  if (left) {
    const text = `${TODO_PREFIX} itself: ${left}`;
    entry.todos.push({ line: d.location.line, column: d.location.column, text });
    plan.manual.push({ file, line: d.location.line, code: 'test-drives-express', reason: text, todo: text });
    return;
  }
  entry.sites.push({ kind: d.kind as Exclude<TestDriver['kind'], 'helper'>, app: { line: d.app.location.line, column: d.app.location.column, text: d.app.text }, call: { line: d.location.line, column: d.location.column }, specifier });
  plan.modules.add(target.file);
  group.done++;
}

/** The tests of `app` cannot load Fastify (runnerWithoutFastify): they stay on the Express app, counted, and one item says why. */
function leaveForRunner(plan: Planned, app: App, runner: ManualItem): void {
  for (const d of app.testDrivers!) plan.groups.set(d.location.file, { done: 0, of: (plan.groups.get(d.location.file)?.of ?? 0) + 1 });
  plan.manual.push({ ...runner, reason: `the app's tests run on ${runner.reason}: a test pointed at the Fastify server in front of the app could not load it, so the ${places(app.testDrivers!.length)} in test files that send requests to the Express app stay on it (and miss what later stages move to Fastify); upgrade it, then run the stage again` });
}

const places = (n: number) => (n === 1 ? '1 place' : `${n} places`);

/**
 * The project's test runner when its version cannot load Fastify (rules/catalogue/test-runners.ts),
 * as an item at its line in package.json whose reason names it (`jest 26.6.3, which lacks …`), or null.
 */
function runnerWithoutFastify(ctx: PlanContext): ManualItem | null {
  for (const [name, limit] of Object.entries(TEST_RUNNER_LIMITS)) {
    const old = dependencyBelow(ctx, name, limit.from);
    if (old) return { file: 'package.json', line: old.line, code: 'test-runner-without-fastify', reason: `${name} ${old.version}, which lacks ${limit.lacks} (${name} ${limit.from} has them)` };
  }
  return null;
}

/**
 * The generated module the tests of `app` import: the one that serves it, or, in the shim stage,
 * the one the shim-server step writes for it in this run — next to the first place that starts it,
 * or next to the app when nothing starts any app (server-module/locate.ts plannedModuleFor names it
 * as that step does). Null when there is none.
 */
function moduleForTests(ctx: PlanContext, app: App, stage: StageName): ModuleFile | null {
  const existing = generatedModuleFor(ctx, app);
  if (existing || stage !== 'shim') return existing;
  const sites = startSites(ctx);
  const written = sites.some((s) => s.app.id === app.id) || (sites.length === 0 && ctx.inventory.apps[0]?.id === app.id);
  return written ? plannedModuleFor(ctx, app) : null;
}

/**
 * Why a place cannot be pointed at the Fastify server (the TODO's text after its prefix), or null
 * when it can.
 * - A test helper: what it does with the app is not known.
 * - `app.listen(…, callback)` in an Express 5 app: Express 5 also calls the callback with a listen
 *   error (`server.once('error', done)`, express lib/application.js), which a Node server does not.
 * - The test loads the app late (in a hook, or with `import(…)`) and the generated module loads the
 *   app's modules when imported (ES modules, TypeScript): importing it at the top of the test would
 *   load them before the test is ready for it. A CommonJS generated module requires them only when
 *   Fastify is built.
 */
function whyLeft(d: TestDriver, major: 4 | 5, target: ModuleFile, specifier: string): string | null {
  const use = `${LISTENER}(${d.app.text}) from ${specifier}`;
  if (d.kind === 'helper') return `it hands the app to ${d.callee}(…), which may send it requests that would miss what later stages move to Fastify; if it does, hand it ${use} (the Fastify server in front of the app) instead`;
  if (d.kind === 'listen' && d.callback && major === 5) return `${d.app.text}.listen(…) with a callback: Express 5 also calls it with a listen error, which a Node server does not; start the Fastify server in front of the app instead, createServer(${use}).listen(…), and handle its 'error' event`;
  if (d.late && (target.module === 'esm' || target.typescript)) return `it loads the app late, and importing ${specifier} at the top (it imports the app's handlers and routes once later stages move them there) would load them before the test is set up; import ${LISTENER} from it where the app is loaded and hand ${d.callee}(…) ${LISTENER}(${d.app.text})`;
  return null;
}

/**
 * How `file` imports the generated module `target`: with the file's own path alias when it imports
 * the app's module with one and the generated module is in the same folder (`@/server` →
 * `@/fastify-server`), else relatively — with the extension in a JavaScript ES module (Node requires
 * it), as the file's relative imports have it in TypeScript (lib/module-system.ts importSpecifier).
 */
function specifierOf(ctx: PlanContext, file: string, source: string, module: 'esm' | 'commonjs', from: string, target: ModuleFile): string {
  const used = ctx.inventory.files.find((f) => f.file === file)?.imports.find((i) => i.resolved === from)?.specifier;
  const ext = (p: string) => path.posix.extname(p);
  const base = path.posix.basename(target.file, ext(target.file));
  if (used?.includes('/') && !used.startsWith('.') && !used.startsWith('/') && path.posix.dirname(from) === path.posix.dirname(target.file)) {
    const kept = ext(used) && ext(from) === ext(target.file) ? ext(used) : '';
    if (!ext(used) || kept) return `${used.slice(0, used.lastIndexOf('/') + 1)}${base}${kept}`;
  }
  if (!isTypeScript(file) && module === 'esm') {
    const rel = path.posix.relative(path.posix.dirname(file), target.file);
    return rel.startsWith('.') ? rel : `./${rel}`;
  }
  return importSpecifier(file, target, source);
}
