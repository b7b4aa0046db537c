/**
 * Cost of a stage at scale (issue 7 item 7). On the synthetic app of bench/synthetic.ts (1,000
 * files by default, half JS and half TS), measures in fresh processes, alternating:
 *
 *   stage      `migrate run --stage shim --dry <app>`: the whole command (CLI start-up, analysis,
 *              rules, planning, transforms in the worker pool, the diff), no --typecheck;
 *   jscodeshift  jscodeshift's own runner (all cores) with a transform that parses and prints
 *              every file of the app with no edits (bench/noop-transform.cjs).
 *
 * Prints the medians and the ratio stage / jscodeshift; target ≤ 2. Missing the target is
 * reported, not an error; a stage run that fails exits 1.
 *
 * Run: `npm run bench:transform` (needs `npm run build`), `-- --files 200 --rounds 3 --keep`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { generateApp } from './synthetic.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TARGET_RATIO = 2;

const { values: opts } = parseArgs({
  options: {
    files: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
  },
});

/** Wall time of one command in a fresh process, in ms; throws with its output when it fails. */
function timed(label: string, args: string[], ok: (status: number | null) => boolean): { ms: number; stdout: string } {
  const t0 = performance.now();
  const out = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (!ok(out.status)) throw new Error(`${label} failed (exit ${out.status}):\n${out.stderr.slice(-2000)}`);
  return { ms, stdout: out.stdout };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function main(): number {
  const files = Number(opts.files);
  const rounds = Number(opts.rounds);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'migrate-bench-transform-'));
  try {
    const app = generateApp(path.join(tmp, 'app'), { files });
    console.log(`synthetic app: ${app.files.length} files, ${app.routes.length} routes, in ${app.dir}`);
    const stage = ['bin/migrate.js', 'run', '--stage', 'shim', '--dry', app.dir];
    const jscodeshift = [path.join(ROOT, 'node_modules/jscodeshift/bin/jscodeshift.js'), '-t', path.join(ROOT, 'bench/noop-transform.cjs'), '--dry', '--silent', '--extensions=js,ts', path.join(app.dir, 'src')];
    const stageMs: number[] = [];
    const baseMs: number[] = [];
    let diff = '';
    for (let i = 0; i < rounds; i++) {
      baseMs.push(timed('jscodeshift', jscodeshift, (s) => s === 0).ms);
      const run = timed('migrate run', stage, (s) => s === 0 || s === 1);
      stageMs.push(run.ms);
      diff = run.stdout;
      console.log(`  round ${i + 1}/${rounds}: jscodeshift ${baseMs[i].toFixed(0)} ms, stage ${stageMs[i].toFixed(0)} ms`);
    }
    const changed = (diff.match(/^\+\+\+ /gm) ?? []).length;
    const s = median(stageMs);
    const b = median(baseMs);
    const ratio = s / b;
    const row = (label: string, value: string, note = '') => console.log(`  ${label.padEnd(26)}${value.padStart(10)}  ${note}`);
    console.log(`\nmedians of ${rounds} run${rounds === 1 ? '' : 's'} each (${os.availableParallelism()} cores):`);
    row('files', String(app.files.length));
    row('files the stage changes', String(changed), '(from the dry-run diff)');
    row('run --stage shim --dry ms', s.toFixed(0));
    row('jscodeshift parse+print ms', b.toFixed(0));
    row('ratio stage/jscodeshift', `${ratio.toFixed(2)}×`, `${ratio <= TARGET_RATIO ? 'ok' : 'MISSED'} (target ≤ ${TARGET_RATIO})`);
    return 0;
  } finally {
    if (opts.keep) console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

process.exitCode = main();
