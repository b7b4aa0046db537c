/**
 * Fixture pairs of the `errors` stage (fixtures/transforms/errors-handler/, errors-not-found/):
 * every case's output byte for byte, a second run that changes nothing, the ManualItems each case
 * must report, and a type check of the TypeScript cases' output. Runs the real runner
 * (`expectFixture`) once `runStage` is implemented, the interim driver (errors-driver.ts) until then.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStage } from '../../runner/run.js';
import { caseOptions, expectFixture, fixtureCases, readTree, TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';
import { runErrorsStage } from './errors-driver.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'errors-fixtures');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Whether runner/run.ts runs stages yet (it throws "not implemented" until it does). */
const runnerReady = await runStage({ root: path.join(TMP, 'probe-none'), stage: 'errors', allowDirty: true }).then(
  () => true,
  (e: unknown) => !/not implemented/.test(String(e)),
);

/** The ManualItem codes each case reports (in plan order); cases not listed report none. */
const MANUAL: Record<string, string[]> = {
  'errors-handler/chain': ['error-handler-chain', 'error-handler-chain'],
  'errors-handler/conditional': ['error-handler-conditional'],
  'errors-handler/no-shim': ['shim-missing'],
  'errors-handler/renders-view': ['error-handler-api'],
  'errors-handler/router-level': ['error-handler-router'],
  'errors-handler/shared-handler': ['error-handler-shared'],
  'errors-not-found/not-last': ['not-found-not-last'],
  'errors-not-found/spa-fallback': ['not-found-method'],
};

/** Runs the stage on a copy of a case's input; returns the folder and the ManualItem codes. */
async function runCase(step: string, name: string): Promise<{ root: string; manual: string[] }> {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(path.join(TMP, `${step}-${name}-`));
  made.push(root);
  cpSync(path.join(TRANSFORM_FIXTURES, step, name, 'input'), root, { recursive: true });
  const parity = caseOptions(step, name).parity ?? 'default';
  if (runnerReady) {
    const result = await runStage({ root, stage: 'errors', allowDirty: true, parity });
    return { root, manual: result.manual.map((m) => m.code) };
  }
  const run = await runErrorsStage(root, parity);
  return { root, manual: run.manual.map((m) => m.code) };
}

/** expectFixture's checks, on the interim driver: expected/ byte for byte, nothing else changed, a second run changes nothing. */
async function expectCase(step: string, name: string): Promise<string[]> {
  if (runnerReady) await expectFixture(step, name, 'errors');
  const { root, manual } = await runCase(step, name);
  const caseDir = path.join(TRANSFORM_FIXTURES, step, name);
  const want = { ...readTree(path.join(caseDir, 'input')), ...(existsSync(path.join(caseDir, 'expected')) ? readTree(path.join(caseDir, 'expected')) : {}) };
  const got = Object.fromEntries(Object.entries(readTree(root)).filter(([f]) => !f.startsWith('.migrate/')));
  expect(Object.keys(got).sort(), 'files after the run').toEqual(Object.keys(want).sort());
  for (const [file, text] of Object.entries(want)) expect(got[file], file).toBe(text);
  if (!runnerReady) {
    const again = await runErrorsStage(root, caseOptions(step, name).parity ?? 'default');
    expect(again.changed, 'second run changes nothing').toEqual([]);
  }
  return manual;
}

for (const step of ['errors-handler', 'errors-not-found']) {
  describe(`${step} fixtures`, () => {
    for (const name of fixtureCases(step)) {
      it(name, async () => {
        const manual = await expectCase(step, name);
        expect(manual, 'ManualItem codes').toEqual(MANUAL[`${step}/${name}`] ?? []);
      });
    }
  });
}

describe('TypeScript output type-checks', () => {
  for (const name of ['ts-nodenext', 'ts-error-request-handler']) {
    it(name, async () => {
      const { root } = await runCase('errors-handler', name);
      const tsc = path.join(REPO, 'node_modules', '.bin', 'tsc');
      let output = '';
      try {
        execFileSync(tsc, ['--noEmit', '-p', path.join(root, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
      } catch (e) {
        output = String((e as { stdout?: string }).stdout ?? e);
      }
      expect(output).toBe('');
    });
  }
});
