/**
 * transforms/plugin-registrations/view.ts: the @fastify/view registration of moved routes that render.
 * - on the example apps' real inventories (url-shortener: pug; legacy-cjs: ejs);
 * - options from hand-written inventory records (extension, 'view cache', 'view options',
 *   app.locals compile options, TypeScript, taken names) and every refusal;
 * - at run time: Express 4 answering `res.render` alone vs Fastify + @fastify/express (the shim's
 *   bridge) with the registration and the handlers rewritten by planHandlerRewrite (`views: true`):
 *   same status, content type and body, on the apps' own views and res.locals middleware;
 * - TypeScript: the registration and a rewritten handler type-check (strict) together.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import Fastify from 'fastify';
import fastifyExpress from '@fastify/express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Inventory, Setting, ViewEngine } from '../../analyzer/model.js';
import { planHandlerRewrite } from '../../transforms/handler-rewrite/rewrite.js';
import { functionPaths, jFor } from '../../transforms/lib/ast.js';
import { viewRegistration, type ViewRegistration } from '../../transforms/plugin-registrations/view.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const APPS = path.join(REPO, 'fixtures/apps');
const require = createRequire(import.meta.url);

const at = { file: 'app.js', line: 1, column: 1 };
const engineRecord = (ext: string, engine: string | null, appId = 'a'): ViewEngine => ({ appId, ext, engine, views: 'views', location: at });
const setting = (key: string, value: unknown, extra: Partial<Setting> = {}): Setting => ({ appId: 'a', ownerId: 'a', key, value, raw: JSON.stringify(value), kind: 'set', location: at, resolution: 'exact', ...extra });
const inventoryOf = (viewEngines: ViewEngine[], settings: Setting[] = []): Pick<Inventory, 'viewEngines' | 'settings'> => ({ viewEngines, settings });
const registration = (viewEngines: ViewEngine[], settings: Setting[] = [], extra: { typescript?: boolean; app?: string; taken?: Set<string> } = {}) =>
  viewRegistration({ appId: 'a', inventory: inventoryOf(viewEngines, settings), server: { typescript: extra.typescript ?? false }, app: extra.app, taken: extra.taken });

/** The lines of the `fastify.register(fastifyView, {…})` call. */
function registerLines(r: ViewRegistration): string[] {
  if ('refuse' in r) throw new Error(r.refuse);
  return r.statements.slice(r.statements.findIndex((s) => s.startsWith('fastify.register(')));
}

const COMMENT = [
  "// app.locals < res.locals (Express's, filled by the app's middleware in the bridge) < the view's locals, as Express did.",
];
const GETTER_JS = ["fastify.decorateReply('locals', {", '  getter() {', '    return this.raw.locals;', '  },', '});'];

describe('viewRegistration on the example apps', () => {
  let inventories: Record<string, Inventory>;
  beforeAll(async () => {
    inventories = { 'url-shortener': await analyze({ dir: path.join(APPS, 'url-shortener') }), 'legacy-cjs': await analyze({ dir: path.join(APPS, 'legacy-cjs') }) };
  }, 60_000);

  it.each([
    ['url-shortener', 'pug'],
    ['legacy-cjs', 'ejs'],
  ])('%s: %s with the app’s views and locals', (app, engine) => {
    const inventory = inventories[app];
    const r = viewRegistration({ appId: inventory.apps[0].id, inventory, server: { typescript: false } });
    expect(r).toEqual({
      imports: [
        { local: 'fastifyView', from: '@fastify/view', kind: 'default' },
        { local: engine, from: engine, kind: 'default' },
      ],
      statements: [
        `// res.render: @fastify/view renders the app's Express views (${engine}, app.get('views')) with`,
        ...COMMENT,
        ...GETTER_JS,
        'fastify.register(fastifyView, {',
        `  engine: { ${engine} },`,
        "  root: app.get('views'),",
        '  defaultContext: app.locals,',
        '});',
      ],
      dependencies: { '@fastify/view': '^12.0.0' },
    });
  });
});

describe('viewRegistration options', () => {
  it("ejs registered for .html (app.engine('html', ejs.renderFile)): viewExt", () => {
    expect(registerLines(registration([engineRecord('html', 'ejs')], [setting('view engine', 'html')]))).toEqual([
      'fastify.register(fastifyView, {',
      '  engine: { ejs },',
      "  root: app.get('views'),",
      "  viewExt: 'html',",
      '  defaultContext: app.locals,',
      '});',
    ]);
  });

  it("'view cache' set by the app: production follows it", () => {
    expect(registerLines(registration([engineRecord('pug', 'pug')], [setting('view cache', false, { kind: 'disable' })]))).toContain("  production: app.enabled('view cache'),");
  });

  it("ejs: 'view options' and app.locals named like ejs options, in ejs's order", () => {
    const r = registration([engineRecord('ejs', 'ejs')], [setting('view options', { rmWhitespace: true }), setting('delimiter', '?', { kind: 'locals' }), setting('siteName', 'Blog', { kind: 'locals' })]);
    expect(registerLines(r)).toContain("  options: { ...app.get('view options'), delimiter: app.locals.delimiter },");
  });

  it("pug: app.locals.pretty becomes a compile option; 'view options' is not read by pug", () => {
    const r = registration([engineRecord('pug', 'pug')], [setting('view options', { pretty: false }), setting('pretty', true, { kind: 'locals' }), setting('delimiter', '?', { kind: 'locals' })]);
    expect(registerLines(r)).toContain('  options: { pretty: app.locals.pretty },');
  });

  it('TypeScript: namespace import of the engine, its @types, a typed locals getter', () => {
    const r = registration([engineRecord('ejs', 'ejs')], [], { typescript: true });
    expect(r).toMatchObject({
      imports: [
        { local: 'fastifyView', from: '@fastify/view', kind: 'default' },
        { local: 'ejs', from: 'ejs', kind: 'namespace' },
      ],
      dependencies: { '@fastify/view': '^12.0.0', '@types/ejs': '^3.1.5' },
    });
    expect('statements' in r && r.statements).toContain('    return (this.raw as { locals?: object }).locals;');
  });

  it('names taken in the server module and another app expression', () => {
    const r = registration([engineRecord('pug', 'pug')], [], { app: 'options.app', taken: new Set(['pug', 'fastifyView']) });
    expect(r).toMatchObject({
      imports: [
        { local: 'fastifyView2', from: '@fastify/view' },
        { local: 'pug2', from: 'pug' },
      ],
    });
    expect(registerLines(r).slice(0, 3)).toEqual(['fastify.register(fastifyView2, {', '  engine: { pug: pug2 },', "  root: options.app.get('views'),"]);
  });

  it("views written as path.join(__dirname, 'views') is one directory even when the analysis could not fold it (an ESM __dirname)", () => {
    const r = registration([engineRecord('pug', 'pug')], [setting('views', null, { raw: "path.join(__dirname, 'views')", resolution: 'unresolved' })]);
    expect(registerLines(r).slice(0, 3)).toEqual(['fastify.register(fastifyView, {', '  engine: { pug },', "  root: app.get('views'),"]);
  });

  it("another app's and a sub-app's records are not read", () => {
    const r = registration([engineRecord('pug', 'pug'), engineRecord('ejs', 'ejs', 'other')], [setting('views', ['a', 'b'], { ownerId: 'subapp' }), setting('views', 'x', { appId: 'other', ownerId: 'other', value: null, resolution: 'unresolved' })]);
    expect('statements' in r).toBe(true);
  });
});

describe('viewRegistration refusals', () => {
  it.each<[string, ViewEngine[], Setting[], string]>([
    ['no engine', [], [], "the app sets no 'view engine'"],
    ['several engines', [engineRecord('ejs', 'ejs'), engineRecord('hbs', 'hbs')], [], 'the app has several view engines (ejs, hbs)'],
    ['an engine that was not probed', [engineRecord('hbs', 'express-handlebars')], [], "the app renders '.hbs' views with 'express-handlebars'"],
    ['an engine function', [engineRecord('html', null)], [], "the app renders '.html' views with an engine function the codemod does not know"],
    ["'view engine' known only at run time", [engineRecord('ejs', 'ejs')], [setting('view engine', null, { resolution: 'unresolved' })], "the app's 'view engine' is known only at run time"],
    ['views as a list', [engineRecord('ejs', 'ejs')], [setting('views', ['views', 'theme/views'])], "the app's 'views' is a list of directories"],
    ['views known only at run time', [engineRecord('ejs', 'ejs')], [setting('views', null, { resolution: 'unresolved' })], "the app's 'views' is not known statically to be one directory"],
    ['a custom View class', [engineRecord('ejs', 'ejs')], [setting('view', null, { resolution: 'unresolved' })], "the app sets a custom 'view' class"],
  ])('%s', (_name, engines, settings, reason) => {
    const r = registration(engines, settings);
    expect('refuse' in r && r.refuse).toContain(reason);
  });
});

/** A CommonJS module from source, requiring from the repository (express, ejs, pug, @fastify/view). */
function loadCommonJs(source: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('require', 'module', 'exports', '__dirname', source)(require, module, module.exports, REPO);
  return module.exports;
}

/** The handlers module rewritten function by function as the routes stage does (role route, views: true). */
function rewriteHandlers(source: string): string {
  const j = jFor('handlers.js');
  const root = j(source);
  const top = functionPaths(j, root).filter((p) => p.parent.node.type === 'Property' || p.parent.node.type === 'ObjectProperty');
  for (const fn of top) {
    const rewrite = planHandlerRewrite(j, fn, { role: 'route', scope: 'app', expressMajor: 4, jsonSettings: false, typescript: false, views: true });
    expect(rewrite.refusals).toEqual([]);
    expect(rewrite.plugins).toEqual(['@fastify/view']);
    rewrite.apply();
  }
  return root.toSource();
}

/** `movedRoutes(fastify, { app })`: the registration's requires and statements, then one route per handler. */
function movedRoutesModule(r: ViewRegistration, routes: Array<[string, string]>): string {
  if ('refuse' in r) throw new Error(r.refuse);
  return [
    ...r.imports.map((i) => `const ${i.local} = require('${i.from}');`),
    'module.exports = async function movedRoutes(fastify, { app, handlers }) {',
    ...r.statements.map((s) => `  ${s}`),
    ...routes.map(([url, name]) => `  fastify.get('${url}', handlers.${name});`),
    '};',
  ].join('\n');
}

/** The shim's bridge (transforms/server-module/template.ts `expressBridge`): the app's own Express runs in @fastify/express's preHandler hook. */
function expressBridge(app: express.Express) {
  return (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => {
    Object.setPrototypeOf(req, http.IncomingMessage.prototype);
    Object.setPrototypeOf(res, http.ServerResponse.prototype);
    for (const own of ['hostname', 'ip', 'ips']) delete (req as unknown as Record<string, unknown>)[own];
    for (const own of ['send', 'headersSent']) delete (res as unknown as Record<string, unknown>)[own];
    const r = req as http.IncomingMessage & { originalUrl: string };
    r.url = r.originalUrl;
    app(req as express.Request, res as express.Response, next);
  };
}

const servers: http.Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function serve(listener: http.RequestListener): Promise<string> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function answer(base: string, url: string): Promise<{ status: number; type: string | null; length: string | null; body: string }> {
  const res = await fetch(base + url);
  return { status: res.status, type: res.headers.get('content-type'), length: res.headers.get('content-length'), body: await res.text() };
}

interface RenderCase {
  app: string;
  /** Express app setup (settings, middleware) without the routes. */
  setup(app: express.Express): void;
  /** CommonJS source of the handlers object (`module.exports = { name: function … }`). */
  handlers: string;
  routes: Array<[string, string]>;
  requests: string[];
}

const CASES: RenderCase[] = [
  {
    app: 'url-shortener',
    setup(app) {
      app.set('view engine', 'pug');
      app.set('views', path.join(APPS, 'url-shortener/src/views'));
    },
    // src/controllers/root.controller.js, and the same answer from an async handler.
    handlers: "module.exports = {\n  render: function render(req, res) {\n    res.render('home');\n  },\n  later: async function later(req, res) {\n    await null;\n    res.render('home');\n  },\n};\n",
    routes: [
      ['/', 'render'],
      ['/later', 'later'],
    ],
    requests: ['/', '/later', '/'],
  },
  {
    app: 'legacy-cjs',
    setup(app) {
      app.set('view engine', 'ejs');
      app.set('views', path.join(APPS, 'legacy-cjs/views'));
      app.locals.siteName = 'overridden by res.locals';
      app.use(require('cookie-parser')('legacy-cookie-secret'));
      app.use(require(path.join(APPS, 'legacy-cjs/middleware/locals.js')));
    },
    // controllers/pages.js, controllers/articles.js and middleware/errors.js, with an in-memory list.
    handlers: [
      "const ARTICLES = [{ slug: 'a', title: 'A <b>', author: 'x', body: 'b', draft: false }, { slug: 'd', title: 'D', author: 'y', body: 'c', draft: true }];",
      'module.exports = {',
      "  about: function about(req, res) {\n    res.render('about', { title: 'About' });\n  },",
      "  home: function home(req, res) {\n    Promise.resolve(ARTICLES).then(function (articles) {\n      res.render('home', { articles: articles.filter(function (a) { return !a.draft; }) });\n    });\n  },",
      "  index: function index(req, res) {\n    res.render('articles/index', { articles: ARTICLES });\n  },",
      "  draft: function draft(req, res) {\n    res.status(403).render('error', { status: 403, message: 'This article is a draft. Log in to read it.' });\n  },",
      "  missing: async function missing(req, res) {\n    await null;\n    res.status(404).render('404', { url: req.originalUrl });\n  },",
      '};',
    ].join('\n'),
    routes: [
      ['/about', 'about'],
      ['/', 'home'],
      ['/articles', 'index'],
      ['/draft', 'draft'],
      ['/missing', 'missing'],
    ],
    requests: ['/about', '/', '/articles', '/draft', '/missing?q=<x>', '/about'],
  },
];

describe('a moved res.render answers as Express did', () => {
  it.each(CASES)('$app', async (c) => {
    const baseline = express();
    c.setup(baseline);
    const expressHandlers = loadCommonJs(c.handlers) as Record<string, express.RequestHandler>;
    for (const [url, name] of c.routes) baseline.get(url, expressHandlers[name]);

    const app = express();
    c.setup(app);
    const inventory = await analyze({ dir: path.join(APPS, c.app) });
    const movedRoutes = loadCommonJs(movedRoutesModule(viewRegistration({ appId: inventory.apps[0].id, inventory, server: { typescript: false } }), c.routes));
    const fastify = Fastify({ routerOptions: { caseSensitive: false, ignoreTrailingSlash: true } });
    fastify.register(fastifyExpress, { expressHook: 'preHandler' }).after(() => {
      fastify.use(expressBridge(app));
    });
    fastify.register(movedRoutes as never, { app, handlers: loadCommonJs(rewriteHandlers(c.handlers)) });
    await fastify.ready();

    const before = await serve(baseline);
    const after = await serve((req, res) => fastify.routing(req, res));
    for (const url of c.requests) {
      const expected = await answer(before, url);
      expect(expected.type).toBe('text/html; charset=utf-8');
      expect(await answer(after, url)).toEqual(expected);
    }
    await fastify.close();
  }, 60_000);
});

describe('TypeScript', () => {
  const TMP = path.join(REPO, '.tmp', 'routes-views');
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('the registration and a rewritten handler type-check (strict, without esModuleInterop)', () => {
    const r = registration([engineRecord('pug', 'pug')], [setting('view cache', true, { kind: 'enable' }), setting('pretty', true, { kind: 'locals' })], { typescript: true });
    if ('refuse' in r) throw new Error(r.refuse);
    mkdirSync(TMP, { recursive: true });
    const dir = mkdtempSync(path.join(TMP, 'tsc-'));
    dirs.push(dir);
    const imports = r.imports.map((i) => (i.kind === 'namespace' ? `import * as ${i.local} from '${i.from}';` : `import ${i.local} from '${i.from}';`));
    const server = [...imports, "import type { Express } from 'express';", "import type { FastifyInstance } from 'fastify';", '', 'export async function movedRoutes(fastify: FastifyInstance, { app }: { app: Express }) {', ...r.statements.map((s) => `  ${s}`), '}', ''];
    writeFileSync(path.join(dir, 'server.ts'), server.join('\n'));
    // What @types/pug (in dependencies) declares, reduced to the module.
    writeFileSync(path.join(dir, 'pug.d.ts'), "declare module 'pug';\n");
    const route = readFileSync(path.join(REPO, 'fixtures/transforms/handler-rewrite/ts-res-render/output.ts'), 'utf8').replace("'../store.js'", "'./store.js'");
    writeFileSync(path.join(dir, 'route.ts'), route);
    writeFileSync(path.join(dir, 'store.ts'), 'export const notes = { search: async (q: string) => [q] };\n');
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['*.ts'] }));
    let out = '';
    try {
      execFileSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(out).toBe('');
  }, 60_000);
});
