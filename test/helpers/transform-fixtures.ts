/**
 * Transform fixtures (fixtures/transforms/README.md): `<step>/<case>/input/` is an app folder,
 * `<case>/expected/` holds the files the stage must produce (byte for byte), and a case without
 * `expected/` is a no-change fixture. Each case runs in a fresh copy under the repository's
 * `.tmp/` (gitignored) so the app resolves `express`, `fastify`, … from the repository's
 * node_modules.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { runStage, type RunOptions, type RunResult } from '../../runner/run.js';
import type { StageName } from '../../transforms/model.js';

const REPO = path.resolve(import.meta.dirname, '../..');
/** fixtures/transforms/ */
export const TRANSFORM_FIXTURES = path.join(REPO, 'fixtures/transforms');
const TMP = path.join(REPO, '.tmp', 'transform-fixtures');

const made: string[] = [];
afterAll(() => {
  if (process.env.KEEP_FIXTURE_TMP) return;
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Options a case may set in `<case>/case.json` (all optional). */
export interface CaseOptions {
  /** Passed to runStage. */
  parity?: RunOptions['parity'];
  entry?: string;
  app?: string;
  /** `--only` of the routes stage: a router file or a route key. */
  only?: string;
  /** Requests a runtime check sends to the app before and after the stage (`GET /path`, `POST /path {json}`); see the routes tests. */
  requests?: string[];
  /**
   * Response headers the runtime check compares too (lower-case names: `etag`, `cache-control`, …;
   * `set-cookie` lists each cookie), besides status, type, Location and body.
   */
  headers?: string[];
  /** Expected exit code of the first run (default: 0 or 1, i.e. not a failure). */
  exitCode?: 0 | 1 | 2;
  /**
   * Packages the app's own node_modules holds, as links to the repository's: name → folder there
   * (`{ "helmet": "helmet-4" }`, an older major a devDependency installs under an alias), so the
   * analysis reads that version installed and the app runs it.
   */
  packages?: Record<string, string>;
}

/** Links the case's `packages` (CaseOptions) into `root/node_modules`; returns `root`. */
export function linkPackages(root: string, packages: Record<string, string> = {}): string {
  for (const [name, folder] of Object.entries(packages)) {
    mkdirSync(path.join(root, 'node_modules'), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules', folder), path.join(root, 'node_modules', name), 'dir');
  }
  return root;
}

/** What one fixture run produced. */
export interface FixtureRun {
  /** The temporary app folder (absolute). */
  root: string;
  result: RunResult;
  /** Every file of the app folder after the run (POSIX path relative to it → text), node_modules excluded. */
  files: Record<string, string>;
}

/** runStage options for a case, and `fixturesDir` in place of fixtures/transforms/ (the helper's own tests). */
export type FixtureOptions = Partial<RunOptions> & { fixturesDir?: string };

/** The case folders of `step` (`fixtures/transforms/<step>/<case>/`), sorted; [] when the step has none. */
export function fixtureCases(step: string, fixturesDir: string = TRANSFORM_FIXTURES): string[] {
  const dir = path.join(fixturesDir, step);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(path.join(dir, name)).isDirectory() && existsSync(path.join(dir, name, 'input')))
    .sort();
}

/** `<case>/case.json`, or {} when absent. */
export function caseOptions(step: string, caseName: string, fixturesDir: string = TRANSFORM_FIXTURES): CaseOptions {
  const file = path.join(fixturesDir, step, caseName, 'case.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CaseOptions) : {};
}

/** Every file under `dir` as POSIX relative path → text (node_modules and .git excluded). */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub)).sort()) {
      if (name === 'node_modules' || name === '.git') continue;
      const rel = sub ? `${sub}/${name}` : name;
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else out[rel] = readFileSync(path.join(dir, rel), 'utf8');
    }
  };
  walk('');
  return out;
}

/**
 * Copies `<step>/<caseName>/input/` into a fresh folder under `.tmp/`, runs
 * `runStage({ root, stage, allowDirty: true, … })` in-process on it (options from case.json,
 * then `overrides`), and returns the result and the files after the run.
 */
export async function runFixture(step: string, caseName: string, stage: StageName, options: FixtureOptions = {}): Promise<FixtureRun> {
  const { fixturesDir = TRANSFORM_FIXTURES, ...overrides } = options;
  const input = path.join(fixturesDir, step, caseName, 'input');
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(path.join(TMP, `${step}-${caseName}-`));
  made.push(root);
  cpSync(input, root, { recursive: true });
  linkPackages(root, caseOptions(step, caseName, fixturesDir).packages);
  const result = await runStage({ root, stage, allowDirty: true, ...runOptionsOf(step, caseName, fixturesDir), ...overrides });
  return { root, result, files: readTree(root) };
}

/**
 * Runs a case and asserts: the exit code (case.json `exitCode`, else not 2 and no failed file);
 * every file under `expected/` equals the output byte for byte; every other input file is
 * unchanged and no other file appeared; a second run of the stage changes nothing (idempotency).
 * Returns the first run.
 */
export async function expectFixture(step: string, caseName: string, stage: StageName, options: FixtureOptions = {}): Promise<FixtureRun> {
  const { fixturesDir = TRANSFORM_FIXTURES, ...overrides } = options;
  const caseDir = path.join(fixturesDir, step, caseName);
  const run = await runFixture(step, caseName, stage, options);
  const { exitCode } = caseOptions(step, caseName, fixturesDir);
  const failures = run.result.outcomes.filter((o) => o.status === 'failed' || o.status === 'skipped');
  if (exitCode !== undefined) expect(run.result.exitCode, 'exit code').toBe(exitCode);
  else {
    expect(failures, 'failed or skipped files').toEqual([]);
    expect(run.result.exitCode, 'exit code').not.toBe(2);
  }

  const input = readTree(path.join(caseDir, 'input'));
  const expected = existsSync(path.join(caseDir, 'expected')) ? readTree(path.join(caseDir, 'expected')) : {};
  const want: Record<string, string> = { ...input, ...expected };
  const got = Object.fromEntries(Object.entries(run.files).filter(([f]) => !f.startsWith('.migrate/')));
  expect(Object.keys(got).sort(), 'files after the run').toEqual(Object.keys(want).sort());
  for (const [file, text] of Object.entries(want)) expect(got[file], `${file} ${file in expected ? 'as expected/' : 'unchanged'}`).toBe(text);

  const again = await runStage({ root: run.root, stage, allowDirty: true, ...runOptionsOf(step, caseName, fixturesDir), ...overrides });
  expect(
    again.changes.map((c) => c.file),
    'second run changes nothing',
  ).toEqual([]);
  return run;
}

/** The runStage options a case sets in case.json. */
function runOptionsOf(step: string, caseName: string, fixturesDir: string): Partial<RunOptions> {
  const { parity, entry, app, only } = caseOptions(step, caseName, fixturesDir);
  return { parity, entry, app, only };
}

/**
 * A fixtures folder (for `runFixture(…, { fixturesDir })`) holding the case `routes-move/<name>`: the
 * app of `co-generators-stay` (server.js building Fastify from app.js) with app.js replaced by an
 * Express app running `app` (its routes) and the error handler the errors stage leaves. Removed
 * after the file's tests.
 */
export function withRoutesApp(name: string, app: string): string {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(path.join(TMP, `${name}-`));
  made.push(dir);
  const input = path.join(dir, 'routes-move', name, 'input');
  cpSync(path.join(TRANSFORM_FIXTURES, 'routes-move', 'co-generators-stay', 'input'), input, { recursive: true });
  const errors = "const errorHandler = (err, request, reply) => {\n  reply.code(500).send({ error: err.message });\n};\n\nmodule.exports = app;\nmodule.exports.errorHandler = errorHandler;\n";
  writeFileSync(path.join(input, 'app.js'), `'use strict';\n\nconst express = require('express');\n\nconst app = express();\n${app}\n${errors}`);
  return dir;
}

/** tsc's report on the project at `root` (empty when it type-checks). */
export function tscOutput(root: string): string {
  try {
    execFileSync(path.join(REPO, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', path.join(root, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

/** What a case expects of a step's summary: moved `[done, of]`, the reasons of the groups that stay, the packages that leave package.json (@fastify/express aside). */
export interface MovedExpectation {
  moved: [number, number];
  kept?: string[];
  removed?: string[];
}

/** Asserts the summary of `step` in `run` against `expected` (MovedExpectation); undefined `expected` fails, naming the case. */
export function expectMoved(run: FixtureRun, step: string, name: string, expected: MovedExpectation | undefined): void {
  expect(expected, `the case ${name} has its expectation`).toBeDefined();
  const moved = run.result.moved.find((m) => m.step === step);
  expect(moved && [moved.done, moved.of], 'moved').toEqual(expected!.moved);
  expect((moved?.groups ?? []).map((g) => g.name)).toEqual(expected!.kept ?? []);
  expect(run.result.removedDependencies.filter((d) => d !== '@fastify/express')).toEqual(expected!.removed ?? []);
}
