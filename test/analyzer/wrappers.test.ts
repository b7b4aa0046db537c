/**
 * Handler wrappers as the analyzer reads them (issue 17; analyzer/wrapper-shape.ts, the catalogue's
 * `handlerWrapper`): which only forward a throw or a rejection to next (the routes stage unwraps
 * those), what the others do beyond that, and where each is applied.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Wrapping } from '../../analyzer/model.js';
import { project } from '../helpers/tmp.js';

const PKG = JSON.stringify({ name: 'w', main: 'app.js', dependencies: { express: '^4.21.2', 'express-async-handler': '^1.2.0', co: '^4.6.0' } });

/** The wrapping of the one route's handler when `maker` is the wrapper `wrap`, applied where the handler is defined. */
async function wrappingOf(maker: string): Promise<Wrapping[] | undefined> {
  const app = `const express = require('express');\nconst app = express();\n${maker}\nconst show = wrap(async (req, res) => {\n  res.json({ ok: true });\n});\napp.get('/x', show);\n`;
  const inv = await analyze({ dir: project({ 'package.json': PKG, 'app.js': app }) });
  return inv.routes[0].handler.wrapping;
}

describe('a local wrapper is proven to only forward', () => {
  it.each([
    ['an arrow returning Promise.resolve(fn(…)).catch(next)', 'const wrap = (fn) => (req, res, next) => Promise.resolve(fn(req, res, next)).catch(next);', 'forwards'],
    ['a block with .catch((err) => next(err))', 'const wrap = (fn) => (req, res, next) => {\n  Promise.resolve(fn(req, res, next)).catch((err) => next(err));\n};', 'forwards'],
    ['a function declaration returning .catch(function (e) { return next(e); })', 'function wrap(fn) {\n  return function (req, res, next) {\n    return Promise.resolve(fn(req, res, next)).catch(function (e) { return next(e); });\n  };\n}', 'forwards'],
    ['an async function awaiting it in a try whose catch calls next', 'const wrap = (fn) => async (req, res, next) => {\n  try {\n    await fn(req, res, next);\n  } catch (error) {\n    next(error);\n  }\n};', 'forwards'],
    ['fn(…).catch(next), alike only for a function returning a promise', 'const wrap = (fn) => (req, res, next) => fn(req, res, next).catch(next);', 'forwards-promise'],
  ])('%s', async (_, maker, kind) => {
    // The maker from line 3, then `const show = wrap(…)`.
    const applied = { file: 'app.js', line: 3 + maker.split('\n').length, column: 14 };
    expect(await wrappingOf(maker)).toEqual([{ name: 'wrap', kind, applied, definition: { file: 'app.js', line: 3, column: expect.any(Number) } }]);
  });
});

describe('a local wrapper that does more is not, and says what it does', () => {
  it.each([
    ['logs a rejection', 'const wrap = (fn) => (req, res, next) => Promise.resolve(fn(req, res, next)).catch((err) => {\n  console.error(err);\n  next(err);\n});', 'handles a rejection with `console.error(err);`, not only by passing it to next'],
    ['answers a rejection itself', "const wrap = (fn) => (req, res, next) => Promise.resolve(fn(req, res, next)).catch((err) => res.status(500).json({ error: err.message }));", 'handles a rejection with `res.status(500).json({ error: err.message })`, not only by passing it to next'],
    ['runs code before the handler', "const wrap = (fn) => (req, res, next) => {\n  console.log(req.method, req.url);\n  return Promise.resolve(fn(req, res, next)).catch(next);\n};", 'also runs `console.log(req.method, req.url);`'],
    ['runs code after it (finally)', 'const wrap = (fn) => async (req, res, next) => {\n  try {\n    await fn(req, res, next);\n  } catch (e) {\n    next(e);\n  } finally {\n    console.log(req.url);\n  }\n};', 'also runs `{ console.log(req.url); }` after the function it wraps'],
    ['hands the handler other arguments', "const wrap = (fn) => (req, res, next) => Promise.resolve(fn(req, res)).catch(next);", 'does more than hand a rejection to next: `Promise.resolve(fn(req, res)).catch(next)`'],
    ['takes options', "const wrap = (fn, status = 500) => (req, res, next) => Promise.resolve(fn(req, res, next)).catch(next);", 'takes `(fn, status = 500)`, not only the function it wraps'],
    ['does not hand rejections to next', 'const wrap = (fn) => (req, res, next) => fn(req, res, next);', 'does not hand a rejection to next'],
  ])('%s', async (_, maker, beyond) => {
    const [wrapping] = (await wrappingOf(maker)) ?? [];
    expect([wrapping?.kind, wrapping?.beyond]).toEqual(['other', beyond]);
  });
});

describe('package wrappers, from the catalogue', () => {
  it('express-async-handler forwards, applied inline at the registration and where the handler is defined', async () => {
    const app = "const express = require('express');\nconst asyncHandler = require('express-async-handler');\nconst app = express();\nconst list = asyncHandler(async (req, res) => res.json([]));\napp.get('/a', asyncHandler(async (req, res) => {\n  res.json({});\n}));\napp.get('/b', list);\n";
    const inv = await analyze({ dir: project({ 'package.json': PKG, 'app.js': app }) });
    expect(inv.routes.map((r) => [r.key, r.handler.origin, r.handler.wrappers, r.handler.wrapping])).toEqual([
      ['GET /a', 'local', ['asyncHandler [express-async-handler]'], [{ name: 'asyncHandler [express-async-handler]', kind: 'forwards', applied: { file: 'app.js', line: 5, column: 15 } }]],
      ['GET /b', 'local', ['asyncHandler [express-async-handler]'], [{ name: 'asyncHandler [express-async-handler]', kind: 'forwards', applied: { file: 'app.js', line: 4, column: 14 } }]],
    ]);
  });

  it("co's wrap runs a generator: its handler is the generator, and the wrapper says so", async () => {
    const app = "const express = require('express');\nconst { wrap: async } = require('co');\nconst app = express();\nconst list = async(function* (req, res) {\n  res.json(yield Promise.resolve([]));\n});\napp.get('/a', list);\n";
    const inv = await analyze({ dir: project({ 'package.json': PKG, 'app.js': app }) });
    const [route] = inv.routes;
    expect([route.handler.origin, route.handler.definition?.line, route.handler.async, route.handler.wrapping?.map((w) => [w.name, w.kind, w.applied?.line])]).toEqual(['local', 4, false, [['async [co]', 'runs-generator', 4]]]);
  });

  it("co's wrap given a function that is not a generator (written in the call or declared apart) does more, said in words", async () => {
    const app = "const express = require('express');\nconst co = require('co');\nconst app = express();\nfunction* show(req, res) {\n  res.json(yield Promise.resolve({}));\n}\napp.get('/a', co.wrap(function (req, res) {\n  return res.json([]);\n}));\napp.get('/b', co.wrap(show));\n";
    const inv = await analyze({ dir: project({ 'package.json': PKG, 'app.js': app }) });
    const [a, b] = inv.routes;
    expect(a.handler.wrapping?.map((w) => [w.name, w.kind])).toEqual([['co.wrap [co]', 'other']]);
    expect(a.handler.wrapping?.[0].beyond).toMatch(/is given one that is not a generator/);
    // Declared apart, it is still a generator: the routes stage decides where it can stay (unwrap.ts).
    expect(b.handler.wrapping?.map((w) => [w.name, w.kind])).toEqual([['co.wrap [co]', 'runs-generator']]);
  });
});

describe('nested wrappers', () => {
  it('are read one by one, outermost first, each where it is applied', async () => {
    const app = "const express = require('express');\nconst app = express();\nconst wrap = (fn) => (req, res, next) => Promise.resolve(fn(req, res, next)).catch(next);\nfunction timed(fn) {\n  return async (req, res, next) => {\n    const started = Date.now();\n    await fn(req, res, next);\n    res.locals.ms = Date.now() - started;\n  };\n}\napp.get('/x', wrap(timed(async (req, res) => res.json({}))));\n";
    const inv = await analyze({ dir: project({ 'package.json': PKG, 'app.js': app }) });
    expect(inv.routes[0].handler.wrapping?.map((w) => [w.name, w.kind, w.beyond, w.applied?.column])).toEqual([
      ['wrap', 'forwards', undefined, 15],
      ['timed', 'other', 'also runs `const started = Date.now();`', 20],
    ]);
  });
});
