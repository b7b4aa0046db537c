/**
 * The modules the stages write, recognised (analyzer/generated.ts, analyzer/adapters.ts): the
 * marks on their first lines, the adapters of the hooks module in moved routes' chains (what each
 * wraps), the body adapters, and the Fastify app of the generated server module — on a project
 * the shim, errors and routes stages really wrote, and on a small one built from the hooks module
 * the routes stage writes.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { generatedKind, ROUTES_HOOKS_MARK, SHIM_MARK } from '../../analyzer/generated.js';
import { runStage } from '../../runner/run.js';
import { DEFAULT_STYLE } from '../../transforms/lib/style.js';
import { hooksModule } from '../../transforms/server-module/hooks-template.js';
import { serverModule } from '../../transforms/server-module/template.js';
import { copyOf, project } from '../helpers/tmp.js';

const SHOP = path.resolve(import.meta.dirname, '../../fixtures/apps/shop-api');

describe('generated modules', () => {
  it('are told apart by the mark on their first line, the one the stages write', () => {
    // The stages write these very marks (they import them from analyzer/generated.ts).
    const server = serverModule({ module: 'esm', typescript: false, expressMajor: 4, caseSensitive: false, strict: false, trustProxy: null, queryParser: null, bodyParsers: { sources: [], imports: [] }, parity: 'default' }, DEFAULT_STYLE);
    const hooks = hooksModule({ module: 'esm', typescript: false, expressMajor: 4 }, DEFAULT_STYLE);
    expect([server, hooks].map((text) => generatedKind(text.split('\n', 1)[0]))).toEqual(['server-module', 'hooks-module']);
    expect([SHIM_MARK, ROUTES_HOOKS_MARK]).toEqual(['written by `migrate run --stage shim`', 'written by `migrate run --stage routes`']);
    expect(generatedKind('// Fastify in front of the Express app: written by `migrate run --stage shim` (express-to-fastify migrate).')).toBe('server-module');
    expect(generatedKind('// Fastify hooks for routes moved off Express: written by `migrate run --stage routes` (express-to-fastify migrate).')).toBe('hooks-module');
    expect(generatedKind("import express from 'express';")).toBeNull();
  });
});

describe('adapters in a project the stages wrote (shop-api after shim, errors, routes)', () => {
  it('names what each adapter wraps, the body adapters, and the app of the server module', async () => {
    const dir = copyOf(SHOP);
    for (const stage of ['shim', 'errors', 'routes'] as const) await runStage({ root: dir, stage, allowDirty: true });
    const inv = await analyze({ dir });
    const fastify = inv.apps.find((a) => a.framework === 'fastify')!;
    expect(inv.apps.map((a) => [a.name, a.framework ?? 'express', a.generated])).toEqual([['app', 'express', undefined], ['fastify', 'fastify', 'server-module']]);
    expect(fastify.contentTypeParsers!.map((p) => [p.contentType, p.name, p.registration.file, p.ownerId === fastify.id, p.adapter])).toEqual([
      ['*', 'parseBodyLikeExpress', 'src/fastify-server.ts', true, undefined],
      ['*', 'bodyLeftToExpress', 'src/fastify-server.ts', false, { kind: 'express-body' }],
    ]);
    expect(inv.middleware.filter((m) => m.adapter).map((m) => [m.name, m.hook, m.definition?.file, m.adapter])).toEqual([['bodyLikeExpress', 'preHandler', 'src/fastify-hooks.ts', { kind: 'express-body' }]]);
    const put = inv.routes.find((r) => r.framework === 'fastify' && r.key === 'PUT /api/v1/products/:productId')!;
    const auth = { file: 'src/middleware/auth.ts', line: 13, column: 1 };
    expect(put.chain.filter((c) => c.adapter).map((c) => [c.name, c.scope, c.adapter])).toEqual([
      ['bodyLikeExpress', 'router', { kind: 'express-body' }],
      ['loadProduct', 'route', { kind: 'express-param', wraps: { name: 'loadProduct', origin: 'local', definition: { file: 'src/routes/v1/products.ts', line: 29, column: 1 } }, param: 'productId' }],
      ['requireAuth', 'route', { kind: 'express-middleware', wraps: { name: 'requireAuth', origin: 'local', definition: auth } }],
      ['requireRole', 'route', { kind: 'express-middleware', wraps: { name: 'requireRole', origin: 'local', definition: { file: 'src/middleware/auth.ts', line: 30, column: 10 } } }],
      ['expressMiddleware', 'route', { kind: 'express-middleware', wraps: { name: 'celebrate', origin: 'package', package: 'celebrate' } }],
    ]);
    // Every moved route's own hooks are adapters; nothing on the Express side is.
    const own = inv.routes.filter((r) => r.framework === 'fastify').flatMap((r) => r.chain.filter((c) => c.scope === 'route'));
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((c) => !c.adapter)).toEqual([]);
    expect(inv.routes.filter((r) => r.framework === 'express').flatMap((r) => r.chain.filter((c) => c.adapter))).toEqual([]);
  }, 120_000);
});

describe('adapters by provenance (a CommonJS project with the hooks module the routes stage writes)', () => {
  it('recognises expressMiddleware, expressParam, expressWildcard and the body adapters however they are imported, and nothing of the same name elsewhere', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'hooks', main: 'app.js', dependencies: { fastify: '^5.2.0', express: '^5.1.0' } }),
      'fastify-hooks.js': hooksModule({ module: 'commonjs', typescript: false, expressMajor: 5 }, DEFAULT_STYLE),
      'guards.js': 'function requireToken(req, res, next) { next(); }\nfunction loadItem(req, res, next, id) { next(); }\nmodule.exports = { requireToken, loadItem };\n',
      'lookalike.js': 'function expressMiddleware(fn) { return function wrapped(req, res, next) { fn(req, res, next); }; }\nmodule.exports = { expressMiddleware };\n',
      'routes/files.js': [
        "const hooks = require('../fastify-hooks');",
        "const { expressWildcard } = require('../fastify-hooks');",
        "const express = require('express');",
        "const lookalike = require('../lookalike');",
        "const { requireToken, loadItem } = require('../guards');",
        'async function filesRoutes(fastify) {',
        "  fastify.get('/items/:id', { preHandler: [hooks.expressMiddleware(requireToken), hooks.expressParam('id', loadItem)] }, async function show(request) { return request.params; });",
        "  fastify.get('/files/*', { preHandler: [expressWildcard('splat'), hooks.expressMiddleware(express.json({ limit: '1mb' }))] }, async function file(request) { return request.params; });",
        "  fastify.get('/plain', { preHandler: [lookalike.expressMiddleware(requireToken)] }, async function plain() { return 'ok'; });",
        '}',
        'module.exports = { filesRoutes };',
        '',
      ].join('\n'),
      'app.js': [
        "const Fastify = require('fastify');",
        "const { bodyLikeExpress, bodyLeftToExpress } = require('./fastify-hooks');",
        "const { filesRoutes } = require('./routes/files');",
        'const fastify = Fastify();',
        "fastify.addContentTypeParser('*', bodyLeftToExpress);",
        "fastify.addHook('preHandler', bodyLikeExpress);",
        "fastify.register(filesRoutes, { prefix: '/api' });",
        'module.exports = fastify;',
        '',
      ].join('\n'),
    });
    const inv = await analyze({ dir });
    const body = { kind: 'express-body' };
    expect(inv.apps.map((a) => [a.generated, a.contentTypeParsers])).toEqual([[undefined, [{ contentType: '*', ownerId: inv.apps[0].id, name: 'bodyLeftToExpress', registration: { file: 'app.js', line: 5, column: 1 }, statement: { start: { line: 5, column: 1 }, end: { line: 5, column: 54 }, topLevel: true, own: true }, adapter: body }]]]);
    expect(Object.fromEntries(inv.routes.map((r) => [r.key, r.chain.map((c) => [c.name, c.scope, c.adapter])]))).toEqual({
      'GET /api/items/:id': [
        ['bodyLikeExpress', 'app', body],
        ['requireToken', 'route', { kind: 'express-middleware', wraps: { name: 'requireToken', origin: 'local', definition: { file: 'guards.js', line: 1, column: 1 } } }],
        ['loadItem', 'route', { kind: 'express-param', wraps: { name: 'loadItem', origin: 'local', definition: { file: 'guards.js', line: 2, column: 1 } }, param: 'id' }],
      ],
      'GET /api/files/*': [
        ['bodyLikeExpress', 'app', body],
        ['expressWildcard', 'route', { kind: 'express-wildcard', param: 'splat' }],
        ['hooks.expressMiddleware', 'route', { kind: 'express-middleware', wraps: { name: 'express.json', origin: 'package', package: 'express' } }],
      ],
      // A function of the same name outside the hooks module is no adapter.
      'GET /api/plain': [['bodyLikeExpress', 'app', body], ['requireToken', 'route', undefined]],
    });
  });
});

describe('expressChain (a moved route registered with arrays of functions)', () => {
  it('gives the route its hooks — the hooks argument, then every function of the chain but the last through expressMiddleware — and the last as its handler', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'chains', main: 'app.js', dependencies: { fastify: '^5.2.0', express: '^4.21.2' } }),
      'fastify-hooks.js': hooksModule({ module: 'commonjs', typescript: false, expressMajor: 4, chains: true }, DEFAULT_STYLE),
      'ctrl.js': [
        'function check(req, res, next) { next(); }',
        'function loadItem(req, res, next, id) { next(); }',
        'exports.loadItem = loadItem;',
        'exports.create = [check, (request, reply) => { reply.send({}); }];',
        'exports.guards = [check, check];',
        'exports.show = function show(request, reply) { reply.send({}); };',
        '',
      ].join('\n'),
      'app.js': [
        "const Fastify = require('fastify');",
        "const { expressChain, expressParam } = require('./fastify-hooks');",
        "const ctrl = require('./ctrl');",
        'const fastify = Fastify();',
        "fastify.post('/items', expressChain(ctrl.create));",
        "fastify.get('/items/:id', expressChain([...ctrl.guards, ctrl.show], [expressParam('id', ctrl.loadItem)]));",
        'module.exports = fastify;',
        '',
      ].join('\n'),
    });
    const inv = await analyze({ dir });
    const check = { kind: 'express-middleware', wraps: { name: 'check', origin: 'local', definition: { file: 'ctrl.js', line: 1, column: 1 } } };
    expect(inv.routes.map((r) => [r.key, r.resolution, r.handler.definition, r.chain.map((c) => [c.name, c.hook, c.adapter])])).toEqual([
      ['POST /items', 'exact', { file: 'ctrl.js', line: 4, column: 26 }, [['check', 'preHandler', check]]],
      ['GET /items/:id', 'exact', { file: 'ctrl.js', line: 6, column: 16 }, [
        ['ctrl.loadItem', 'preHandler', { kind: 'express-param', wraps: { name: 'ctrl.loadItem', origin: 'local', definition: { file: 'ctrl.js', line: 2, column: 1 } }, param: 'id' }],
        ['check', 'preHandler', check],
        ['check', 'preHandler', check],
      ]],
    ]);
  });
});
