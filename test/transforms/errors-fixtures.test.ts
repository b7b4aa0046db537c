/**
 * Fixture pairs of the `errors` stage (fixtures/transforms/errors-handler/, errors-not-found/):
 * every case's output byte for byte and a second run that changes nothing (`expectFixture`), the
 * ManualItems and DeferredItems each case must report, the cases the stage refuses (nothing
 * written), and a type check of the TypeScript cases' output.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunError, runStage, type RunResult } from '../../runner/run.js';
import { renderSummary } from '../../runner/summary.js';
import { caseOptions, expectFixture, fixtureCases, readTree, runFixture, TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'errors-fixtures');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The ManualItem codes each case reports (in plan order); cases not listed report none. */
const MANUAL: Record<string, string[]> = {
  'errors-handler/one-call-both-handlers': ['registration-shape', 'registration-shape'],
  'errors-handler/chain-member-stays': ['error-handler-api', 'error-handler-api'],
  'errors-handler/chain-with-package': ['error-handler-package', 'error-handler-package'],
  'errors-handler/stale-todo': ['error-handler-api'],
  'errors-handler/shared-handler': ['error-handler-shared'],
  'errors-handler/two-apps-one-module': ['shared-generated-module', 'shared-generated-module'],
  'errors-not-found/not-last': ['not-found-not-last'],
  'errors-handler/factory-array': ['handler-test-use'],
  'errors-handler/factory-member-stays': ['error-handler-api', 'error-handler-api'],
  'errors-handler/runtime-late': ['not-found-conditional'],
  // The 404 calls the error handler and also hands errors on to a conditional one that stays: both steps agree that both stay (settle.ts).
  'errors-handler/forward-404-mixed': ['error-handler-conditional', 'not-found-handler-api', 'not-found-handler-api'],
  // The router's 404 (left for the routes stage) calls the app's error handler: that one is left to a human, not to the routes stage.
  'errors-handler/forward-from-router': ['error-handler-shared'],
  'errors-handler/forward-caller-stays': ['error-handler-shared', 'error-handler-shared', 'error-handler-shared'],
};

/** The DeferredItems each case reports, as `stage:code`; cases not listed report none. */
const DEFERRED: Record<string, string[]> = {
  'errors-handler/forward-from-router': ['routes:not-found-router'],
  'errors-handler/router-level': ['routes:error-handler-router'],
  'errors-handler/router-level-stale-todo': ['routes:error-handler-router'],
  'errors-not-found/spa-fallback': ['routes:not-found-method'],
};

/** Cases the stage refuses (RunError code): nothing may be written. */
const REFUSED: Record<string, string> = {
  'errors-handler/no-shim': 'refused',
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
      const refused = REFUSED[`${step}/${name}`];
      if (refused) {
        it(`${name} (refused)`, async () => {
          const error = await runFixture(step, name, 'errors').catch((e: unknown) => e);
          expect(error).toBeInstanceOf(RunError);
          expect((error as RunError).code).toBe(refused);
        });
        continue;
      }
      it(name, async () => {
        const run = await expectFixture(step, name, 'errors');
        expect(run.result.manual.map((m) => m.code), 'ManualItem codes').toEqual(MANUAL[`${step}/${name}`] ?? []);
        expect(run.result.deferred.map((d) => `${d.stage}:${d.code}`), 'DeferredItems').toEqual(DEFERRED[`${step}/${name}`] ?? []);
      });
    }
  });
}

describe('items left for a human, as the summary lists them', () => {
  it('each once, at the line it has in the file as written, on the first run and the next', async () => {
    const run = await runFixture('errors-handler', 'one-call-both-handlers', 'errors');
    const lines = (r: RunResult) => r.manual.map((m) => `${m.file}:${m.line} ${m.code}`);
    // app.use(notFound, errorHandler) was line 7; the two TODO(migrate) lines above it make it line 9.
    expect(run.files['src/app.js'].split('\n')[8]).toBe('app.use(notFound, errorHandler);');
    expect(lines(run.result)).toEqual(['src/app.js:9 registration-shape', 'src/app.js:9 registration-shape']);
    expect(run.result.todos.map((t) => [t.line, t.paired])).toEqual([
      [7, true],
      [8, true],
    ]);
    const text = renderSummary(run.result);
    expect(text).toContain(
      'Left for a human (2)\n' +
        '  src/app.js:9 error handler errorHandler stays on Express: it is registered together with other middleware in one call; register it on its own\n' +
        '  src/app.js:9 404 handler notFound stays on Express: it is registered together with other middleware in one call; register it on its own\n\n',
    );
    const again = await runStage({ root: run.root, stage: 'errors', allowDirty: true });
    expect(again.changes).toEqual([]);
    expect(lines(again)).toEqual(lines(run.result));
  });
});

describe('refusals write nothing', () => {
  it('errors before shim: RunError refused, saying to run the shim first; every file as it was', async () => {
    const input = path.join(TRANSFORM_FIXTURES, 'errors-handler', 'no-shim', 'input');
    mkdirSync(TMP, { recursive: true });
    const root = mkdtempSync(path.join(TMP, 'refused-'));
    made.push(root);
    cpSync(input, root, { recursive: true });
    const error = (await runStage({ root, stage: 'errors', allowDirty: true }).catch((e: unknown) => e)) as RunError;
    expect(error.code).toBe('refused');
    expect(error.message).toBe('the errors stage moves handlers into the Fastify module that the shim stage generates (fastify-server.*), and none serves the app of server.js: run `migrate run --stage shim` first (and commit it), then this stage');
    expect(readTree(root)).toEqual(readTree(input));
  });
});

describe('TypeScript output type-checks', () => {
  for (const [step, name] of [['errors-handler', 'ts-nodenext'], ['errors-handler', 'ts-error-request-handler'], ['errors-handler', 'ts-chain'], ['errors-handler', 'factory-array'], ['errors-handler', 'ts-cjs-errorhandler'], ['errors-not-found', 'ts-inline']]) {
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
