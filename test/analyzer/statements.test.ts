/**
 * Registration statements (StatementSpan, analyzer/statements.ts): the smallest statement holding
 * each registration, whether it sits at the module's top level, and whether it is the registration
 * alone — on routes, route chains, middleware, error and not-found handlers, param callbacks and
 * Fastify registrations.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Inventory } from '../../analyzer/model.js';
import { project } from '../helpers/tmp.js';

const APP = [
  "const express = require('express');",
  "const router = require('./routes');",
  "const dev = process.env.NODE_ENV !== 'production';",
  'const app = express();',
  "require('./extra')(app);",
  'if (dev) app.use(function logger(req, res, next) { next(); });',
  "app.use('/api', router);",
  "app.use(function notFound(req, res) { res.status(404).send('Not found'); });",
  'app.use((err, req, res, next) => {',
  '  res.status(500).send(err.message);',
  '});',
  'module.exports = app;',
  '',
].join('\n');

const ROUTES = [
  "const express = require('express');",
  'const router = express.Router();',
  "router.param('id', function loadItem(req, res, next, id) { next(); });",
  "router.get('/items', function list(req, res) { res.json([]); });",
  "router.route('/items/:id')",
  '  .get(function show(req, res) { res.json({}); })',
  '  .post(function update(req, res) { res.json({}); });',
  "const r = router.delete('/items/:id', function remove(req, res) { res.end(); });",
  'module.exports = router;',
  '',
].join('\n');

const EXTRA = "module.exports = (app) => {\n  app.get('/health', (req, res) => res.send('ok'));\n};\n";

/** The exclusive end of line `line` (1-based) of `text`: the column after its last character. */
const endOfLine = (text: string, line: number) => ({ line, column: text.split('\n')[line - 1].length + 1 });

async function inventory(): Promise<Inventory> {
  const dir = project({ 'package.json': JSON.stringify({ name: 'statements', main: 'app.js', dependencies: { express: '^4.21.2' } }), 'app.js': APP, 'routes.js': ROUTES, 'extra.js': EXTRA });
  return analyze({ dir });
}

describe('registration statements', () => {
  it('gives each route the statement that holds its registration', async () => {
    const inv = await inventory();
    expect(Object.fromEntries(inv.routes.map((r) => [r.key, r.statement]))).toEqual({
      'GET /health': { start: { line: 2, column: 3 }, end: endOfLine(EXTRA, 2), topLevel: false, own: true },
      'GET /api/items': { start: { line: 4, column: 1 }, end: endOfLine(ROUTES, 4), topLevel: true, own: true },
      // The three-line route() chain: one statement for both of its routes.
      'GET /api/items/:id': { start: { line: 5, column: 1 }, end: endOfLine(ROUTES, 7), topLevel: true, own: true },
      'POST /api/items/:id': { start: { line: 5, column: 1 }, end: endOfLine(ROUTES, 7), topLevel: true, own: true },
      // `const r = router.delete(…)`: the call is part of a declaration.
      'DELETE /api/items/:id': { start: { line: 8, column: 1 }, end: endOfLine(ROUTES, 8), topLevel: true, own: false },
    });
    expect(inv.routes.find((r) => r.key === 'POST /api/items/:id')!.registration).toEqual({ file: 'routes.js', line: 7, column: 4, kind: 'route-chain' });
  });

  it('gives middleware, error and not-found handlers and param callbacks theirs', async () => {
    const inv = await inventory();
    // `if (dev) app.use(…)`: the expression statement inside the if, at column 10.
    expect(inv.middleware.map((m) => [m.name, m.statement])).toEqual([
      ['logger', { start: { line: 6, column: 10 }, end: endOfLine(APP, 6), topLevel: false, own: true }],
      ['notFound', { start: { line: 8, column: 1 }, end: endOfLine(APP, 8), topLevel: true, own: true }],
    ]);
    expect(inv.errorHandlers.map((h) => [h.name, h.statement])).toEqual([['<anonymous>', { start: { line: 9, column: 1 }, end: endOfLine(APP, 11), topLevel: true, own: true }]]);
    expect(inv.notFoundHandlers.map((h) => [h.name, h.statement])).toEqual([['notFound', { start: { line: 8, column: 1 }, end: endOfLine(APP, 8), topLevel: true, own: true }]]);
    const show = inv.routes.find((r) => r.key === 'GET /api/items/:id')!;
    expect(show.chain.map((c) => [c.name, c.scope, c.statement])).toEqual([
      ['logger', 'app', undefined],
      ['loadItem', 'param', { start: { line: 3, column: 1 }, end: endOfLine(ROUTES, 3), topLevel: true, own: true }],
    ]);
  });

  it('gives Fastify routes, hooks and handlers theirs; a chained registration is not its statement alone', async () => {
    const source = [
      "const Fastify = require('fastify');",
      'const fastify = Fastify();',
      "fastify.addHook('onRequest', async function stamp() {});",
      "fastify.get('/a', async function a() { return 'a'; }).get('/b', async function b() { return 'b'; });",
      'fastify.setErrorHandler(function onError(error, request, reply) { reply.send(error); });',
      '',
    ].join('\n');
    const dir = project({ 'package.json': JSON.stringify({ name: 'f', main: 'app.js', dependencies: { fastify: '^5.2.0' } }), 'app.js': source });
    const inv = await analyze({ dir });
    const line = (n: number, own: boolean) => ({ start: { line: n, column: 1 }, end: endOfLine(source, n), topLevel: true, own });
    expect(inv.routes.map((r) => [r.key, r.statement])).toEqual([['GET /a', line(4, false)], ['GET /b', line(4, false)]]);
    expect(inv.middleware.map((m) => [m.name, m.statement])).toEqual([['stamp', line(3, true)]]);
    expect(inv.errorHandlers.map((h) => [h.name, h.statement])).toEqual([['onError', line(5, true)]]);
  });

  it('gives handlers a factory returns in an array the element where each is written (ErrorHandler.element)', async () => {
    const app = ["const express = require('express');", "const { handlers } = require('./errors');", 'const app = express();', "app.get('/', (req, res) => res.send('ok'));", 'app.use(handlers());', 'app.use((err, req, res, next) => res.status(500).end());', 'module.exports = app;', ''].join('\n');
    const errors = ['function notFound(req, res) { res.status(404).send(); }', 'function onError(err, req, res, next) { next(err); }', 'exports.handlers = () => [notFound, onError];', ''].join('\n');
    const dir = project({ 'package.json': JSON.stringify({ name: 'f', main: 'app.js', dependencies: { express: '^4.21.2' } }), 'app.js': app, 'errors.js': errors });
    const inv = await analyze({ dir });
    expect(inv.notFoundHandlers.map((h) => [h.name, h.registration.line, h.element])).toEqual([['notFound', 5, { file: 'errors.js', line: 3, column: 27 }]]);
    // The second one is an argument of its registration: no element.
    expect(inv.errorHandlers.map((h) => [h.name, h.registration.line, h.element])).toEqual([['onError', 5, { file: 'errors.js', line: 3, column: 37 }], ['<anonymous>', 6, undefined]]);
  });
});

describe('registrars (Route.registrar)', () => {
  const CRUD = ['function crud(router, ctrl) {', "  router.get('/', ctrl.list);", '  [1].forEach(() => router.get(\'/one\', ctrl.list));', '}', 'module.exports = { crud };', ''].join('\n');
  const MAIN = [
    "const express = require('express');",
    "const { crud } = require('./crud');",
    'const app = express();',
    'const users = express.Router();',
    'const ctrl = { list: (req, res) => res.json([]) };',
    'crud(users, ctrl);',
    "app.use('/users', users);",
    "app.get('/top', ctrl.list);",
    "require('./extra')(app);",
    'module.exports = app;',
    '',
  ].join('\n');

  it('names the call of the project function whose body holds the registration, and the function; none for a top-level one', async () => {
    const dir = project({ 'package.json': JSON.stringify({ name: 'registrars', main: 'app.js', dependencies: { express: '^4.21.2' } }), 'app.js': MAIN, 'crud.js': CRUD, 'extra.js': EXTRA });
    const inv = await analyze({ dir });
    const crudCall = { call: { file: 'app.js', line: 6, column: 1 }, statement: { start: { line: 6, column: 1 }, end: endOfLine(MAIN, 6), topLevel: true, own: false }, definition: { file: 'crud.js', line: 1, column: 1 } };
    expect(Object.fromEntries(inv.routes.map((r) => [r.key, r.registrar]))).toEqual({
      'GET /users': crudCall,
      // A loop's callback inside the registrar is not a registrar of its own.
      'GET /users/one': crudCall,
      'GET /top': undefined,
      'GET /health': { call: { file: 'app.js', line: 9, column: 1 }, statement: { start: { line: 9, column: 1 }, end: endOfLine(MAIN, 9), topLevel: true, own: false }, definition: { file: 'extra.js', line: 1, column: 18 } },
    });
  });
});
