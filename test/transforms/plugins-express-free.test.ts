/**
 * The `plugins` stage's second step, `plugins-express-free` (transforms/plugins-express-free/,
 * server-module/express-free.ts): the moved routes that need nothing of Express pass the Express
 * hook. Fixture pairs (fixtures/transforms/plugins-express-free/): output byte for byte, a second
 * run changes nothing, a module listing them already is left as it is. On real HTTP, each case's
 * `express/` app (the app before any stage), its `input/` (after routes) and the output answer
 * every request alike — bodies, body-parser's errors (bad JSON, too large), Express 4's `{}` for no
 * body — and, with Express's application instrumented, the listed routes' requests never reach it
 * while the others still do.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answers, copyOf, withDeclaredExpress } from '../helpers/app-answers.js';
import { caseOptions, expectFixture, fixtureCases, runFixture, TRANSFORM_FIXTURES, tscOutput } from '../helpers/transform-fixtures.js';

const STEP = 'plugins-express-free';
const PROBE = path.resolve(import.meta.dirname, '../helpers/express-entries.cjs');

/** moved `[done, of]` of each case. */
const MOVED: Record<string, [number, number]> = {
  'body-parsers': [6, 7],
  'body-parsers-ts': [6, 7],
  'kept-reasons': [1, 5],
  listed: [6, 7],
  'parity-express': [0, 7],
  'verify-ts': [2, 2],
  'verify-express-request': [1, 3],
};

/** Per case, why the moved routes not listed still run the Express app: `count reason`, as the summary groups them. */
const KEPT: Record<string, string[]> = {
  'body-parsers': ['1 Express middleware requireToken (app.js:20) runs before them'],
  'kept-reasons': [
    // /api/:version, and /reports/daily of the sub-app: Express answered them with /:section/:name, registered first.
    '2 Express route GET /:section/:name (app.js:10) may answer some of their requests',
    // res.cookie, through cookieLikeExpress.
    "1 their handlers use Express's response (reply.raw, also through the like-express helpers)",
    // res.locals in a middleware the routes stage made a hook.
    "1 their hook stamp (app.js:43) uses Express's request or response (request.raw / reply.raw)",
  ],
  // Node's request, which the listed routes' parsers would hand verify, has no originalUrl.
  'verify-express-request': ["2 the body parser express.json (app.js:10)'s verify reads req.originalUrl (app.js:13), which only Express's request has"],
};

/** Per case, the requests Express's application must handle after the stage (the others must not reach it). */
const REACH_EXPRESS: Record<string, string[]> = {
  'body-parsers': ['GET /admin/stats', 'POST /nowhere'],
  'body-parsers-ts': ['GET /admin/stats', 'POST /nowhere'],
  'kept-reasons': ['GET /api/v2', 'GET /login', 'GET /reports/daily', 'GET /stamped'],
  // The body parsers' verify functions (one exported, one lifted out of the options) run on Fastify's parsers.
  'verify-ts': [],
  'verify-express-request': ['POST /orders', 'POST /webhook'],
};

describe('plugins-express-free fixtures', () => {
  for (const name of fixtureCases(STEP)) {
    it(name, async () => {
      const run = await expectFixture(STEP, name, 'plugins');
      const moved = run.result.moved.find((m) => m.step === STEP);
      expect(MOVED[name], 'the case is in MOVED').toBeDefined();
      expect(moved && [moved.done, moved.of], 'moved').toEqual(MOVED[name]);
      if (KEPT[name]) expect((moved?.groups ?? []).map((g) => `${g.of} ${g.name.replace('still run the Express app: ', '')}`), 'kept, per reason').toEqual(KEPT[name]);
    }, 60_000);
  }
});

describe('the routes that run no Express code answer as Express did, and never reach it (real HTTP)', () => {
  for (const name of Object.keys(REACH_EXPRESS)) {
    it(name, async () => {
      const { requests, headers } = caseOptions(STEP, name);
      const dir = path.join(TRANSFORM_FIXTURES, STEP, name);
      const express = await answers(withDeclaredExpress(copyOf(path.join(dir, 'express'))), requests!, headers);
      expect(await answers(withDeclaredExpress(copyOf(path.join(dir, 'input'))), requests!, headers), 'after routes').toEqual(express);
      const run = await runFixture(STEP, name, 'plugins');
      const log = path.join(mkdtempSync(path.join(os.tmpdir(), 'express-entries-')), 'entries.log');
      expect(await answers(withDeclaredExpress(run.root), requests!, headers, { args: ['--require', PROBE], env: { EXPRESS_ENTRIES: log } }), 'after plugins').toEqual(express);
      const reached = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
      const sent = requests!.map((r) => r.split(' ').slice(0, 2).join(' '));
      expect([...new Set(sent.filter((r) => reached.includes(r)))].sort(), 'requests Express handled').toEqual(REACH_EXPRESS[name]);
    }, 60_000);
  }
});

describe('TypeScript output type-checks', () => {
  for (const name of ['body-parsers-ts', 'verify-ts']) {
    it(`${name}, after plugins`, async () => {
      const { root } = await runFixture(STEP, name, 'plugins');
      expect(tscOutput(root)).toBe('');
    }, 60_000);
  }
});
