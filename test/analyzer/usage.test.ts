/** The handler facts rules read: API uses, writes, uses in callbacks, next(…) calls, err.* reads. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { project } from '../helpers/tmp.js';

async function inventoryOf(source: string) {
  const dir = project({ 'package.json': JSON.stringify({ name: 'u', main: 'app.js', dependencies: { express: '^4.21.2' } }), 'app.js': `const express = require('express');\nconst app = express();\n${source}` });
  return analyze({ dir });
}

describe('handler usage', () => {
  it('records reads, writes (also through a property), callbacks and next calls, first use of each', async () => {
    const inv = await inventoryOf(
      [
        "function guard(req, res, next) { if (!req.user) return next('route'); next(); }",
        'app.get(\'/x\', guard, async function show(req, res, next) {',
        '  req.query.page = Number(req.query.page) || 1;',
        '  res.locals.title = req.path;',
        '  setTimeout(() => res.json({ ok: true }), 1);',
        '  if (req.query.fail) return next(new Error("x"));',
        '});',
        '',
      ].join('\n'),
    );
    const [route] = inv.routes;
    const show = (uses: typeof route.usage.req) => uses.map((u) => `${u.api}${u.write ? ' write' : ''}${u.inCallback ? ' callback' : ''} @${u.location.line}`);
    expect(show(route.usage.req)).toEqual(['req.path @6', 'req.query @5', 'req.query write @5']);
    expect(show(route.usage.res)).toEqual(['res.json callback @7', 'res.locals write @6']);
    expect(show(route.usage.next)).toEqual(['next(err) @8', "next('route') @3", 'next() @3']);
  });

  it("does not count res.format branches as callbacks (Express calls them before format returns)", async () => {
    const inv = await inventoryOf("app.get('/f', async (req, res) => { res.format({ json: () => res.json({}), html() { res.send('<p>') } }); });\n");
    expect(inv.routes[0].usage.res.map((u) => `${u.api}${u.inCallback ? ' callback' : ''}`)).toEqual(['res.format', 'res.json', 'res.send']);
  });

  it("records the err.* properties an error handler reads", async () => {
    const inv = await inventoryOf("app.get('/', (req, res) => res.end());\napp.use(function onError(err, req, res, next) { res.status(err.status || 500).send(err.message); });\n");
    expect(inv.errorHandlers[0].reads.map((u) => `${u.api} @${u.location.line}`)).toEqual(['err.message @4', 'err.status @4']);
  });
});

describe('handler usage: chains, later callbacks, destructuring', () => {
  it('records chained res calls, and a use in a callback after the same use in the body', async () => {
    const inv = await inventoryOf("app.get('/c', async (req, res) => {\n  if (!req.query.x) return res.send('none');\n  setTimeout(() => res.status(500).end(), 1);\n});\n");
    expect(inv.routes[0].usage.res.map((u) => `${u.api}${u.inCallback ? ' callback' : ''} @${u.location.line}`)).toEqual(['res.end callback @5', 'res.send @4', 'res.status callback @5']);
  });

  it("records err.* read by destructuring", async () => {
    const inv = await inventoryOf("app.get('/', (req, res) => res.end());\napp.use((err, req, res, next) => { const { status = 500, message } = err; res.status(status).send(message); });\n");
    expect(inv.errorHandlers[0].reads.map((u) => u.api)).toEqual(['err.message', 'err.status']);
  });
});

describe('handler usage: shadowed names', () => {
  it('ignores another `res` (a callback parameter, a local in a nested helper)', async () => {
    const src = [
      "app.get('/s', async (req, res) => {",
      '  const data = await fetch(req.query.url).then((res) => res.json());',
      '  async function load() { const res = await fetch(req.query.url); return res.text(); }',
      '  res.json({ data, more: await load() });',
      '});',
      '',
    ].join('\n');
    const inv = await inventoryOf(src);
    expect(inv.routes[0].usage.res.map((u) => `${u.api} @${u.location.line}`)).toEqual(['res.json @6']);
  });
});
