/** Rule edge cases beyond the positive/negative fixtures, each checked against what Fastify 5 does at boot or at run time. */
import { describe, expect, it } from 'vitest';
import { analyzeWithReadiness } from '../../runner/readiness.js';
import { project } from '../helpers/tmp.js';

/** A one-file Express app (`express` and `app` in scope before `source`), `pkg` merged into its package.json, analysed and run through the rules. */
async function rulesOn(source: string, pkg: object = {}) {
  const dir = project({ 'package.json': JSON.stringify({ name: 'e', main: 'app.js', dependencies: { express: '^4.21.0' }, ...pkg }), 'app.js': `const express = require('express');\nconst app = express();\n${source}` });
  return await analyzeWithReadiness({ dir });
}

async function findingsOf(source: string, rule: string, pkg: object = {}): Promise<string[]> {
  return ((await rulesOn(source, pkg)).findings ?? []).filter((f) => f.rule === rule).map((f) => `${f.location.line}: ${f.message}`);
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
    // The guard's own use is reported too: it becomes a hook whose `request.user =` needs the decoration.
    expect((await findingsOf(src, 'api-usage')).filter((f) => f.includes('req.user'))).toEqual([
      "3: GET /me (in auth) uses req.user, which the app's own middleware sets (no passport in the app): it becomes a request decoration.",
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
    const inv = await analyzeWithReadiness({ dir });
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
  const inventoryOf = (source: string) => rulesOn(source, { dependencies: { express: '^4.21.0', pug: '^3' } });

  it('an API with no Fastify equivalent is a manual error that keeps the route on Express', async () => {
    const inv = await inventoryOf("app.get('/stream', (req, res) => { res.write('a'); res.end(); });\n");
    const write = inv.findings!.find((f) => f.rule === 'api-usage' && f.message.includes('res.write'))!;
    expect([write.severity, write.stage, write.autoFixable]).toEqual(['error', 'manual', false]);
    expect(inv.readiness!.routes.map((r) => [r.key, r.readiness])).toEqual([['GET /stream', 'manual']]);
    expect(inv.readiness!.causes.map((c) => [c.readiness, c.code, `${c.location.file}:${c.location.line}`, c.routes])).toEqual([['manual', 'route-handler-api', 'app.js:3', 1]]);
  });

  it('a route registered under a condition and one with a path known only at run time stay (manual), each with the routes stage reason', async () => {
    const inv = await inventoryOf("if (process.env.NODE_ENV === 'production') app.get('/debug', (req, res) => res.end());\napp.get(process.env.HEALTH, (req, res) => res.end());\n");
    expect(inv.readiness!.routes.map((r) => [r.key, r.readiness, r.blockers.map((b) => b.code)])).toEqual([['GET /debug', 'manual', ['route-unresolved', 'route-conditional']], ['GET <unresolved:process.env.HEALTH>', 'manual', ['route-unresolved', 'route-path-syntax']]]);
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
    const inv = await rulesOn("app.use(function envelope(req, res, next) {\n  const json = res.json;\n  res.json = function (body) { return json.call(res, { data: body }); };\n  next();\n});\napp.get('/', (req, res) => res.send('<p>hi</p>'));\napp.get('/api', (req, res) => res.json({ ok: true }));\n");
    expect(inv.readiness!.routes.map((r) => [r.key, r.readiness, r.blockers.map((b) => b.code)])).toEqual([
      ['GET /', 'auto', []],
      ['GET /api', 'manual', ['route-res-method-replaced']],
    ]);
  });

  it('a package the catalogue says replaces res.render (express-flash) is reported; in JavaScript the rendering route still moves (it renders through the replacement)', async () => {
    const src = "const flash = require('express-flash');\napp.set('view engine', 'pug');\napp.use(flash());\napp.get('/', (req, res) => res.render('home'));\napp.get('/api', (req, res) => res.json({ ok: true }));\n";
    const inv = await rulesOn(src, { dependencies: { express: '^4.21.0', 'express-flash': '0.0.2', pug: '^3' } });
    expect((inv.findings ?? []).filter((f) => f.rule === 'res-method-reassign').map((f) => `${f.location.line}: ${f.message}`)).toEqual(["5: flash [express-flash] replaces res.render on Express's response."]);
    expect(inv.readiness!.routes.map((r) => [r.key, r.blockers.map((b) => b.code)])).toEqual([
      ['GET /', []],
      ['GET /api', []],
    ]);
  });
});

describe('middleware-plugin speaks about the options the app passes', () => {
  it("names options Fastify lacks and translates the ones it has (express-session's resave, name)", async () => {
    const src = "const session = require('express-session');\napp.use(session({ secret: process.env.S, name: 'startercookie', resave: true, saveUninitialized: false }));\napp.get('/', (req, res) => res.end());\n";
    const inv = await rulesOn(src, { dependencies: { express: '^4.21.0', 'express-session': '^1' } });
    const [f] = (inv.findings ?? []).filter((x) => x.rule === 'middleware-plugin');
    expect(f.message).toBe('session [express-session] (app middleware at /) is replaced in the plugins stage. No Fastify option for `resave`: Not supported.');
    expect(f.fastify).toMatch(/Options here: secret → secret \(.*\); name → cookieName \(.*\); saveUninitialized → saveUninitialized \(True in both\.\); resave → none\.$/);
  });
});

describe('package middleware the app runs inside its own code', () => {
  it('multer built at module level and called from a handler is found, and keeps the route on Express (the handler hands req and res to it)', async () => {
    const src = "const multer = require('multer');\nconst upload = multer({ dest: 'uploads/' });\nconst uploadImage = upload.single('image');\napp.post('/upload', (req, res) => {\n  uploadImage(req, res, (err) => {\n    if (err) return res.status(400).send({ message: err.message });\n    res.send({ path: req.file.path });\n  });\n});\n";
    const inv = await rulesOn(src, { dependencies: { express: '^4.21.0', multer: '^2' } });
    const found = inv.findings!.filter((f) => f.rule === 'middleware-plugin');
    expect(found.map((f) => [f.message.split('. ')[0], `${f.location.file}:${f.location.line}`, f.autoFixable])).toEqual([['uploadImage [multer] (run by the code of POST /upload) is replaced in the plugins stage', 'app.js:7', false]]);
    expect(inv.readiness!.routes.map((r) => [r.readiness, r.blockers.map((b) => b.code)])).toEqual([['manual', ['route-handler-api']]]);
  });
});

describe('array-path', () => {
  it('an array of paths is flagged; a loop over paths and a router mounted twice are not', async () => {
    const src = [`app.get(['/about', '/about-us'], ${h});`, `for (const p of ['/a', '/b']) app.get(p, ${h});`, 'const r = express.Router();', `r.get('/x', ${h});`, "app.use('/v1', r);", "app.use('/v2', r);", ''].join('\n');
    expect(await findingsOf(src, 'array-path')).toEqual(['3: One registration serves 2 paths: /about, /about-us.']);
  });
});

describe('middleware-plugin caveats follow the member used', () => {
  it('lusca.xframe is a header, not CSRF; passport.initialize gets its own caveat (session plugin, request.user), not the login one', async () => {
    const src = "const lusca = require('lusca');\nconst passport = require('passport');\napp.use(lusca.xframe('SAMEORIGIN'));\napp.use(passport.initialize());\napp.get('/', (req, res) => res.end());\n";
    const found = await findingsOf(src, 'middleware-plugin', { dependencies: { express: '^4.21.0', lusca: '^1', passport: '^0.7' } });
    expect(found).toEqual([
      '5: lusca.xframe [lusca] (app middleware at /) is replaced in the plugins stage. Mind: A header only: @fastify/helmet `frameguard` sets `X-Frame-Options` the same way; nothing else changes.',
      '6: passport.initialize [passport] (app middleware at /) is replaced in the plugins stage. Mind: @fastify/passport needs a session plugin even for `session: false` strategies (it registers @fastify/flash): an API that only checks tokens is better served by @fastify/jwt or a preHandler that verifies the token. Decorates `request.user`; so does @fastify/jwt — one of them needs another decorator name.',
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

describe('middleware-plugin follows the app’s version of the package (installed, else declared)', () => {
  /** middleware-plugin findings (message and Fastify form) for `source`, with `installed` written as node_modules/<pkg>/package.json. */
  async function pluginFindings(source: string, dependencies: Record<string, string>, installed: Record<string, string> = {}): Promise<{ message: string; fastify: string }[]> {
    const modules = Object.fromEntries(Object.entries(installed).map(([name, version]) => [`node_modules/${name}/package.json`, JSON.stringify({ name, version })]));
    const dir = project({
      'package.json': JSON.stringify({ name: 'v', main: 'app.js', dependencies: { express: '^4.21.0', ...dependencies } }),
      'app.js': `const express = require('express');\nconst app = express();\n${source}app.get('/', (req, res) => res.end());\n`,
      ...modules,
    });
    return ((await analyzeWithReadiness({ dir })).findings ?? []).filter((f) => f.rule === 'middleware-plugin').map((f) => ({ message: f.message, fastify: f.fastify }));
  }
  const helmetApp = "const helmet = require('helmet');\napp.use(helmet());\n";
  const compressionApp = "const compression = require('compression');\napp.use(compression());\n";
  const GENERAL_HELMET = 'helmet [helmet] (app middleware at /) is replaced in the plugins stage. Mind: Header values are helmet 8’s defaults: an app pinned to an older helmet major sees different CSP, COOP and X-XSS-Protection values.';

  it('helmet 8 installed: no header caveat (@fastify/helmet runs helmet 8), the next caveat instead', async () => {
    const [f] = await pluginFindings(helmetApp, { helmet: '^8.1.0' }, { helmet: '8.3.0' });
    expect(f.message).toBe('helmet [helmet] (app middleware at /) is replaced in the plugins stage. Mind: Runs at onRequest, so 404s and errors carry the headers too.');
  });

  it('helmet 4 installed or declared: the helmet 4 → 8 differences, naming the version they were chosen for', async () => {
    const [installed] = await pluginFindings(helmetApp, { helmet: '^4.1.0' }, { helmet: '4.6.0' });
    expect(installed.message).toMatch(/^helmet \[helmet\] \(app middleware at \/\) is replaced in the plugins stage\. Mind \(helmet 4\.6\.0 installed\): @fastify\/helmet runs helmet 8, whose defaults are not helmet 4’s: the CSP gains `form-action 'self'`/);
    expect(installed.message).toContain('`Expect-CT: max-age=0` is gone and HSTS max-age goes from 15552000 to 31536000.');
    const [declared] = await pluginFindings(helmetApp, { helmet: '^4.1.0' });
    expect(declared.message).toContain("Mind (helmet ^4.1.0 declared): @fastify/helmet runs helmet 8, whose defaults are not helmet 4’s");
    // Installed wins over declared.
    const [stale] = await pluginFindings(helmetApp, { helmet: '^4.1.0' }, { helmet: '7.2.0' });
    expect(stale.message).toContain('Mind (helmet 7.2.0 installed): @fastify/helmet runs helmet 8: HSTS max-age goes from 15552000 to 31536000');
    const [three] = await pluginFindings(helmetApp, { helmet: '^3.9.0' }, { helmet: '3.23.3' });
    expect(three.message).toContain('helmet 3’s: a Content-Security-Policy appears');
    expect(three.message).toContain('`X-XSS-Protection` goes from `1; mode=block` to `0`');
  });

  it('helmet version unknown (not installed, a range across majors, or not declared): the general caveat, as before', async () => {
    expect((await pluginFindings(helmetApp, { helmet: '>=4' }))[0].message).toBe(GENERAL_HELMET);
    expect((await pluginFindings(helmetApp, { helmet: 'latest' }))[0].message).toBe(GENERAL_HELMET);
    expect((await pluginFindings(helmetApp, {}))[0].message).toBe(GENERAL_HELMET);
  });

  it('compression before 1.8 (gzip/deflate only): restrict encodings to gzip and deflate', async () => {
    const [f] = await pluginFindings(compressionApp, { compression: '^1.7.4' }, { compression: '1.7.4' });
    expect(f.message).toBe("compression [compression] (app middleware at /) is replaced in the plugins stage. Mind (compression 1.7.4 installed): compression before 1.8.0 sends gzip or deflate, never br; unrestricted, @fastify/compress prefers br (zstd first on Node 22.15+), so `Content-Encoding` would differ: the replacement restricts `encodings` to `['gzip', 'deflate']` (the verifier compares decoded bodies anyway).");
    expect(f.fastify).toContain("encodings: ['gzip', 'deflate'] })");
    // `~1.7.4` cannot reach 1.8: the declared range decides as well.
    expect((await pluginFindings(compressionApp, { compression: '~1.7.4' }))[0].fastify).toContain("encodings: ['gzip', 'deflate'] })");
  });

  it('compression 1.8+ (prefers br): keep br first, never restrict to gzip/deflate', async () => {
    const [f] = await pluginFindings(compressionApp, { compression: '^1.8.0' }, { compression: '1.8.2' });
    expect(f.message).toContain('Mind (compression 1.8.2 installed): compression 1.8+ prefers br, then gzip, like @fastify/compress: keep br first');
    expect(f.fastify).toContain("encodings: ['br', 'gzip', 'deflate'] })");
    expect(f.fastify).not.toContain("['gzip', 'deflate']");
    expect(`${f.message} ${f.fastify}`).not.toMatch(/restricts `encodings` to/);
  });

  it('compression ^1.7.4 not installed may be 1.7 or 1.8: the general caveat and replacement', async () => {
    const [f] = await pluginFindings(compressionApp, { compression: '^1.7.4' });
    expect(f.message).toMatch(/Mind: Unrestricted it prefers br .* compression 1\.8\+ prefers br as well, so there list `\['br', 'gzip', 'deflate'\]` instead/);
    expect(f.fastify).toBe("`fastify.register(fastifyCompress, { threshold, encodings: ['gzip', 'deflate'] })`, registered before static/view plugins.");
  });

  it('express-jwt before 7 keeps request.user; passport before 0.6 kept the session across login', async () => {
    const jwtApp = "const { expressjwt } = require('express-jwt');\napp.use(expressjwt({ secret: 's', algorithms: ['HS256'] }));\n";
    expect((await pluginFindings(jwtApp, { 'express-jwt': '^6.1.0' }, { 'express-jwt': '6.1.2' }))[0].fastify).toMatch(/^`fastify\.register\(fastifyJwt, \{ secret, verify: \{ algorithms \} \}\)`.*stays on `request\.user`/);
    expect((await pluginFindings(jwtApp, { 'express-jwt': '^8.4.1' }, { 'express-jwt': '8.4.1' }))[0].fastify).toContain("decoratorName: 'auth'");
    const passportApp = "const passport = require('passport');\napp.use(passport.session());\n";
    expect((await pluginFindings(passportApp, { passport: '^0.4.0' }, { passport: '0.4.1' }))[0].message).toContain('Mind (passport 0.4.1 installed): Login clears the session (`clearSessionOnLogin`, default true), where passport before 0.6 kept it');
    expect((await pluginFindings(passportApp, { passport: '^0.7.0' }, { passport: '0.7.0' }))[0].message).toContain('Mind: Same secure-cookie trap as sessions');
    expect((await pluginFindings(passportApp, {}))[0].message).toContain('Mind: The session is cleared on login by default (`clearSessionOnLogin`).');
  });

  it('compression 1.8 option enforceEncoding has no @fastify/compress counterpart', async () => {
    const [f] = await pluginFindings("const compression = require('compression');\napp.use(compression({ enforceEncoding: 'gzip' }));\n", { compression: '^1.8.0' }, { compression: '1.8.2' });
    expect(f.message).toContain('No Fastify option for `enforceEncoding`: compression 1.8+ compresses the answers to requests without Accept-Encoding');
  });
});

describe('error-handler-chain', () => {
  it('handlers under if/else are alternatives, and one that never calls next ends a chain', async () => {
    const src = [
      `app.get('/', ${h});`,
      "if (process.env.NODE_ENV === 'development') app.use(function devErrors(err, req, res, next) { next(err); });",
      'else app.use(function prodErrors(err, req, res, next) { res.status(500).end(); });',
      'app.use(function converter(err, req, res, next) { res.status(500).end(); });',
      'app.use(function unreached(err, req, res, next) { res.status(500).end(); });',
      '',
    ].join('\n');
    expect(await findingsOf(src, 'error-handler-chain')).toEqual([]);
  });
});

describe('duplicate-route: plugin routes follow the mount path', () => {
  it("cors mounted at /api takes OPTIONS /api/*, so a root app.options('*') does not clash", async () => {
    const src = ["const cors = require('cors');", "app.use('/api', cors());", "app.options('*', (req, res) => res.end());", `app.options('/api/*', ${h});`, ''].join('\n');
    expect(await findingsOf(src, 'duplicate-route', { dependencies: { express: '^4.21.0', cors: '^2' } })).toEqual([
      '6: OPTIONS /api/* takes `OPTIONS /api/*`, which @fastify/cors registers itself (replacing cors at app.js:4); Fastify refuses the second route at boot.',
    ]);
  });
});

describe('middleware-plugin: @fastify/static registered twice', () => {
  it('the second static mount of an app is told to set decorateReply: false', async () => {
    const src = "app.use(express.static('public'));\napp.use('/uploads', express.static('uploads'));\napp.get('/', (req, res) => res.end());\n";
    const found = await findingsOf(src, 'middleware-plugin');
    expect(found.map((f) => f.split(':')[0])).toEqual(['3', '4']);
    const inv = await rulesOn(src, { dependencies: { express: '^4.21.0' } });
    const fastify = (inv.findings ?? []).filter((f) => f.rule === 'middleware-plugin').map((f) => f.fastify.endsWith('this one needs `decorateReply: false`.'));
    expect(fastify).toEqual([false, true]);
  });
});

describe('body parser caveats lead with what clients notice', () => {
  it('express.json: the empty JSON body 400; express.urlencoded: the 415 for other content types', async () => {
    const found = await findingsOf("app.use(express.json());\napp.use(express.urlencoded({ extended: false }));\napp.delete('/x/:id', (req, res) => res.status(204).end());\n", 'middleware-plugin');
    expect(found.map((f) => /Mind: (.{0,40})/.exec(f)?.[1])).toEqual(['Empty body with `Content-Type: applicati', 'A body of an unparsed content type: Expr']);
  });
});

describe('a rate limiter shared by routes', () => {
  it('keeps one counter on Fastify through one fastify.rateLimit() hook', async () => {
    const src = "const rateLimit = require('express-rate-limit');\nconst loginLimiter = rateLimit({ windowMs: 60000, limit: 5 });\napp.post('/login', loginLimiter, (req, res) => res.end());\napp.post('/signup', loginLimiter, (req, res) => res.end());\n";
    const inv = await rulesOn(src, { dependencies: { express: '^4.21.0', 'express-rate-limit': '^7' } });
    const forms = (inv.findings ?? []).filter((f) => f.rule === 'middleware-plugin').map((f) => f.fastify);
    expect(forms).toHaveLength(2);
    for (const f of forms) expect(f).toContain('loginLimiter is shared by 2 routes: one `const limiter = fastify.rateLimit(options)` as their onRequest hook keeps one counter');
  });
});

describe('app-settings and api-usage speak about the app', () => {
  it("the view engine's Fastify form names the app's engine and views folder, once for both settings", async () => {
    const src = "const path = require('path');\napp.set('views', path.join(__dirname, 'templates'));\napp.set('view engine', 'pug');\napp.get('/', (req, res) => res.render('home'));\n";
    const inv = await rulesOn(src, { dependencies: { express: '^4.21.0', pug: '^3' } });
    const views = (inv.findings ?? []).filter((f) => f.rule === 'app-settings').map((f) => f.fastify);
    expect(views).toEqual(["fastify.register(fastifyView, { engine: { pug: require('pug') }, root: 'templates', viewExt: 'pug' })"]);
  });

  it('req.file is not "set by the app\'s own middleware" when a handler runs multer itself', async () => {
    const src = "const multer = require('multer');\nconst upload = multer({ dest: 'uploads/' }).single('image');\napp.post('/upload', (req, res) => upload(req, res, () => res.send({ path: req.file.path })));\n";
    const found = await findingsOf(src, 'api-usage', { dependencies: { express: '^4.21.0', multer: '^2' } });
    expect(found.filter((f) => f.includes('req.file'))).not.toContainEqual(expect.stringContaining("app's own middleware"));
  });
});

describe('default-pages', () => {
  it('an error handler registered only in development leaves the default error page in production', async () => {
    const src = "const errorhandler = require('errorhandler');\napp.get('/', (req, res) => res.end());\nif (process.env.NODE_ENV === 'development') app.use(errorhandler());\napp.use((req, res) => res.status(404).end());\n";
    const found = await findingsOf(src, 'default-pages', { dependencies: { express: '^4.21.0', errorhandler: '^1' } });
    expect(found.map((f) => f.split('. Express:')[0])).toEqual(["2: app has no error handler outside if (process.env.NODE_ENV === 'development')"]);
  });
});

describe('review 3 follow-ups', () => {
  it('error handlers in both branches of one if leave no default error page', async () => {
    const src = "app.get('/', (req, res) => res.end());\nif (process.env.NODE_ENV === 'development') app.use(function dev(err, req, res, next) { res.status(500).send(err.stack); });\nelse app.use(function prod(err, req, res, next) { res.status(500).end(); });\napp.use((req, res) => res.status(404).end());\n";
    expect(await findingsOf(src, 'default-pages')).toEqual([]);
  });

  it('passport in a token-only app is a decision, not a mechanical replacement', async () => {
    const src = "const passport = require('passport');\napp.use(passport.initialize());\napp.get('/me', passport.authenticate('jwt', { session: false }), (req, res) => res.json(req.user));\n";
    const inv = await rulesOn(src, { dependencies: { express: '^4.21.0', passport: '^0.7' } });
    const found = inv.findings!.filter((f) => f.rule === 'middleware-plugin');
    expect(found.map((f) => [f.autoFixable, f.fastify.slice(0, 60)])).toEqual([
      [false, 'Token-only here (no passport.session()): @fastify/jwt, or a '],
      [false, 'Token-only here (no passport.session()): @fastify/jwt, or a '],
    ]);
    // passport.authenticate runs unchanged on Express's request and response behind a moved route
    // (catalogue worksOnExpress): the route moves in the routes stage, the decision waits for the plugins stage.
    expect(inv.readiness!.routes.map((r) => [r.readiness, r.stage])).toEqual([['assisted', 'routes']]);
  });

  it("the SPA fallback next to a static mount sends index.html from that mount's root", async () => {
    const src = "app.use(express.static('uploads'));\napp.use(express.static('frontend/build'));\napp.get('*', (req, res) => res.sendFile('index.html', { root: 'frontend/build' }));\n";
    const inv = await rulesOn(src, { dependencies: { express: '^4.21.0' } });
    const forms = (inv.findings ?? []).filter((f) => f.rule === 'duplicate-route').map((f) => f.fastify);
    expect(forms).toEqual([
      "Serve the fallback from `fastify.setNotFoundHandler` (`reply.sendFile('index.html', 'uploads')`), or register @fastify/static with `wildcard: false`.",
      "Serve the fallback from `fastify.setNotFoundHandler` (`reply.sendFile('index.html', 'frontend/build')`), or register @fastify/static with `wildcard: false`.",
    ]);
  });
});

describe('express4-path-syntax: a final wildcard', () => {
  it('is reported only when the handler reads the params', async () => {
    const src = "app.get('/files/*', (req, res) => res.send(req.params[0]));\napp.get('/assets/*', (req, res) => res.status(404).end());\n";
    expect(await findingsOf(src, 'express4-path-syntax')).toEqual(["3: GET /files/* uses Express 4 path syntax that find-my-way reads otherwise: the wildcard's value moves from params[0] to params['*']."]);
  });
});

describe('api-usage in a route guard', () => {
  it("reports the request/reply uses of the route's own middleware, not its next() calls", async () => {
    const src = "function protect(req, res, next) {\n  if (!req.cookies.jwt) return res.status(401).send('Not authorized');\n  next();\n}\napp.get('/orders', protect, (req, res) => res.json([]));\n";
    const found = (await findingsOf(src, 'api-usage')).filter((f) => f.includes('(in protect)'));
    expect(found.map((f) => f.replace(/^(\d+: .*? uses \S+?)[:,].*$/, '$1'))).toEqual(['4: GET /orders (in protect) uses req.cookies', '4: GET /orders (in protect) uses res.send']);
  });
});

describe('multer built inside the route code', () => {
  it('is found when the middleware creates it and runs it itself', async () => {
    const src = "const multer = require('multer');\nfunction uploadAvatar(req, res, next) {\n  const upload = multer({ dest: 'uploads/' });\n  upload.single('avatar')(req, res, (err) => (err ? next(err) : next()));\n}\napp.post('/avatar', uploadAvatar, (req, res) => res.send({ name: req.file.originalname }));\n";
    const found = await findingsOf(src, 'middleware-plugin', { dependencies: { express: '^4.21.0', multer: '^2' } });
    expect(found.map((f) => f.split(' is replaced')[0])).toEqual(['6: upload.single [multer] (run by the code of POST /avatar)']);
  });
});

describe('finding notes', () => {
  it('carry the other caveats that apply, beyond the one the message names', async () => {
    const inv = await rulesOn("app.use(express.json());\napp.post('/x', (req, res) => res.json(req.body));\n");
    const [json] = (inv.findings ?? []).filter((f) => f.rule === 'middleware-plugin');
    expect(json.message).toContain('Mind: Empty body with `Content-Type: application/json`');
    expect(json.notes?.map((n) => n.slice(0, 34))).toEqual(expect.arrayContaining(['A body of an unparsed content type', 'Never leave body-parser/express bo']));
  });
});
