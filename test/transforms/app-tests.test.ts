/**
 * The app's own tests keep passing (issue 17, item 7): test files that send requests to the Express
 * app itself are pointed at the Fastify server in front of it (`fastifyListener(app)`), by the shim
 * and, for an app shimmed before the shim did it, by the errors and routes stages.
 * - The analyzer finds those places by the app's value (App.testDrivers), not by names.
 * - Fixture pairs (fixtures/transforms/shim-tests/, routes-tests/): output byte for byte, a second
 *   run changes nothing, the places moved and the items left.
 * - At run time: each fixture app's own test files (node:test with supertest) pass before the
 *   stages and after shim → errors → routes, each stage having moved something; and the test files
 *   as they were fail after the routes stage (they would have missed the moved routes), so passing
 *   proves the tests reach Fastify. The TypeScript app's output type-checks.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { runStage } from '../../runner/run.js';
import { planContext } from '../../runner/plan.js';
import { planAppTests } from '../../transforms/app-tests/plan.js';
import { expectFixture, fixtureCases, TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'app-tests');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** `[done, of]` of the step that points the tests, per case. */
const MOVED: Record<string, [number, number]> = {
  'shim-tests/cjs-supertest': [7, 7],
  'shim-tests/esm-app': [3, 3],
  'shim-tests/left-for-a-human': [2, 5],
  'shim-tests/old-jest': [0, 1],
  'shim-tests/single-file': [3, 3],
  'shim-tests/ts-alias': [2, 2],
  'routes-tests/shimmed-before': [1, 1],
};
/** ManualItem codes per case; absent: none. */
const MANUAL: Record<string, string[]> = {
  'shim-tests/left-for-a-human': ['test-drives-express', 'test-drives-express', 'test-drives-express'],
  'shim-tests/old-jest': ['test-runner-without-fastify'],
};

describe('fixtures', () => {
  for (const [step, stage] of [['shim-tests', 'shim'], ['routes-tests', 'routes']] as const) {
    for (const name of fixtureCases(step)) {
      it(`${step}/${name}`, async () => {
        const run = await expectFixture(step, name, stage);
        const moved = run.result.moved.find((m) => m.step === step);
        expect(moved && [moved.done, moved.of], 'moved').toEqual(MOVED[`${step}/${name}`]);
        expect(run.result.manual.map((m) => m.code), 'ManualItem codes').toEqual(MANUAL[`${step}/${name}`] ?? []);
      }, 60_000);
    }
  }
});

describe('the analyzer finds where tests drive the app, by its value', () => {
  it('supertest, an agent made in a hook, app.listen and http.createServer; not an app the test builds, an assertion or a setting read off the app', async () => {
    const inv = await analyze({ dir: path.join(TRANSFORM_FIXTURES, 'shim-tests/cjs-supertest/input') });
    const drivers = inv.apps[0].testDrivers ?? [];
    expect(drivers.map((d) => `${d.location.file}:${d.location.line} ${d.kind} ${d.callee}(${d.app.text}) from ${d.from}${d.late ? ' late' : ''}`)).toEqual([
      'test/listen.test.js:13 listen app.listen(app) from app.js',
      'test/listen.test.js:14 create-server http.createServer(app) from app.js',
      'test/notes.test.js:10 supertest request(app) from app.js',
      'test/notes.test.js:15 supertest request(app) from app.js',
      'test/notes.test.js:21 supertest request(app) from app.js',
      'test/notes.test.js:26 supertest request(app) from app.js',
      'test/session.test.js:15 supertest-agent request.agent(app) from app.js late',
    ]);
  });

  it('through a tsconfig path alias', async () => {
    const inv = await analyze({ dir: path.join(TRANSFORM_FIXTURES, 'shim-tests/ts-alias/input') });
    expect((inv.apps[0].testDrivers ?? []).map((d) => `${d.location.file}:${d.location.line} ${d.kind} from ${d.from}`)).toEqual([
      'src/__tests__/health.test.ts:9 supertest from src/server.ts',
      'src/__tests__/health.test.ts:15 supertest from src/server.ts',
    ]);
  });

  it('a test helper and another app the app is handed to, and an app imported late', async () => {
    const inv = await analyze({ dir: path.join(TRANSFORM_FIXTURES, 'shim-tests/left-for-a-human/input') });
    expect((inv.apps[0].testDrivers ?? []).map((d) => `${d.location.file}:${d.location.line} ${d.kind} ${d.callee}${d.late ? ' late' : ''}${d.callback ? ' callback' : ''}`)).toEqual([
      'test/api.test.js:8 helper getJson',
      'test/api.test.js:12 listen app.listen callback',
      'test/api.test.js:16 supertest request',
      'test/api.test.js:21 helper site.use',
      'test/late.test.js:12 supertest request late',
    ]);
  });
});

describe('what the shim cannot point at Fastify', () => {
  it("app.listen(…, callback) in an Express 5 app stays with a TODO (Express 5 also calls the callback with a listen error)", async () => {
    const dir = path.join(TRANSFORM_FIXTURES, 'shim-tests/left-for-a-human/input');
    const inv = await analyze({ dir });
    inv.project.expressVersion.major = 5;
    const plan = planAppTests(planContext(dir, inv, 'default'), 'shim-tests', 'shim');
    expect(plan.manual.map((m) => `${m.file}:${m.line}`)).toEqual(['test/api.test.js:8', 'test/api.test.js:12', 'test/api.test.js:21', 'test/late.test.js:12']);
    expect(plan.manual[1].reason).toContain('app.listen(…) with a callback: Express 5 also calls it with a listen error');
    expect(plan.moved).toMatchObject({ done: 1, of: 5 });
  });
});

/** The run-time cases: the fixture app and how its tests run (node:test; TypeScript through tsx). */
const RUNTIME: Record<string, { tests: string[]; typescript?: boolean }> = {
  'cjs-supertest': { tests: ['test/notes.test.js', 'test/session.test.js', 'test/listen.test.js', 'test/own-app.test.js'] },
  'esm-app': { tests: ['test/users.test.js'] },
  'single-file': { tests: ['test/todos.test.js'] },
  'ts-alias': { tests: ['src/__tests__/health.test.ts'], typescript: true },
};

describe("the app's own tests pass before the stages and after shim → errors → routes (real HTTP)", () => {
  for (const [name, { tests, typescript }] of Object.entries(RUNTIME)) {
    it(name, async () => {
      const input = path.join(TRANSFORM_FIXTURES, 'shim-tests', name, 'input');
      const root = copyOf(input);
      expect(runTests(root, tests, typescript), 'before the stages').toMatchObject({ failed: 0 });
      const moved: Record<string, number> = {};
      for (const stage of ['shim', 'errors', 'routes'] as const) {
        const result = await runStage({ root, stage, allowDirty: true });
        expect(result.exitCode, `${stage}: exit code`).toBe(0);
        for (const m of result.moved) moved[m.step] = (moved[m.step] ?? 0) + m.done;
        expect(runTests(root, tests, typescript), `after ${stage}`).toMatchObject({ failed: 0 });
      }
      // Each stage moved something the tests reach: the tests, the error handler, routes.
      expect(moved['shim-tests']).toBeGreaterThan(0);
      expect(moved['errors-handler']).toBe(1);
      expect(moved['routes-move']).toBeGreaterThan(0);
      if (typescript) expect(typecheck(root)).toBe('');
      // The tests as they were drive the Express app, which no longer has what moved: they fail.
      for (const test of tests) cpSync(path.join(input, test), path.join(root, test));
      expect(runTests(root, tests, typescript).failed, 'the tests as they were, after the routes stage').toBeGreaterThan(0);
    }, 120_000);
  }
});

function copyOf(dir: string): string {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(path.join(TMP, 'app-'));
  made.push(root);
  cpSync(dir, root, { recursive: true });
  return root;
}

/** Runs the app's test files with node's test runner (PORT=0: an app that listens when loaded takes a free port); the pass and fail counts it prints. */
function runTests(root: string, tests: string[], typescript = false): { passed: number; failed: number; output: string } {
  const run = spawnSync(process.execPath, [...(typescript ? ['--import', 'tsx'] : []), '--test', ...tests], { cwd: root, encoding: 'utf8', env: { ...process.env, PORT: '0', NODE_ENV: 'test' }, timeout: 60_000 });
  const output = `${run.stdout}${run.stderr}`;
  const count = (what: string) => Number(new RegExp(`^# ${what} (\\d+)`, 'm').exec(output)?.[1] ?? NaN);
  return { passed: count('pass'), failed: run.status === 0 ? count('fail') : Math.max(1, count('fail') || 0), output };
}

function typecheck(root: string): string {
  const run = spawnSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', path.join(root, 'tsconfig.json')], { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`;
}
