/**
 * The app module of a generated app (`app.js`/`app.ts`): `express()`, settings, app-level middleware,
 * `app.param`, app routes and a `route()` chain, router mounts, late middleware, the catch-all 404,
 * error middleware, and its export (plus the listen call when the app is a single file). Canonical style.
 */
import type { MiddlewareSpec, NotFoundSpec, PackageMiddleware, SettingSpec } from '../spec.js';
import { importLocalMiddleware, modulePath, quote, routeMiddlewareRef, type RenderContext } from './common.js';
import { ERROR_HANDLER_NAMES, errorHandlerFunction, handlerCode, HTTP_ERROR_TYPE, indent, params, registration, routeChain, storeDeclarations, type HandlerContext } from './handlers.js';
import { localMiddlewareBody, localMiddlewareState } from './middleware.js';
import { ModuleWriter } from './module-writer.js';
import { mountLines, paramLines } from './router.js';
import { listenLines } from './server.js';

/** Writes the app module into `rc.files`. */
export function writeApp(rc: RenderContext): void {
  const spec = rc.spec;
  const w = new ModuleWriter(modulePath(rc, 'app') + rc.ext, spec.module);
  if (spec.useStrict) w.prologue("'use strict';");
  w.importDefault('express', 'express');
  if (spec.asyncErrorsPatch) w.importSideEffect('express-async-errors');
  const ctx: HandlerContext = {
    w,
    express: spec.express,
    asyncErrorsHandled: spec.express === 5 || spec.asyncErrorsPatch,
    resource: 'books',
    parentParam: null,
    declared: new Set(['app', 'express']),
    uses: { store: false, asyncHelpers: new Set() },
  };
  const state: string[] = [];
  const main: string[] = ['const app = express();', ''];

  for (const s of spec.settings) main.push(settingLine(s));
  if (spec.settings.length > 0) main.push('');
  for (const m of spec.middleware) main.push(...middlewareLines(rc, w, ctx, m, state));
  if (spec.middleware.length > 0) main.push('');
  if (spec.appParam) main.push(...paramLines('app.param', 'userId'), '');
  spec.appRoutes.forEach((route, i) => {
    main.push(...registration(`app.${route.method}`, [quote(route.path)], handlerCode(ctx, route)), '');
    if (i === 0 && spec.lateMiddleware) main.push(...middlewareLines(rc, w, ctx, spec.lateMiddleware, state), '');
  });
  if (spec.appRoutes.length === 0 && spec.lateMiddleware) main.push(...middlewareLines(rc, w, ctx, spec.lateMiddleware, state), '');
  if (spec.appChain) main.push(...routeChain('app', spec.appChain, (r) => handlerCode(ctx, r), () => routeMiddlewareRef(rc, w, 'requireAuth'), quote), '');
  main.push(...mountLines(rc, w, 'app', null), '');
  main.push(...notFoundLines(ctx, spec.notFound), '');
  main.push(...errorHandlerLines(rc, ctx), '');

  w.prependBody([...storeDeclarations(ctx), ...state]);
  if (w.ts && spec.errorHandlers.some((h) => h.form !== 'module')) w.prependBody([HTTP_ERROR_TYPE, '']);
  w.line(...main);
  writeExportAndListen(rc, w);
  rc.files[w.file] = w.toString();
}

function writeExportAndListen(rc: RenderContext, w: ModuleWriter): void {
  const spec = rc.spec;
  if (!spec.singleFile) {
    w.exportDefault('app');
    return;
  }
  if (spec.listen === 'require-main') {
    // `export =` is TypeScript's CommonJS export (catalogue P42); it must be the only export.
    w.line(spec.module === 'ts-cjs' ? 'export = app;' : 'module.exports = app;', '');
    w.line(...listenLines(rc, w, spec));
    return;
  }
  w.line(...listenLines(rc, w, spec));
  w.exportDefault('app');
}

function settingLine(s: SettingSpec): string {
  switch (s.key) {
    case 'trust proxy':
      return { 'set-1': "app.set('trust proxy', 1);", 'set-true': "app.set('trust proxy', true);", enable: "app.enable('trust proxy');", 'set-loopback': "app.set('trust proxy', 'loopback');" }[s.form];
    case 'strict routing':
    case 'case sensitive routing':
      return s.form === 'enable' ? `app.enable('${s.key}');` : `app.set('${s.key}', true);`;
    case 'query parser':
      return `app.set('query parser', '${s.value}');`;
    case 'x-powered-by':
      return "app.disable('x-powered-by');";
    case 'json spaces':
      return "app.set('json spaces', 2);";
  }
}

/** `app.use([path,] mw);` for one app-level middleware; local ones inline or imported. */
function middlewareLines(rc: RenderContext, w: ModuleWriter, ctx: HandlerContext, m: MiddlewareSpec, state: string[]): string[] {
  const pathArg = m.path ? [quote(m.path)] : [];
  if ('package' in m.use) return [`app.use(${[...pathArg, packageMiddleware(rc, w, m.use.package)].join(', ')});`];
  const { local, form } = m.use;
  if (form === 'module' || local === 'requireAuth') return [`app.use(${[...pathArg, importLocalMiddleware(rc, w, local)].join(', ')});`];
  state.push(...localMiddlewareState(local));
  const head = rc.cosmetic.chance(0.5) ? `function ${local}${params(ctx, ['req', 'res', 'next'], false)}` : '(req, res, next) =>';
  return registration('app.use', pathArg, { head, body: localMiddlewareBody(local) });
}

/** The call expression of a package middleware, importing its package. */
function packageMiddleware(rc: RenderContext, w: ModuleWriter, p: PackageMiddleware): string {
  const call = (fn: string, args: Array<string | null>) => `${fn}(${args.filter((a) => a !== null).join(', ')})`;
  switch (p.kind) {
    case 'json':
    case 'text':
      return call(`express.${p.kind}`, [p.options]);
    case 'urlencoded':
      return call('express.urlencoded', [p.options]);
    case 'cors':
      return call(w.importDefault('cors', 'cors'), [p.options]);
    case 'helmet':
      return call(w.importDefault('helmet', 'helmet'), [p.options]);
    case 'cookie-parser':
      return call(w.importDefault('cookie-parser', 'cookieParser'), [p.secret]);
    case 'session':
      return call(w.importDefault('express-session', 'session'), [p.options]);
    case 'morgan':
      return call(w.importDefault('morgan', 'morgan'), [quote(p.format)]);
    case 'compression':
      return call(w.importDefault('compression', 'compression'), []);
    case 'static': {
      const dir = staticDir(rc, w);
      const mw = call('express.static', [dir, p.options]);
      return p.mountPath ? `${quote(p.mountPath)}, ${mw}` : mw;
    }
  }
}

/** The static folder expression: `path.join(__dirname, 'public')` in CommonJS, from `import.meta.url` or the cwd in ESM. */
function staticDir(rc: RenderContext, w: ModuleWriter): string {
  const cjs = rc.spec.module === 'cjs' || rc.spec.module === 'ts-cjs';
  if (!cjs && rc.cosmetic.chance(0.5)) return `${w.importNamed('node:url', 'fileURLToPath')}(new URL('./public', import.meta.url))`;
  const path = w.importDefault(rc.cosmetic.chance(0.5) ? 'path' : 'node:path', 'path');
  return cjs ? `${path}.join(__dirname, 'public')` : `${path}.join(process.cwd(), 'public')`;
}

/** The catch-all 404: a final `app.use`, `app.all('*')` (Express 4), `app.all('/{*splat}')` (Express 5), or `next(err)` with status 404. */
function notFoundLines(ctx: HandlerContext, notFound: NotFoundSpec): string[] {
  const body404 = ["res.status(404).json({ error: 'Not Found', path: req.originalUrl });"];
  switch (notFound) {
    case null:
      return [];
    case 'use-json':
      return registration('app.use', [], { head: '(req, res) =>', body: body404 });
    case 'use-named':
      ctx.w.line(`function notFound${params(ctx, ['req', 'res'], true)} {`, "  res.status(404).send('Not found');", '}', '');
      return ['app.use(notFound);'];
    case 'all-star':
      return registration('app.all', ["'*'"], { head: '(req, res) =>', body: body404 });
    case 'all-splat':
      return registration('app.all', ["'/{*splat}'"], { head: '(req, res) =>', body: body404 });
    case 'next-404':
      return registration('app.use', [], { head: '(req, res, next) =>', body: ["next(Object.assign(new Error('Not Found'), { status: 404 }));"] });
  }
}

/** App-level error middleware, in order (`logErrors` then `errorHandler` when there are two). */
function errorHandlerLines(rc: RenderContext, ctx: HandlerContext): string[] {
  const out: string[] = [];
  for (const spec of rc.spec.errorHandlers) {
    const name = ERROR_HANDLER_NAMES[spec.role];
    if (spec.form === 'module') {
      rc.errorModule.push({ name, spec });
      out.push(`app.use(${ctx.w.importNamed(ctx.w.local(modulePath(rc, 'middleware/errors')), name)});`);
      continue;
    }
    const fn = errorHandlerFunction(ctx, spec, spec.form === 'named' ? name : null);
    if (spec.form === 'named') {
      ctx.w.line(`${fn.head} {`, ...indent(fn.body), '}', '');
      out.push(`app.use(${name});`);
    } else out.push(...registration('app.use', [], fn));
  }
  return out;
}
