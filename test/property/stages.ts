/**
 * The property every stage must have on every generated app (issue 7, item 5): run each stage that
 * exists, in STAGES order, on the app's folder; the run does not throw, reports no failed file and
 * no exit code 2; every file it changed parses (parse.ts); a second run of the same stage changes
 * nothing. Shared by stages.test.ts (a few dozen apps) and scripts/property.ts (the full run).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RunError, runStage, type RunResult } from '../../runner/run.js';
import { STAGES, type StageName } from '../../transforms/model.js';
import { packageTypeOf, parseProblem } from './parse.js';

/** What went wrong in one stage of one app. */
export interface StageFailure {
  stage: StageName;
  /** `threw`: runStage threw; `failed`: a file outcome `failed`; `exit-2`: the run ended with exit code 2; `unparsable`: a changed file does not parse; `not-idempotent`: the second run changed a file; `not-moved`: the shim moved no place that starts the app. */
  kind: 'threw' | 'failed' | 'exit-2' | 'unparsable' | 'not-idempotent' | 'not-moved';
  /** POSIX path relative to the app, when one file is at fault. */
  file?: string;
  message: string;
}

/** What happened to one stage of one app (its first run). */
export interface StageRun {
  stage: StageName;
  /** The stage has no step yet (RunError 'no-steps'): not run. */
  skipped: boolean;
  /** Files the first run changed. */
  changed: string[];
}

/** The verdict on one app. */
export interface AppVerdict {
  stages: StageRun[];
  failures: StageFailure[];
}

/** Options of {@link checkStages}. */
export interface CheckOptions {
  /** Stages to run, in order; default every stage of STAGES. */
  stages?: readonly StageName[];
  /** Worker threads for the runner (default 1: the generated apps are small, and runs happen one after another). */
  workers?: number;
  /** Run the stages with `typecheck` (generated TypeScript apps type-check before; a stage must keep them so). Slow: two `tsc` runs per stage. */
  typecheck?: boolean;
}

/**
 * Runs every stage on the app in `root` (absolute; the files are edited in place) and checks the
 * property. The second run of a stage is a `check` run (computes the changes a run would make,
 * writes nothing), so a stage that is not idempotent still leaves its first result for the next
 * stage. A stage that throws, fails a file, ends with exit code 2 or writes an unparsable file
 * stops the app: later stages would run on a broken app and only repeat the failure. Never throws
 * for a stage's fault; the failures are returned.
 */
export async function checkStages(root: string, options: CheckOptions = {}): Promise<AppVerdict> {
  const verdict: AppVerdict = { stages: [], failures: [] };
  for (const stage of options.stages ?? STAGES) {
    const first = await attempt(root, stage, { workers: options.workers ?? 1, typecheck: options.typecheck ?? false });
    if ('skipped' in first) {
      verdict.stages.push({ stage, skipped: true, changed: [] });
      continue;
    }
    if ('error' in first) {
      verdict.failures.push({ stage, kind: 'threw', message: first.error });
      break;
    }
    const result = first.result;
    verdict.stages.push({ stage, skipped: false, changed: result.changes.map((c) => c.file) });
    const failures = [...failedOutcomes(stage, result), ...unparsableChanges(root, stage, result), ...nothingStarted(stage, result)];
    if (result.exitCode === 2 && failures.length === 0) failures.push({ stage, kind: 'exit-2', message: exitTwoReason(result) });
    if (failures.length > 0) {
      verdict.failures.push(...failures);
      break;
    }
    const second = await attempt(root, stage, { workers: options.workers ?? 1, check: true });
    if ('error' in second || 'skipped' in second) {
      verdict.failures.push({ stage, kind: 'threw', message: `second run: ${'error' in second ? second.error : 'no steps'}` });
      break;
    }
    const secondFailures = failedOutcomes(stage, second.result).map((f) => ({ ...f, message: `second run: ${f.message}` }));
    verdict.failures.push(...second.result.changes.map((c): StageFailure => ({ stage, kind: 'not-idempotent', file: c.file, message: `the second run changes it again: ${firstDifference(c.before ?? '', c.after)}` })), ...secondFailures);
    if (secondFailures.length > 0) break;
  }
  return verdict;
}

/**
 * Every generated app starts its Express app somewhere (listen or createServer), so the shim must
 * report at least one start site moved, and all it planned: a shim that changes nothing on every
 * app would otherwise pass this property.
 */
function nothingStarted(stage: StageName, result: RunResult): StageFailure[] {
  if (stage !== 'shim') return [];
  const listen = result.moved.find((m) => m.step === 'shim-listen');
  if (listen && listen.of > 0 && listen.done === listen.of) return [];
  return [{ stage, kind: 'not-moved', message: `the shim moved ${listen ? `${listen.done} of ${listen.of}` : 'no'} places that start the app` }];
}

type Attempt = { result: RunResult } | { skipped: true } | { error: string };

async function attempt(root: string, stage: StageName, options: { workers: number; check?: boolean; typecheck?: boolean }): Promise<Attempt> {
  try {
    return { result: await runStage({ root, stage, allowDirty: true, ...options }) };
  } catch (e) {
    if (e instanceof RunError && e.code === 'no-steps') return { skipped: true };
    const err = e as Error;
    // The first line of the message and the first stack frame (a wrapped error carries its stack in the message).
    const where = `${err.message}\n${err.stack ?? ''}`.split('\n').find((l) => /^\s*at /.test(l))?.trim();
    return { error: `${e instanceof RunError ? `RunError ${e.code}: ` : ''}${err.message.split('\n')[0]}${where ? ` (${where})` : ''}` };
  }
}

function failedOutcomes(stage: StageName, result: RunResult): StageFailure[] {
  return result.outcomes.filter((o) => o.status === 'failed').map((o) => ({ stage, kind: 'failed', file: o.file, message: o.reason ?? 'failed (no reason given)' }));
}

function unparsableChanges(root: string, stage: StageName, result: RunResult): StageFailure[] {
  const packageJson = result.changes.find((c) => c.file === 'package.json')?.after ?? readIfExists(path.join(root, 'package.json'));
  const type = packageTypeOf(packageJson);
  const out: StageFailure[] = [];
  for (const change of result.changes) {
    const problem = parseProblem(change.file, change.after, type);
    if (problem) out.push({ stage, kind: 'unparsable', file: change.file, message: problem });
  }
  return out;
}

function exitTwoReason(result: RunResult): string {
  const parity = result.parity && (result.parity.missing.length || result.parity.duplicated.length) ? `route parity: missing [${result.parity.missing.join(', ')}], duplicated [${result.parity.duplicated.join(', ')}]` : '';
  const introduced = result.typecheck?.introduced.length ? `new type errors: ${result.typecheck.introduced.slice(0, 3).join(' | ')}` : '';
  const notes = result.notes.filter((n) => !n.startsWith('the files stay written'));
  return ['exit code 2', parity, introduced, ...notes].filter(Boolean).join('; ');
}

/** `line N: "before" → "after"` for the first line that differs (CR shown as \r). */
function firstDifference(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: ${JSON.stringify(a[i] ?? '(none)')} → ${JSON.stringify(b[i] ?? '(none)')}`;
  }
  return 'same lines';
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** One line per failure: `seed 12 shim unparsable src/app.js: …`. */
export function formatFailure(seed: number, f: StageFailure): string {
  return `seed ${seed} ${f.stage} ${f.kind}${f.file ? ` ${f.file}` : ''}: ${f.message}`;
}
