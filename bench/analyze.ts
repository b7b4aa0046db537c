/**
 * Analysis cost at scale. Generates a synthetic Express app of N source files (bench/synthetic.ts:
 * about 100 lines each, 4–6 handlers per resource, cross-file constants, three-level mounts, half
 * JS and half TS), checks that the inventory of it is complete (every expected route key, no
 * other, summary.complete), then measures in separate child processes (bench/analyze-child.ts):
 *
 *   analyze  the wall time and peak RSS of `analyze({ dir })`, analyzer loading included;
 *   parse    the wall time and peak RSS of a process that only loads the TypeScript compiler
 *            bundled with ts-morph and parses the same files (`ts.createSourceFile`).
 *
 * Runs alternate (parse, analyze, parse, …) and medians are reported, with the ratio analyze /
 * parse. Targets at 1,000 files: ratio ≤ 4 and analyze peak RSS ≤ 600 MB. Missing a target is
 * reported, not an error; an incomplete inventory exits 1.
 *
 * Run: `npm run bench` (1,000 files), `npm run bench -- --files 100 [--rounds 3] [--keep]`, or
 * `npm run bench -- --apps` for the in-process ratio over the example apps in fixtures/apps.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { generateApp } from './synthetic.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TARGET_RATIO = 4;
const TARGET_RSS_MB = 600;

const { values: opts } = parseArgs({
  options: {
    files: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    apps: { type: 'boolean', default: false },
  },
});

interface ChildResult {
  ms: number;
  /** Part of `ms` spent importing the code (the analyzer, or ts-morph alone). */
  loadMs: number;
  maxRssKB: number;
  keys?: string[];
  complete?: boolean;
  headline?: string;
  entry?: string | null;
  notExact?: { key: string; resolution: string; reasons: string[] }[];
  diagnostics?: string[];
}

/** Runs bench/analyze-child.ts in a fresh Node process and returns the JSON it prints. */
function child(mode: 'analyze' | 'parse', arg: string): ChildResult {
  const out = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/analyze-child.ts'), mode, arg], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (out.status !== 0) throw new Error(`${mode} child failed (exit ${out.status}):\n${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Synthetic-app benchmark; returns the process exit code. */
function synthetic(files: number, rounds: number): number {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'migrate-bench-'));
  try {
    const app = generateApp(path.join(tmp, 'app'), { files });
    const list = path.join(tmp, 'files.json');
    writeFileSync(list, JSON.stringify(app.files));
    const lines = app.files.reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').length, 0);
    const ts = app.files.filter((f) => f.endsWith('.ts')).length;
    console.log(`synthetic app: ${app.files.length} files (${ts} .ts, ${app.files.length - ts} .js), ${lines} lines, ${app.routes.length} routes, in ${app.dir}`);

    const parse: ChildResult[] = [];
    const analysis: ChildResult[] = [];
    for (let i = 0; i < rounds; i++) {
      parse.push(child('parse', list));
      analysis.push(child('analyze', app.dir));
      console.log(`  round ${i + 1}/${rounds}: parse ${parse[i].ms.toFixed(0)} ms, analyze ${analysis[i].ms.toFixed(0)} ms`);
    }

    const inv = analysis.at(-1)!;
    const got = new Set(inv.keys);
    const want = new Set(app.routes);
    const missing = app.routes.filter((k) => !got.has(k));
    const unexpected = [...got].filter((k) => !want.has(k));
    const complete = missing.length === 0 && unexpected.length === 0 && inv.complete === true;

    const a = median(analysis.map((r) => r.ms));
    const p = median(parse.map((r) => r.ms));
    const aRss = median(analysis.map((r) => r.maxRssKB)) / 1024;
    const pRss = median(parse.map((r) => r.maxRssKB)) / 1024;
    const ratio = a / p;
    const row = (label: string, value: string, target = '') => console.log(`  ${label.padEnd(22)}${value.padStart(10)}  ${target}`);
    const verdict = (ok: boolean, text: string) => `${ok ? 'ok' : 'MISSED'} (target ${text})`;
    console.log(`\nmedians of ${rounds} run${rounds === 1 ? '' : 's'} each:`);
    row('files', String(app.files.length));
    row('routes', `${got.size}/${want.size}`, complete ? 'inventory complete' : 'INVENTORY INCOMPLETE');
    row('analyze ms', a.toFixed(0));
    row('parse ms', p.toFixed(0));
    const aLoad = median(analysis.map((r) => r.loadMs));
    const pLoad = median(parse.map((r) => r.loadMs));
    row('  of which loading ms', `${aLoad.toFixed(0)} / ${pLoad.toFixed(0)}`, '(analyze / parse)');
    row('ratio analyze/parse', `${ratio.toFixed(2)}×`, verdict(ratio <= TARGET_RATIO, `≤ ${TARGET_RATIO}`));
    row('ratio, loading excl.', `${((a - aLoad) / (p - pLoad)).toFixed(2)}×`, '(for information)');
    row('analyze peak RSS MB', aRss.toFixed(0), verdict(aRss <= TARGET_RSS_MB, `≤ ${TARGET_RSS_MB} MB`));
    row('parse peak RSS MB', pRss.toFixed(0));

    if (!complete) {
      console.log(`\n${inv.headline} (entry: ${inv.entry})`);
      const show = (title: string, xs: string[]) => xs.length && console.log(`${title} (${xs.length}):\n${xs.slice(0, 20).map((x) => `  ${x}`).join('\n')}${xs.length > 20 ? '\n  …' : ''}`);
      show('missing route keys', missing);
      show('unexpected route keys', unexpected);
      show('routes not resolved exactly', (inv.notExact ?? []).map((r) => `${r.key} [${r.resolution}] ${r.reasons.join('; ')}`));
      show('warnings and errors', inv.diagnostics ?? []);
      return 1;
    }
    return 0;
  } finally {
    if (opts.keep) console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

/** The in-process ratio over the example apps (medians of 7 runs after a warm-up). */
async function exampleApps(): Promise<void> {
  const { ts } = await import('ts-morph');
  const { analyze } = await import('../analyzer/analyze.js');
  const { discoverFiles } = await import('../analyzer/files.js');
  const time = async (fn: () => unknown) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  console.log(['app', 'files', 'routes', 'parse ms', 'analyze ms', 'analyze / parse'].join('\t'));
  for (const name of ['url-shortener', 'modern-e5', 'legacy-cjs', 'shop-api']) {
    const dir = path.join(ROOT, 'fixtures/apps', name);
    const { files } = await discoverFiles(dir);
    const texts = files.map((f) => [f, readFileSync(f, 'utf8')] as const);
    const parse = () => texts.forEach(([f, text]) => ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true));
    let routes = 0;
    const run = async () => void (routes = (await analyze({ dir })).routes.length);
    await run();
    parse();
    const p: number[] = [];
    const a: number[] = [];
    for (let i = 0; i < 7; i++) {
      p.push(await time(parse));
      a.push(await time(run));
    }
    console.log([name, files.length, routes, median(p).toFixed(1), median(a).toFixed(1), `${(median(a) / median(p)).toFixed(1)}×`].join('\t'));
  }
}

if (opts.apps) await exampleApps();
else process.exitCode = synthetic(Number(opts.files), Math.max(1, Number(opts.rounds)));
