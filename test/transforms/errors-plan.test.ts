/**
 * The plans of the `errors` steps, read on fixture inputs: which file gets which entry, what moved
 * out of what could move, the deltas, the missing-shim item (reported once for the stage), and the
 * route parity check accepting a catch-all route moved to a Fastify not-found handler.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Inventory, NotFoundHandler, Route } from '../../analyzer/model.js';
import { routeParity } from '../../analyzer/route-parity.js';
import { runRules } from '../../rules/index.js';
import { runStage } from '../../runner/run.js';
import { project } from '../helpers/tmp.js';
import { plan as planHandler } from '../../transforms/errors-handler/plan.js';
import { plan as planNotFound } from '../../transforms/errors-not-found/plan.js';
import { StepRefusal, type FrameworkDelta, type PlanContext } from '../../transforms/model.js';
import { TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

const REPO = path.resolve(import.meta.dirname, '../..');

async function contextOf(step: string, name: string): Promise<PlanContext> {
  const root = path.join(TRANSFORM_FIXTURES, step, name, 'input');
  const inventory = runRules(await analyze({ dir: root }));
  const readFile = (f: string) => (existsSync(path.join(root, f)) ? readFileSync(path.join(root, f), 'utf8') : null);
  return { root, inventory, findings: inventory.findings ?? [], parity: 'default', options: {}, readFile };
}

const kinds = (p: ReturnType<typeof planHandler>) => Object.fromEntries(p.files.map((f) => [f.file, f.entries.map((e) => e.kind)]));

describe('errors plans', () => {
  it('moves an exported handler: rewrite where it is defined, unregister in the app, register in the generated module', async () => {
    const ctx = await contextOf('errors-handler', 'runtime-esm');
    const handler = planHandler(ctx);
    const notFound = planNotFound(ctx);
    expect(kinds(handler)).toEqual({ 'src/errors.js': ['rewrite'], 'src/app.js': ['unregister'], 'src/fastify-server.js': ['register'] });
    expect(kinds(notFound)).toEqual({ 'src/errors.js': ['rewrite'], 'src/app.js': ['unregister'], 'src/fastify-server.js': ['register'] });
    expect(handler.moved).toEqual({ what: 'error handlers', done: 1, of: 1 });
    expect(notFound.moved).toEqual({ what: 'not-found handlers', done: 1, of: 1 });
    const register = handler.files.find((f) => f.file === 'src/fastify-server.js')!.entries[0];
    expect(register).toMatchObject({ kind: 'register', method: 'setErrorHandler', import: { specifier: './errors.js', form: { kind: 'named', name: 'errorHandler' }, module: 'esm' } });
    expect(handler.dependencies).toBeUndefined();
  });

  it('hoists a handler written inside its registration and imports it from the app module', async () => {
    const ctx = await contextOf('errors-handler', 'cjs-inline');
    const handler = planHandler(ctx);
    expect(kinds(handler)).toEqual({ 'app.js': ['hoist'], 'fastify-server.js': ['register'] });
    expect(handler.files[1].entries[0]).toMatchObject({ import: { specifier: './app', form: { kind: 'named', name: 'errorHandler' }, module: 'commonjs' } });
  });

  it('reports the deltas of what moved: the ETag Express added, and OPTIONS when the app has routes of its own; --parity express restores neither', async () => {
    const ctx = await contextOf('errors-not-found', 'all-star-express4');
    const deltas = (planNotFound(ctx).deltas ?? []) as FrameworkDelta[];
    expect(deltas).toHaveLength(2);
    expect(deltas[0].text).toContain('no automatic weak ETag');
    expect(deltas[1].text).toContain('OPTIONS requests to a path with routes registered on the app itself');
    expect(deltas.map((d) => d.restoredByParityExpress)).toEqual([false, false]);
    expect(planHandler(ctx).deltas).toEqual([]);
    const parityExpress = (planNotFound({ ...ctx, parity: 'express' }).deltas ?? []) as FrameworkDelta[];
    expect(parityExpress.map((d) => d.restoredByParityExpress)).toEqual([false, false]);
  });

  it('without the shim, refuses the stage (StepRefusal shim-missing, saying to run the shim first)', async () => {
    const ctx = await contextOf('errors-handler', 'no-shim');
    expect(() => planHandler(ctx)).toThrow(StepRefusal);
    expect(() => planHandler(ctx)).toThrow(expect.objectContaining({ code: 'shim-missing', message: expect.stringContaining('run `migrate run --stage shim` first') }));
  });

  it('two apps whose generated module is one: neither handler moves (ManualItem, no TODO, no file planned), 0 of 2 moved', async () => {
    const ctx = await contextOf('errors-handler', 'two-apps-one-module');
    const handler = planHandler(ctx);
    expect(handler.files).toEqual([]);
    expect(handler.moved).toEqual({ what: 'error handlers', done: 0, of: 2 });
    expect(handler.manual.map((m) => [m.file, m.line, m.code, m.todo])).toEqual([
      ['src/server.js', 8, 'shared-generated-module', undefined],
      ['src/server.js', 12, 'shared-generated-module', undefined],
    ]);
    expect(handler.manual[0].reason).toBe(
      'error handler publicErrors stays on Express: the generated module src/fastify-server.js builds the Fastify server of 2 apps (pub, admin), so a handler registered in its buildFastify would answer for all of them; give each app a module of its own (or register the handler by hand where only its app\'s server is built)',
    );
    expect(handler.deltas).toEqual([]);
  });

  it('a router-level error handler is deferred to the routes stage: no TODO, not counted as movable, not a ManualItem', async () => {
    const ctx = await contextOf('errors-handler', 'router-level');
    const handler = planHandler(ctx);
    expect(handler.deferred?.map((d) => [d.file, d.line, d.code, d.stage])).toEqual([['routes/api.js', 9, 'error-handler-router', 'routes']]);
    expect(handler.manual).toEqual([]);
    expect(handler.moved).toEqual({ what: 'error handlers', done: 1, of: 1 });
    expect(handler.files.flatMap((f) => f.entries.map((e) => e.kind))).not.toContain('todo');
  });

  it('a TODO left for a human carries its text in the ManualItem (the run pairs the two)', async () => {
    const ctx = await contextOf('errors-handler', 'stale-todo');
    const [item] = planHandler(ctx).manual;
    const todo = planHandler(ctx).files.flatMap((f) => f.entries).find((e) => e.kind === 'todo');
    expect(todo && todo.kind === 'todo' && todo.reason).toBe(item.todo);
    expect(item.todo).toMatch(/^error handler stays on Express: /);
  });

  it('names the place that blocks a move in the ManualItem, not in the TODO (which must read the same next run)', async () => {
    const ctx = await contextOf('errors-not-found', 'not-last');
    const plan = planNotFound(ctx);
    expect(plan.manual[0].reason).toMatch(/\(app\.js:11\)$/);
    const todo = plan.files[0].entries[0];
    expect(todo.kind === 'todo' && todo.reason).not.toMatch(/app\.js:11/);
  });
});

/** Starts `server.js` of `root` and resolves with its port (it prints `listening <port>`). */
async function startServer(root: string): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, ['server.js'], { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr!.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => reject(new Error(`server.js exited with ${code}: ${out}`)));
  });
  return { port, stop: () => child.kill() };
}

describe('a handler whose module requires the generated module', () => {
  const answers = async (port: number) => Promise.all(['/', '/nope', '/throw'].map(async (p) => {
    const res = await fetch(`http://127.0.0.1:${port}${p}`);
    return [res.status, await res.text()];
  }));

  it("moves inline handlers of the file that starts the app: the CommonJS generated module requires them when a request comes (app.js requires it while loading)", async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'circle', private: true, main: 'server.js', dependencies: { express: '^4.21.2' } }),
      'server.js': [
        "const express = require('express');",
        'const app = express();',
        "app.get('/', (req, res) => res.send('ok'));",
        "app.get('/throw', () => { throw new Error('boom'); });",
        "app.use((req, res) => res.status(404).send('Page Not Found'));",
        'app.use((err, req, res, next) => {',
        '  res.status(500).send(`Server Error: ${err.message}`);',
        '});',
        "const server = app.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));",
        'module.exports = app;',
        '',
      ].join('\n'),
    };
    // The apps resolve express and fastify from the repository's node_modules.
    const withModules = (dir: string) => (symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'junction'), dir);
    const express = withModules(project(files));
    const root = withModules(project(files));
    expect((await runStage({ root, stage: 'shim', allowDirty: true })).written).toBe(true);
    const result = await runStage({ root, stage: 'errors', allowDirty: true });
    expect(result.manual).toEqual([]);
    expect(result.moved.map((m) => m.done)).toEqual([1, 1]);
    const server = readFileSync(path.join(root, 'fastify-server.js'), 'utf8');
    expect(server).toContain("fastify.setErrorHandler((error, request, reply) => require('./server').errorHandler(error, request, reply));");
    expect(server).toContain("fastify.setNotFoundHandler((request, reply) => require('./server').notFound(request, reply));");
    const [before, after] = [await startServer(express), await startServer(root)];
    try {
      expect(await answers(after.port)).toEqual(await answers(before.port));
      expect((await answers(after.port))[2]).toEqual([500, 'Server Error: boom']);
    } finally {
      before.stop();
      after.stop();
    }
    // A second run changes nothing.
    expect((await runStage({ root, stage: 'errors', allowDirty: true })).changes).toEqual([]);
  });
});

describe('load order: the generated CommonJS module requires the app\'s modules when it uses them, not when it loads', () => {
  it('an app that registers its models before requiring its routes and error middleware still starts after shim, errors and routes (node-express-mongoose-demo)', async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'order', private: true, main: 'server.js', dependencies: { express: '^4.21.2' } }),
      // A model registry the controllers read when they load, as mongoose.model('User') does.
      'models.js': "const models = {};\nmodule.exports = { register: (name) => (models[name] = { name }), get: (name) => { if (!models[name]) throw new Error(`model ${name} not registered`); return models[name]; } };\n",
      'routes.js': "const express = require('express');\nconst User = require('./models').get('User');\nconst router = express.Router();\nrouter.get('/users', (req, res) => res.json({ model: User.name }));\nmodule.exports = router;\n",
      'errors.js': "const User = require('./models').get('User');\nfunction errorHandler(err, req, res, next) {\n  res.status(500).json({ error: err.message, model: User.name });\n}\nmodule.exports = { errorHandler };\n",
      'server.js': [
        "const express = require('express');",
        "require('./models').register('User');",
        "const routes = require('./routes');",
        "const { errorHandler } = require('./errors');",
        'const app = express();',
        "app.use('/api', routes);",
        "app.get('/boom', () => { throw new Error('boom'); });",
        'app.use(errorHandler);',
        "const server = app.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));",
        '',
      ].join('\n'),
    };
    const withModules = (dir: string) => (symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'junction'), dir);
    const root = withModules(project(files));
    for (const stage of ['shim', 'errors', 'routes'] as const) expect((await runStage({ root, stage, allowDirty: true })).exitCode, stage).not.toBe(2);
    const generated = readFileSync(path.join(root, 'fastify-server.js'), 'utf8');
    expect(generated).toContain("fastify.setErrorHandler(require('./errors').errorHandler);");
    expect(generated).toMatch(/fastify\.register\(require\('\.\/routes'\)\.\w+, \{ prefix: '\/api' \}\);/);
    const server = await startServer(root);
    try {
      expect(await (await fetch(`http://127.0.0.1:${server.port}/api/users`)).json()).toEqual({ model: 'User' });
      expect(await (await fetch(`http://127.0.0.1:${server.port}/boom`)).json()).toEqual({ error: 'boom', model: 'User' });
    } finally {
      server.stop();
    }
  });
});

describe('a handler a unit test calls with the Express signature', () => {
  it("moves (a test is no use the app makes) and asks for the test's update, at the call", async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'tested', private: true, main: 'server.js', dependencies: { express: '^4.21.2' } }),
      'errors.js': 'function errorHandler(err, req, res, next) {\n  res.status(500).json({ error: err.message });\n}\nmodule.exports = { errorHandler };\n',
      'app.js': "const express = require('express');\nconst { errorHandler } = require('./errors');\nconst app = express();\napp.get('/', (req, res) => res.send('ok'));\napp.use(errorHandler);\nmodule.exports = app;\n",
      'server.js': "const app = require('./app');\napp.listen(3000);\n",
      'tests/errors.test.js': "const { errorHandler } = require('../errors');\nconst res = { status: () => res, json: () => res };\nerrorHandler(new Error('x'), {}, res, () => {});\n",
      'src/also.spec.js': "const errors = require('../errors');\nerrors.errorHandler(new Error('y'), {}, {}, () => {});\n",
    });
    await runStage({ root, stage: 'shim', allowDirty: true });
    const result = await runStage({ root, stage: 'errors', dry: true, allowDirty: true });
    expect(result.moved[0]).toMatchObject({ done: 1, of: 1 });
    expect(result.manual.map((m) => [m.code, m.file, m.line]).sort()).toEqual([
      ['handler-test-use', 'src/also.spec.js', 2],
      ['handler-test-use', 'tests/errors.test.js', 3],
    ]);
    expect(result.manual.find((m) => m.file === 'tests/errors.test.js')!.reason).toContain("a test calls errorHandler with Express's (err, req, res, next)");
  });
});

describe("a package's error middleware that answers on Node's request and response (errorhandler)", () => {
  it('runs as the Fastify error handler on request.raw/reply.raw, answering as it did in Express', async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'eh', private: true, main: 'server.js', dependencies: { express: '^4.21.2', errorhandler: '^1.5.1' } }),
      'server.js': [
        "const express = require('express');",
        "const errorHandler = require('errorhandler');",
        'const app = express();',
        "app.get('/', (req, res) => res.send('ok'));",
        "app.get('/throw', () => { throw Object.assign(new Error('boom'), { status: 418 }); });",
        'app.use(errorHandler({ log: false }));',
        "const server = app.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));",
        '',
      ].join('\n'),
    };
    const withModules = (dir: string) => (symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'junction'), dir);
    const express = withModules(project(files));
    const root = withModules(project(files));
    await runStage({ root, stage: 'shim', allowDirty: true });
    const result = await runStage({ root, stage: 'errors', allowDirty: true });
    expect(result.manual).toEqual([]);
    expect(readFileSync(path.join(root, 'fastify-server.js'), 'utf8')).toContain('fastify.setErrorHandler(expressErrorMiddleware(errorhandler({ log: false })));');
    expect(readFileSync(path.join(root, 'server.js'), 'utf8')).not.toContain('errorhandler');
    const ask = async (port: number, accept: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/throw`, { headers: { accept } });
      const body = await res.text();
      // The stack's frames below the route differ (Express's server, Fastify's bridge): compare what precedes them.
      return [res.status, res.headers.get('content-type'), res.headers.get('x-content-type-options'), accept.includes('json') ? JSON.parse(body).error.message : body.split('\n')[0]];
    };
    const [before, after] = [await startServer(express), await startServer(root)];
    try {
      for (const accept of ['application/json', 'text/plain', 'text/html']) expect(await ask(after.port, accept)).toEqual(await ask(before.port, accept));
      expect(await ask(after.port, 'application/json')).toEqual([418, 'application/json; charset=utf-8', 'nosniff', 'boom']);
    } finally {
      before.stop();
      after.stop();
    }
    expect((await runStage({ root, stage: 'errors', allowDirty: true })).changes).toEqual([]);
  });
});

describe('route parity with a catch-all moved to setNotFoundHandler', () => {
  const catchAll = { method: 'ALL', path: { raw: '*', full: '*', syntax: 'express4', params: [] } } as unknown as Route;
  const inventory = (routes: Route[], notFoundHandlers: Partial<NotFoundHandler>[]) => ({ routes, notFoundHandlers }) as unknown as Inventory;

  it('is not a missing route when a Fastify not-found handler of that prefix answers it', () => {
    expect(routeParity(inventory([catchAll], []), inventory([], [{ framework: 'fastify', fullPath: '/' }]))).toEqual({ missing: [], duplicated: [] });
  });

  it('is missing when nothing answers it, or only an Express handler', () => {
    expect(routeParity(inventory([catchAll], []), inventory([], [])).missing).toEqual(['ALL /*']);
    expect(routeParity(inventory([catchAll], []), inventory([], [{ fullPath: '/' }])).missing).toEqual(['ALL /*']);
  });
});
