/**
 * The error-handling rules against what the `errors` stage does (docs/stages/errors.md): the
 * status read it writes, the handlers it leaves on Express, chains it does not merge, branches on
 * packages' errors it moves unchanged; and the analyzer's `err.*` reads they are computed from.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { RULES, runRules } from '../../rules/index.js';
import { project } from '../helpers/tmp.js';

/** A one-file CommonJS Express 4 app (`express` and `app` in scope before `source`), analysed and run through the rules. */
async function rulesOn(source: string) {
  const dir = project({
    'package.json': JSON.stringify({ name: 'e', main: 'app.js', dependencies: { express: '^4.21.0', multer: '^1.4.5' } }),
    'app.js': `const express = require('express');\nconst app = express();\n${source}`,
  });
  return runRules(await analyze({ dir }));
}

const rule = (id: string) => RULES.find((r) => r.id === id)!;

describe('err-status', () => {
  it("names the form the errors stage writes: err.status || err.statusCode (status first, docs/stages/errors.md)", async () => {
    const inv = await rulesOn("app.get('/', (req, res) => res.end());\napp.use((err, req, res, next) => res.status(err.status || 500).json({ error: err.message }));\n");
    expect(inv.findings!.filter((f) => f.rule === 'err-status').map((f) => [f.message, f.fastify, f.stage, f.autoFixable])).toEqual([
      ['Error handler <anonymous> reads err.status.', 'err.status || err.statusCode', 'errors', true],
    ]);
    expect(rule('err-status').docs.example.fastify).toContain('err.status || err.statusCode');
    expect(`${rule('err-status').docs.fix} ${rule('err-status').docs.example.fastify}`).not.toContain('statusCode ?? err.status');
  });

  it('a router-level handler moves with its router (routes stage); a conditional one stays for a human', async () => {
    const src = [
      'const api = express.Router();',
      "api.get('/x', (req, res) => res.end());",
      'api.use(function apiErrors(err, req, res, next) { res.status(err.status).json({}); });',
      "app.use('/api', api);",
      "if (process.env.DEBUG) app.use(function debugErrors(err, req, res, next) { res.status(err.status).end(); });",
      '',
    ].join('\n');
    const inv = await rulesOn(src);
    expect(inv.findings!.filter((f) => f.rule === 'err-status').map((f) => [f.message, f.stage, f.autoFixable])).toEqual([
      ['Error handler apiErrors reads err.status.', 'routes', true],
      ['Error handler debugErrors reads err.status.', 'manual', false],
    ]);
  });

  it('leaves a Fastify error handler alone: it is not Express error middleware', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'f', main: 'server.js', dependencies: { fastify: '^5.2.0' } }),
      'server.js': "const fastify = require('fastify')();\nfastify.get('/', async () => 'x');\nfastify.setErrorHandler(function onError(err, request, reply) { reply.code(err.status || 500).send({ type: err.type }); });\nfastify.listen({ port: 3000 });\n",
    });
    const inv = runRules(await analyze({ dir }));
    expect(inv.errorHandlers.map((h) => [h.name, h.framework])).toEqual([['onError', 'fastify']]);
    expect(inv.findings!.filter((f) => f.rule === 'err-status')).toEqual([]);
  });
});

describe('error-type-checks', () => {
  it("is planned for the stage that replaces the package (multer: plugins), never as something the errors stage does", async () => {
    const src = [
      "const multer = require('multer');",
      "app.post('/a', multer().single('f'), (req, res) => res.end());",
      'app.use((err, req, res, next) => { if (err instanceof multer.MulterError) return res.status(413).end(); res.status(500).end(); });',
      '',
    ].join('\n');
    const inv = await rulesOn(src);
    expect(inv.findings!.filter((f) => f.rule === 'error-type-checks').map((f) => [f.stage, f.autoFixable])).toEqual([['plugins', false]]);
  });
});

describe('error-handler-chain', () => {
  it("is the errors stage's for the app's own chain, which it moves as one handler, and a human's for a router's", async () => {
    const src = [
      "const router = express.Router();",
      "router.get('/r', (req, res) => res.end());",
      'router.use(function routerLog(err, req, res, next) { next(err); });',
      'router.use(function routerSend(err, req, res, next) { res.status(500).end(); });',
      "app.use('/api', router);",
      "app.get('/', (req, res) => res.end());",
      'app.use(function logErrors(err, req, res, next) { console.error(err); next(err); });',
      'app.use(function sendErrors(err, req, res, next) { res.status(500).end(); });',
      '',
    ].join('\n');
    const inv = await rulesOn(src);
    expect(inv.findings!.filter((f) => f.rule === 'error-handler-chain').map((f) => [f.message, f.stage, f.autoFixable]).sort()).toEqual([
      ['2 error handlers run in turn at / (logErrors → sendErrors); Fastify has one error handler per level.', 'errors', true],
      ['2 error handlers run in turn at /api (routerLog → routerSend); Fastify has one error handler per level.', 'manual', false],
    ]);
    expect(rule('error-handler-chain').docs.fix).toContain('moves the app-level chain as one Fastify error handler');
  });
});
