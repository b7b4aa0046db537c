/**
 * Analysis cost relative to parsing: for each example app, the median time of a full `analyze`
 * divided by the median time of a bare TypeScript parse of the same files, both measured in this
 * run (the machines are shared and noisy, so only the ratio is meaningful).
 *
 * Run: `npm run bench` (or `npx tsx bench/analyze.ts [app-folder …]`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ts } from 'ts-morph';
import { analyze } from '../analyzer/analyze.js';
import { discoverFiles } from '../analyzer/files.js';

const ROUNDS = 7;
const ROOT = path.resolve(import.meta.dirname, '..');
const apps = process.argv.slice(2).length ? process.argv.slice(2) : ['url-shortener', 'modern-e5', 'legacy-cjs', 'shop-api'].map((a) => path.join(ROOT, 'fixtures/apps', a));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

console.log(['app', 'files', 'routes', 'parse ms', 'analyze ms', 'analyze / parse'].join('\t'));
for (const dir of apps) {
  const { files } = await discoverFiles(dir);
  const texts = files.map((f) => [f, readFileSync(f, 'utf8')] as const);
  const parse = () => texts.forEach(([f, text]) => ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true));
  let routes = 0;
  const run = async () => {
    routes = (await analyze({ dir })).routes.length;
  };
  await run(); // warm-up: module loading and JIT
  parse();
  const parseMs: number[] = [];
  const analyzeMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    parseMs.push(await time(parse));
    analyzeMs.push(await time(run));
  }
  const p = median(parseMs);
  const a = median(analyzeMs);
  console.log([path.basename(dir), files.length, routes, p.toFixed(1), a.toFixed(1), `${(a / p).toFixed(1)}×`].join('\t'));
}
