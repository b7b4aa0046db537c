/**
 * The routes stage and handler wrappers (issue 17; transforms/routes-move/unwrap.ts): which wrapped
 * routes move, and the words of those that stay. The moves themselves, and that they answer as
 * before, are the fixtures' (fixtures/transforms/routes-move/wrapped-*, wrapper-logs).
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { runStage } from '../../runner/run.js';
import { project } from '../helpers/tmp.js';

/** The routes stage's verdict per route key (`moves`, or the blocker reasons) for an app whose router is `routes` (CommonJS, after shim and errors). */
async function verdicts(routes: string): Promise<Record<string, true | string[]>> {
  const root = project({
    'package.json': JSON.stringify({ name: 'w', main: 'server.js', dependencies: { express: '^4.21.2' } }),
    'server.js': "const app = require('./app');\napp.listen(process.env.PORT || 3000);\n",
    'app.js': "const express = require('express');\nconst items = require('./items');\nconst app = express();\napp.use('/items', items);\napp.use((err, req, res, next) => {\n  res.status(500).json({ error: err.message });\n});\nmodule.exports = app;\n",
    'items.js': `const express = require('express');\nconst router = express.Router();\nconst store = { find: async (id) => ({ id }) };\n${routes}\nmodule.exports = router;\n`,
  });
  for (const stage of ['shim', 'errors'] as const) expect((await runStage({ root, stage, allowDirty: true })).exitCode).toBe(0);
  const result = await runStage({ root, stage: 'routes', allowDirty: true, dry: true });
  const keys = new Map((await analyze({ dir: root })).routes.map((r) => [r.id, r.key]));
  return Object.fromEntries(result.verdicts.filter((v) => v.kind === 'route').map((v) => [keys.get(v.id) ?? v.id, v.moves || v.blockers.map((b) => b.reason)]));
}

describe('wrapped routes at the routes stage', () => {
  it('moves a route whose wrapper only forwards, and keeps one whose wrapper calls .catch on a sync handler', async () => {
    const routes = [
      'const wrap = (fn) => (req, res, next) => fn(req, res, next).catch(next);',
      "router.get('/:id', wrap(async (req, res) => {\n  res.json(await store.find(req.params.id));\n}));",
      "router.get('/', wrap((req, res) => {\n  res.json([]);\n}));",
    ].join('\n');
    expect(await verdicts(routes)).toEqual({
      'GET /items/:id': true,
      'GET /items': ["its handler is wrapped in wrap, which calls .catch on what the handler returns, and the handler is not async: Express answered with the TypeError that gives, Fastify would not"],
    });
  }, 60_000);

  it('keeps a handler whose expression body is the promise its wrapper passed the rejection of to next', async () => {
    const routes = [
      'const wrap = (fn) => (req, res, next) => Promise.resolve(fn(req, res, next)).catch(next);',
      "router.get('/:id', wrap((req, res) => store.find(req.params.id).then((item) => res.json(item))));",
    ].join('\n');
    expect(await verdicts(routes)).toEqual({
      'GET /items/:id': ['its handler gives its wrapper `store.find(req.params.id).then((item) => res.json(item))`, whose rejection the wrapper handed to next; made the statement a Fastify handler needs, a rejection would reach no error handler'],
    });
  }, 60_000);

  it('keeps a handler declared apart from the wrapper applied to it (its other use is that call)', async () => {
    const routes = [
      'const wrap = (fn) => (req, res, next) => Promise.resolve(fn(req, res, next)).catch(next);',
      'async function impl(req, res) {\n  res.json(await store.find(req.params.id));\n}',
      'const show = wrap(impl);',
      "router.get('/:id', show);",
    ].join('\n');
    expect(await verdicts(routes)).toEqual({ 'GET /items/:id': ['its handler is also used outside route registrations, and that use still expects the Express signature'] });
  }, 60_000);

  it('keeps a route whose wrapper does more, naming what', async () => {
    const routes = [
      "const timed = (fn) => async (req, res, next) => {\n  try {\n    await fn(req, res, next);\n  } catch (err) {\n    res.status(503).json({ error: 'busy' });\n  }\n};",
      "router.get('/:id', timed(async (req, res) => {\n  res.json(await store.find(req.params.id));\n}));",
    ].join('\n');
    expect(await verdicts(routes)).toEqual({
      'GET /items/:id': ["its handler is wrapped in timed, which handles a rejection with `res.status(503).json({ error: 'busy' })`, not only by passing it to next; only a wrapper that just passes rejections to next can go (a Fastify route does that itself)"],
    });
  }, 60_000);
});
