/**
 * The `plugins` stage's step `plugins-middleware` (transforms/plugins-middleware/,
 * server-module/root-plugins.ts): middleware an official plugin replaces at the root of the Fastify
 * server leaves the Express app — cors for @fastify/cors, helmet for @fastify/helmet. Fixture pairs
 * (fixtures/transforms/plugins-middleware/): output byte for byte, a second run changes nothing; on
 * real HTTP the case's Express app, its input (after routes) and its output answer alike, headers
 * included (CORS, preflights, helmet's, X-Powered-By, Vary), but for the deltas a case names.
 */
import { createRequire } from 'node:module';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answers, copyOf, withDeclaredExpress } from '../helpers/app-answers.js';
import { caseOptions, expectFixture, expectMoved, fixtureCases, linkPackages, runFixture, TRANSFORM_FIXTURES, tscOutput } from '../helpers/transform-fixtures.js';
import type { FoldedValue } from '../../analyzer/model.js';
import { middlewareFor } from '../../rules/catalogue/middleware.js';
import { rootPluginOptions } from '../../transforms/server-module/root-plugin-options.js';
import { canonicalize } from '../../verifier/normalize.js';
import { runStage } from '../../runner/run.js';
import { project } from '../helpers/tmp.js';

const STEP = 'plugins-middleware';
const require = createRequire(import.meta.url);
const REPO_MODULES = path.resolve(import.meta.dirname, '../../node_modules');

/** The headers the root plugins set (the catalogue's `rootPlugin.headers`). */
const PLUGIN_HEADERS = [...(middlewareFor('cors', 'cors')?.rootPlugin?.headers ?? []), ...(middlewareFor('helmet', 'helmet')?.rootPlugin?.headers ?? [])];

/** Per case: middleware moved `[done, of]`, why the others stay (the summary's groups), the packages that leave package.json, the deltas reported. */
const MOVED: Record<string, { moved: [number, number]; kept?: string[]; removed?: string[]; deltas?: string[] }> = {
  // After compression (it ends no request) and method-override, which the module's listener applies before Fastify routes.
  'after-method-override': { moved: [1, 1], removed: ['cors'] },
  'cors-helmet': { moved: [2, 2], removed: ['helmet', 'cors'] },
  // The app's origin function, lifted out of the options, called by @fastify/cors as cors called it (its error to the error handler).
  'origin-function': { moved: [1, 1], removed: ['cors'] },
  // Below a morgan plugins-server-options deletes first (the registration found by its text), its options from a JSON module.
  'after-morgan': { moved: [1, 1], removed: ['morgan', 'cors'] },
  // Both after the body parser: the answers to the bodies it refuses gain their headers (a delta).
  // helmet 4 (its defaults and Expect-CT given to helmet 8), TypeScript.
  'helmet-4-ts': { moved: [2, 2], removed: ['helmet', 'cors'] },
  'esm-parsers-first': {
    moved: [2, 2],
    removed: ['cors', 'helmet'],
    deltas: [
      "cors (app.js:9) moved to @fastify/cors: the answers to bodies express.json (app.js:8) refuses (the error handler's answers: 400, 413, 415 unless it maps them) now carry cors's headers: it ran after that parser in Express, @fastify/cors runs before them (framework delta plugin-headers-on-refused-bodies)",
      "helmet (app.js:10) moved to @fastify/helmet: the answers to bodies express.json (app.js:8) refuses (the error handler's answers: 400, 413, 415 unless it maps them) now carry helmet's headers: it ran after that parser in Express, @fastify/helmet runs before them (framework delta plugin-headers-on-refused-bodies)",
    ],
  },
  kept: {
    moved: [0, 5],
    kept: [
      "stay on Express: its preflightContinue hands preflights on to the app's routes, where @fastify/cors answers them itself (app.js:9)",
      'stay on Express: helmet.contentSecurityPolicy is one part of helmet; only helmet() itself moves to @fastify/helmet (app.js:10)',
      'stay on Express: middleware cors (app.js:9) comes before it in Express and may answer requests it never saw, which @fastify/helmet would see (app.js:15)',
      'stay on Express: it is registered on a router, a sub-app or under a path (app.js:17), and @fastify/cors would run for every request',
      'stay on Express: it is registered on a router, a sub-app or under a path (app.js:20), and @fastify/cors would run for every request',
    ],
  },
};

/** The headers compared on every answer. */
const HEADERS = [
  'expect-ct',
  'cross-origin-embedder-policy',
  'origin-agent-cluster',
  'x-xss-protection',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'vary',
  'content-length',
  'x-powered-by',
  'content-security-policy',
  'strict-transport-security',
  'x-frame-options',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-total-count',
];

/**
 * Answer lines with each header value as the verifier compares it (verifier/normalize.ts): the
 * lists whose order means nothing (Vary) sorted, a Content Security Policy's directives as a set.
 */
function asVerifierCompares(lines: string[]): string[] {
  return lines.map((line) => {
    const header = /^ {2}([\w-]+): (.*)$/.exec(line);
    const canonical = header ? canonicalize({ status: 200, headers: [[header[1], header[2]]], body: Buffer.alloc(0) }).headers[header[1]] : undefined;
    return canonical === undefined ? line : `  ${header![1]}: ${canonical}`;
  });
}

describe('plugins-middleware fixtures', () => {
  for (const name of fixtureCases(STEP)) {
    it(name, async () => {
      const run = await expectFixture(STEP, name, 'plugins');
      expectMoved(run, STEP, name, MOVED[name]);
      expect(run.result.deltas.filter((d) => d.text.includes('moved to @fastify/')).map((d) => d.text)).toEqual(MOVED[name].deltas ?? []);
    }, 60_000);
  }
});

describe('the plugins answer as the middleware did (real HTTP)', () => {
  for (const name of fixtureCases(STEP).filter((n) => caseOptions(STEP, n).requests)) {
    it(name, async () => {
      const { requests, packages } = caseOptions(STEP, name);
      const dir = path.join(TRANSFORM_FIXTURES, STEP, name);
      const express = asVerifierCompares(await answers(linkPackages(withDeclaredExpress(copyOf(path.join(dir, 'express'))), packages), requests!, HEADERS));
      expect(asVerifierCompares(await answers(linkPackages(withDeclaredExpress(copyOf(path.join(dir, 'input'))), packages), requests!, HEADERS)), 'after routes').toEqual(express);
      const run = await runFixture(STEP, name, 'plugins');
      expect(asVerifierCompares(await answers(withDeclaredExpress(run.root), requests!, HEADERS)), 'after plugins').toEqual(express);
      if (existsSync(path.join(run.root, 'tsconfig.json'))) expect(tscOutput(run.root), 'the output type-checks').toBe('');
    }, 90_000);
  }

  it("the answers to refused bodies gain the plugins' headers, and nothing else changes (the reported delta)", async () => {
    const { refusedBodies } = caseOptions(STEP, 'esm-parsers-first') as { refusedBodies: string[] };
    const dir = path.join(TRANSFORM_FIXTURES, STEP, 'esm-parsers-first');
    const run = await runFixture(STEP, 'esm-parsers-first', 'plugins');
    const express = await answers(withDeclaredExpress(copyOf(path.join(dir, 'express'))), refusedBodies, HEADERS);
    const after = await answers(withDeclaredExpress(run.root), refusedBodies, HEADERS);
    expect(express[0]).toMatch(/^POST \/api\/items .* → 400 application\/json; charset=utf-8 - \{"error":"entity.parse.failed"\}$/);
    expect(after.filter((l) => !PLUGIN_HEADERS.some((h) => l.startsWith(`  ${h}:`)))).toEqual(express.filter((l) => !PLUGIN_HEADERS.some((h) => l.startsWith(`  ${h}:`))));
    expect(express.some((l) => l.startsWith('  access-control-allow-origin:'))).toBe(false);
    expect(after).toContain('  access-control-allow-origin: *');
    expect(after).toContain('  x-frame-options: SAMEORIGIN');
  }, 90_000);
});

describe('root plugin options (root-plugin-options.ts)', () => {
  const folded = (value: unknown): FoldedValue => ({ source: JSON.stringify(value), value, resolution: 'exact' });
  // The source written and the headers sent besides (the values are the source's).
  const written = (t: ReturnType<typeof rootPluginOptions>) => ('refuse' in t ? t : { source: t.source, ...(t.headers ? { headers: t.headers } : {}) });
  const cors = (value?: unknown) => written(rootPluginOptions(middlewareFor('cors', 'cors')!, value === undefined ? [] : [folded(value)], '2.8.5'));
  const helmet = (version: string | null, value?: unknown) => written(rootPluginOptions(middlewareFor('helmet', 'helmet')!, value === undefined ? [] : [folded(value)], version));

  it("gives cors's defaults where @fastify/cors's differ, and its header lists as cors writes them", () => {
    expect(cors()).toEqual({ source: "{ methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false }" });
    expect(cors({ methods: ['GET', 'POST'], allowedHeaders: ['a', 'b'], exposedHeaders: [], credentials: 'yes', maxAge: 0 })).toEqual({ source: "{ methods: 'GET,POST', allowedHeaders: 'a,b', maxAge: 0, strictPreflight: false }" });
    // cors reads `headers` when `allowedHeaders` is absent.
    expect(cors({ headers: 'x-token' })).toEqual({ source: "{ allowedHeaders: 'x-token', methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false }" });
    expect(cors({ optionsSuccessStatus: 200 })).toEqual({ source: "{ optionsSuccessStatus: 200, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false }" });
  });

  it('keeps Vary: Origin for a single origin (a function returning it), and false for a falsy one', () => {
    expect(cors({ origin: 'https://a.example' })).toEqual({ source: "{ methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false, origin: (_origin, callback) => callback(null, 'https://a.example') }" });
    expect(cors({ origin: '*' })).toEqual({ source: "{ origin: '*', methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false }" });
    expect(cors({ origin: '' })).toEqual({ source: "{ origin: false, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false }" });
    expect(cors({ origin: ['https://a.example', 'https://b.example'] })).toEqual({ source: "{ origin: ['https://a.example', 'https://b.example'], methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false }" });
  });

  it('reads an origin from the environment when the plugin registers, as cors did when the app made it', () => {
    const env: FoldedValue = { source: '{ origin: process.env.CORS_ORIGIN, credentials: true }', value: { credentials: true }, resolution: 'partial', unresolved: [{ path: 'origin', reason: 'process.env.CORS_ORIGIN' }] };
    const translated = written(rootPluginOptions(middlewareFor('cors', 'cors')!, [env], '2.8.5'));
    expect(translated).toEqual({
      source: "{ credentials: true, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false, origin: !process.env.CORS_ORIGIN ? false : process.env.CORS_ORIGIN === '*' ? '*' : (_origin, callback) => callback(null, String(process.env.CORS_ORIGIN)) }",
    });
    // Evaluated as @fastify/cors reads it: unset, '*', and an origin (a function: cors's Vary: Origin).
    const origin = (value: string | undefined) => {
      process.env.CORS_ORIGIN = value ?? '';
      const options = new Function(`return ${(translated as { source: string }).source}`)() as { origin: unknown };
      return typeof options.origin === 'function' ? new Promise((resolve) => (options.origin as (o: string, cb: (e: unknown, v: unknown) => void) => void)('https://x.example', (_e, v) => resolve(['fn', v]))) : options.origin;
    };
    expect(origin(undefined)).toBe(false);
    expect(origin('*')).toBe('*');
    return expect(origin('https://a.example')).resolves.toEqual(['fn', 'https://a.example']);
  });

  it('refuses what does not translate exactly', () => {
    expect(cors({ origin: ['*'] })).toEqual({ refuse: expect.stringContaining("an array holding '*'") });
    expect(cors({ allowedHeaders: [] })).toEqual({ refuse: expect.stringContaining('an empty list') });
    expect(cors({ preflightContinue: true })).toEqual({ refuse: expect.stringContaining('preflightContinue') });
    expect(cors({ hook: 'preHandler' })).toEqual({ refuse: expect.stringContaining('`hook` is not one of cors') });
    const fn: FoldedValue = { source: '{ origin: check }', value: {}, resolution: 'partial', unresolved: [{ path: 'origin', reason: 'a function' }] };
    expect(written(rootPluginOptions(middlewareFor('cors', 'cors')!, [fn], '2.8.5'))).toEqual({ refuse: 'its options `{ origin: check }` are known only at run time (origin: a function)' });
  });

  it('moves helmet 8 as it is, an older major with its defaults, and refuses what helmet 8 cannot take', () => {
    expect(helmet('^8.1.0')).toEqual({ source: '{}' });
    expect(helmet('7.1.0')).toEqual({ source: '{ strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true } }' });
    expect(helmet('7.1.0', { strictTransportSecurity: { includeSubDomains: false } })).toEqual({ source: '{ strictTransportSecurity: { maxAge: 15552000, includeSubDomains: false } }' });
    expect(helmet('7.1.0', { hsts: false })).toEqual({ source: '{ hsts: false }' });
    expect(helmet('4.6.0')).toMatchObject({ headers: { 'Expect-CT': 'max-age=0' } });
    expect(helmet('7.1.0', { contentSecurityPolicy: { directives: { defaultSrc: ['self'] } } })).toEqual({ refuse: expect.stringContaining('unquoted keyword `self`') });
    // helmet 4 left COOP off by default; `true` turns it on there, as in helmet 8. helmet 4 and 5 ignored helmet 8's names.
    expect(helmet('4.6.0', { contentSecurityPolicy: false, crossOriginOpenerPolicy: true })).toMatchObject({ source: expect.stringContaining('crossOriginOpenerPolicy: true') });
    expect(helmet('5.1.1', { contentSecurityPolicy: false, strictTransportSecurity: false })).toMatchObject({ source: expect.stringContaining('strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true }') });
    expect(helmet('3.23.3')).toEqual({ refuse: expect.stringMatching(/^helmet 3\.23\.3: @fastify\/helmet runs helmet 8, whose defaults are not helmet 3’s/) });
    expect(helmet(null)).toEqual({ refuse: expect.stringContaining('version is not known') });
  });

  // Each older major the test installs (devDependencies helmet-4 … helmet-7) against helmet 8 given the
  // translated options, and the hook's headers: the same response headers for every option set.
  const OPTION_SETS: unknown[] = [
    undefined,
    { contentSecurityPolicy: false },
    { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'", 'cdn.example.com'] } } },
    { contentSecurityPolicy: { useDefaults: true, directives: { 'script-src': ["'self'", 'code.jquery.com'], 'img-src': ["'self'", 'data:', 'github.com'] } } },
    { hsts: { maxAge: 100 }, frameguard: { action: 'deny' }, referrerPolicy: { policy: 'same-origin' } },
    { strictTransportSecurity: true, dnsPrefetchControl: { allow: true } },
    { expectCt: { maxAge: 86400, enforce: true, reportUri: 'https://r.example/ct' } },
    { expectCt: false, hidePoweredBy: false, noSniff: false },
    { contentSecurityPolicy: false, crossOriginOpenerPolicy: true, crossOriginResourcePolicy: true, originAgentCluster: true },
    { contentSecurityPolicy: false, strictTransportSecurity: false, xFrameOptions: false, xPoweredBy: false },
  ];
  const responseHeaders = (middleware: (req: unknown, res: ServerResponse, next: (e?: unknown) => void) => void, extra: Record<string, string> = {}) => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    res.setHeader('X-Powered-By', 'Express');
    middleware({ headers: {}, method: 'GET', url: '/' }, res, (e) => {
      if (e) throw e;
    });
    for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
    // As the verifier compares them (verifier/normalize.ts): a policy's directives as a set.
    return canonicalize({ status: 200, headers: Object.entries(res.getHeaders()).map(([k, v]) => [k, String(v)]), body: Buffer.alloc(0) }).headers;
  };
  for (const major of ['4', '5', '6', '7']) {
    it(`gives helmet 8 the options under which it answers as helmet ${major} (run time)`, () => {
      const older = require(`helmet-${major}`) as (o?: unknown) => Parameters<typeof responseHeaders>[0];
      const helmet8 = require('helmet') as (o?: unknown) => Parameters<typeof responseHeaders>[0];
      const version = (JSON.parse(readFileSync(path.join(REPO_MODULES, `helmet-${major}`, 'package.json'), 'utf8')) as { version: string }).version;
      for (const options of OPTION_SETS) {
        const translated = helmet(version, options);
        if (!('source' in translated)) throw new Error(`refused: ${translated.refuse}`);
        const given = new Function(`return ${translated.source}`)() as unknown;
        expect(responseHeaders(helmet8(given), translated.headers), `${major}: ${JSON.stringify(options)}`).toEqual(responseHeaders(older(options)));
      }
    });
  }
});

describe('one plugin per server, in the order of the app across runs', () => {
  const server = "const app = require('./app');\napp.listen(3000);\n";
  const pkg = JSON.stringify({ name: 'root-plugins-runs', main: 'server.js', dependencies: { express: '^4.21.2', cors: '^2.8.5', helmet: '^8.1.0' } });
  const appWith = (middleware: string) => `const express = require('express');\nconst cors = require('cors');\nconst helmet = require('helmet');\nconst app = express();\n${middleware}\napp.get('/items', (req, res) => res.json([]));\nmodule.exports = app;\n`;
  const stages = async (root: string) => {
    for (const stage of ['shim', 'errors', 'routes'] as const) await runStage({ root, stage, allowDirty: true });
    return runStage({ root, stage: 'plugins', allowDirty: true });
  };

  it('keeps a second cors on Express, with why', async () => {
    const root = project({ 'package.json': pkg, 'server.js': server, 'app.js': appWith("app.use(cors());\napp.use(cors({ origin: ['https://a.example'] }));") });
    const run = await stages(root);
    expect(run.moved.find((m) => m.step === STEP)?.groups?.map((g) => g.name)).toEqual(['stay on Express: cors (app.js:5) moves to @fastify/cors already, which a Fastify server registers once (app.js:6)']);
    expect(readFileSync(path.join(root, 'app.js'), 'utf8')).toContain("app.use(cors({ origin: ['https://a.example'] }));");
  }, 60_000);

  it('registers a plugin a later run moves after those moved before', async () => {
    const root = project({ 'package.json': pkg, 'server.js': server, 'app.js': appWith("app.use(helmet());\napp.use(cors({ hook: 'preHandler' }));") });
    expect((await stages(root)).moved.find((m) => m.step === STEP)).toMatchObject({ done: 1, of: 2 });
    writeFileSync(path.join(root, 'app.js'), readFileSync(path.join(root, 'app.js'), 'utf8').replace("cors({ hook: 'preHandler' })", "cors({ maxAge: 60 })"));
    expect((await runStage({ root, stage: 'plugins', allowDirty: true })).moved.find((m) => m.step === STEP)).toMatchObject({ done: 1, of: 1 });
    const module = readFileSync(path.join(root, 'fastify-server.js'), 'utf8');
    expect(module.indexOf('fastify.register(fastifyHelmet')).toBeGreaterThan(0);
    expect(module.indexOf('fastify.register(fastifyCors')).toBeGreaterThan(module.indexOf('fastify.register(fastifyHelmet'));
  }, 60_000);
});
