/**
 * Where each of an Express route's own functions stands in its registration (ArgumentSlot on
 * ChainEntry and Handler): the argument after the path it came from, and its index in an array
 * argument Express flattens — a controller array (`exports.create = [body('name'), …, handler]`),
 * a middleware array held in a variable, nested arrays, spread elements expanded.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Route } from '../../analyzer/model.js';
import { project } from '../helpers/tmp.js';

const APP = [
  "const express = require('express');",
  "const ctrl = require('./ctrl');",
  'const app = express();',
  'const guards = [auth, admin];',
  'function auth(req, res, next) { next(); }',
  'function admin(req, res, next) { next(); }',
  'function show(req, res) { res.end(); }',
  "app.get('/plain', auth, show);",
  "app.post('/create', ctrl.create);",
  "app.get('/guarded', guards, show);",
  "app.get('/nested', [auth, [admin]], show);",
  "app.route('/chained').get(auth, show).post(...guards, ctrl.create);",
  'module.exports = app;',
  '',
].join('\n');

const CTRL = [
  'function check(req, res, next) { next(); }',
  'const checks = [check, check];',
  'exports.create = [...checks, check, (req, res) => res.end()];',
  '',
].join('\n');

function slots(route: Route | undefined): unknown[] {
  return route ? [...route.chain.filter((c) => c.scope === 'route').map((c) => [c.name, c.slot]), ['handler', route.handler.slot]] : [];
}

describe('argument slots of a route’s own functions', () => {
  it('say which registration argument each came from and where it is in an array', async () => {
    const dir = project({ 'package.json': JSON.stringify({ name: 'slots', main: 'app.js', dependencies: { express: '^4.21.2' } }), 'app.js': APP, 'ctrl.js': CTRL });
    const inv = await analyze({ dir });
    const route = (key: string) => inv.routes.find((r) => r.key === key);
    expect(slots(route('GET /plain'))).toEqual([['auth', { argument: 0 }], ['handler', { argument: 1 }]]);
    // A controller array: spread elements expanded, the handler its last element.
    expect(slots(route('POST /create'))).toEqual([['check', { argument: 0, element: [0] }], ['check', { argument: 0, element: [1] }], ['check', { argument: 0, element: [2] }], ['handler', { argument: 0, element: [3] }]]);
    expect(slots(route('GET /guarded'))).toEqual([['auth', { argument: 0, element: [0] }], ['admin', { argument: 0, element: [1] }], ['handler', { argument: 1 }]]);
    expect(slots(route('GET /nested'))).toEqual([['auth', { argument: 0, element: [0] }], ['admin', { argument: 0, element: [1, 0] }], ['handler', { argument: 1 }]]);
    // A spread argument expands into arguments of their own (the source has one node for them).
    expect(slots(route('POST /chained'))).toEqual([['auth', { argument: 0 }], ['admin', { argument: 1 }], ['check', { argument: 2, element: [0] }], ['check', { argument: 2, element: [1] }], ['check', { argument: 2, element: [2] }], ['handler', { argument: 2, element: [3] }]]);
  });
});
