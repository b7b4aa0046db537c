/**
 * The replay's own pieces on hand-made exchanges: value correlation per lane, framework-default
 * detection, the noise model's thresholds, route coverage and the CI gate.
 */
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Inventory } from '../../analyzer/model.js';
import { LaneBindings } from '../../verifier/correlate.js';
import { RouteCoverage } from '../../verifier/coverage.js';
import { explainDifferences } from '../../verifier/deltas.js';
import { diffResponses } from '../../verifier/diff.js';
import { gateOf } from '../../verifier/gate.js';
import type { RawResponse, ReplayRequest } from '../../verifier/model.js';
import { NoiseModel } from '../../verifier/noise.js';
import { canonicalize } from '../../verifier/normalize.js';
import { emptyCounts, type Verdict } from '../../verifier/verdict.js';

const req = (path: string, extra: Partial<ReplayRequest> = {}): ReplayRequest => ({ id: 'e1', session: 'default', method: 'GET', path, headers: [['Host', '127.0.0.1:3000']], ...extra });
const res = (status: number, headers: Array<[string, string]>, body = ''): RawResponse => ({ status, headers, body: Buffer.from(body) });
const json = (status: number, value: unknown, headers: Array<[string, string]> = []) => res(status, [['content-type', 'application/json; charset=utf-8'], ...headers], JSON.stringify(value));

describe('LaneBindings', () => {
  it('carries a created id, the Location and a session cookie into later requests, per lane', () => {
    const lane = new LaneBindings();
    lane.learn('s1', 'POST', json(201, { id: 7 }, [['Location', '/notes/7'], ['Set-Cookie', 'sid=rec123; Path=/']]), json(201, { id: 9 }, [['Location', '/notes/9'], ['Set-Cookie', 'sid=lane456; Path=/']]));
    const next = lane.rewrite(req('/notes/7?noteId=7&page=7', { session: 's1', headers: [['Cookie', 'sid=rec123; theme=dark'], ['Content-Length', '0'], ['X-Page', '7']] }));
    // Where identifiers live (path segments, id-named keys), not wherever the same digits appear.
    expect(next.request.path).toBe('/notes/9?noteId=9&page=7');
    expect(next.request.headers).toEqual([['Cookie', 'sid=lane456; theme=dark'], ['X-Page', '7']]);
    expect(next.missing).toEqual([]);
    // Another session has its own jar: the cookie is only mapped by its bound value there.
    const other = lane.rewrite(req('/', { session: 's2', headers: [['Cookie', 'sid=other']] }));
    expect(other.request.headers).toEqual([['Cookie', 'sid=other']]);
  });

  it('maps bound values back before comparing, so id #7 ↔ id #9 compare as the same binding', () => {
    const lane = new LaneBindings();
    lane.learn('s', 'POST', json(201, { id: 7 }), json(201, { id: 9 }));
    const restored = lane.restore(canonicalize(json(200, { id: 9, count: 9, ownerId: '9' })));
    expect(restored.body).toEqual({ id: 7, count: 9, ownerId: '7' });
  });

  it('does not learn where the lane answered wrongly (a renamed redirect is not followed)', () => {
    const lane = new LaneBindings();
    const untrusted = (pointer: string) => pointer !== '/headers/location';
    lane.learn('s', 'POST', res(302, [['Location', '/login']]), res(302, [['Location', '/signin']]), untrusted);
    expect(lane.rewrite(req('/login')).request.path).toBe('/login');
  });

  it('does not bind ids from answers to safe requests (a list in another order binds nothing)', () => {
    const lane = new LaneBindings();
    lane.learn('s', 'GET', json(200, [{ id: 1 }, { id: 2 }]), json(200, [{ id: 2 }, { id: 1 }]));
    expect(lane.rewrite(req('/notes/1')).request.path).toBe('/notes/1');
  });

  it('fills redacted credentials from the credentials module and reports those it lacks', () => {
    const lane = new LaneBindings(new Map([['<redacted:authorization:1>', 'tok-A']]));
    const ok = lane.rewrite(req('/me', { headers: [['Authorization', 'Bearer <redacted:authorization:1>']] }));
    expect(ok.request.headers).toEqual([['Authorization', 'Bearer tok-A']]);
    // Given with its scheme, as people copy it from a header: the scheme is not doubled.
    const withScheme = new LaneBindings(new Map([['<redacted:authorization:1>', 'Bearer tok-B']])).rewrite(req('/me', { headers: [['Authorization', 'Bearer <redacted:authorization:1>']] }));
    expect(withScheme.request.headers).toEqual([['Authorization', 'Bearer tok-B']]);
    const body = Buffer.from(JSON.stringify({ user: 'ann', password: '<redacted:password:1>' }));
    const missing = lane.rewrite(req('/login', { method: 'POST', headers: [['Content-Type', 'application/json']], body }));
    expect(missing.missing).toEqual(['<redacted:password:1>']);
  });
});

describe('explainDifferences', () => {
  const explain = (request: ReplayRequest, a: RawResponse, b: RawResponse, expressMajor = 5) => {
    const [x, y] = [canonicalize(a), canonicalize(b)];
    const out = explainDifferences({ request, baseline: x, candidate: y, differences: diffResponses(x, y), expressMajor });
    return { explained: out.explained.map((e) => `${e.id}:${e.differences.map((d) => d.pointer).join(',')}`), unexplained: out.unexplained.map((d) => d.pointer) };
  };
  const express404 = res(404, [['Content-Type', 'text/html; charset=utf-8'], ['Content-Security-Policy', "default-src 'none'"], ['X-Content-Type-Options', 'nosniff']], '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /nope</pre>\n</body>\n</html>\n');
  const fastify404 = json(404, { message: 'Route GET:/nope not found', error: 'Not Found', statusCode: 404 });

  it("names finalhandler's 404 page against Fastify's JSON 404 as one delta", () => {
    expect(explain(req('/nope'), express404, fastify404)).toEqual({
      // Bodies of different kinds are compared by kind only (/bodyKind), not value by value.
      explained: ['default-404-body:/bodyKind,/headers/content-security-policy,/headers/x-content-type-options,/mediaType'],
      unexplained: [],
    });
  });

  it('separates X-Powered-By and ETag (deltas) from a string body served as text/plain (a cause)', () => {
    const express = res(200, [['X-Powered-By', 'Express'], ['Content-Type', 'text/html; charset=utf-8'], ['ETag', 'W/"5-abc"']], 'hello');
    const fastify = res(200, [['content-type', 'text/plain; charset=utf-8']], 'hello');
    expect(explain(req('/hi'), express, fastify)).toEqual({ explained: ['x-powered-by:/headers/x-powered-by', 'etag:/headers/etag', 'string-body-content-type:/mediaType'], unexplained: [] });
  });

  it('attributes 404s to letter case or a trailing slash only when the baseline answered', () => {
    expect(explain(req('/Items'), json(200, []), fastify404).explained[0]).toMatch(/^case-insensitive-routing:/);
    expect(explain(req('/items/'), json(200, []), fastify404).explained[0]).toMatch(/^trailing-slash:/);
    expect(explain(req('/items/'), json(500, {}), fastify404)).toEqual({ explained: [], unexplained: ['/body/error', '/body/message', '/body/statusCode', '/status'] });
  });

  it("names the differences of static files served by @fastify/static where serve-static served them (plugins stage)", () => {
    const page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Redirecting</title>\n</head>\n<body>\n<pre>Redirecting to /docs/</pre>\n</body>\n</html>\n";
    const serveStatic = res(301, [['Location', '/docs/'], ['Content-Type', 'text/html; charset=UTF-8'], ['Content-Security-Policy', "default-src 'none'"], ['X-Content-Type-Options', 'nosniff']], page);
    expect(explain(req('/docs'), serveStatic, res(301, [['Location', '/docs/']]))).toEqual({ explained: ['static-redirect-page:/bodyKind,/charset,/headers/content-security-policy,/headers/x-content-type-options,/mediaType'], unexplained: [] });
    // Another Location is no such delta.
    expect(explain(req('/docs'), serveStatic, res(301, [['Location', '/elsewhere/']])).unexplained).toContain('/headers/location');
    const file = res(200, [['Content-Type', 'text/plain; charset=UTF-8']], 'hello');
    expect(explain(req('/static//hello.txt'), file, json(403, { statusCode: 403, code: 'FST_STATIC_FORBIDDEN_PATH' })).explained.map((e) => e.split(':')[0])).toEqual(['static-forbidden-path']);
    expect(explain(req('/static/hello.txt'), file, json(403, { statusCode: 403 })).explained).toEqual([]);
    const range = res(416, [['Content-Range', 'bytes */5'], ['Accept-Ranges', 'bytes'], ['Cache-Control', 'public, max-age=0'], ['Content-Type', 'text/html; charset=utf-8']], 'Range Not Satisfiable');
    expect(explain(req('/hello.txt'), range, res(416, [['Content-Type', 'text/html; charset=utf-8']], 'Range Not Satisfiable'))).toEqual({ explained: ['static-range-unsatisfiable:/headers/accept-ranges,/headers/cache-control,/headers/content-range'], unexplained: [] });
    expect(explain(req('/app.js'), res(200, [['Content-Type', 'text/javascript; charset=utf-8']], 'x'), res(200, [['Content-Type', 'application/javascript; charset=utf-8']], 'x')).explained).toEqual(['static-content-type:/mediaType']);
  });

  it("names a root plugin's headers on the answer to a refused body as a delta, and only there (plugins stage)", () => {
    const broken = req('/items', { method: 'POST', headers: [['Content-Type', 'application/json']], body: Buffer.from('{bad') });
    const refused = json(400, { error: 'entity.parse.failed' });
    const withCors = res(400, [['Content-Type', 'application/json; charset=utf-8'], ['Access-Control-Allow-Origin', '*'], ['X-Frame-Options', 'SAMEORIGIN']], '{"error":"entity.parse.failed"}');
    expect(explain(broken, refused, withCors)).toEqual({ explained: ['plugin-headers-on-refused-bodies:/headers/access-control-allow-origin,/headers/x-frame-options'], unexplained: [] });
    // An error handler that makes a parse error a 500 (node-express-boilerplate's error converter).
    const converted = (headers: Array<[string, string]>) => res(500, [['Content-Type', 'application/json; charset=utf-8'], ...headers], '{"code":500}');
    expect(explain(broken, converted([]), converted([['Access-Control-Allow-Origin', '*']])).explained).toEqual(['plugin-headers-on-refused-bodies:/headers/access-control-allow-origin']);
    // A header the app's answer had, changed, is not such a delta; nor the same headers on a request whose body was read.
    const other = res(400, [['Content-Type', 'application/json; charset=utf-8'], ['Access-Control-Allow-Origin', 'https://a.example']], '{"error":"entity.parse.failed"}');
    expect(explain(broken, res(400, [['Content-Type', 'application/json; charset=utf-8'], ['Access-Control-Allow-Origin', '*']], '{"error":"entity.parse.failed"}'), other).unexplained).toEqual(['/headers/access-control-allow-origin']);
    expect(explain(req('/items'), json(200, []), res(200, [['Content-Type', 'application/json; charset=utf-8'], ['Access-Control-Allow-Origin', '*']], '[]')).unexplained).toEqual(['/headers/access-control-allow-origin']);
    // A Vary that gained Origin is; one that lost Accept-Encoding is not.
    const varying = (vary: string) => res(400, [['Content-Type', 'application/json; charset=utf-8'], ['Vary', vary]], '{"error":"entity.parse.failed"}');
    expect(explain(broken, varying('Accept-Encoding'), varying('Accept-Encoding, Origin')).explained).toEqual(['plugin-headers-on-refused-bodies:/headers/vary']);
    expect(explain(broken, varying('Accept-Encoding, Origin'), varying('Origin')).unexplained).toEqual(['/headers/vary']);
  });

  it('knows the query-parser difference only for Express 4 sources', () => {
    const a = json(200, { a: { b: '1' } });
    const b = json(200, { 'a[b]': '1' });
    expect(explain(req('/q?a[b]=1'), a, b, 4).explained.map((e) => e.split(':')[0])).toEqual(['query-parser']);
    expect(explain(req('/q?a[b]=1'), a, b, 5).explained).toEqual([]);
  });
});

describe('NoiseModel', () => {
  const d = { pointer: '/body/items/3/at', kind: 'value' as const };
  it('calls a field noise when its A/B rate is not clearly above its A/A rate (Diffy thresholds)', () => {
    const noise = new NoiseModel({ relative: 0.2, absolute: 0.03 });
    for (let i = 0; i < 10; i++) {
      noise.observeAA('GET /items', i < 5 ? [d] : []);
      noise.observeAB('GET /items', i < 5 ? [{ ...d, pointer: '/body/items/0/at' }] : []);
    }
    expect(noise.isNoise('GET /items', d)).toBe(true);
    expect(noise.isNoise('GET /items', { pointer: '/body/items/1/name', kind: 'value' })).toBe(false);
    expect(noise.suggestions()).toEqual([{ route: 'GET /items', pointer: '/body/items/*/at', kind: 'value', aaRate: 0.5, abRate: 0.5, rule: { scope: { route: 'GET /items' }, ignoreValue: ['/body/items/*/at'] } }]);
  });

  it('does not call a field noise when the candidate differs far more often than the baseline with itself', () => {
    const noise = new NoiseModel({ relative: 0.2, absolute: 0.03 });
    for (let i = 0; i < 100; i++) {
      noise.observeAA('GET /items', i < 5 ? [d] : []);
      noise.observeAB('GET /items', [d]);
    }
    expect(noise.isNoise('GET /items', d)).toBe(false);
  });
});

describe('RouteCoverage', () => {
  const route = (key: string, order: number, syntax = 'plain') => {
    const [method, full] = key.split(' ');
    return { key, method, order, appId: 'a', path: { full, syntax, raw: full, params: [] }, mountChain: [], registration: { file: 'app.js', line: order + 1, column: 1 } };
  };
  const inventory = (major: number, routes: unknown[]) => ({ project: { expressVersion: { major } }, routes }) as unknown as Inventory;

  it('attributes requests in registration order, case-insensitively, trailing slash optional; HEAD to GET', () => {
    const cov = new RouteCoverage(inventory(5, [route('GET /users/:id', 0, 'plain'), route('GET /users/me', 1), route('ALL /{*splat}', 2, 'express5'), route('POST /users', 3)]));
    expect(cov.routeFor('GET', '/USERS/me/?x=1')).toBe('GET /users/:id');
    expect(cov.routeFor('HEAD', '/users/7')).toBe('GET /users/:id');
    expect(cov.routeFor('DELETE', '/anything/else')).toBe('ALL /{*splat}');
    expect(cov.result()).toEqual({ routes: 4, exercised: 2, notExercised: [{ key: 'GET /users/me', file: 'app.js', line: 2 }, { key: 'POST /users', file: 'app.js', line: 4 }], unmatchable: [] });
  });

  it('uses the Express 4 grammar for Express 4 apps and lists unresolved paths as unmatchable', () => {
    const cov = new RouteCoverage(inventory(4, [route('GET /files/*', 0, 'express4'), route('GET <unresolved>', 1, 'unresolved')]));
    expect(cov.routeFor('GET', '/files/a/b.txt')).toBe('GET /files/*');
    expect(cov.result().unmatchable).toEqual([{ key: 'GET <unresolved>', file: 'app.js', line: 2, reason: 'the path is unresolved' }]);
  });
});

describe('gateOf', () => {
  const verdict = (counts: Partial<ReturnType<typeof emptyCounts>>, notExercised = 0) =>
    ({ totals: { ...emptyCounts(), ...counts }, baselineDrift: { count: 0, examples: [] }, coverage: { routes: 10, exercised: 10 - notExercised, notExercised: Array.from({ length: notExercised }, () => ({ key: 'GET /x', file: 'a', line: 1 })), unmatchable: [] } }) as unknown as Verdict;

  it('fails on regressions always, on deltas and uncovered routes only when asked', () => {
    expect(gateOf(verdict({ requests: 5, pass: 4, delta: 1 }))).toEqual({ failed: false, reasons: [], summary: 'no regressions in 5 requests (1 framework delta); 10 of 10 routes exercised', exitCode: 0 });
    expect(gateOf(verdict({ requests: 5, regression: 2 })).reasons).toEqual(['2 requests with regressions']);
    expect(gateOf(verdict({ requests: 5, delta: 1 }), ['deltas']).exitCode).toBe(1);
    expect(gateOf(verdict({ requests: 5, delta: 1 }), [], 'express').reasons).toEqual(['1 request with framework deltas (parity policy "express")']);
    expect(gateOf(verdict({ requests: 5, pass: 5 }, 3), ['uncovered']).reasons).toEqual(['3 routes not exercised by the recording (--fail-on uncovered)']);
    expect(gateOf(verdict({ requests: 5, pass: 4, unverified: 1 })).reasons).toEqual(['1 request not verified']);
    expect(gateOf(verdict({})).reasons).toEqual(['nothing was replayed']);
    const drifted = { ...verdict({ requests: 5, pass: 5 }), baselineDrift: { count: 2, examples: [] } };
    expect(gateOf(drifted).failed).toBe(false);
    expect(gateOf(drifted, ['drift']).reasons).toEqual(['2 requests answered by the baseline otherwise than recorded (--fail-on drift)']);
  });
});

describe('AcceptedDifferences', () => {
  it('accepts a difference with its values, so another change at the same pointer still counts', async () => {
    const { AcceptedDifferences } = await import('../../verifier/accepted.js');
    const { mkdtempSync } = await import('node:fs');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'accepted-')), 'accepted.json');
    const x = { id: 'e7', method: 'POST', path: '/user', regressions: [{ pointer: '/status', kind: 'status' as const, baseline: 201, candidate: 400 }], deltas: [] } as never;
    const accepted = new AcceptedDifferences();
    expect(accepted.acceptAll(file, [x], 'known', new Date('2026-11-30T00:00:00Z'))).toBe(1);
    const loaded = AcceptedDifferences.load(file);
    expect(loaded.entries).toEqual([{ request: 'POST /user', pointer: '/status', kind: 'status', baseline: '201', candidate: '400', fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/), reason: 'known', acceptedAt: '2026-11-30T00:00:00.000Z' }]);
    expect(loaded.has('POST /user', { pointer: '/status', kind: 'status', baseline: 201, candidate: 400 })).toBe(true);
    expect(loaded.has('POST /user', { pointer: '/status', kind: 'status', baseline: 201, candidate: 500 })).toBe(false);
  });

  it('matches a long value accepted from a shortened stored copy (by fingerprint)', async () => {
    const { AcceptedDifferences, fingerprintOf } = await import('../../verifier/accepted.js');
    const { mkdtempSync } = await import('node:fs');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'accepted-')), 'accepted.json');
    const full = { pointer: '/body', kind: 'value' as const, baseline: 'a'.repeat(1000), candidate: 'b'.repeat(1000) };
    const stored = { ...full, fingerprint: fingerprintOf(full), baseline: 'a'.repeat(300) + '…', candidate: 'b'.repeat(300) + '…' };
    new AcceptedDifferences().acceptAll(file, [{ id: 'e1', method: 'GET', path: '/page', regressions: [stored], deltas: [] } as never], 'new copy');
    expect(AcceptedDifferences.load(file).has('GET /page', full)).toBe(true);
    expect(AcceptedDifferences.load(file).has('GET /page', { ...full, candidate: 'c'.repeat(1000) })).toBe(false);
  });
});

describe('fixFor', () => {
  it('gives the fix for the installed Fastify version', async () => {
    const { FRAMEWORK_DEFAULTS, fixFor } = await import('../../rules/catalogue/framework-defaults.js');
    const slash = FRAMEWORK_DEFAULTS['trailing-slash'];
    expect(fixFor(slash, '5.12.8')).toContain('routerOptions: { ignoreTrailingSlash: true }');
    expect(fixFor(slash, null)).toContain('routerOptions: { ignoreTrailingSlash: true }');
    expect(fixFor(slash, '5.4.1')).toContain('Create Fastify with `ignoreTrailingSlash: true`');
    expect(fixFor(slash, '3.14.0')).toContain('Create Fastify with `ignoreTrailingSlash: true`');
    expect(fixFor(FRAMEWORK_DEFAULTS.etag, '3.14.0')).toContain('`fastify-etag`');
    expect(fixFor(FRAMEWORK_DEFAULTS.etag, '4.28.0')).toContain('`@fastify/etag`');
    expect(fixFor(FRAMEWORK_DEFAULTS['head-routes'], '3.14.0')).toBe('Create Fastify with `exposeHeadRoutes: true`.');
  });
});

describe('explainDifferences takes only what a default explains', () => {
  const explain = (request: ReplayRequest, a: RawResponse, b: RawResponse) => {
    const [x, y] = [canonicalize(a), canonicalize(b)];
    const out = explainDifferences({ request, baseline: x, candidate: y, differences: diffResponses(x, y), expressMajor: 5 });
    return { explained: out.explained.map((e) => e.id), unexplained: out.unexplained.map((d) => d.pointer) };
  };
  const notFound = json(404, { message: 'Route OPTIONS:/items not found', error: 'Not Found', statusCode: 404 });

  it('a lost CORS header on an OPTIONS answer is not part of the auto-options delta', () => {
    const express = res(200, [['Allow', 'GET,HEAD'], ['Access-Control-Allow-Origin', '*'], ['Content-Type', 'text/html; charset=utf-8']], 'GET,HEAD');
    expect(explain(req('/items', { method: 'OPTIONS' }), express, notFound)).toEqual({ explained: ['auto-options'], unexplained: ['/headers/access-control-allow-origin'] });
  });

  it("Express's automatic OPTIONS answer where the app's own 404 answered (its catch-all moved to Fastify) is the auto-options delta too", () => {
    const appPage = res(404, [['Content-Type', 'text/html; charset=utf-8']], '<h1>Page not found</h1>');
    const allow = res(200, [['Allow', 'GET,HEAD,POST'], ['Content-Type', 'text/html; charset=utf-8']], 'GET,HEAD,POST');
    expect(explain(req('/articles', { method: 'OPTIONS' }), appPage, allow)).toEqual({ explained: ['auto-options'], unexplained: [] });
    // Not for another method.
    expect(explain(req('/articles', { method: 'GET' }), appPage, allow).explained).not.toContain('auto-options');
  });

  it("a stack trace's frames (the checkout's paths, the framework below the app) are the stack-frames delta; another message is not", () => {
    const stack = (at: string, msg = 'Error: Not Found - /nope') => json(404, { message: 'Not Found - /nope', stack: `${msg}\n    at notFound (file://${at}/backend/errorMiddleware.js:2:17)\n    at Layer.handle (${at}/node_modules/express/lib/router/layer.js:95:5)` });
    const [baseline, work] = [path.join(os.tmpdir(), 'baseline'), path.join(os.tmpdir(), 'work')];
    expect(explain(req('/nope'), stack(baseline), stack(work))).toEqual({ explained: ['stack-frames'], unexplained: [] });
    expect(explain(req('/nope'), stack(baseline), stack(work, 'Error: Other'))).toEqual({ explained: [], unexplained: ['/body/stack'] });
  });

  it('a 304 against a 200 explains the validators and the body, not a lost Cache-Control', () => {
    const express304 = res(304, [['ETag', 'W/"5-abcdefghijklmnopqrstuvwxyz0"'], ['Cache-Control', 'max-age=60']]);
    const fastify200 = res(200, [['content-type', 'text/plain; charset=utf-8']], 'hello');
    expect(explain(req('/hi', { headers: [['If-None-Match', 'W/"5-abcdefghijklmnopqrstuvwxyz0"']] }), express304, fastify200)).toEqual({ explained: ['etag'], unexplained: ['/headers/cache-control'] });
  });

  it("an app's own ETag is not Express's automatic one", () => {
    const own = res(200, [['ETag', '"v42"'], ['Content-Type', 'text/plain; charset=utf-8']], 'x');
    const staticFile = res(200, [['ETag', 'W/"1a-18c3f2b7e40"'], ['Content-Type', 'text/plain; charset=utf-8']], 'x');
    const none = res(200, [['content-type', 'text/plain; charset=utf-8']], 'x');
    expect(explain(req('/doc'), own, none)).toEqual({ explained: [], unexplained: ['/headers/etag'] });
    expect(explain(req('/doc'), staticFile, none)).toEqual({ explained: ['etag'], unexplained: [] });
  });
});

describe('confirmNoise', () => {
  const page = (at: string, total: number) => canonicalize(res(200, [['Content-Type', 'text/html; charset=utf-8']], `<p>Generated ${at}</p><p>Total: ${total}</p>`));
  const body = { pointer: '/body', kind: 'value' as const };

  it('a page whose timestamp varies is noise; the same page with another total is not', async () => {
    const { confirmNoise } = await import('../../verifier/noise.js');
    const [b, n] = [page('12:00:01', 100), page('12:00:02', 100)];
    expect(confirmNoise(body, b, n, page('12:00:03', 100))).toBe(true);
    expect(confirmNoise(body, b, n, page('12:00:03', 0))).toBe(false);
  });

  it('a flaky baseline status makes only the same status noise; a list varying in length, only lengths in between', async () => {
    const { confirmNoise } = await import('../../verifier/noise.js');
    const status = { pointer: '/status', kind: 'status' as const, baseline: 200, candidate: 503 };
    expect(confirmNoise(status, canonicalize(json(200, {})), canonicalize(json(503, {})), canonicalize(json(503, {})))).toBe(true);
    expect(confirmNoise({ ...status, candidate: 404 }, canonicalize(json(200, {})), canonicalize(json(503, {})), canonicalize(json(404, {})))).toBe(false);
    const list = (n: number) => canonicalize(json(200, { items: Array.from({ length: n }, (_, i) => i) }));
    const size = (from: number, to: number) => ({ pointer: '/body/items', kind: 'size' as const, baseline: { length: from, missing: [] }, candidate: { length: to, extra: [] } });
    expect(confirmNoise(size(3, 4), list(3), list(5), list(4))).toBe(true);
    expect(confirmNoise(size(3, 0), list(3), list(5), list(0))).toBe(false);
  });
});

describe('decode (Content-Encoding)', () => {
  it('undoes lists in reverse order and raw deflate; leaves unknown encodings alone', async () => {
    const zlib = await import('node:zlib');
    const { decode } = await import('../../verifier/send.js');
    const text = Buffer.from('the same bytes');
    expect(decode(zlib.brotliCompressSync(zlib.gzipSync(text)), 'gzip, br').toString()).toBe('the same bytes');
    expect(decode(zlib.deflateRawSync(text), 'deflate').toString()).toBe('the same bytes');
    expect(decode(zlib.deflateSync(text), 'deflate').toString()).toBe('the same bytes');
    expect(decode(text, 'compress')).toBe(text);
  });
});
