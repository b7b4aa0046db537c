/**
 * The data catalogues (rules/catalogue/): middleware → plugin, API → Fastify form, versions.
 * Shapes are checked for every entry; values are checked against express-fastify-mapping.md
 * for a sample of rows (the safety column, §3 replacements) and against the registry check
 * recorded in versions.ts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { API, apiFor, type ApiEntry } from '../../rules/catalogue/api.js';
import { handlerWrapperOf, MIDDLEWARE, middlewareFor, runsThroughAdapter, type MiddlewareEntry } from '../../rules/catalogue/middleware.js';
import { VERSIONS, isVersioned, versionOf } from '../../rules/catalogue/versions.js';

const STAGES = ['shim', 'errors', 'routes', 'plugins', 'schemas', 'unshim', 'manual'];
const SAFETY = ['safe', 'needs-care', 'no-equivalent'];
const middleware = Object.entries(MIDDLEWARE as Record<string, MiddlewareEntry>);
const apis = Object.entries(API as Record<string, ApiEntry>);

describe('middleware catalogue', () => {
  it('has every package of mapping §3 and the brief (at least 30 packages)', () => {
    const expected = [
      'body-parser', 'express.json', 'express.urlencoded', 'express.text', 'express.raw', 'express.static',
      'cors', 'helmet', 'compression', 'cookie-parser', 'express-session', 'cookie-session', 'connect-flash',
      'morgan', 'multer', 'express-rate-limit', 'passport', 'csurf', 'serve-favicon', 'serve-static',
      'method-override', 'express-validator', 'celebrate', 'express-joi-validation', 'express-jwt',
      'express-async-errors', 'express-async-handler', 'express-async-wrap', 'express-promise-wrap', 'async-handler', '@awaitjs/express', 'co', 'http-errors', 'response-time', 'express-fileupload',
      'connect-timeout', 'hpp', 'express-mongo-sanitize', 'errorhandler', 'pug', 'ejs', 'hbs',
      'express-handlebars', 'nunjucks', 'express-json-validator-middleware', 'connect-redis', 'connect-mongo', 'xss-clean', 'lusca',
      'express-validation', 'express-flash', 'view-helpers', 'pino-http', 'swagger-ui-express',
    ];
    expect(Object.keys(MIDDLEWARE).sort()).toEqual([...expected].sort());
    const packages = Object.keys(MIDDLEWARE).filter((k) => !k.startsWith('express.'));
    expect(packages.length).toBeGreaterThanOrEqual(30);
  });

  it.each(middleware)('%s has the required fields, consistent with its kind', (key, e) => {
    expect(e.package).toBe(key);
    expect(e.fastify).not.toBe('');
    expect(['plugin', 'core', 'hook', 'remove', 'none']).toContain(e.kind);
    expect(e.replacement.length).toBeGreaterThan(10);
    expect(Array.isArray(e.options)).toBe(true);
    for (const o of e.options) {
      expect(o.express).not.toBe('');
      expect(o.fastify === null || o.fastify.length > 0).toBe(true);
    }
    expect(e.caveats.length).toBeGreaterThan(0);
    expect(STAGES).toContain(e.stage);
    expect(SAFETY).toContain(e.safety);
    expect(e.source).not.toBe('');
    if (e.kind === 'plugin') expect(isVersioned(e.fastify)).toBe(true);
    if (e.kind === 'core' || e.kind === 'hook' || e.kind === 'remove') expect(e.fastify).toBe('core');
    // `none` is the no-equivalent corner: nothing replaces it and no stage does it.
    expect(e.kind === 'none').toBe(e.fastify === 'none');
    expect(e.kind === 'none').toBe(e.safety === 'no-equivalent');
    expect(e.safety === 'no-equivalent').toBe(e.stage === 'manual');
  });

  it('names only packages that are in the versions table', () => {
    const named = middleware.flatMap(([, e]) => [
      ...(e.fastify === 'core' || e.fastify === 'none' ? [] : [e.fastify]),
      ...(e.requires ?? []).map((r) => r.package),
    ]);
    expect(named.filter((p) => !isVersioned(p))).toEqual([]);
    expect(new Set(named)).toContain('@fastify/static');
  });

  it('puts body parsers in plugins (the shim keeps them: docs/stages/shim.md "Bodies"), validators in schemas, error helpers in errors, express-async-errors in unshim, most in plugins', () => {
    for (const k of ['body-parser', 'express.json', 'express.urlencoded', 'express.text', 'express.raw']) expect(MIDDLEWARE[k as keyof typeof MIDDLEWARE].stage).toBe('plugins');
    for (const k of ['express-validator', 'celebrate', 'express-joi-validation', 'express-json-validator-middleware']) expect(MIDDLEWARE[k as keyof typeof MIDDLEWARE].stage).toBe('schemas');
    for (const k of ['http-errors', 'errorhandler']) expect(MIDDLEWARE[k as keyof typeof MIDDLEWARE].stage).toBe('errors');
    // The errors stage leaves it: it carries rejections of the routes still on Express to the error handler (docs/stages/errors.md).
    expect(MIDDLEWARE['express-async-errors'].stage).toBe('unshim');
    expect(middleware.filter(([, e]) => e.stage === 'plugins').length).toBeGreaterThan(middleware.length / 2);
  });

  it('carries the §3 replacements and option translations by value', () => {
    expect(MIDDLEWARE.cors).toMatchObject({ fastify: '@fastify/cors', kind: 'plugin', stage: 'plugins', safety: 'needs-care' });
    expect(MIDDLEWARE.cors.options).toContainEqual(expect.objectContaining({ express: 'methods', fastify: 'methods' }));
    expect(MIDDLEWARE['express-session'].requires).toEqual([{ package: '@fastify/cookie' }]);
    expect(MIDDLEWARE['express-session'].options).toContainEqual(expect.objectContaining({ express: 'name', fastify: 'cookieName' }));
    expect(MIDDLEWARE['express-session'].options).toContainEqual(expect.objectContaining({ express: 'resave', fastify: null }));
    expect(MIDDLEWARE['express-session'].caveats.join(' ')).toMatch(/secure.*plain HTTP/);
    expect(MIDDLEWARE['express.urlencoded']).toMatchObject({ fastify: '@fastify/formbody', requires: [{ package: 'qs', when: 'extended: true (Express 4 default)' }] });
    expect(MIDDLEWARE['express.json'].options).toContainEqual(expect.objectContaining({ express: 'limit', fastify: 'bodyLimit' }));
    expect(MIDDLEWARE['express.static'].caveats.join(' ')).toMatch(/dotfiles/);
    expect(MIDDLEWARE['express-rate-limit'].options).toContainEqual(expect.objectContaining({ express: 'windowMs', fastify: 'timeWindow' }));
    expect(MIDDLEWARE.multer.caveats.join(' ')).toMatch(/bodyLimit/);
    expect(MIDDLEWARE['method-override']).toMatchObject({ fastify: 'none', kind: 'none', stage: 'manual', safety: 'no-equivalent' });
    expect(MIDDLEWARE['express-async-errors']).toMatchObject({ kind: 'remove', safety: 'safe' });
    expect(MIDDLEWARE.morgan).toMatchObject({ fastify: 'core', kind: 'core', safety: 'safe' });
    expect(MIDDLEWARE.csurf.caveats.join(' ')).toMatch(/query\._csrf/);
    for (const k of ['pug', 'ejs', 'hbs', 'express-handlebars', 'nunjucks']) expect(MIDDLEWARE[k as keyof typeof MIDDLEWARE].fastify).toBe('@fastify/view');
  });

  it('is the one table of handler wrappers: each read from its source, only the forwarding ones unwrapped, co kept around generators', () => {
    const wrappers = Object.fromEntries(middleware.flatMap(([k, e]) => (e.handlerWrapper ? [[k, 'forwards' in e.handlerWrapper ? e.handlerWrapper.forwards : 'runs' in e.handlerWrapper ? e.handlerWrapper.runs : 'other']] : [])));
    expect(wrappers).toEqual({ 'express-async-handler': 'always', 'express-async-wrap': 'promise', 'express-promise-wrap': 'promise', 'async-handler': 'other', '@awaitjs/express': 'other', co: 'generator' });
    for (const [, e] of middleware) if (e.handlerWrapper) expect(e.handlerWrapper.source).toMatch(/\d+\.\d+\.\d+/);
    expect(handlerWrapperOf('express-async-handler', [])).toMatchObject({ forwards: 'always' });
    expect(handlerWrapperOf('co', ['wrap'])).toMatchObject({ runs: 'generator' });
    // Only the member that wraps: `co(fn)` runs a generator at once, it makes no handler.
    expect(handlerWrapperOf('co', [])).toBeUndefined();
    expect(handlerWrapperOf('express-promise-wrap', [])).toBeUndefined();
    expect(handlerWrapperOf('cors', [])).toBeUndefined();
  });

  describe('what a moved route may keep running on Express (routes stage)', () => {
    it('runs validators and the packages that work on Express’s request and response through the adapter, and no other', () => {
      const through = middleware.filter(([, e]) => runsThroughAdapter(e)).map(([k]) => k).sort();
      expect(through).toEqual(['celebrate', 'express-joi-validation', 'express-json-validator-middleware', 'express-jwt', 'express-rate-limit', 'express-validation', 'express-validator', 'lusca', 'multer', 'passport']);
      expect(MIDDLEWARE.multer.worksOnExpress).toBe('body-stream');
      for (const k of ['passport', 'express-rate-limit', 'lusca'] as const) expect(MIDDLEWARE[k].worksOnExpress).toBe('request-and-response');
      // Body parsers read the stream Fastify's moved routes leave to Express in the bridge; as route middleware they are not known to be safe.
      expect(runsThroughAdapter(MIDDLEWARE['express.json'])).toBe(false);
      expect(runsThroughAdapter(middlewareFor('compression'))).toBe(false);
      expect(runsThroughAdapter(undefined)).toBe(false);
      expect(middleware.filter(([, e]) => e.readsRequestPath).map(([k]) => k)).toEqual(['lusca']);
    });

    it('names the app middleware that replaces req.query, and keeps only xss-clean’s no-equivalent finding off the moved routes', () => {
      expect(middleware.filter(([, e]) => e.replacesRequestQuery).map(([k]) => k).sort()).toEqual(['express-mongo-sanitize', 'hpp', 'xss-clean']);
      expect(middleware.filter(([, e]) => e.keptInBridge).map(([k]) => k)).toEqual(['xss-clean']);
      // method-override re-routes in the bridge, after Fastify routed: its finding keeps holding routes back.
      expect((MIDDLEWARE['method-override'] as MiddlewareEntry).keptInBridge).toBeUndefined();
    });

    it('catalogues the app middleware the trial apps run in the bridge (view-helpers, pino-http, swagger-ui-express) for the plugins stage', () => {
      expect(MIDDLEWARE['view-helpers']).toMatchObject({ fastify: 'core', kind: 'hook', stage: 'plugins', safety: 'needs-care', replacesResponseMethods: ['res.render'] });
      expect(MIDDLEWARE['pino-http']).toMatchObject({ fastify: 'core', kind: 'core', stage: 'plugins', safety: 'safe' });
      expect(MIDDLEWARE['swagger-ui-express']).toMatchObject({ fastify: '@fastify/swagger-ui', kind: 'plugin', requires: [{ package: '@fastify/swagger' }], stage: 'plugins' });
      expect(middlewareFor('swaggerUi.serve [swagger-ui-express]')?.package).toBe('swagger-ui-express');
      expect(middlewareFor('httpLogger', 'pino-http')?.package).toBe('pino-http');
    });
  });

  describe('middlewareFor', () => {
    it('finds packages and Express built-ins by key', () => {
      expect(middlewareFor('cors')?.package).toBe('cors');
      expect(middlewareFor('express.json')?.package).toBe('express.json');
      expect(middlewareFor('  helmet ')?.package).toBe('helmet');
    });

    it('maps members and deep imports to their package', () => {
      expect(middlewareFor('passport.authenticate')?.package).toBe('passport');
      expect(middlewareFor('passport.initialize [passport]')?.package).toBe('passport');
      expect(middlewareFor('upload.single [multer]')?.package).toBe('multer');
      expect(middlewareFor('body.isEmail.normalizeEmail [express-validator]')?.package).toBe('express-validator');
      expect(middlewareFor('authLimiter', 'express-rate-limit')?.package).toBe('express-rate-limit');
      expect(middlewareFor('express-validator/check')?.package).toBe('express-validator');
      expect(middlewareFor('check', 'express-validator/check')?.package).toBe('express-validator');
      expect(middlewareFor('errors [celebrate]')?.package).toBe('celebrate');
    });

    it("maps body-parser's parsers to the express.* entries, by package, never by local name", () => {
      expect(middlewareFor('bodyParser.json [body-parser]')?.package).toBe('express.json');
      expect(middlewareFor('bp.urlencoded', 'body-parser')?.package).toBe('express.urlencoded');
      expect(middlewareFor('body-parser.text')?.package).toBe('express.text');
      expect(middlewareFor('bodyParser [body-parser]')?.package).toBe('body-parser');
      expect(middlewareFor('body-parser')?.package).toBe('body-parser');
      expect(middlewareFor('json [express]')?.package).toBe('express.json');
      expect(middlewareFor('express.static [express]')?.package).toBe('express.static');
      expect(middlewareFor('bodyParser.json')).toBeUndefined();
      expect(middlewareFor('cookieParser')).toBeUndefined();
    });

    it('returns undefined for local code, unknown packages and Express itself', () => {
      expect(middlewareFor('requireAuth')).toBeUndefined();
      expect(middlewareFor('Sentry.Handlers.errorHandler [@sentry/node]')).toBeUndefined();
      expect(middlewareFor('express.Router')).toBeUndefined();
      expect(middlewareFor('express [express]')).toBeUndefined();
      expect(middlewareFor('toString')).toBeUndefined();
      expect(middlewareFor('constructor')).toBeUndefined();
    });
  });
});

describe('API catalogue', () => {
  it.each(apis)('%s has the required fields', (key, e) => {
    expect(e.api).toBe(key);
    expect(e.fastify).not.toBe('');
    expect(SAFETY).toContain(e.safety);
    expect(STAGES).toContain(e.stage);
    expect(e.source).toMatch(/^§\d/);
    if (e.safety === 'safe') expect(e.difference).toBe('');
    else expect(e.difference.length).toBeGreaterThan(20);
    expect(e.safety === 'no-equivalent').toBe(e.stage === 'manual');
    for (const p of e.requires ?? []) expect(isVersioned(p), p).toBe(true);
  });

  it('has aliases that are unique and never shadow a key', () => {
    const aliases = apis.flatMap(([, e]) => e.aliases ?? []);
    expect(new Set(aliases).size).toBe(aliases.length);
    expect(aliases.filter((a) => Object.hasOwn(API, a))).toEqual([]);
  });

  it('covers every row of mapping §1.1–§1.4 and the APIs the brief names', () => {
    const rows = [
      // §1.1
      'app.get', 'app.post', 'app.put', 'app.patch', 'app.delete', 'app.METHOD(path, mw, handler)', 'app.all', 'app.head',
      'app.options', 'app.use', 'app.use(path, fn)', 'app.use(path, router)', 'app.route', 'app.param',
      "app.set('trust proxy')", "app.set('case sensitive routing')", "app.set('strict routing')", "app.set('query parser')",
      "app.set('json spaces')", "app.set('json replacer')", "app.set('json escape')", "app.set('etag')",
      "app.set('x-powered-by')", "app.disable('x-powered-by')", "app.set('view engine')", "app.set('views')", 'app.engine',
      'app.locals', 'app.listen', 'app.disable', 'app.enable', "app.get('env')",
      // §1.2
      'express.Router', 'router.mergeParams', 'router.strict', 'router.caseSensitive', 'router.use', 'router.param',
      // §1.3
      'req.body', 'req.params', 'req.query', 'req.cookies', 'req.signedCookies', 'req.ip', 'req.ips', 'req.hostname',
      'req.host', 'req.protocol', 'req.secure', 'req.path', 'req.originalUrl', 'req.baseUrl', 'req.url', 'req.get',
      'req.header', 'req.is', 'req.accepts', 'req.acceptsCharsets', 'req.acceptsEncodings', 'req.acceptsLanguages',
      'req.xhr', 'req.fresh', 'req.stale', 'req.range', 'req.route', 'req.app', 'req.res', 'req.param', 'req.subdomains',
      // §1.4
      'res.status', 'res.send', 'res.send(string)', 'res.send(object)', 'res.send(null)', 'res.send(undefined)',
      'res.send(number)', 'res.send(buffer)', 'res.send(body, status)', 'res.json', 'res.jsonp', 'res.sendStatus',
      'res.set', 'res.header', 'res.get', 'res.type', 'res.contentType', 'res.redirect', 'res.location', 'res.render',
      'res.sendFile', 'res.download', 'res.attachment', 'res.cookie', 'res.clearCookie', 'res.locals', 'res.append',
      'res.vary', 'res.links', 'res.format', 'res.end', 'res.headersSent', 'res.send (in a hook)',
      // brief extras
      'next', 'next()', 'next(err)', "next('route')", "next('router')", 'req.session', 'req.user', 'req.file', 'req.files',
    ];
    expect(rows.filter((r) => !apiFor(r))).toEqual([]);
    expect(apis.length).toBeGreaterThanOrEqual(100);
  });

  it('rates a sample of rows as the mapping does (Y safe, P needs-care, N no-equivalent)', () => {
    const sample: Array<[string, ApiEntry['safety']]> = [
      ['res.send', 'needs-care'],
      ['res.send(string)', 'needs-care'],
      ['res.send(object)', 'safe'],
      ['res.send(null)', 'needs-care'],
      ['res.send(undefined)', 'safe'],
      ['res.send(number)', 'needs-care'],
      ['res.jsonp', 'no-equivalent'],
      ['res.json', 'needs-care'],
      ['res.sendStatus', 'safe'],
      ['res.status', 'needs-care'],
      ['res.redirect', 'needs-care'],
      ['res.cookie', 'needs-care'],
      ['res.clearCookie', 'needs-care'],
      ['res.attachment', 'safe'],
      ['res.location', 'safe'],
      ['res.get', 'safe'],
      ['res.vary', 'safe'],
      ['res.links', 'safe'],
      ['res.end', 'needs-care'],
      ['res.format', 'needs-care'],
      ['res.locals', 'needs-care'],
      // The mapping rates Fastify's own request.ips N (another order, undefined without trustProxy); the
      // catalogue rates the form the routes stage writes, Express's own getter on request.raw after the
      // bridge, like req.ip: exact while the bridge runs, a computation of its own at unshim.
      ['req.ips', 'needs-care'],
      ['req.path', 'no-equivalent'],
      ['req.url', 'no-equivalent'],
      ['req.baseUrl', 'no-equivalent'],
      ['req.secure', 'safe'],
      ['req.xhr', 'safe'],
      ['req.is', 'safe'],
      ['req.range', 'safe'],
      ['req.originalUrl', 'safe'],
      ['req.query', 'needs-care'],
      ['req.body', 'needs-care'],
      ['req.params', 'needs-care'],
      ['req.hostname', 'needs-care'],
      ['req.accepts', 'needs-care'],
      ['app.route', 'safe'],
      ['app.options', 'safe'],
      ['app.param', 'needs-care'], // the mapping's N (no mechanical equivalent in Fastify's API) — but a preValidation hook per route reproduces it; the param-callback rule and the routes stage do that
      ['router.param', 'needs-care'], // as app.param
      ['app.get(setting)', 'no-equivalent'],
      ["app.set('query parser')", 'safe'],
      ["app.disable('x-powered-by')", 'safe'],
      ["app.set('trust proxy')", 'needs-care'],
      ['app.listen', 'needs-care'],
      ['app.use', 'needs-care'],
      ["next('route')", 'no-equivalent'],
    ];
    expect(sample.map(([api]) => [api, apiFor(api)?.safety])).toEqual(sample);
  });

  it('states the exact differences for key rows', () => {
    expect(apiFor('res.send')?.difference).toMatch(/text\/plain; charset=utf-8 where Express sent text\/html/);
    expect(apiFor('res.send(string)')?.fastify).toBe("reply.type('text/html; charset=utf-8').send(s)");
    expect(apiFor('res.cookie')?.difference).toMatch(/SameSite=Lax/);
    expect(apiFor('res.cookie')?.requires).toEqual(['@fastify/cookie']);
    expect(apiFor('res.redirect')?.difference).toMatch(/302 in Express but 301 in Fastify/);
    expect(apiFor('res.render')?.requires).toEqual(['@fastify/view']);
    expect(apiFor('res.status')?.difference).toMatch(/FST_ERR_BAD_STATUS_CODE/);
    expect(apiFor('req.params')?.difference).toMatch(/params\['\*'\]/);
    expect(apiFor('res.jsonp')?.stage).toBe('manual');
    expect(apiFor("app.set('trust proxy')")?.stage).toBe('shim');
    expect(apiFor('app.use(errorHandler)')?.fastify).toMatch(/^fastify\.setErrorHandler/);
  });

  describe('apiFor', () => {
    it('resolves aliases to their row', () => {
      expect(apiFor('req.header')).toBe(API['req.get']);
      expect(apiFor('res.header')).toBe(API['res.set']);
      expect(apiFor('res.contentType')).toBe(API['res.type']);
      expect(apiFor('app.post')).toBe(API['app.METHOD']);
      expect(apiFor('router.get')).toBe(API['router.METHOD']);
      expect(apiFor("app.set('views')")).toBe(API["app.set('view engine')"]);
    });

    it('normalises quotes, request/response prefixes, calls and property paths', () => {
      expect(apiFor('app.set("trust proxy")')).toBe(API["app.set('trust proxy')"]);
      expect(apiFor("app.set('trust proxy', 'loopback')")).toBe(API["app.set('trust proxy')"]);
      expect(apiFor("app.enable('strict routing')")).toBe(API["app.set('strict routing')"]);
      expect(apiFor("app.set('my setting', 1)")).toBe(API['app.set']);
      expect(apiFor("app.get('env')")).toBe(API['app.get(setting)']);
      expect(apiFor("app.get('/users', list)")).toBe(API['app.METHOD']);
      expect(apiFor('request.params')).toBe(API['req.params']);
      expect(apiFor('res.json()')).toBe(API['res.json']);
      expect(apiFor('next()')).toBe(API['next()']);
      expect(apiFor('next(err)')).toBe(API['next(err)']);
      expect(apiFor('req.body.email')).toBe(API['req.body']);
      expect(apiFor('res.locals.user')).toBe(API['res.locals']);
      expect(apiFor('req.session.destroy')).toBe(API['req.session']);
    });

    it('returns undefined for what it does not know', () => {
      expect(apiFor('res.teapot')).toBeUndefined();
      expect(apiFor('err.status')).toBeUndefined();
      expect(apiFor('toString')).toBeUndefined();
      expect(apiFor('req.constructor')).toBeUndefined();
    });
  });
});

describe('versions table', () => {
  const brief = [
    'fastify', '@fastify/express', '@fastify/static', '@fastify/view', '@fastify/cors', '@fastify/helmet', '@fastify/compress',
    '@fastify/cookie', '@fastify/session', '@fastify/secure-session', '@fastify/flash', '@fastify/multipart',
    '@fastify/rate-limit', '@fastify/passport', '@fastify/csrf-protection', '@fastify/formbody', '@fastify/etag',
    '@fastify/jwt', '@fastify/sensible', '@fastify/under-pressure', '@fastify/middie', 'fastify-plugin',
  ];

  it('lists every package the brief names, with caret ranges and a check date', () => {
    expect(brief.filter((p) => !isVersioned(p))).toEqual([]);
    for (const [key, v] of Object.entries(VERSIONS)) {
      expect(v.package).toBe(key);
      expect(v.range).toMatch(/^\^\d+\.\d+\.\d+$/);
      expect(v.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isNaN(Date.parse(v.checked))).toBe(false);
    }
    expect(isVersioned('point-of-view')).toBe(false);
  });

  it('writes Fastify 5 and the plugin majors that declare fastify 5.x', () => {
    expect(versionOf('fastify').startsWith('^5.')).toBe(true);
    expect(versionOf('@fastify/express')).toBe('^4.0.7');
    expect(versionOf('@fastify/cookie')).toBe('^11.1.5');
    expect(versionOf('@fastify/session')).toBe('^11.1.3');
    expect(versionOf('@fastify/static')).toBe('^10.1.11');
    expect(versionOf('@fastify/view')).toBe('^12.0.0');
    expect(versionOf('@fastify/formbody')).toBe('^9.0.1');
    expect(versionOf('fastify-plugin')).toBe('^6.0.1');
    // Node 20: helper majors whose newest release declares node >=22 are held back.
    expect(versionOf('encodeurl')).toBe('^2.0.3');
    expect(versionOf('range-parser')).toBe('^1.3.0');
    expect(versionOf('etag')).toBe('^1.8.1');
  });

  it('is satisfied by the fastify this repository tests with', () => {
    const require = createRequire(import.meta.url);
    const installed = (JSON.parse(readFileSync(require.resolve('fastify/package.json'), 'utf8')) as { version: string }).version;
    const [maj, min, pat] = installed.split('.').map(Number);
    const [fMaj, fMin, fPat] = versionOf('fastify').slice(1).split('.').map(Number);
    expect(maj).toBe(fMaj);
    expect(min * 1e6 + pat >= fMin * 1e6 + fPat).toBe(true);
  });

  it('throws for a package that is not listed', () => {
    expect(() => versionOf('express')).toThrow(/No version catalogued for package "express"/);
    expect(() => versionOf('point-of-view')).toThrow(/point-of-view/);
    expect(() => versionOf('toString')).toThrow();
    expect(() => versionOf('')).toThrow();
  });
});

describe('forms while the Express middleware is still bridged', () => {
  it('request properties set by bridged middleware read from request.raw until the plugins stage', async () => {
    const { apiFor } = await import('../../rules/catalogue/api.js');
    expect(apiFor('req.session')?.rewrite).toEqual({ form: 'request.raw.session', note: 'set by its Express middleware in the bridge', where: 'moved-routes' });
    expect(apiFor('req.user')?.addedBy).toEqual(['passport']);
    expect(apiFor('req.params')?.addedBy).toBeUndefined();
  });
});

describe('the API catalogue is the table the handler rewrite reads (issue 15)', () => {
  const rows = Object.values(API) as ApiEntry[];
  /** req/res rows of one member (`res.send(string)` and other argument forms are rows about a member's arguments). */
  const memberRows = rows.filter((r) => /^(req|res)\.[A-Za-z_$][\w$]*$/.test(r.api));

  it('a req/res row has a rewrite form exactly when the rewrite has a converter for it, and then the routes stage converts it', async () => {
    const { REPLY_CONVERTERS } = await import('../../transforms/handler-rewrite/reply-forms.js');
    const { REQUEST_CONVERTERS } = await import('../../transforms/handler-rewrite/request-forms.js');
    const converted = new Set([...Object.keys(REPLY_CONVERTERS), ...Object.keys(REQUEST_CONVERTERS)]);
    expect([...converted].filter((api) => !API[api as keyof typeof API])).toEqual([]);
    // Rows the rewrite reads on `request.raw` (set by Express middleware) have a form without a converter of their own.
    expect(memberRows.filter((r) => !!r.rewrite !== (converted.has(r.api) || !!r.addedBy)).map((r) => r.api)).toEqual([]);
    expect(memberRows.filter((r) => r.addedBy && r.rewrite && !(r.rewrite.form.startsWith(`request.raw.${r.api.slice(4).replace(/\(.*$/, '')}`) && r.rewrite.note)).map((r) => r.api)).toEqual([]);
    // A form the rewrite writes is the routes stage's, except where it holds at the app level only (a use with no equivalent in a router).
    expect(memberRows.filter((r) => r.rewrite && r.stage !== 'routes' && r.rewrite.scope !== 'app').map((r) => `${r.api}: ${r.stage}`)).toEqual([]);
    expect(memberRows.filter((r) => r.stage === 'plugins' && (r.rewrite || !r.requires?.length)).map((r) => r.api)).toEqual([]);
    expect(memberRows.filter((r) => converted.has(r.api) && !r.shape).map((r) => r.api)).toEqual([]);
  });

  it('res.download waits for the plugins stage, named by the plugin it needs; res.cookie, res.clearCookie and res.sendFile too, but on a moved route', async () => {
    const { convertReplyChain } = await import('../../transforms/handler-rewrite/reply-forms.js');
    const j = (await import('jscodeshift')).default.withParser('babel');
    const ctx = { j, kindOf: () => 'string' as const, setsContentType: false, jsonSettings: false, scope: 'app' as const, bridged: true, expressMajor: 4 as const };
    const stages = Object.fromEntries(['res.cookie', 'res.clearCookie', 'res.sendFile', 'res.download'].map((api) => [api, apiFor(api)?.stage]));
    expect(stages).toEqual({ 'res.cookie': 'routes', 'res.clearCookie': 'routes', 'res.sendFile': 'routes', 'res.download': 'plugins' });
    // An error handler (no Fastify route): the plugins stage brings @fastify/cookie.
    expect(convertReplyChain([{ member: 'cookie', args: [j.stringLiteral('a'), j.stringLiteral('b')] }], ctx)).toEqual({ refuse: 'res.cookie needs @fastify/cookie, which the plugins stage registers', waitsFor: 'plugins' });
    // A moved route: Express's own res.cookie, through the generated fastify-like-express module.
    const cookie = convertReplyChain([{ member: 'clearCookie', args: [j.stringLiteral('a')] }], { ...ctx, fastifyRoute: true });
    expect(cookie).toMatchObject({ likeExpress: ['clearCookieLikeExpress'] });
    expect(convertReplyChain([{ member: 'sendFile', args: [j.stringLiteral('/a')] }], ctx)).toEqual({ refuse: 'res.sendFile needs @fastify/static, which the plugins stage registers', waitsFor: 'plugins' });
  });

  it("a 'moved-routes' form converts only after the bridge, an 'everywhere' form converts everywhere", async () => {
    const { convertReplyChain } = await import('../../transforms/handler-rewrite/reply-forms.js');
    const { convertRequestUse } = await import('../../transforms/handler-rewrite/request-forms.js');
    const j = (await import('jscodeshift')).default.withParser('babel');
    // As the rewrite builds it for a moved route (bridged, its own Fastify route, views registered) and for a function before the bridge (rewrite.ts).
    const ctx = (bridged: boolean) => ({ j, kindOf: () => 'string' as const, setsContentType: false, jsonSettings: false, scope: 'app' as const, bridged, fastifyRoute: bridged, expressMajor: 4 as const, ...(bridged ? { views: true as const } : {}) });
    const s = (v: string) => j.stringLiteral(v);
    /** One use of each converted res member, as a chain. */
    const replyUses: Record<string, Array<{ member: string; args: unknown[] | null }>> = {
      'res.status': [{ member: 'status', args: [j.numericLiteral(404)] }],
      'res.send': [{ member: 'send', args: [s('x')] }],
      'res.json': [{ member: 'json', args: [j.objectExpression([])] }],
      'res.sendStatus': [{ member: 'sendStatus', args: [j.numericLiteral(404)] }],
      'res.set': [{ member: 'set', args: [s('x-a'), s('1')] }],
      'res.type': [{ member: 'type', args: [s('html')] }],
      'res.get': [{ member: 'get', args: [s('x-a')] }],
      'res.end': [{ member: 'end', args: [] }],
      'res.headersSent': [{ member: 'headersSent', args: null }],
      'res.statusCode': [{ member: 'statusCode', args: null }],
      'res.render': [{ member: 'render', args: [s('index')] }],
      'res.redirect': [{ member: 'redirect', args: [s('/a')] }],
      'res.location': [{ member: 'location', args: [s('/a')] }],
      'res.attachment': [{ member: 'attachment', args: [s('a.csv')] }, { member: 'send', args: [s('x')] }],
      'res.locals': [{ member: 'locals', args: null }],
      'res.getHeader': [{ member: 'getHeader', args: [s('x-a')] }],
      'res.removeHeader': [{ member: 'removeHeader', args: [s('x-a')] }],
      'res.append': [{ member: 'append', args: [s('x-a'), s('1')] }],
      'res.vary': [{ member: 'vary', args: [s('Accept')] }],
      'res.links': [{ member: 'links', args: [j.objectExpression([])] }],
    };
    const requestUses: Record<string, unknown[] | null> = { 'req.method': null, 'req.originalUrl': null, 'req.headers': null, 'req.url': null, 'req.path': null, 'req.get': [s('accept')], 'req.params': null, 'req.query': null, 'req.body': null, 'req.baseUrl': null, 'req.cookies': null, 'req.signedCookies': null };
    const outcome = (api: string, bridged: boolean) => {
      const result = api.startsWith('res.') ? convertReplyChain(replyUses[api] as never, ctx(bridged)) : convertRequestUse(api.slice(4), requestUses[api] as never, j.identifier('request'), ctx(bridged));
      return 'refuse' in result ? 'refuses' : 'converts';
    };
    const apis = [...Object.keys(replyUses), ...Object.keys(requestUses)];
    expect(apis.map((api) => [api, outcome(api, true)])).toEqual(apis.map((api) => [api, 'converts']));
    expect(apis.map((api) => [api, outcome(api, false)])).toEqual(apis.map((api) => [api, apiFor(api)!.rewrite!.where === 'everywhere' ? 'converts' : 'refuses']));
  });

  it('tells Express’s own request API from what middleware adds by the addedBy field, not by prose', () => {
    const request = memberRows.filter((r) => r.api.startsWith('req.'));
    expect(request.filter((r) => !r.source.includes('§1.3') && !r.addedBy).map((r) => r.api)).toEqual([]);
    expect(request.filter((r) => r.addedBy).map((r) => r.api).sort()).toEqual(['req.auth', 'req.cookies', 'req.csrfToken', 'req.file', 'req.files', 'req.flash', 'req.login', 'req.session', 'req.sessionID', 'req.signedCookies', 'req.user']);
  });
});
