/**
 * The analyzer on Fastify and mixed apps (fixtures/analyzer/K, analyzer/fastify-*.ts): Fastify
 * instances by provenance, chains as Fastify itself reports them at run time, Express apps served
 * through `@fastify/express` inventoried once under the Fastify instance (and those run by Fastify hooks
 * instead, checked against Fastify at run time), error and not-found
 * handlers scoped to their plugin, the records' Fastify fields, diagnostics for what cannot be
 * followed, and rules and reports that take Fastify records.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Inventory } from '../../analyzer/model.js';
import { RULES } from '../../rules/index.js';
import { analyzeWithReadiness } from '../../runner/readiness.js';
import { renderHtml } from '../../report/html.js';
import { renderMarkdown } from '../../report/markdown.js';
import { renderSarif } from '../../report/sarif.js';
import { renderText } from '../../report/text.js';
import { FIXTURES, routeLines } from '../helpers/fixtures.js';

const K = (name: string) => path.join(FIXTURES, 'K', name);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'analyzer-fastify-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes a one-off project (`app.js` is the entry) and analyses it. */
async function analyzeProject(name: string, files: Record<string, string>, type: 'module' | 'commonjs' = 'commonjs'): Promise<Inventory> {
  const dir = path.join(tmp, name);
  for (const [file, text] of Object.entries({ 'package.json': JSON.stringify({ name, type, main: 'app.js', dependencies: { fastify: '^5.2.0', express: '^4.21.2' } }), ...files })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return analyze({ dir });
}

/**
 * Fastify's own view of an app's routes: `printRoutes({ includeHooks: true })` parsed into
 * `METHOD /path` → hook function names in the order Fastify runs them (onRequest … preHandler).
 * Trailing-slash twins collapse into one key; the HEAD route of a GET route is left out (Fastify
 * adds it; the inventory does not list implicit HEAD).
 */
function runtimeChains(tree: string): Map<string, string[]> {
  const phases = ['onRequest', 'preParsing', 'preValidation', 'preHandler'];
  const chains = new Map<string, Record<string, string[]>>();
  const stack: { col: number; path: string }[] = [];
  let current: Record<string, string[]>[] = [];
  for (const line of tree.split('\n')) {
    const hook = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (hook) {
      for (const c of current) c[hook[1]] = (JSON.parse(hook[2]) as string[]).map((n) => n.replace(/\(\)$/, ''));
      continue;
    }
    const node = /^([│ ]*)(└── |├── )?(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!node || (!node[2] && !node[4])) continue;
    const col = node[1].length + (node[2]?.length ?? 0);
    if (node[2]) {
      while (stack.length && stack[stack.length - 1].col >= col) stack.pop();
      stack.push({ col, path: (stack[stack.length - 1]?.path ?? '') + node[3] });
    }
    const full = stack[stack.length - 1].path.replace(/(.)\/+$/, '$1');
    current = (node[4]?.split(', ') ?? []).map((m) => {
      const key = `${m} ${full}`;
      if (!chains.has(key)) chains.set(key, {});
      return chains.get(key)!;
    });
  }
  const implicitHead = (key: string) => key.startsWith('HEAD ') && chains.has(`GET ${key.slice(5)}`);
  return new Map([...chains].filter(([key]) => !implicitHead(key)).map(([key, hooks]) => [key, phases.flatMap((p) => hooks[p] ?? [])]));
}

/** The analyzer's chain of each route without its handler, named as Fastify names functions (`instance.authenticate` → `authenticate`). */
function analyzedChains(inv: Inventory): Map<string, string[]> {
  return new Map(inv.routes.map((r) => [r.key, r.chain.map((c) => c.name.split('.').pop()!)]));
}

describe('Fastify instances by provenance', () => {
  it('recognises Fastify(), fastify({…}), require("fastify")(), require("fastify").default() and import { fastify }', async () => {
    const cjs = await analyzeProject('cjs-forms', {
      'app.js': `const a = require('fastify')();\nconst b = require('fastify').default({ logger: true });\nconst { fastify } = require('fastify');\nconst c = fastify();\na.get('/a', function ha() {});\nb.post('/b', function hb() {});\nc.put('/c', function hc() {});\n`,
    });
    expect(routeLines(cjs)).toEqual(['GET /a | ha', 'POST /b | hb', 'PUT /c | hc']);
    expect(cjs.apps.map((a) => [a.name, a.framework, a.createdBy])).toEqual([['a', 'fastify', 'fastify()'], ['b', 'fastify', 'fastify()'], ['c', 'fastify', 'fastify()']]);
    const esm = await analyzeProject('esm-forms', { 'app.js': `import Fastify from 'fastify';\nconst server = Fastify({ logger: true });\nserver.delete('/d', async function hd() {});\nexport default server;\n` }, 'module');
    expect(routeLines(esm)).toEqual(['DELETE /d | hd']);
    expect(esm.diagnostics.map((d) => d.code)).not.toContain('no-express');
  });

  it('never by variable name: a client called fastify is not an app', async () => {
    const inv = await analyzeProject('look-alike', {
      'app.js': `const fastify = require('./client');\nconst api = fastify();\napi.get('/users', function cb() {});\nfunction Fastify() { return { get() {} }; }\nFastify().get('/x', function cb2() {});\n`,
      'client.js': `module.exports = function () { return { get(url, cb) { return cb; } }; };\n`,
    });
    expect(inv.routes).toEqual([]);
    expect(inv.apps).toEqual([]);
  });
});

describe('chains agree with what Fastify itself reports', () => {
  it.each([['K1-cjs-js', 'app.js'], ['K2-esm-js', 'server.js']])('%s', async (name, entry) => {
    const inv = await analyze({ dir: K(name), entry });
    const mod = (await import(pathToFileURL(path.join(K(name), entry)).href)) as { default: { ready(): Promise<unknown>; printRoutes(o: object): string; close(): Promise<unknown> } };
    const app = mod.default;
    await app.ready();
    const runtime = runtimeChains(app.printRoutes({ includeHooks: true }));
    await app.close();
    expect([...runtime.keys()].sort()).toEqual(inv.routes.map((r) => r.key).sort());
    expect(Object.fromEntries(analyzedChains(inv))).toEqual(Object.fromEntries(runtime));
  });
});

describe('Fastify records', () => {
  it('records plugins as routers of kind plugin mounted at their prefix, hooks as middleware with their hook', async () => {
    const inv = await analyze({ dir: K('K1-cjs-js'), entry: 'app.js' });
    const [app] = inv.apps;
    expect(app).toMatchObject({ name: 'fastify', framework: 'fastify', createdBy: 'fastify()' });
    expect(inv.routers.map((r) => [r.name, r.kind, r.framework, r.appId === app.id])).toEqual([['users', 'plugin', 'fastify', true], ['admin', 'plugin', 'fastify', true], ['reports', 'plugin', 'fastify', true]]);
    expect(inv.mounts.map((m) => [m.mountPath, m.fullPath, m.kind, m.framework])).toEqual([['/users', '/users', 'plugin', 'fastify'], ['/admin', '/admin', 'plugin', 'fastify'], ['reports', '/admin/reports', 'plugin', 'fastify']]);
    expect(inv.middleware.map((m) => [m.name, m.hook, m.framework, m.scope, m.fullPath])).toEqual([
      ['requestId', 'onRequest', 'fastify', 'app', '/'],
      ['loadAccount', 'preHandler', 'fastify', 'router', '/users'],
      ['instance.authenticate', 'preHandler', 'fastify', 'router', '/admin'],
      ['audit', 'preHandler', 'fastify', 'app', '/'],
    ]);
    const show = inv.routes.find((r) => r.key === 'GET /users/:id')!;
    expect(show).toMatchObject({ framework: 'fastify', ownerId: inv.routers[0].id, registration: { file: 'routes/users.js', line: 5, kind: 'verb' }, resolution: 'exact' });
    expect(show.chain.map((c) => [c.name, c.scope, c.hook])).toEqual([['requestId', 'app', 'onRequest'], ['fastify.authenticate', 'route', 'onRequest'], ['loadAccount', 'router', 'preHandler'], ['audit', 'app', 'preHandler']]);
    expect(show.mountChain.map((m) => m.mountPath)).toEqual(['/users']);
    const file = inv.routes.find((r) => r.key === 'GET /admin/reports/:year/*')!;
    expect(file.path).toMatchObject({ raw: '/:year/*', full: '/admin/reports/:year/*', syntax: 'fastify' });
    expect(file.matchKey).toBe('GET /admin/reports/:_/*');
  });

  it('lists route() methods apart and marks them route-options', async () => {
    const inv = await analyze({ dir: K('K6-ts-esm'), entry: 'src/server.ts' });
    expect(inv.routes.filter((r) => r.registration.kind === 'route-options').map((r) => r.key).sort()).toEqual(['DELETE /v1/files/:name', 'GET /v1/files/:name', 'HEAD /v1/files/:name', 'PATCH /v1/files/:name', 'POST /v1/files', 'PUT /v1/files/:name']);
    expect(inv.routes.find((r) => r.key === 'ALL /any')?.registration.kind).toBe('all');
    expect(inv.routes.find((r) => r.key === 'PUT /v1/files/:name')?.handler.definition).toEqual({ file: 'src/files.ts', line: 17, column: 1 });
  });
});

describe('Express apps served through @fastify/express', () => {
  it.each([['K3-esm-js', 'src/app.js', 'src/server.js'], ['K3-ts-esm', 'src/app.ts', 'src/index.ts'], ['K4-cjs-js', 'app.js', 'server.js']])('%s: every route once, under the Fastify app, with the ids it had before the shim', async (name, appEntry, entry) => {
    const before = await analyze({ dir: K(name), entry: appEntry });
    const inv = await analyze({ dir: K(name), entry });
    const fastify = inv.apps.find((a) => a.framework === 'fastify')!;
    const express = inv.apps.find((a) => a.framework === undefined)!;
    expect(express.servedBy).toBe(fastify.id);
    expect(fastify.plugins?.map((p) => p.package)).toEqual(['@fastify/express']);
    const bridge = inv.mounts.find((m) => m.kind === 'bridge')!;
    expect(bridge).toMatchObject({ parent: fastify.id, child: express.id, mountPath: '/', fullPath: '/', framework: 'fastify' });
    expect(inv.routes.every((r) => r.framework === 'express' && r.appId === express.id && r.mountChain[0].mountId === bridge.id)).toBe(true);
    expect(routeLines(inv)).toEqual(routeLines(before));
    expect(inv.routes.map((r) => r.id).sort()).toEqual(before.routes.map((r) => r.id).sort());
    expect(inv.summary.complete).toBe(true);
  });

  it('puts the Fastify hooks and use() middleware before the bridge in the served routes, and the bridge in Fastify routes', async () => {
    const inv = await analyze({ dir: K('K7-cjs-js'), entry: 'server.js' });
    const legacy = inv.apps.find((a) => a.name === 'legacy')!;
    expect(inv.mounts.find((m) => m.kind === 'bridge')).toMatchObject({ child: legacy.id, mountPath: '/legacy', fullPath: '/legacy' });
    const report = inv.routes.find((r) => r.key === 'GET /legacy/reports/:id')!;
    expect(report.chain.map((c) => [c.name, c.hook ?? null, c.bridged ?? false])).toEqual([['timing', 'onRequest', false], ['cors', 'onRequest', true], ['legacyAuth', null, false]]);
    const health = inv.routes.find((r) => r.key === 'GET /legacy/health')!;
    expect(health.framework).toBe('fastify');
    expect(health.chain.map((c) => [c.name, c.hook, c.bridged ?? false])).toEqual([['timing', 'onRequest', false], ['cors', 'onRequest', true], ['legacyAuth', 'onRequest', true], ['afterBridge', 'onRequest', false]]);
    expect(inv.middleware.find((m) => m.name === 'cors')).toMatchObject({ framework: 'express', package: 'cors', hook: 'onRequest', fullPath: '/' });
  });

  it('scopes setErrorHandler and setNotFoundHandler to their plugin; the app-level one covers the Express routes', async () => {
    const inv = await analyze({ dir: K('K5-esm-js'), entry: 'src/server.js' });
    const ids = (...keys: string[]) => keys.map((k) => inv.routes.find((r) => r.key === k)!.id).sort();
    expect(inv.errorHandlers.map((e) => [e.name, e.fullPath, e.framework, e.scope, [...e.covers].sort()])).toEqual([
      ['apiErrorHandler', '/api', 'fastify', 'router', ids('GET /api/ping')],
      ['errorHandler', '/', 'fastify', 'app', ids('GET /', 'GET /boom')],
    ]);
    expect(inv.errorHandlers[1].reads.map((r) => r.api).sort()).toEqual(['err.message', 'err.status', 'err.statusCode']);
    expect(inv.notFoundHandlers.map((n) => [n.name, n.fullPath, n.framework, n.definition?.file])).toEqual([['apiNotFound', '/api', 'fastify', 'src/api.js'], ['notFound', '/', 'fastify', 'src/errors.js']]);
  });
});

describe('Express apps run by Fastify hooks (the plugins stage\'s form, without @fastify/express)', () => {
  it('a hook that calls the app is the bridge of its context; the not-found handler\'s serves the app for what no route matched', async () => {
    const inv = await analyze({ dir: K('K8-cjs-js'), entry: 'server.js' });
    const fastify = inv.apps.find((a) => a.framework === 'fastify')!;
    const express = inv.apps.find((a) => a.framework === undefined)!;
    expect(express.servedBy).toBe(fastify.id);
    expect(fastify.plugins ?? []).toEqual([]);
    expect(inv.mounts.filter((m) => m.kind === 'bridge').map((m) => [m.parent === fastify.id || inv.routers.some((r) => r.id === m.parent), m.child, m.fullPath])).toEqual([[true, express.id, '/']]);
    const chain = (key: string) => inv.routes.find((r) => r.key === key)!.chain.map((c) => [c.name, c.bridged ?? false]);
    expect(inv.routes.find((r) => r.key === 'GET /legacy')).toMatchObject({ framework: 'express', appId: express.id });
    expect(chain('GET /legacy/reports/:id')).toEqual([['timing', false], ['audit', false], ['legacyAuth', true]]);
    expect(chain('GET /health')).toEqual([['timing', false], ['audit', false]]);
    // setNotFoundHandler({ preHandler }) alone keeps Fastify's own 404: no handler of the app's.
    expect(inv.notFoundHandlers).toEqual([]);
    expect(inv.diagnostics.filter((d) => d.code === 'missing-bridge')).toEqual([]);
    expect(inv.summary.complete).toBe(true);
  });

  it('Fastify runs it as the inventory says: the route outside the hook\'s plugin never enters Express', async () => {
    // Node's own loader for both, so that app.js gets the same Express app (vitest's import would load another).
    const load = createRequire(path.join(K('K8-cjs-js'), 'app.js'));
    const legacy = load('./legacy.js') as { handle: (req: { url: string }, ...rest: unknown[]) => unknown };
    const build = load('./app.js') as () => { inject(url: string): Promise<{ statusCode: number; body: string }>; close(): Promise<unknown> };
    const handle = legacy.handle;
    const entered: string[] = [];
    legacy.handle = function (this: unknown, req: { url: string }, ...rest: unknown[]) {
      entered.push(req.url);
      return handle.call(this, req, ...rest);
    };
    const app = build();
    try {
      const answers = [];
      for (const url of ['/health', '/legacy/reports/7', '/legacy', '/nowhere']) {
        const r = await app.inject(url);
        answers.push([url, r.statusCode]);
      }
      expect(answers).toEqual([['/health', 200], ['/legacy/reports/7', 200], ['/legacy', 200], ['/nowhere', 404]]);
      expect(entered).toEqual(['/legacy/reports/7', '/legacy', '/nowhere']);
    } finally {
      legacy.handle = handle;
      await app.close();
    }
  });
});

describe('plugins exported as properties of a function', () => {
  it('module.exports = function (app) {…} and module.exports.plugin = plugin (the routes stage writes it so): the plugin is followed', async () => {
    const inv = await analyzeProject('fn-props', {
      'routes.js': [
        'module.exports = function (app) {',
        "  app.get('/still-express', function h(req, res) { res.end(); });",
        '};',
        'async function authRoutes(fastify) {',
        "  fastify.get('/login', async function login() { return 'ok'; });",
        '}',
        'module.exports.authRoutes = authRoutes;',
      ].join('\n'),
      'app.js': [
        "const Fastify = require('fastify');",
        "const { authRoutes } = require('./routes');",
        'const fastify = Fastify();',
        'fastify.register(authRoutes);',
        'module.exports = fastify;',
      ].join('\n'),
    });
    expect(inv.routes.map((r) => r.key)).toEqual(['GET /login']);
    expect(inv.diagnostics.filter((d) => d.message.includes('authRoutes'))).toEqual([]);
  });
});

describe('what the analyzer cannot follow is reported', () => {
  it('plugins it cannot read, folders of plugins, use() without a bridge, registrations never reached', async () => {
    const inv = await analyzeProject('gaps', {
      'app.js': [
        `const Fastify = require('fastify');`,
        `const f = Fastify();`,
        `f.register(require('@fastify/autoload'), { dir: 'routes' });`,
        `f.register(loadPlugin(process.env.PLUGIN));`,
        `f.use(function mw(req, res, next) { next(); });`,
        `function loadPlugin(name) { return require(name); }`,
        `module.exports = function later(app) { app.get('/never', function h() {}); };`,
      ].join('\n'),
    });
    expect(inv.diagnostics.map((d) => `${d.code} ${d.location?.line}`)).toEqual(expect.arrayContaining(['filesystem-registration 3', 'unresolved-router 4', 'missing-bridge 5', 'unresolved-router 7']));
    expect(inv.summary.complete).toBe(false);
  });
});

describe('rules and reports take Fastify records', () => {
  it.each([['K1-cjs-js', 'app.js'], ['K2-esm-js', 'server.js'], ['K3-esm-js', 'src/server.js'], ['K4-cjs-js', 'server.js'], ['K5-esm-js', 'src/server.js'], ['K6-ts-esm', 'src/server.ts'], ['K7-cjs-js', 'server.js']])('%s', async (name, entry) => {
    const inv = await analyzeWithReadiness({ dir: K(name), entry });
    // Readiness is about the routes still to move: the Express ones (rules/index.ts readinessOf).
    expect(inv.readiness?.routes.length).toBe(inv.routes.filter((r) => r.framework !== 'fastify').length);
    for (const render of [() => renderText(inv), () => renderMarkdown(inv), () => renderHtml(inv, RULES), () => renderSarif(inv, RULES)]) expect(render().length).toBeGreaterThan(0);
  });
});
