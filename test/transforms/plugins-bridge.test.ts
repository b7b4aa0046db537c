/**
 * The `plugins` stage's first step, `plugins-bridge` (transforms/plugins-bridge/,
 * server-module/express-hook.ts): the Express app runs in Fastify hooks instead of @fastify/express.
 * Fixture pairs (fixtures/transforms/plugins-bridge/): output byte for byte, a second run changes
 * nothing, a converted module is left as it is. On real HTTP: every routes-move case with
 * `requests` is taken through `routes` and then `plugins`, and must answer every request as the
 * Express app of its input did (status, type, Location, body, the headers the case names); the
 * TypeScript output type-checks.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { runStage } from '../../runner/run.js';
import { answers, copyOf, withDeclaredExpress } from '../helpers/app-answers.js';
import { caseOptions, expectFixture, fixtureCases, runFixture, TRANSFORM_FIXTURES, tscOutput } from '../helpers/transform-fixtures.js';

/** moved `[done, of]` of each case. */
const MOVED: Record<string, [number, number]> = {
  'app-not-found': [1, 1],
  'cjs-moved-routes': [1, 1],
  converted: [0, 0],
  'hook-headers': [1, 1],
  'later-pre-handler': [0, 1],
  'older-shim': [1, 1],
  'style-tabs-crlf': [1, 1],
  'parity-express': [1, 1],
  'prefixed-not-found': [0, 1],
  'shim-only': [1, 1],
  'ts-later': [1, 1],
};

/** The ManualItems of a case, `file:line code`. */
const MANUAL: Record<string, string[]> = {
  // A not-found handler under /connect would answer what Express answers there: the bridge stays.
  'prefixed-not-found': ['fastify-server.js:46 bridge-prefixed-not-found'],
  // A root preHandler registered after the bridge ran after the Express app: the bridge stays.
  'later-pre-handler': ['fastify-server.js:41 bridge-later-pre-handler'],
};

describe('plugins-bridge fixtures', () => {
  for (const name of fixtureCases('plugins-bridge')) {
    it(name, async () => {
      const run = await expectFixture('plugins-bridge', name, 'plugins');
      const moved = run.result.moved.find((m) => m.step === 'plugins-bridge');
      expect(MOVED[name], 'the case is in MOVED').toBeDefined();
      expect(moved && [moved.done, moved.of], 'moved').toEqual(MOVED[name]);
      expect(run.result.manual.map((m) => `${m.file}:${m.line} ${m.code}`), 'ManualItems').toEqual(MANUAL[name] ?? []);
    }, 60_000);
  }

  it('refuses a project the shim has not run on', async () => {
    await expect(runFixture('shim-server', 'parity-express', 'plugins')).rejects.toThrow('run `migrate run --stage shim` first');
  });
});

describe('plugins-bridge cases answer as before the stage (real HTTP)', () => {
  // An older shim's module (no rewriteUrl), a header a Fastify hook sets, the moved routes and 404s.
  for (const name of fixtureCases('plugins-bridge').filter((n) => caseOptions('plugins-bridge', n).requests?.length)) {
    it(name, async () => {
      const { requests, headers } = caseOptions('plugins-bridge', name);
      const before = await answers(withDeclaredExpress(copyOf(path.join(TRANSFORM_FIXTURES, 'plugins-bridge', name, 'input'))), requests!, headers);
      const run = await runFixture('plugins-bridge', name, 'plugins');
      expect(await answers(withDeclaredExpress(run.root), requests!, headers)).toEqual(before);
    }, 60_000);
  }
});

// Routes then plugins, and routes again after plugins: the moved routes still pass the Express middleware.
for (const order of [['routes', 'plugins'], ['plugins', 'routes']] as const) {
  describe(`after ${order.join(' then ')}, the apps answer as their Express apps did (real HTTP)`, () => {
    for (const name of fixtureCases('routes-move').filter((n) => caseOptions('routes-move', n).requests?.length)) {
      it(name, async () => {
        const { requests, headers, entry, app, parity } = caseOptions('routes-move', name);
        const input = path.join(TRANSFORM_FIXTURES, 'routes-move', name, 'input');
        const before = await answers(withDeclaredExpress(copyOf(input)), requests!, headers);
        const root = copyOf(input);
        for (const stage of order) {
          const result = await runStage({ root, stage, allowDirty: true, entry, app, parity });
          expect(result.exitCode, `${stage} exit code`).not.toBe(2);
        }
        // Static files leave Express at plugins (plugins-static): @fastify/send writes `charset=utf-8` where
        // Express 4 wrote `UTF-8` (a reported delta; charset names are case-insensitive, RFC 9110 §8.3.2).
        const charsetCase = (lines: string[]) => lines.map((l) => l.replace(/charset=UTF-8/g, 'charset=utf-8'));
        expect(charsetCase(await answers(withDeclaredExpress(root), requests!, headers))).toEqual(charsetCase(before));
      }, 60_000);
    }
  });
}

/** Per Fastify route key, the names of the Express middleware the bridge runs before it (`name*`), in chain order. */
async function bridgedChains(root: string, entry?: string): Promise<Record<string, string[]>> {
  const inventory = await analyze({ dir: root, entry });
  const out: Record<string, string[]> = {};
  for (const r of inventory.routes.filter((x) => x.framework === 'fastify')) out[r.key] = r.chain.filter((c) => c.bridged).map((c) => c.name);
  return out;
}

describe('the analyzer sees the Express middleware the hooks run (inventory after plugins)', () => {
  // The generated hook reaches the app through `expressBridge(app)` with `const raw = request.raw as …`
  // and `done as …`: the moved routes' chains still hold the app's middleware, as after routes.
  for (const name of ['ts-router', 'app-middleware-kept', 'start-file-cjs']) {
    it(name, async () => {
      const { entry, app } = caseOptions('routes-move', name);
      const root = copyOf(path.join(TRANSFORM_FIXTURES, 'routes-move', name, 'input'));
      await runStage({ root, stage: 'routes', allowDirty: true, entry, app });
      const afterRoutes = await bridgedChains(root, entry);
      expect(Object.values(afterRoutes).some((c) => c.length), 'some moved route passes Express middleware').toBe(true);
      await runStage({ root, stage: 'plugins', allowDirty: true, entry, app });
      expect(await bridgedChains(root, entry)).toEqual(afterRoutes);
    }, 60_000);
  }
});

describe('TypeScript output type-checks', () => {
  it('ts-later, after plugins', async () => {
    const { root } = await runFixture('plugins-bridge', 'ts-later', 'plugins');
    expect(tscOutput(root)).toBe('');
  }, 60_000);
});
