/**
 * Fixture pairs of the `errors` stage (fixtures/transforms/errors-handler/, errors-not-found/):
 * every case's output byte for byte and a second run that changes nothing (`expectFixture`), the
 * ManualItems each case must report, and a type check of the TypeScript cases' output.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStage } from '../../runner/run.js';
import { caseOptions, expectFixture, fixtureCases, TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'errors-fixtures');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The ManualItem codes each case reports (in plan order); cases not listed report none. */
const MANUAL: Record<string, string[]> = {
  'errors-handler/chain': ['error-handler-chain', 'error-handler-chain'],
  'errors-handler/conditional': ['error-handler-conditional'],
  'errors-handler/no-shim': ['shim-missing'],
  'errors-handler/renders-view': ['error-handler-api'],
  'errors-handler/stale-todo': ['error-handler-api'],
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
  const result = await runStage({ root, stage: 'errors', allowDirty: true, parity: caseOptions(step, name).parity });
  return { root, manual: result.manual.map((m) => m.code) };
}

for (const step of ['errors-handler', 'errors-not-found']) {
  describe(`${step} fixtures`, () => {
    for (const name of fixtureCases(step)) {
      it(name, async () => {
        const run = await expectFixture(step, name, 'errors');
        expect(run.result.manual.map((m) => m.code), 'ManualItem codes').toEqual(MANUAL[`${step}/${name}`] ?? []);
      });
    }
  });
}

describe('TypeScript output type-checks', () => {
  for (const [step, name] of [['errors-handler', 'ts-nodenext'], ['errors-handler', 'ts-error-request-handler'], ['errors-not-found', 'ts-inline']]) {
    it(`${step}/${name}`, async () => {
      const { root } = await runCase(step, name);
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
