/**
 * Folded arguments of middleware factories (Middleware.factory, ChainEntry.factory,
 * analyzer/folded.ts): the factory call of each package middleware, wherever it is, with its
 * arguments folded by the evaluator — constants of other modules, spreads, the environment,
 * functions and RegExps left out with why.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Inventory } from '../../analyzer/model.js';
import { project } from '../helpers/tmp.js';

const APP = [
  "const express = require('express');",
  "const bodyParser = require('body-parser');",
  "const cors = require('cors');",
  "const session = require('express-session');",
  "const { corsOptions } = require('./config/cors');",
  "const { base } = require('./config/body');",
  '',
  "const limit = '2mb';",
  'const opts = { ...base, limit };',
  'const parser = express.json(opts);',
  'const app = express();',
  "app.use(express.json({ limit: '1mb' }));",
  'app.use(bodyParser.urlencoded({ extended: true }));',
  'app.use(cors(corsOptions));',
  'app.use(session({ secret: process.env.SECRET, resave: false, cookie: { maxAge: 60000, secure: process.env.COOKIE_SECURE } }));',
  'app.use(parser);',
  "app.use(express.urlencoded({ limit: '5mb', ...overrides() }));",
  "app.post('/upload', express.raw({ type: /octet/, limit: ['1mb', 2] }), cors({ origin: (origin, cb) => cb(null, true) }), (req, res) => res.end());",
  'function overrides() {',
  '  return JSON.parse(process.env.BODY_OPTIONS);',
  '}',
  'module.exports = app;',
  '',
].join('\n');

async function inventory(): Promise<Inventory> {
  const dir = project({
    'package.json': JSON.stringify({ name: 'factories', main: 'app.js', dependencies: { express: '^4.21.2', 'body-parser': '^1.20.3', cors: '^2.8.5', 'express-session': '^1.18.1' } }),
    'app.js': APP,
    'config/cors.js': "module.exports.corsOptions = { origin: ['https://a.example', 'https://b.example'], credentials: true, maxAge: 600 };\n",
    'config/body.js': "exports.base = { type: 'application/json', strict: true, limit: '100kb' };\n",
  });
  return analyze({ dir });
}

const at = (line: number, column: number, file = 'app.js') => ({ file, line, column });

describe('folded arguments of middleware factories', () => {
  it('folds the options of each factory call, wherever the call is', async () => {
    const inv = await inventory();
    expect(inv.middleware.map((m) => [m.name, m.factory])).toEqual([
      ['express.json', { callee: 'express.json', location: at(12, 9), args: [{ source: "{ limit: '1mb' }", value: { limit: '1mb' }, resolution: 'exact' }] }],
      ['bodyParser.urlencoded', { callee: 'bodyParser.urlencoded', location: at(13, 9), args: [{ source: '{ extended: true }', value: { extended: true }, resolution: 'exact' }] }],
      // An options object of another module folds like one written at the call.
      ['cors', { callee: 'cors', location: at(14, 9), args: [{ source: 'corsOptions', value: { origin: ['https://a.example', 'https://b.example'], credentials: true, maxAge: 600 }, resolution: 'exact' }] }],
      ['session', {
        callee: 'session', location: at(15, 9),
        args: [{
          source: '{ secret: process.env.SECRET, resave: false, cookie: { maxAge: 60000, secure: process.env.COOKIE_SECURE } }',
          value: { resave: false, cookie: { maxAge: 60000 } },
          resolution: 'partial',
          unresolved: [{ path: 'secret', reason: 'process.env.SECRET' }, { path: 'cookie.secure', reason: 'process.env.COOKIE_SECURE' }],
        }],
      }],
      // Made on line 10, registered on line 16; `{ ...base, limit }` with `base` from another module.
      ['parser', { callee: 'express.json', location: at(10, 16), args: [{ source: 'opts', value: { type: 'application/json', strict: true, limit: '2mb' }, resolution: 'exact' }] }],
      // A spread the evaluator cannot read may replace what comes before it.
      ['express.urlencoded', {
        callee: 'express.urlencoded', location: at(17, 9),
        args: [{
          source: "{ limit: '5mb', ...overrides() }", value: {}, resolution: 'partial',
          unresolved: [{ path: 'limit', reason: 'may be replaced by `...overrides()`' }, { path: '...overrides()', reason: 'a call (`JSON.parse(process.env.BODY_OPTIONS)`)' }],
        }],
      }],
    ]);
  });

  it('gives a route\'s own package middleware its factory call; functions, RegExps and arrays with them are left out', async () => {
    const inv = await inventory();
    const upload = inv.routes.find((r) => r.key === 'POST /upload')!;
    expect(upload.chain.filter((c) => c.scope === 'route').map((c) => [c.name, c.factory])).toEqual([
      ['express.raw', { callee: 'express.raw', location: at(18, 21), args: [{ source: "{ type: /octet/, limit: ['1mb', 2] }", value: { limit: ['1mb', 2] }, resolution: 'partial', unresolved: [{ path: 'type', reason: 'a RegExp' }] }] }],
      ['cors', { callee: 'cors', location: at(18, 72), args: [{ source: '{ origin: (origin, cb) => cb(null, true) }', value: {}, resolution: 'partial', unresolved: [{ path: 'origin', reason: 'a function' }] }] }],
    ]);
    // App-level entries name their middleware record, which carries the factory.
    expect(upload.chain.filter((c) => c.scope === 'app').every((c) => c.middlewareId && !c.factory)).toBe(true);
  });
});

describe("options that are functions of the app's code (FoldedValue.unresolved `function`)", () => {
  it('locate the function, count its parameters and list its uses of req and res (by position) and where it hands them on; a method of a class has no location', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'carried', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'app.js': [
        "const express = require('express');",
        "const { keep } = require('./verify');",
        'class Signer {',
        '  check(req, res, buf) {}',
        '}',
        'const signer = new Signer();',
        'const app = express();',
        'app.use(express.json({ verify: keep }));',
        "app.use(express.urlencoded({ extended: false, verify: (req, res, buf) => { if (req.originalUrl === '/x') res.statusCode = 400; } }));",
        "app.use(express.static('public', { setHeaders(res, file) { res.set('X-File', file); } }));",
        'app.use(express.text({ verify: signer.check }));',
        'const checks = [];',
        'app.use(express.raw({ verify: (req, res, buf) => checks.forEach((check) => check(req, buf)) }));',
        'module.exports = app;',
        '',
      ].join('\n'),
      'verify.js': "exports.keep = function keep(req, res, buf) {\n  req.rawBody = buf;\n};\n",
    });
    const inv = await analyze({ dir });
    const carried = (name: string) => inv.middleware.find((m) => m.name === name)!.factory!.args.flatMap((a) => a.unresolved ?? []);
    expect(carried('express.json')).toEqual([
      { path: 'verify', reason: 'a function', function: { location: at(1, 16, 'verify.js'), parameters: 3, usage: { req: [{ api: 'req.rawBody', location: at(2, 3, 'verify.js'), write: true }], res: [], handedOn: [] } } },
    ]);
    expect(carried('express.urlencoded')).toEqual([
      {
        path: 'verify',
        reason: 'a function',
        function: { location: at(9, 55), parameters: 3, usage: { req: [{ api: 'req.originalUrl', location: at(9, 80) }], res: [{ api: 'res.statusCode', location: at(9, 106), write: true }], handedOn: [] } },
      },
    ]);
    // serve-static's setHeaders takes the response first: its uses are listed under `req`.
    // The second parameter, the file's path, is handed to res.set as a value: a string, not the response.
    expect(carried('express.static')).toEqual([
      { path: 'setHeaders', reason: 'a function', function: { location: at(10, 36), parameters: 2, usage: { req: [{ api: 'req.set', location: at(10, 60), arg: "'X-File'" }], res: [], handedOn: [{ parameter: 'res', location: at(10, 78) }] } } },
    ]);
    expect(carried('express.text')).toEqual([{ path: 'verify', reason: 'a function' }]);
    // `req` handed to functions the analyzer cannot resolve.
    expect(carried('express.raw')[0].function?.usage.handedOn).toEqual([{ parameter: 'req', location: at(13, 82) }]);
  });

  it('reads a member of an object built with a spread it cannot read as unknown, not as undefined', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'env-spread', main: 'app.js', dependencies: { express: '^4.21.2', cors: '^2.8.5' } }),
      'app.js': [
        "const express = require('express');",
        "const cors = require('cors');",
        "const { env } = require('./env');",
        'const app = express();',
        'app.use(cors({ origin: env.CORS_ORIGIN, credentials: env.isProduction, maxAge: env.MAX_AGE }));',
        'module.exports = app;',
        '',
      ].join('\n'),
      // As zod/envalid configs are written: the parsed environment spread, then members of its own.
      'env.js': "const parsed = schema.safeParse(process.env);\nexports.env = { ...parsed.data, isProduction: parsed.data.NODE_ENV === 'production', MAX_AGE: 600 };\n",
    });
    const inv = await analyze({ dir });
    const [options] = inv.middleware.find((m) => m.name === 'cors')!.factory!.args;
    // origin would have folded to undefined (cors: no CORS at all); MAX_AGE, set after the spread, is known.
    expect(options.value).toEqual({ maxAge: 600 });
    expect(options.unresolved?.map((u) => u.path)).toEqual(['origin', 'credentials']);
  });

  it('folds a JSON module the app imports or requires (a config file)', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'json-config', type: 'module', main: 'app.js', dependencies: { express: '^4.21.2', cors: '^2.8.5', 'body-parser': '^1.20.3' } }),
      'app.js': [
        "import express from 'express';",
        "import cors from 'cors';",
        "import bodyParser from 'body-parser';",
        "import config from './config.json';",
        'const app = express();',
        'app.use(cors({ exposedHeaders: config.corsHeaders }));',
        'app.use(bodyParser.json({ limit: config.bodyLimit }));',
        'export default app;',
        '',
      ].join('\n'),
      'config.json': JSON.stringify({ port: 8080, bodyLimit: '100kb', corsHeaders: ['Link'] }),
    });
    const inv = await analyze({ dir });
    const args = (name: string) => inv.middleware.find((m) => m.name === name)!.factory!.args[0];
    expect(args('cors')).toMatchObject({ value: { exposedHeaders: ['Link'] }, resolution: 'exact' });
    expect(args('bodyParser.json')).toMatchObject({ value: { limit: '100kb' }, resolution: 'exact' });
  });
});

