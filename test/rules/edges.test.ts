/** Rule edge cases beyond the positive/negative fixtures, each checked against what Fastify 5 does at boot or at run time. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { runRules } from '../../rules/index.js';
import { project } from '../helpers/tmp.js';

async function findingsOf(source: string, rule: string, pkg: object = {}): Promise<string[]> {
  const dir = project({ 'package.json': JSON.stringify({ name: 'e', main: 'app.js', dependencies: { express: '^4.21.0' }, ...pkg }), 'app.js': `const express = require('express');\nconst app = express();\n${source}` });
  return (runRules(await analyze({ dir })).findings ?? []).filter((f) => f.rule === rule).map((f) => `${f.location.line}: ${f.message}`);
}

const h = '(req, res) => res.end()';

describe('duplicate-route', () => {
  it('ALL then GET, GET then HEAD, and paths equal under case and trailing slash clash; HEAD then GET does not', async () => {
    const src = [`app.all('/a', ${h});`, `app.get('/a', ${h});`, `app.get('/b', ${h});`, `app.head('/b', ${h});`, `app.head('/c', ${h});`, `app.get('/c', ${h});`, `app.get('/d', ${h});`, `app.get('/D/', ${h});`, ''].join('\n');
    expect(await findingsOf(src, 'duplicate-route')).toEqual([
      '4: GET /a is registered again (after ALL /a); Fastify refuses a second route for the same method and path at boot.',
      '6: HEAD /b is registered again (after GET /b); Fastify refuses a second route for the same method and path at boot.',
      '10: GET /D is registered again (after GET /d); Fastify refuses a second route for the same method and path at boot.',
    ]);
  });
});

describe('duplicate-route: routes a replacement plugin registers itself', () => {
  it('cors with app.options(*) or app.all(*), express.static with an SPA get(*) at the same prefix (FST_ERR_DUPLICATED_ROUTE on Fastify 5.12)', async () => {
    const src = ["const cors = require('cors');", 'app.use(cors());', "app.use(express.static('public'));", `app.options('*', cors());`, `app.get('/api/x', ${h});`, `app.get('*', ${h});`, `app.all('/*', ${h});`, ''].join('\n');
    expect((await findingsOf(src, 'duplicate-route', { dependencies: { express: '^4.21.0', cors: '^2' } })).sort()).toEqual([
      '6: OPTIONS * takes `OPTIONS /*`, which @fastify/cors registers itself (replacing cors at app.js:4); Fastify refuses the second route at boot.',
      '8: GET * takes `GET /*`, which @fastify/static registers itself (replacing express.static at app.js:5); Fastify refuses the second route at boot.',
      '9: ALL /* takes `OPTIONS /*`, which @fastify/cors registers itself (replacing cors at app.js:4); Fastify refuses the second route at boot.',
      '9: ALL /* takes `GET /*`, which @fastify/static registers itself (replacing express.static at app.js:5); Fastify refuses the second route at boot.',
    ].sort());
  });
});

describe('overlapping-routes', () => {
  it('a wildcard shadows a later static route; a parameter pattern that cannot match the static segment does not', async () => {
    const src = [`app.get('/users/:id(\\\\d+)', ${h});`, `app.get('/users/me', ${h});`, `app.get('/files/*', ${h});`, `app.get('/files/readme', ${h});`, ''].join('\n');
    expect(await findingsOf(src, 'overlapping-routes')).toEqual(['6: GET /files/readme is shadowed by GET /files/* in Express (registered first); Fastify answers it with GET /files/readme.']);
  });
});

describe('node-engine', () => {
  it("uses semver's lowest match: '*' and '<=22' admit old Node, '>=20.0.0-rc.1' does not", async () => {
    expect(await findingsOf(`app.get('/', ${h});\n`, 'node-engine', { engines: { node: '<=22' } })).toHaveLength(1);
    expect(await findingsOf(`app.get('/', ${h});\n`, 'node-engine', { engines: { node: '*' } })).toHaveLength(1);
    expect(await findingsOf(`app.get('/', ${h});\n`, 'node-engine', { engines: { node: '>=20.0.0-rc.1' } })).toEqual([]);
  });
});

describe('uses in middleware count too', () => {
  it("res.locals and req.query written in app middleware, req.baseUrl and next('router') in router middleware", async () => {
    const src = [
      "app.use(function locals(req, res, next) { res.locals.user = req.user; req.query.limit = 10; next(); });",
      'const api = express.Router();',
      "api.use(function guard(req, res, next) { if (req.baseUrl !== '/api') return next('router'); next(); });",
      `api.get('/x', ${h});`,
      "app.use('/api', api);",
      '',
    ].join('\n');
    expect(await findingsOf(src, 'res-locals')).toEqual(['3: middleware locals at / writes res.locals.']);
    expect(await findingsOf(src, 'req-query-write')).toEqual(['3: middleware locals at / writes to req.query.']);
    expect(await findingsOf(src, 'next-route')).toEqual(["5: middleware guard at /api calls next('router')."]);
    expect(await findingsOf(src, 'req-path-in-router')).toEqual(['5: middleware guard at /api reads req.baseUrl inside a router mounted at /api.']);
  });
});

describe('api-usage: request properties the app sets itself', () => {
  it('req.user set by a local JWT middleware becomes a decoration, not @fastify/passport', async () => {
    const src = [
      "function auth(req, res, next) { req.user = { id: 1 }; next(); }",
      "app.get('/me', auth, (req, res) => res.json(req.user));",
      '',
    ].join('\n');
    expect((await findingsOf(src, 'api-usage')).filter((f) => f.includes('req.user'))).toEqual([
      "4: GET /me uses req.user, which the app's own middleware sets (no passport in the app): it becomes a request decoration.",
    ]);
  });
});

describe('api-usage: not-found handlers', () => {
  it("reports the APIs of a not-found handler registered with app.use (its string body becomes text/plain)", async () => {
    const src = [`app.get('/', ${h});`, "app.use((req, res) => res.status(404).send('<h1>Not found</h1>'));", ''].join('\n');
    expect((await findingsOf(src, 'api-usage')).filter((f) => f.includes('not-found handler'))).toEqual([
      expect.stringMatching(/^4: not-found handler <anonymous> uses res\.send: A bare `reply\.send\(string\)` goes out as text\/plain/),
    ]);
  });
});

describe('readiness', () => {
  it('method-override holds back only the routes a form can be overridden to; an auto-fixable error holds back none', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'r', main: 'app.js', dependencies: { express: '^4.21.0' } }),
      'app.js': [
        "const express = require('express');",
        "const methodOverride = require('method-override');",
        "const session = require('express-session');",
        'const app = express();',
        "app.use(methodOverride('_method'));",
        "app.use(session({ secret: 'short' }));",
        `app.get('/items/:id', ${h});`,
        `app.delete('/items/:id', ${h});`,
        '',
      ].join('\n'),
    });
    const inv = runRules(await analyze({ dir }));
    expect(inv.readiness!.routes.map((r) => `${r.key} ${r.readiness}`)).toEqual(['GET /items/:id auto', 'DELETE /items/:id manual']);
  });
});

describe('package middleware run inside local middleware', () => {
  it('lusca.csrf() called by a conditional wrapper is reported like registered middleware', async () => {
    const src = [
      "const lusca = require('lusca');",
      'app.use((req, res, next) => {',
      "  if (req.path === '/api/upload') return next();",
      '  lusca.csrf()(req, res, next);',
      '});',
      `app.get('/', ${h});`,
      '',
    ].join('\n');
    expect(await findingsOf(src, 'middleware-no-equivalent')).toEqual([]);
    expect(await findingsOf(src, 'middleware-plugin')).toEqual([
      "6: lusca.csrf [lusca] (run inside <anonymous> at /) is replaced in the plugins stage. Mind: Invalid token: lusca answers 403 through the error middleware (`err.code` undefined, message \"CSRF token mismatch\"); @fastify/csrf-protection throws `FST_CSRF_INVALID_TOKEN` (403 JSON).",
    ]);
  });
});

describe('api-usage: what cannot differ is not reported', () => {
  it('res.status with a literal code in range is quiet; a computed code is reported', async () => {
    const src = [`app.get('/a', (req, res) => res.status(201).json({}));`, `app.get('/b', (req, res) => res.status(req.query.code).json({}));`, ''].join('\n');
    const found = (await findingsOf(src, 'api-usage')).filter((f) => f.includes('res.status'));
    expect(found).toEqual([expect.stringMatching(/^4: GET \/b uses res\.status: Fastify throws FST_ERR_BAD_STATUS_CODE outside 100–599/)]);
  });
});

describe('api-usage', () => {
  async function inventoryOf(source: string) {
    const dir = project({ 'package.json': JSON.stringify({ name: 'e', main: 'app.js', dependencies: { express: '^4.21.0', pug: '^3' } }), 'app.js': `const express = require('express');\nconst app = express();\n${source}` });
    return runRules(await analyze({ dir }));
  }

  it('an API with no Fastify equivalent is a manual error that keeps the route on Express', async () => {
    const inv = await inventoryOf("app.get('/stream', (req, res) => { res.write('a'); res.end(); });\n");
    const write = inv.findings!.find((f) => f.rule === 'api-usage' && f.message.includes('res.write'))!;
    expect([write.severity, write.stage, write.autoFixable]).toEqual(['error', 'manual', false]);
    expect(inv.readiness!.routes.map((r) => [r.key, r.readiness])).toEqual([['GET /stream', 'manual']]);
    expect(inv.readiness!.causes.map((c) => [c.readiness, c.rule, `${c.location.file}:${c.location.line}`, c.routes])).toEqual([['manual', 'api-usage', 'app.js:3', 1]]);
  });

  it('a route registered under a condition moves with it (assisted); one with a path known only at run time stays (manual)', async () => {
    const inv = await inventoryOf("if (process.env.NODE_ENV === 'production') app.get('/debug', (req, res) => res.end());\napp.get(process.env.HEALTH, (req, res) => res.end());\n");
    expect(inv.readiness!.routes.map((r) => [r.key, r.readiness])).toEqual([['GET /debug', 'assisted'], ['GET <unresolved:process.env.HEALTH>', 'manual']]);
  });

  it("res.render is Express's own, never a decoration the app's middleware sets", async () => {
    const inv = await inventoryOf("app.set('view engine', 'pug');\napp.get('/', (req, res) => res.render('home'));\n");
    const render = inv.findings!.filter((f) => f.message.includes('res.render'));
    expect(render.map((f) => f.message)).not.toContainEqual(expect.stringContaining("app's own middleware"));
    expect(render.map((f) => f.fastify)).not.toContainEqual(expect.stringContaining('decorateRequest'));
  });
});

describe('res-method-reassign', () => {
  it('holds back only the routes that call the replaced method', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'e', main: 'app.js', dependencies: { express: '^4.21.0' } }),
      'app.js': "const express = require('express');\nconst app = express();\napp.use(function flash(req, res, next) {\n  const render = res.render;\n  res.render = function (view, locals) { render.call(res, view, { ...locals, messages: [] }); };\n  next();\n});\napp.get('/', (req, res) => res.render('home'));\napp.get('/api', (req, res) => res.json({ ok: true }));\n",
    });
    const inv = runRules(await analyze({ dir }));
    expect(inv.readiness!.routes.map((r) => [r.key, r.readiness])).toEqual([['GET /', 'manual'], ['GET /api', 'auto']]);
  });
});

describe('middleware-plugin speaks about the options the app passes', () => {
  it("names options Fastify lacks and translates the ones it has (express-session's resave, name)", async () => {
    const src = "const session = require('express-session');\napp.use(session({ secret: process.env.S, name: 'startercookie', resave: true, saveUninitialized: false }));\napp.get('/', (req, res) => res.end());\n";
    const dir = project({ 'package.json': JSON.stringify({ name: 'e', main: 'app.js', dependencies: { express: '^4.21.0', 'express-session': '^1' } }), 'app.js': `const express = require('express');\nconst app = express();\n${src}` });
    const [f] = (runRules(await analyze({ dir })).findings ?? []).filter((x) => x.rule === 'middleware-plugin');
    expect(f.message).toBe('session [express-session] (app middleware at /) is replaced in the plugins stage. No Fastify option for `resave`: Not supported.');
    expect(f.fastify).toMatch(/Options here: secret → secret \(.*\); name → cookieName \(.*\); saveUninitialized → saveUninitialized \(True in both\.\); resave → none\.$/);
  });
});

describe('package middleware the app runs inside its own code', () => {
  it('multer built at module level and called from a handler is found, and holds the route for review', async () => {
    const src = "const multer = require('multer');\nconst upload = multer({ dest: 'uploads/' });\nconst uploadImage = upload.single('image');\napp.post('/upload', (req, res) => {\n  uploadImage(req, res, (err) => {\n    if (err) return res.status(400).send({ message: err.message });\n    res.send({ path: req.file.path });\n  });\n});\n";
    const dir = project({ 'package.json': JSON.stringify({ name: 'e', main: 'app.js', dependencies: { express: '^4.21.0', multer: '^2' } }), 'app.js': `const express = require('express');\nconst app = express();\n${src}` });
    const inv = runRules(await analyze({ dir }));
    const found = inv.findings!.filter((f) => f.rule === 'middleware-plugin');
    expect(found.map((f) => [f.message.split('. ')[0], `${f.location.file}:${f.location.line}`, f.autoFixable])).toEqual([['uploadImage [multer] (run by the code of POST /upload) is replaced in the plugins stage', 'app.js:7', false]]);
    expect(inv.readiness!.routes.map((r) => r.readiness)).toEqual(['assisted']);
  });
});

describe('array-path', () => {
  it('an array of paths is flagged; a loop over paths and a router mounted twice are not', async () => {
    const src = [`app.get(['/about', '/about-us'], ${h});`, `for (const p of ['/a', '/b']) app.get(p, ${h});`, 'const r = express.Router();', `r.get('/x', ${h});`, "app.use('/v1', r);", "app.use('/v2', r);", ''].join('\n');
    expect(await findingsOf(src, 'array-path')).toEqual(['3: One registration serves 2 paths: /about, /about-us.']);
  });
});

describe('middleware-plugin caveats follow the member used', () => {
  it("lusca.xframe is a header, not CSRF; passport.initialize alone is about request.user, not sessions", async () => {
    const src = "const lusca = require('lusca');\nconst passport = require('passport');\napp.use(lusca.xframe('SAMEORIGIN'));\napp.use(passport.initialize());\napp.get('/', (req, res) => res.end());\n";
    const found = await findingsOf(src, 'middleware-plugin', { dependencies: { express: '^4.21.0', lusca: '^1', passport: '^0.7' } });
    expect(found).toEqual([
      '5: lusca.xframe [lusca] (app middleware at /) is replaced in the plugins stage. Mind: A header only: @fastify/helmet `frameguard` sets `X-Frame-Options` the same way; nothing else changes.',
      '6: passport.initialize [passport] (app middleware at /) is replaced in the plugins stage. Mind: Decorates `request.user`; so does @fastify/jwt — one of them needs another decorator name.',
    ]);
  });
});

describe('api-usage knows the Express major', () => {
  it('req.query and req.params differ from Express 4 but not from Express 5 (unless nested query parsing or a wildcard)', async () => {
    const src = "app.get('/items/:id', (req, res) => res.json({ id: req.params.id, q: req.query.q }));\napp.get('/files/*splat', (req, res) => res.json(req.params.splat));\n";
    const uses = (found: string[]) => found.map((f) => f.replace(/^\d+: (\S+ \S+) uses (\S+?)[:( ].*$/, '$1 $2')).filter((f) => /req\.(query|params)$/.test(f));
    expect(uses(await findingsOf(src, 'api-usage', { dependencies: { express: '^4.21.0' } }))).toEqual(['GET /items/:id req.params', 'GET /items/:id req.query', 'GET /files/*splat req.params']);
    expect(uses(await findingsOf(src, 'api-usage', { dependencies: { express: '^5.1.0' } }))).toEqual(['GET /files/*splat req.params']);
  });
});

describe('api-usage leaves out what cannot differ', () => {
  it('res.send of an object literal and res.status of a named constant are not reported; res.send of a string is', async () => {
    const src = "const httpStatus = require('http-status');\napp.post('/a', (req, res) => res.status(httpStatus.CREATED).send({ ok: true }));\napp.get('/b', (req, res) => res.send('<p>hi</p>'));\n";
    const found = await findingsOf(src, 'api-usage', { dependencies: { express: '^4.21.0', 'http-status': '^1' } });
    expect(found.map((f) => f.replace(/^(\d+: \S+ \S+ uses \S+?):.*$/, '$1'))).toEqual(['5: GET /b uses res.send']);
  });
});
