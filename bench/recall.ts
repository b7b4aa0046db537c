/**
 * Recall of the static inventory against what Express really registers (issue 4, `bench/recall`).
 *
 * For each app folder: `analyze` gives the static route keys and chains; then the app's entry is
 * loaded in a child process with Express instrumented first (bench/recall/probe.mjs), every
 * `listen` forced onto loopback (verifier/runtime/lane-hook.mjs), for `--wait` ms, and what its
 * routers hold is read back. Apps that register routes after a database connects usually still
 * register them when the connection fails; apps that cannot load are listed, not dropped.
 *
 * Prints per app and in total: recall (runtime route keys the analyzer found), precision (static
 * keys Express really has; a route the analyzer marks conditional that is absent in this run is
 * left out, as the analyzer said it may be) and chain accuracy (matched routes whose ordered chain agrees, entry by
 * entry: same package, or same file for the app's own functions; a wrapped or unresolved entry
 * matches any one function).
 *
 * Run: `npm run bench:recall -- [--wait ms] [--verbose] [--env KEY=VALUE …] [app-folder …]` (default: the example
 * apps). Folders of public apps are taken as arguments and never committed; install their
 * dependencies first (`npm install --ignore-scripts`). This dev script is the only place the
 * project runs someone else's app.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, parseEnv } from 'node:util';
import { analyze } from '../analyzer/analyze.js';
import type { ChainEntry, Handler, Inventory, Route } from '../analyzer/model.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const PROBE = path.join(ROOT, 'bench/recall/probe.mjs');
const LANE_HOOK = path.join(ROOT, 'verifier/runtime/lane-hook.mjs');
const TSX = createRequire(import.meta.url).resolve('tsx');

/** Route key → ordered chain tokens (`pkg:name`, `file:path`, `*` for any one function). */
type Routes = Map<string, string[]>;

interface AppResult {
  app: string;
  error?: string;
  staticRoutes: Routes;
  /** Static keys registered under a condition (`if (production)`), which may be absent here. */
  conditional?: Set<string>;
  runtimeRoutes: Routes;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { wait: { type: 'string', default: '3000' }, verbose: { type: 'boolean', default: false }, env: { type: 'string', multiple: true, default: [] } },
});
const apps = positionals.length ? positionals.map((p) => path.resolve(p)) : readdirSync(path.join(ROOT, 'fixtures/apps'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(ROOT, 'fixtures/apps', d.name));

async function measure(dir: string): Promise<AppResult> {
  const app = path.basename(dir);
  let inv: Inventory;
  try {
    inv = await analyze({ dir });
  } catch (err) {
    return { app, error: `analyze failed: ${(err as Error).message}`, staticRoutes: new Map(), runtimeRoutes: new Map() };
  }
  const staticRoutes = staticChains(inv);
  if (!inv.project.entry) return { app, error: 'no entry found', staticRoutes, runtimeRoutes: new Map() };
  const runtime = load(dir, path.join(inv.project.root, inv.project.entry));
  return { app, ...runtime, staticRoutes, conditional: conditionalKeys(inv) };
}

/** Loads the app in a child with the probe and returns what Express registered. */
function load(dir: string, entry: string): { error?: string; runtimeRoutes: Routes } {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'recall-'));
  const out = path.join(tmp, 'routes.json');
  const ts = /\.[mc]?tsx?$/.test(entry) || existsSync(path.join(dir, 'tsconfig.json'));
  const args = [...(ts ? ['--import', TSX] : []), '--import', LANE_HOOK, '--import', PROBE, entry];
  const child = spawnSync(process.execPath, args, {
    cwd: dir,
    env: { ...exampleEnv(dir), ...process.env, NODE_ENV: 'development', ...extraEnv, RECALL_OUT: out, RECALL_APP_DIR: dir, RECALL_WAIT_MS: values.wait },
    encoding: 'utf8',
    timeout: Number(values.wait) + 30_000,
  });
  try {
    if (!existsSync(out)) return { error: `did not load: ${lastLine(child.stderr) || `exit ${child.status ?? child.signal}`}`, runtimeRoutes: new Map() };
    const dumped = JSON.parse(readFileSync(out, 'utf8')) as { routes: { key: string; chain: string[] }[]; problems: string[]; crashes: string[] };
    const runtimeRoutes: Routes = new Map();
    for (const r of dumped.routes) if (!runtimeRoutes.has(r.key)) runtimeRoutes.set(r.key, r.chain);
    // An app without routes (only static files) is a result; one that threw before registering any is not.
    const failure = dumped.crashes[0] ?? lastLine(child.stderr);
    const crashed = dumped.crashes.length > 0 || /Error\b/.test(failure);
    const error = dumped.problems.length ? dumped.problems.join('; ') : !dumped.routes.length && crashed ? `no routes registered: ${failure}` : crashed ? `crashed after registering: ${failure}` : undefined;
    return { error, runtimeRoutes };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `--env KEY=VALUE` (repeatable): variables an app needs to load at all (`DATABASE_URL=…`). */
const extraEnv = Object.fromEntries((values.env as string[]).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));

/**
 * Variables from `.env.example` (or `.env.sample`) when the app has no `.env`, so config
 * validation passes; an empty example value becomes a placeholder (dotenv-safe rejects empty ones).
 */
function exampleEnv(dir: string): Record<string, string> {
  if (existsSync(path.join(dir, '.env'))) return {};
  const example = ['.env.example', '.env.sample', 'env.example'].map((f) => path.join(dir, f)).find(existsSync);
  if (!example) return {};
  return Object.fromEntries(Object.entries(parseEnv(readFileSync(example, 'utf8'))).map(([k, v]) => [k, v || 'recall-placeholder']));
}

function lastLine(text: string | null): string {
  const lines = (text ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  const error = lines.find((l) => /^[\w.]*Error\b.*:/.test(l));
  return (error ?? lines.at(-1) ?? '').slice(0, 160);
}

function staticChains(inv: Inventory): Routes {
  const routes: Routes = new Map();
  const isConditional = (reasons: { code: string }[]) => reasons.some((x) => x.code === 'conditional');
  const conditional = new Set(inv.middleware.filter((m) => isConditional(m.reasons)).map((m) => m.id));
  // Route-level entries borrowed from an earlier conditional route (`app.get('*')` in production only).
  for (const r of inv.routes) if (isConditional(r.reasons)) conditional.add(`${r.registration.file}:${r.registration.line}`);
  for (const r of inv.routes) if (!routes.has(r.key)) routes.set(r.key, chainTokens(r, conditional));
  return routes;
}

/** Static routes registered under a condition: absent at runtime is not a mistake, present is a match. */
function conditionalKeys(inv: Inventory): Set<string> {
  return new Set(inv.routes.filter((r) => r.reasons.some((x) => x.code === 'conditional')).map((r) => r.key));
}

/** Chain tokens; `?` marks an entry registered under a condition, which may or may not run here. */
function chainTokens(r: Route, conditional: Set<string>): string[] {
  return [...r.chain, r.handler].map((e: ChainEntry | Handler) => {
    const borrowed = 'scope' in e && e.scope === 'route' && conditional.has(`${e.registration.file}:${e.registration.line}`);
    const optional = ('middlewareId' in e && e.middlewareId && conditional.has(e.middlewareId)) || borrowed ? '?' : '';
    if (e.wrappers?.length) return `${optional}*`;
    if (e.origin === 'package' && e.package) return `${optional}pkg:${e.package}`;
    if (e.origin === 'local' && e.definition) return `${optional}file:${e.definition.file}`;
    return `${optional}*`;
  });
}

const depCache = new Map<string, Set<string>>();

/** Same package, or a package that the static one depends on (`express.json` runs body-parser). */
function tokenMatches(s: string, r: string, dir: string): boolean {
  if (s === '*' || s === r) return true;
  if (!s.startsWith('pkg:') || !r.startsWith('pkg:')) return false;
  return dependsOn(dir, s.slice(4), r.slice(4));
}

function dependsOn(dir: string, pkg: string, dep: string): boolean {
  const key = `${dir}\0${pkg}`;
  if (!depCache.has(key)) {
    let deps = new Set<string>();
    try {
      const file = createRequire(path.join(dir, 'package.json')).resolve(`${pkg}/package.json`);
      const json = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string> };
      deps = new Set(Object.keys(json.dependencies ?? {}));
    } catch {
      // Packages without an exported package.json: only exact names match.
    }
    depCache.set(key, deps);
  }
  return depCache.get(key)!.has(dep);
}

/** Entry by entry, in order; a conditional static entry may be absent at runtime. */
function chainsMatch(s: string[], r: string[], dir: string): boolean {
  if (!s.length) return !r.length;
  const [head, ...rest] = s;
  const optional = head.startsWith('?');
  const token = optional ? head.slice(1) : head;
  if (r.length && tokenMatches(token, r[0], dir) && chainsMatch(rest, r.slice(1), dir)) return true;
  return optional && chainsMatch(rest, r, dir);
}

function report(all: AppResult[]): void {
  const rows: string[][] = [['app', 'runtime', 'static', 'found', 'recall', 'precision', 'chains', 'note']];
  let runtimeTotal = 0;
  let staticTotal = 0;
  let foundTotal = 0;
  let chainsTotal = 0;
  for (const r of all) {
    if (r.error && !r.runtimeRoutes.size) {
      rows.push([r.app, '-', String(r.staticRoutes.size), '-', '-', '-', '-', r.error]);
      continue;
    }
    const dir = apps[all.indexOf(r)];
    const found = [...r.runtimeRoutes.keys()].filter((k) => r.staticRoutes.has(k));
    const chains = found.filter((k) => chainsMatch(r.staticRoutes.get(k)!, r.runtimeRoutes.get(k)!, dir));
    // Precision counts the static keys that should exist here: conditional ones absent at runtime are left out.
    const staticCount = [...r.staticRoutes.keys()].filter((k) => r.runtimeRoutes.has(k) || !r.conditional?.has(k)).length;
    runtimeTotal += r.runtimeRoutes.size;
    staticTotal += staticCount;
    foundTotal += found.length;
    chainsTotal += chains.length;
    rows.push([r.app, String(r.runtimeRoutes.size), String(staticCount), String(found.length), pct(found.length, r.runtimeRoutes.size), pct(found.length, staticCount), pct(chains.length, found.length), r.error ?? '']);
    if (values.verbose) details(r, found, chains);
  }
  rows.push(['total', String(runtimeTotal), String(staticTotal), String(foundTotal), pct(foundTotal, runtimeTotal), pct(foundTotal, staticTotal), pct(chainsTotal, foundTotal), '']);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  console.log(rows.map((row) => row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n'));
}

function details(r: AppResult, found: string[], chains: string[]): void {
  console.log(`\n${r.app}`);
  for (const k of r.runtimeRoutes.keys()) if (!r.staticRoutes.has(k)) console.log(`  missed     ${k}`);
  for (const k of r.staticRoutes.keys()) if (!r.runtimeRoutes.has(k)) console.log(`  ${r.conditional?.has(k) ? 'conditional' : 'not real  '} ${k}`);
  for (const k of found) {
    if (chains.includes(k)) continue;
    console.log(`  chain      ${k}\n    static   ${r.staticRoutes.get(k)!.join(' → ')}\n    runtime  ${r.runtimeRoutes.get(k)!.join(' → ')}`);
  }
}

function pct(n: number, d: number): string {
  return d ? `${((100 * n) / d).toFixed(1)}%` : '-';
}

const results: AppResult[] = [];
for (const dir of apps) results.push(await measure(dir));
report(results);
