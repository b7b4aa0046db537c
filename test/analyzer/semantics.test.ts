/**
 * Express semantics the catalogue fixtures do not pin down, each checked against what Express
 * does at run time (verified by hand on Express 4.21): `.all()` ending a `route()` chain answers
 * every method, spread arguments expand in place, route-level error handlers are not handlers.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { chainOf } from '../helpers/fixtures.js';
import { project } from '../helpers/tmp.js';

async function routesOf(source: string): Promise<string[]> {
  const dir = project({ 'package.json': JSON.stringify({ name: 's', main: 'app.js', dependencies: { express: '^4.21.2' } }), 'app.js': source });
  const inv = await analyze({ dir });
  return inv.routes.map((r) => `${r.key} | ${chainOf(r).join(', ')}`);
}

const HEAD = "const express = require('express');\nconst app = express();\nfunction gmw(req, res, next) { next(); }\n";

describe('Express semantics', () => {
  it('lists ALL for a route() chain whose last callback is .all()', async () => {
    expect(await routesOf(`${HEAD}app.route('/x').get(gmw).all(function allH(req, res) { res.end(); });\n`)).toEqual(['GET /x | gmw, allH', 'ALL /x | allH']);
  });

  it('keeps only the methods named when .all() comes first', async () => {
    expect(await routesOf(`${HEAD}app.route('/b').all(gmw).get(function show(req, res) { res.end(); });\n`)).toEqual(['GET /b | gmw, show']);
  });

  it('expands spread middleware in place', async () => {
    const src = `${HEAD}function s1(req, res, next) { next(); }\nfunction s2(req, res, next) { next(); }\nconst mws = [s1, s2];\napp.get('/s', ...mws, function spread(req, res) { res.end(); });\n`;
    expect(await routesOf(src)).toEqual(['GET /s | s1, s2, spread']);
  });

  it('does not take a route-level error handler for the handler', async () => {
    const src = `${HEAD}app.get('/e', function boom(req, res) { throw new Error('x'); }, function inlineErr(err, req, res, next) { res.status(500).end(); });\n`;
    expect(await routesOf(src)).toEqual(['GET /e | boom']);
  });

  it('follows registrars assigned onto the app (app.resource = function … this.get …)', async () => {
    const src = `${HEAD}app.resource = function (path, obj) {\n  this.get(path, obj.index);\n  this.delete(path + '/:id', obj.destroy);\n};\napp.resource('/users', { index: function index(req, res) { res.end(); }, destroy: function destroy(req, res) { res.end(); } });\n`;
    expect(await routesOf(src)).toEqual(['GET /users | index', 'DELETE /users/:id | destroy']);
  });

  it('runs only the matching clause of a switch on a known value, and recurses through route maps', async () => {
    const src = `${HEAD}function show(req, res) { res.end(); }\nfunction list(req, res) { res.end(); }\napp.map = function (a, route) {\n  route = route || '';\n  for (const key in a) {\n    switch (typeof a[key]) {\n      case 'object': app.map(a[key], route + key); break;\n      case 'function': app[key](route, a[key]); break;\n    }\n  }\n};\napp.map({ '/users': { get: list, '/:uid': { get: show, '/pets': { '/:pid': { get: show } } } } });\n`;
    expect(await routesOf(src)).toEqual(['GET /users | list', 'GET /users/:uid | show', 'GET /users/:uid/pets/:pid | show']);
  });

  it('lists routes registered in a callback a package calls later, as conditional', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 's', main: 'app.js', dependencies: { express: '^4.21.2', mongoose: '^8' } }),
      'app.js': `${HEAD}const mongoose = require('mongoose');\nmongoose.connect(process.env.DB).then(() => {\n  app.get('/ready', function ready(req, res) { res.end(); });\n});\n`,
    });
    const inv = await analyze({ dir });
    expect(inv.routes.map((r) => [r.key, r.resolution, r.reasons.map((x) => x.code)])).toEqual([['GET /ready', 'partial', ['conditional']]]);
  });

  it('calls the inventory incomplete when a registrar could not be followed', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 's', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'app.js': `${HEAD}const later = [];\nfunction define(path, fn) { later.push({ path, fn }); }\ndefine('/jobs', function jobs(req, res) { res.end(); });\n`,
    });
    const inv = await analyze({ dir });
    expect(inv.summary.complete).toBe(false);
    expect(inv.summary.headline).toMatch(/^Inventory INCOMPLETE: 1 registration could not be followed \(custom-registrar\)/);
  });

  it('reads a handler wrapped where it is defined (const create = catchAsync(async (req, res) => …))', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 's', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'app.js': `${HEAD}const catchAsync = (fn) => (req, res, next) => {\n  Promise.resolve(fn(req, res, next)).catch((err) => next(err));\n};\nconst users = {\n  create: catchAsync(async (req, res) => {\n    res.status(201).cookie('sid', 'x', { maxAge: 1000 }).send(req.body);\n  }),\n};\napp.post('/users', users.create);\n`,
    });
    const inv = await analyze({ dir });
    const [route] = inv.routes;
    expect([route.handler.name, route.handler.wrappers, route.handler.async, route.handler.definition?.line]).toEqual(['users.create', ['catchAsync'], true, 8]);
    expect(route.usage.res.map((u) => u.api)).toEqual(['res.cookie', 'res.send', 'res.status']);
    expect(route.usage.req.map((u) => u.api)).toEqual(['req.body']);
  });

  it('marks middleware registered under a condition in the chains it joins, without making the route partial', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 's', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'app.js': `${HEAD}if (process.env.NODE_ENV === 'production') app.use('/v1/auth', gmw);\napp.post('/v1/auth/login', function login(req, res) { res.end(); });\n`,
    });
    const [route] = (await analyze({ dir })).routes;
    expect([route.resolution, route.chain.map((c) => [c.name, c.conditions])]).toEqual(['exact', [['gmw', ["if (process.env.NODE_ENV === 'production')"]]]]);
  });

  it('a variable assigned in both branches of an if is one of the two values', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 's', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'app.js': `${HEAD}let hops;\nif (process.env.BEHIND_PROXY) hops = 1;\nelse hops = 0;\napp.set('trust proxy', hops);\nlet api = express.Router();\nif (process.env.V2) { api = express.Router(); api.get('/v2', gmw); } else { api.get('/v1', gmw); }\napp.use('/api', api);\n`,
    });
    const inv = await analyze({ dir });
    expect(inv.settings.filter((x) => x.key === 'trust proxy').map((x) => [x.resolution, x.alternatives])).toEqual([['partial', [1, 0]]]);
    expect(inv.routes.map((r) => [r.key, r.resolution])).toEqual([['GET /api/v2', 'partial'], ['GET /api/v1', 'partial']]);
  });

  it("folds path.resolve('public') against the app's root, wherever the tool runs", async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 's', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'app.js': `${HEAD}const path = require('path');\napp.use('/assets', express.static(path.resolve('public')));\n`,
    });
    expect((await analyze({ dir })).staticMounts.map((m) => [m.fullPath, m.dir])).toEqual([['/assets', 'public']]);
  });

  it('runs each analysis with fresh counters', async () => {
    const a = await routesOf(`${HEAD}app.get('/one', gmw);\n`);
    const b = await routesOf(`${HEAD}app.get('/one', gmw);\n`);
    expect(b).toEqual(a);
  });
});

describe('arity traps', () => {
  it('flags (...args) and (err, req, res, next = noop) middleware as never receiving errors', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'a', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'app.js': `${HEAD}app.get('/', gmw);\napp.use((...args) => args[2].end());\napp.use(function withDefault(err, req, res, next = () => {}) { res.end(); });\napp.use(function real(err, req, res, next) { res.end(); });\n`,
    });
    const inv = await analyze({ dir });
    expect(inv.diagnostics.filter((d) => d.code === 'not-an-error-handler').map((d) => d.location?.line)).toEqual([5, 6]);
    expect(inv.errorHandlers.map((e) => e.name)).toEqual(['real']);
  });
});

describe('Promise executors', () => {
  it('runs the executor of new Promise at once: routes and listen calls inside it are found', async () => {
    const src = `${HEAD}await new Promise((resolve) => {\n  app.get('/inside', function inside(req, res) { res.end(); });\n  app.listen(3000, resolve);\n});\n`;
    expect(await routesOf(src)).toEqual(['GET /inside | inside']);
  });

  it("lists what the listen callback and a server event register, as registered late (a condition)", async () => {
    const src = `${HEAD}app.get('/', (req, res) => res.end());\nconst server = app.listen(3000, () => {\n  app.use(function onError(err, req, res, next) { res.status(500).end(); });\n});\nserver.on('listening', () => {\n  app.get('/late', function late(req, res) { res.end(); });\n});\n`;
    const dir = project({ 'package.json': JSON.stringify({ name: 's', main: 'app.js', dependencies: { express: '^4.21.2' } }), 'app.js': src });
    const inv = await analyze({ dir });
    expect(inv.routes.map((r) => [r.key, r.conditions])).toEqual([['GET /', []], ['GET /late', ['callback of server.on']]]);
    expect(inv.errorHandlers.map((h) => [h.name, h.conditions])).toEqual([['onError', ['callback of app.listen']]]);
  });
});
