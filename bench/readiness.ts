/**
 * What the readiness costs `migrate analyze`: since issue 15 it assesses the stages (the shim,
 * errors and routes plans, nothing written) on top of the analysis and the rules. Measured in one
 * process, alternating the two in each round so that a noisy machine slows both alike:
 *
 *   analysis   analyze() and runRules() — the inventory and findings;
 *   readiness  analyzeWithReadiness() — the same, plus the assessment.
 *
 * Prints the medians and the ratio readiness / analysis per app: the example apps of fixtures/apps
 * and a synthetic app of `--files` files (bench/synthetic.ts). A ratio, not a time, is the result:
 * these machines are shared. Target: ≤ 2 on every app (the assessment costs at most one analysis).
 *
 * Run: `npm run bench:readiness` or `npm run bench:readiness -- --files 300 --rounds 7`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { analyze } from '../analyzer/analyze.js';
import { runRules } from '../rules/index.js';
import { analyzeWithReadiness } from '../runner/readiness.js';
import { generateApp } from './synthetic.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TARGET_RATIO = 2;
const { values: opts } = parseArgs({ options: { files: { type: 'string', default: '200' }, rounds: { type: 'string', default: '5' } } });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Medians of `rounds` alternating runs (after one warm-up of each), and their ratio. */
async function measure(dir: string, rounds: number): Promise<{ analysis: number; readiness: number; ratio: number; routes: string }> {
  const analysis: number[] = [];
  const readiness: number[] = [];
  let routes = '';
  await analyzeWithReadiness({ dir });
  for (let i = 0; i < rounds; i++) {
    analysis.push(await time(async () => runRules(await analyze({ dir }))));
    readiness.push(
      await time(async () => {
        const r = (await analyzeWithReadiness({ dir })).readiness!;
        routes = `${r.overall.auto} auto · ${r.overall.assisted} assisted · ${r.overall.later} later · ${r.overall.manual} manual`;
      }),
    );
  }
  return { analysis: median(analysis), readiness: median(readiness), ratio: median(readiness) / median(analysis), routes };
}

const rounds = Number(opts.rounds);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'migrate-bench-readiness-'));
try {
  const synthetic = path.join(tmp, 'app');
  generateApp(synthetic, { files: Number(opts.files) });
  const apps: Array<[string, string]> = [...['url-shortener', 'legacy-cjs', 'modern-e5', 'shop-api'].map((n): [string, string] => [n, path.join(ROOT, 'fixtures/apps', n)]), [`synthetic (${opts.files} files)`, synthetic]];
  console.log(`readiness / analysis, medians of ${rounds} alternating rounds (target ≤ ${TARGET_RATIO})`);
  let missed = false;
  for (const [name, dir] of apps) {
    const m = await measure(dir, rounds);
    missed ||= m.ratio > TARGET_RATIO;
    console.log(`  ${name.padEnd(24)} analysis ${m.analysis.toFixed(0).padStart(6)} ms  readiness ${m.readiness.toFixed(0).padStart(6)} ms  ratio ${m.ratio.toFixed(2)}${m.ratio > TARGET_RATIO ? '  (over target)' : ''}   ${m.routes}`);
  }
  if (missed) console.log('a ratio is over the target (reported, not an error)');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
