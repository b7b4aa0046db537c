/**
 * The `plugins` stage's step `plugins-server-options` (transforms/plugins-server-options/,
 * server-module/option-middleware.ts): middleware a Fastify server option replaces leaves the
 * Express app — morgan for Fastify's logger. Fixture pairs (fixtures/transforms/plugins-server-options/):
 * output byte for byte, a second run changes nothing; on real HTTP the case's Express app, its input
 * (after routes) and its output answer alike, the output logs each request as pino JSON lines (its
 * standard output read), and the routes morgan alone kept on the Express app no longer reach it.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answers, copyOf, withDeclaredExpress } from '../helpers/app-answers.js';
import { caseOptions, expectFixture, expectMoved, fixtureCases, runFixture, TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

const STEP = 'plugins-server-options';
const PROBE = path.resolve(import.meta.dirname, '../helpers/express-entries.cjs');

/** Per case: middleware moved `[done, of]`, why the others stay (the summary's groups), and the packages that leave package.json. */
const MOVED: Record<string, { moved: [number, number]; kept?: string[]; removed?: string[] }> = {
  morgan: { moved: [1, 1], removed: ['morgan'] },
  // morgan.token(…) still reads the package: its import and dependency stay.
  token: { moved: [1, 1] },
  // The generated module was given a logger by hand: morgan stays rather than overwrite it.
  'hand-logger': { moved: [0, 1], kept: ["stay on Express: the generated module sets Fastify's logger already (fastify-server.js); merge the two by hand (app.js:10)"] },
  kept: {
    moved: [0, 5],
    kept: [
      "stay on Express: its options `{ stream: accessLog }` are not translated to Fastify's logger (app.js:10)",
      "stay on Express: it is registered on a router, a sub-app or under a path (app.js:13), and Fastify's logger would log every request",
      'stay on Express: it is registered under a condition or in a way the analysis could not resolve (app.js:15)',
      "stay on Express: its argument `(tokens, req, res) => `${tokens.method(req, res)} ${tokens.u…` is not a format name (a function), which Fastify's logger would drop (app.js:18)",
      "stay on Express: the moved route GET /api/ping (app.js:20) comes before it in Express, so it did not log that route's requests, where Fastify's logger would (app.js:23)",
    ],
  },
};

describe('plugins-server-options fixtures', () => {
  for (const name of fixtureCases(STEP)) {
    it(name, async () => {
      const run = await expectFixture(STEP, name, 'plugins');
      expectMoved(run, STEP, name, MOVED[name]);
    }, 60_000);
  }
});

describe("morgan's requests are logged by Fastify, and the answers do not change (real HTTP)", () => {
  it('morgan', async () => {
    const { requests } = caseOptions(STEP, 'morgan');
    const dir = path.join(TRANSFORM_FIXTURES, STEP, 'morgan');
    const express = await answers(withDeclaredExpress(copyOf(path.join(dir, 'express'))), requests!);
    expect(await answers(withDeclaredExpress(copyOf(path.join(dir, 'input'))), requests!), 'after routes').toEqual(express);
    const run = await runFixture(STEP, 'morgan', 'plugins');
    const logs = mkdtempSync(path.join(os.tmpdir(), 'server-options-'));
    const entries = path.join(logs, 'entries.log');
    const stdout = path.join(logs, 'stdout.log');
    // One more request at the end: the last request's 'request completed' line is written after its answer, when the app may already be stopped.
    const after = await answers(withDeclaredExpress(run.root), [...requests!, 'GET /ping'], [], { args: ['--require', PROBE], env: { EXPRESS_ENTRIES: entries }, stdout });
    expect(after.slice(0, -1), 'after plugins').toEqual(express);
    // Fastify's logger: per request an 'incoming request' line, and a 'request completed' line with its status (matched by reqId).
    const lines = readFileSync(stdout, 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; reqId?: string; req?: { method: string; url: string }; res?: { statusCode: number } });
    const incoming = lines.filter((l) => l.msg === 'incoming request' && !(l.req?.method === 'GET' && l.req.url === '/')).slice(0, requests!.length);
    expect(incoming.map((l) => `${l.req?.method} ${l.req?.url}`)).toEqual(requests!.map((r) => r.split(' ').slice(0, 2).join(' ')));
    const status = (reqId?: string) => lines.find((l) => l.msg === 'request completed' && l.reqId === reqId)?.res?.statusCode;
    expect(incoming.map((l) => status(l.reqId))).toEqual([200, 200, 201, 201, 404]);
    // The routes only morgan kept on the Express app run no Express code now; the request no route answers still reaches it.
    const reached = existsSync(entries) ? readFileSync(entries, 'utf8').split('\n').filter((l) => l && l !== 'GET /') : [];
    expect(reached).toEqual(['GET /nowhere']);
  }, 60_000);
});
