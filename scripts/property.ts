/**
 * The full property run over every stage (issue 7, item 5): generated Express apps
 * (test/property/generate.ts) through each stage that exists (test/property/stages.ts).
 *
 *   npx tsx scripts/property.ts [--apps N] [--seed S] [--keep] [--typecheck]
 *
 * --apps N   how many apps (default 1000), seeds S..S+N-1
 * --seed S   first seed (default 0); without --apps, runs seed S alone (to reproduce a failure)
 * --keep     keep every app folder under .tmp/property/<seed> (failing apps are always kept)
 * --typecheck  run the stages with `typecheck`: a generated TypeScript app must still type-check (slow)
 *
 * Progress on stderr, the summary on stdout (apps, stages run, failures grouped by message with
 * their seeds). Exit code 0 when every app passes, 1 on any failure, 2 on bad arguments.
 */
import { parseArgs } from 'node:util';
import { removeAppFolder, writeAppFolder } from '../test/property/folder.js';
import { generateApp } from '../test/property/generate.js';
import { checkStages, formatFailure, type StageFailure } from '../test/property/stages.js';

interface Options {
  apps: number;
  seed: number;
  keep: boolean;
  typecheck: boolean;
}

/** Reads the command line. @throws Error with a usage message on a bad argument. */
function options(argv: string[]): Options {
  const { values } = parseArgs({ args: argv, options: { apps: { type: 'string' }, seed: { type: 'string' }, keep: { type: 'boolean', default: false }, typecheck: { type: 'boolean', default: false } }, strict: true });
  const int = (name: string, value: string) => {
    if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
    return Number(value);
  };
  const seed = values.seed === undefined ? 0 : int('seed', values.seed);
  const apps = values.apps !== undefined ? int('apps', values.apps) : values.seed !== undefined ? 1 : 1000;
  return { apps, seed, keep: values.keep, typecheck: values.typecheck };
}

/**
 * The part of a failure that repeats across apps with the same bug: file names, positions, quotes
 * and parameter names dropped; for a stage that is not idempotent, only what the second run writes.
 */
function signature(f: StageFailure): string {
  let message = f.kind === 'not-idempotent' ? f.message.replace(/^.*→/, '') : f.message;
  message = message
    .replace(/\\r/g, '')
    .replace(/[\w./-]+\.(?:[cm]?[jt]s)(?::\d+(?::\d+)?)?/g, '<file>')
    .replace(/\d+:\d+/g, 'N:N')
    .replace(/\(\d+,\d+\)/g, '(N,N)')
    .replace(/\bline \d+/g, 'line N')
    .replace(/["']/g, "'")
    .replace(/\brequest\b/g, 'req')
    .replace(/\bresponse\b/g, 'res');
  return `${f.stage} ${f.kind}: ${message}`;
}

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = options(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\nusage: npx tsx scripts/property.ts [--apps N] [--seed S] [--keep] [--typecheck]\n`);
    return 2;
  }
  const started = Date.now();
  const stageRuns = new Map<string, { ran: number; skipped: number; changedFiles: number }>();
  const groups = new Map<string, { example: string; seeds: number[] }>();
  const failingSeeds: number[] = [];
  for (let i = 0; i < opts.apps; i++) {
    const seed = opts.seed + i;
    const app = generateApp(seed);
    const dir = writeAppFolder(app);
    const verdict = await checkStages(dir, { typecheck: opts.typecheck });
    for (const s of verdict.stages) {
      const entry = stageRuns.get(s.stage) ?? { ran: 0, skipped: 0, changedFiles: 0 };
      if (s.skipped) entry.skipped++;
      else (entry.ran++, (entry.changedFiles += s.changed.length));
      stageRuns.set(s.stage, entry);
    }
    for (const f of verdict.failures) {
      const key = signature(f);
      const group = groups.get(key) ?? { example: formatFailure(seed, f), seeds: [] };
      if (!group.seeds.includes(seed)) group.seeds.push(seed);
      groups.set(key, group);
    }
    if (verdict.failures.length > 0) failingSeeds.push(seed);
    if (verdict.failures.length === 0 && !opts.keep) removeAppFolder(dir);
    const stages = verdict.stages.map((s) => `${s.stage} ${s.skipped ? 'skipped' : `${s.changed.length} changed`}`).join(', ');
    process.stderr.write(`[${i + 1}/${opts.apps}] seed ${seed} ${verdict.failures.length ? `FAIL (${verdict.failures.length})` : 'ok'}: ${stages}\n`);
  }

  const out: string[] = [];
  out.push(`property run: ${opts.apps} app(s), seeds ${opts.seed}..${opts.seed + opts.apps - 1}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const [stage, s] of stageRuns) if (s.ran > 0) out.push(`  stage ${stage}: ran on ${s.ran} app(s), ${s.changedFiles} files changed${s.skipped ? `; no steps on ${s.skipped}` : ''}`);
  const notRun = [...stageRuns].filter(([, s]) => s.ran === 0).map(([stage]) => stage);
  if (notRun.length > 0) out.push(`  stages with no steps yet: ${notRun.join(', ')}`);
  out.push(`  ${opts.apps - failingSeeds.length} passed, ${failingSeeds.length} failed`);
  if (groups.size > 0) {
    out.push('', 'failures (grouped by message; reproduce one with: npx tsx scripts/property.ts --seed <seed> --keep):');
    for (const g of [...groups.values()].sort((a, b) => b.seeds.length - a.seeds.length)) {
      const seeds = g.seeds.length > 12 ? `${g.seeds.slice(0, 12).join(', ')}, … (${g.seeds.length})` : g.seeds.join(', ');
      out.push(`- ${g.seeds.length} app(s), seeds ${seeds}`, `    ${g.example}`);
    }
  }
  process.stdout.write(out.join('\n') + '\n');
  return failingSeeds.length > 0 ? 1 : 0;
}

process.exitCode = await main();
