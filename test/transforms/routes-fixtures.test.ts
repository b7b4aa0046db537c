/**
 * Fixture pairs of the `routes` stage (fixtures/transforms/routes-move/): each case's input is a
 * small app after `shim` and `errors`; the stage's output must equal `expected/` byte for byte and a
 * second run must change nothing (`expectFixture`). Per case: what moved out of what could move,
 * the items left for a human and for a later stage. Cases with `requests` in case.json are also
 * started before and after the stage, with the Express major their package.json declares, and must
 * answer every request alike (status, content type, body, Location) — the stage's promise, checked
 * on real HTTP.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSummary } from '../../runner/summary.js';
import { answers, copyOf, withDeclaredExpress } from '../helpers/app-answers.js';
import { caseOptions, expectFixture, fixtureCases, runFixture, TRANSFORM_FIXTURES, tscOutput } from '../helpers/transform-fixtures.js';


/** moved `[done, of]` of each case. */
const MOVED: Record<string, [number, number]> = {
  'app-middleware-kept': [3, 3],
  'cjs-controllers': [3, 3],
  'class-controller': [3, 3],
  'co-generators': [8, 8],
  'co-generators-stay': [1, 4],
  'controller-array': [3, 3],
  'cookie-like-express': [3, 3],
  'esm-router': [3, 4],
  'express4-paths': [4, 5],
  'hand-over-order': [2, 2],
  'hand-over-upgrade': [1, 1],
  'helper-function': [2, 2],
  'helper-modules': [3, 3],
  'helper-shared': [1, 3],
  'later-middleware': [2, 2],
  'later-route-stays': [5, 5],
  'middleware-array': [4, 4],
  'method-override-header': [5, 5],
  'mounted-twice': [4, 4],
  'object-controller': [2, 4],
  'only-one-router': [2, 2],
  overlap: [3, 4],
  'package-handler': [6, 7],
  'package-handler-prefix-404': [5, 7],
  'package-handler-ts': [2, 2],
  'package-handler-upgrade': [1, 1],
  'package-middleware': [5, 5],
  'param-later': [1, 2],
  'render-ejs': [1, 1],
  'registrar-closure': [4, 4],
  'registrar-nested': [2, 2],
  'registrar-nested-ts': [1, 1],
  'registrar-routers': [6, 6],
  'registrar-stays': [0, 1],
  'registrar-ts': [2, 2],
  'render-replaced': [3, 3],
  'render-replaced-ts': [5, 5],
  'request-hand-off': [2, 4],
  'request-hand-off-ts': [1, 1],
  'router-error-chain': [0, 1],
  'send-like-express': [3, 3],
  'send-like-express-ts': [3, 3],
  'start-file-cjs': [5, 5],
  'start-file-later': [2, 2],
  'sub-app': [3, 3],
  'sub-app-settings': [1, 4],
  'start-file-ts': [3, 3],
  'static-after-routes': [2, 2],
  'style-double': [2, 2],
  'ts-later': [4, 4],
  'table-loop-block': [3, 3],
  'table-loop-cjs': [5, 5],
  'table-loop-handed': [4, 4],
  'table-loop-stays': [2, 6],
  'table-one-stays': [0, 2],
  'ts-router': [3, 3],
  'two-apps-one-module': [0, 2],
  'two-routers': [2, 3],
  'validator-callbacks': [1, 2],
  'view-helpers-bridge': [2, 2],
  'tab-indented': [1, 1],
  'wrapped-cjs-exports': [5, 5],
  'wrapped-esm-controllers': [3, 3],
  'wrapped-no-change': [0, 0],
  'wrapped-package-inline': [4, 4],
  'wrapped-route-stays': [1, 3],
  'wrapped-ts': [3, 3],
  'wrapper-logs': [1, 2],
};
/** ManualItem codes per case (plan order); absent: none. */
const MANUAL: Record<string, string[]> = {
  'co-generators-stay': ['route-handler-api', 'route-handler-wrapped', 'route-handler-wrapped'],
  'esm-router': ['route-handler-api'],
  'express4-paths': ['route-path-syntax'],
  'helper-shared': ['route-helper-shared', 'route-handler-api'],
  'object-controller': ['route-handler-shared', 'route-handler-api'],
  overlap: ['route-overlap'],
  'package-handler': ['route-handler-next'],
  'package-handler-prefix-404': ['route-handler-next', 'route-handler-next'],
  'param-later': ['route-later-middleware'],
  'registrar-stays': ['route-registrar'],
  'request-hand-off': ['route-handler-api', 'route-handler-api'],
  'sub-app-settings': ['route-sub-app-settings', 'route-router-error-handler', 'route-sub-app-api'],
  'table-loop-stays': ['route-table-form', 'route-table-form', 'route-table-form', 'route-table-form'],
  'table-one-stays': ['route-partner-stays', 'route-handler-api'],
  'router-error-chain': ['route-router-error-handler'],
  'two-apps-one-module': ['route-shared-module', 'route-shared-module'],
  'two-routers': ['route-registration-shape'],
  'validator-callbacks': ['route-handler-api'],
  'wrapped-route-stays': ['route-partner-stays', 'route-unresolved'],
  'wrapper-logs': ['route-handler-wrapped'],
};
/** DeferredItems per case as `stage:code`; absent: none. */
const DEFERRED: Record<string, string[]> = {
  'later-route-stays': ['plugins:route-handler-plugin-api'],
  'package-middleware': ['plugins:route-middleware-package'],
  'wrapped-no-change': ['plugins:route-handler-plugin-api', 'plugins:route-handler-plugin-api'],
  'wrapped-route-stays': ['plugins:route-handler-plugin-api'],
};

describe('routes-move fixtures', () => {
  for (const name of fixtureCases('routes-move')) {
    it(name, async () => {
      const run = await expectFixture('routes-move', name, 'routes');
      const moved = run.result.moved.find((m) => m.step === 'routes-move');
      expect(moved && [moved.done, moved.of], 'moved').toEqual(MOVED[name]);
      expect(run.result.manual.map((m) => m.code), 'ManualItem codes').toEqual(MANUAL[name] ?? []);
      expect(run.result.deferred.map((d) => `${d.stage}:${d.code}`), 'DeferredItems').toEqual(DEFERRED[name] ?? []);
    }, 60_000);
  }
});

describe('moved routes answer as before (real HTTP)', () => {
  for (const name of fixtureCases('routes-move').filter((n) => caseOptions('routes-move', n).requests?.length)) {
    it(name, async () => {
      const { requests, headers } = caseOptions('routes-move', name);
      const before = await answers(withDeclaredExpress(copyOf(path.join(TRANSFORM_FIXTURES, 'routes-move', name, 'input'))), requests!, headers);
      const run = await expectFixture('routes-move', name, 'routes');
      const after = await answers(withDeclaredExpress(run.root), requests!, headers);
      expect(after).toEqual(before);
    }, 60_000);
  }
});

describe('TypeScript output type-checks', () => {
  // Registrars rewritten to take `fastify`; the hand-over's functions in an Express router
  // (`router.get('/', movedToFastify)`) and in the bridge; reply.renderLikeExpress (its declaration
  // merged into FastifyReply) and the answers of handlers typed `: void`; notFoundAfterNext as a
  // route's handler; the like-express module.
  const names = ['package-handler-ts', 'registrar-nested-ts', 'registrar-ts', 'render-replaced-ts', 'send-like-express-ts', 'ts-later'];
  for (const name of names) {
    it(name, async () => {
      const { root } = await runFixture('routes-move', name, 'routes');
      expect(tscOutput(root)).toBe('');
    }, 60_000);
  }
  // An older app's configuration (microsoft/TypeScript-Node-Starter): noImplicitAny without strict,
  // where a function that returns `void expr` implicitly returns any (TS7011), and target es6 (its
  // library lacks Object.fromEntries, but the @types/node here references ES2020's, so that part was
  // checked on the app itself).
  for (const name of names) {
    it(`${name}, with target es6 and noImplicitAny without strict`, async () => {
      const { root } = await runFixture('routes-move', name, 'routes');
      const file = path.join(root, 'tsconfig.json');
      const config = JSON.parse(readFileSync(file, 'utf8'));
      const { strict: _strict, ...options } = config.compilerOptions;
      writeFileSync(file, JSON.stringify({ ...config, compilerOptions: { ...options, target: 'es6', noImplicitAny: true } }));
      expect(tscOutput(root)).toBe('');
    }, 60_000);
  }
});

describe('the summary of the routes stage', () => {
  it('prints moved of movable per router, and every reason of a route left behind with its TODO once', async () => {
    const run = await runFixture('routes-move', 'two-routers', 'routes');
    const text = renderSummary(run.result);
    expect(text).toContain('  routes-move: moved 2 of 3 routes\n    router publicRouter at /pub (routes/two.js): 1 of 1\n    router privateRouter at /priv (routes/two.js): 1 of 2\n');
    expect(text).toContain(
      'Left for a human (1)\n  routes/two.js:13 GET /priv/items/:id stays on Express: its route() chain has .all(…) functions that run before every method; Fastify has no per-path middleware: register them with each method\n',
    );
  }, 60_000);
});
