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
  it("names the form the errors stage writes: err.status ?? err.statusCode (status first, docs/stages/errors.md)", async () => {
    const inv = await rulesOn("app.get('/', (req, res) => res.end());\napp.use((err, req, res, next) => res.status(err.status || 500).json({ error: err.message }));\n");
    expect(inv.findings!.filter((f) => f.rule === 'err-status').map((f) => [f.message, f.fastify, f.stage, f.autoFixable])).toEqual([
      ['Error handler <anonymous> reads err.status.', 'err.status ?? err.statusCode', 'errors', true],
    ]);
    expect(rule('err-status').docs.example.fastify).toContain('err.status ?? err.statusCode');
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
  it('is for a human: the errors stage leaves a chain on Express with a TODO and does not merge it', async () => {
    const src = [
      "app.get('/', (req, res) => res.end());",
      'app.use(function logErrors(err, req, res, next) { console.error(err); next(err); });',
      'app.use(function sendErrors(err, req, res, next) { res.status(500).end(); });',
      '',
    ].join('\n');
    const inv = await rulesOn(src);
    expect(inv.findings!.filter((f) => f.rule === 'error-handler-chain').map((f) => [f.message, f.stage, f.autoFixable])).toEqual([
      ['2 error handlers run in turn at / (logErrors → sendErrors); Fastify has one error handler per level.', 'manual', false],
    ]);
    const chain = rule('error-handler-chain');
    expect(chain.autoFixable).toBe(false);
    expect(chain.docs.fix).toContain('does not merge');
    expect(chain.docs.fix).not.toMatch(/stage writes one/);
  });
});

describe("the analyzer's err reads", () => {
  it("res.status(err.status).json(…) reads err.status, not err.json (shop-api's error handlers)", async () => {
    const inv = await rulesOn("app.get('/', (req, res) => res.status(201).json({}));\napp.use(function errorHandler(err, req, res, next) { res.status(err.status).json({ error: err.message }); });\n");
    expect(inv.errorHandlers[0].reads.map((r) => r.api)).toEqual(['err.message', 'err.status']);
    // A chained call on the parameter itself is still its own: res.status(201).json → res.json.
    expect(inv.routes[0].usage.res.map((u) => u.api)).toEqual(['res.json', 'res.status']);
  });
});
