/**
 * What a generated app contains, decided from a seed before any code is written (render.ts writes
 * it). The choices follow the pattern catalogue (`shared/reference/analyzer-patterns.md`, sections
 * A–J) and the shapes of the example apps under `fixtures/apps/`.
 */
import { Rng } from './random.js';
import type { CodeStyle } from './style.js';

/** `ts-esm`: TypeScript in a `"type": "module"` package; `ts-cjs`: TypeScript compiled to CommonJS. */
export type ModuleKind = 'cjs' | 'esm' | 'ts-esm' | 'ts-cjs';

/** How the app starts listening (issue 7, shim stage: the listen shapes it must keep). */
export type ListenShape =
  | 'port'
  | 'port-callback'
  | 'port-host-callback'
  | 'server-address'
  | 'http-create-server'
  | 'require-main'
  | 'top-level-await';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'all';

/** What a handler does: the body renderers know each one. */
export type Operation = 'list' | 'show' | 'create' | 'update' | 'remove' | 'search' | 'action' | 'echo-text' | 'redirect' | 'html' | 'boom' | 'health' | 'home' | 'session-views' | 'param-profile';

export interface RouteSpec {
  method: Method;
  path: string;
  operation: Operation;
  /** `inline-arrow`/`inline-function` in the route call, `named` function in the same file, `controller` in controllers/. */
  handler: 'inline-arrow' | 'inline-function' | 'named' | 'controller';
  async: boolean;
  /** Not-found answered with `next(err)` instead of a response. */
  nextError: boolean;
  /** Route-level middleware, in order. */
  middleware: Array<'requireAuth' | 'json' | 'requireRole'>;
}

/** Routes registered through `route(path).get(…).post(…)`. */
export interface RouteChainSpec {
  path: string;
  /** `route().all(mw)` before the verbs. */
  allMiddleware: boolean;
  routes: RouteSpec[];
}

/** An error middleware. `arity3` is the trap of catalogue P49: three parameters, never called with errors. */
export interface ErrorHandlerSpec {
  form: 'inline' | 'named' | 'module';
  /** `log-and-delegate`: logs and passes the error on (the first of two app-level handlers, as in the Express guide). */
  role: 'respond' | 'log-and-delegate';
  arity: 4 | 3;
  /** Checks `res.headersSent` and delegates with `next(err)`. */
  delegates: boolean;
  body: 'json-status' | 'text-500' | 'json-message';
}

export type PackageMiddleware =
  | { kind: 'json'; options: string | null }
  | { kind: 'urlencoded'; options: string }
  | { kind: 'text'; options: string | null }
  | { kind: 'cors'; options: string | null }
  | { kind: 'helmet'; options: string | null }
  | { kind: 'cookie-parser'; secret: string | null }
  | { kind: 'session'; options: string }
  | { kind: 'morgan'; format: string }
  | { kind: 'compression' }
  | { kind: 'static'; mountPath: string | null; options: string | null };

export type LocalMiddleware = 'requestId' | 'logger' | 'requireAuth' | 'poweredBy';

export interface MiddlewareSpec {
  /** `app.use(path, mw)` when set. */
  path: string | null;
  use: { package: PackageMiddleware } | { local: LocalMiddleware; form: 'inline' | 'module' };
}

export interface RouterSpec {
  /** Resource name, also the file name (`routes/<name>`). */
  name: string;
  /** The router that mounts this one, or null for the app. */
  parent: string | null;
  /** Mount path (relative to the parent); null mounts without a path (`app.use(router)`). */
  mountPath: string | null;
  creation: 'express.Router' | 'Router' | 'Router-options';
  options: { mergeParams?: boolean; strict?: boolean; caseSensitive?: boolean };
  exportForm: 'default' | 'named';
  middleware: LocalMiddleware[];
  param: boolean;
  routes: RouteSpec[];
  chains: RouteChainSpec[];
  errorHandler: ErrorHandlerSpec | null;
  /** Middleware between the mount path and the router in the parent's `use`. */
  mountMiddleware: boolean;
}

export type SettingSpec =
  | { key: 'trust proxy'; form: 'set-1' | 'set-true' | 'enable' | 'set-loopback' }
  | { key: 'strict routing'; form: 'set' | 'enable' }
  | { key: 'case sensitive routing'; form: 'set' | 'enable' }
  | { key: 'query parser'; value: 'extended' | 'simple' }
  | { key: 'x-powered-by' }
  | { key: 'json spaces' };

export type NotFoundSpec = 'use-json' | 'use-named' | 'all-star' | 'all-splat' | 'next-404' | null;

/** Every choice of one generated app. */
export interface AppSpec {
  seed: number;
  module: ModuleKind;
  express: 4 | 5;
  /** '' or 'src/'. */
  dir: string;
  style: CodeStyle;
  /** `app.js` holds the listen call too (no server file). */
  singleFile: boolean;
  listen: ListenShape;
  /** Host expression (source text) for `listen(port, host, cb)`, else null. */
  host: string | null;
  /** `process.env.PORT || 3000`, `Number(process.env.PORT ?? 3000)` or `3000`. */
  port: 'env-or' | 'number-env' | 'literal';
  settings: SettingSpec[];
  middleware: MiddlewareSpec[];
  /** Middleware registered after the first app route (catalogue P33: it applies to later routes only). */
  lateMiddleware: MiddlewareSpec | null;
  /** `require('express-async-errors')` (Express 4 only). */
  asyncErrorsPatch: boolean;
  /** `app.param('userId', …)` with a `/profile/:userId` route. */
  appParam: boolean;
  /** Routes registered on the app itself. */
  appRoutes: RouteSpec[];
  /** `app.route('/books')` or `app.route('/books/:id')` chain. */
  appChain: RouteChainSpec | null;
  routers: RouterSpec[];
  /** The catch-all 404 after the routes, or none. */
  notFound: NotFoundSpec;
  /** App-level error middleware, in registration order (0–2). */
  errorHandlers: ErrorHandlerSpec[];
  /** CommonJS modules start with 'use strict'. */
  useStrict: boolean;
}

const RESOURCES = ['users', 'posts', 'orders', 'products', 'comments', 'tags', 'invoices', 'notes', 'reports', 'teams'];

/** Chooses every feature of the app for `seed`. Deterministic. */
export function chooseSpec(seed: number): AppSpec {
  const rng = new Rng(seed);
  const module = rng.weighted<ModuleKind>([['cjs', 3], ['esm', 3], ['ts-esm', 2], ['ts-cjs', 1]]);
  const express = rng.chance(0.35) ? 5 : 4;
  const style: CodeStyle = {
    quote: rng.chance(0.6) ? 'single' : 'double',
    semicolons: rng.chance(0.7),
    indent: rng.weighted([['  ', 6], ['    ', 2], ['\t', 2]]),
    eol: rng.chance(0.2) ? '\r\n' : '\n',
  };
  const listen = chooseListen(rng, module);
  const singleFile = listen === 'require-main' || rng.chance(0.12);
  const routers = chooseRouters(rng, express);
  const middleware = chooseMiddleware(rng);
  const appRoutes = chooseAppRoutes(rng, middleware);
  const appChain = rng.chance(0.3) ? chooseChain(rng) : null;
  // Every app answers at least one route.
  if (routers.length === 0 && appRoutes.length === 0 && appChain === null) appRoutes.push(route(rng, 'get', '/health', 'health'));
  const appParam = rng.chance(0.2);
  if (appParam) appRoutes.push(route(rng, 'get', '/profile/:userId', 'param-profile'));
  return {
    seed,
    module,
    express,
    dir: module.startsWith('ts') || rng.chance(0.4) ? 'src/' : '',
    style,
    singleFile,
    listen,
    host: listen === 'port-host-callback' ? rng.pick(["'0.0.0.0'", "'127.0.0.1'", "process.env.HOST || 'localhost'"]) : null,
    port: rng.pick(['env-or', 'number-env', 'literal'] as const),
    settings: chooseSettings(rng),
    middleware,
    lateMiddleware: rng.chance(0.15) ? lateMiddleware(middleware) : null,
    asyncErrorsPatch: express === 4 && rng.chance(0.12),
    appParam,
    appRoutes,
    appChain,
    routers,
    notFound: chooseNotFound(rng, express),
    errorHandlers: chooseAppErrorHandlers(rng),
    useStrict: module === 'cjs' && rng.chance(0.4),
  };
}

function chooseListen(rng: Rng, module: ModuleKind): ListenShape {
  const shapes: Array<[ListenShape, number]> = [
    ['port', 2],
    ['port-callback', 3],
    ['port-host-callback', 2],
    ['server-address', 2],
    ['http-create-server', 2],
  ];
  if (module === 'cjs' || module === 'ts-cjs') shapes.push(['require-main', 2]);
  if (module === 'esm' || module === 'ts-esm') shapes.push(['top-level-await', 1]);
  return rng.weighted(shapes);
}

function chooseSettings(rng: Rng): SettingSpec[] {
  const out: SettingSpec[] = [];
  if (rng.chance(0.3)) out.push({ key: 'trust proxy', form: rng.pick(['set-1', 'set-true', 'enable', 'set-loopback'] as const) });
  if (rng.chance(0.15)) out.push({ key: 'strict routing', form: rng.pick(['set', 'enable'] as const) });
  if (rng.chance(0.15)) out.push({ key: 'case sensitive routing', form: rng.pick(['set', 'enable'] as const) });
  if (rng.chance(0.2)) out.push({ key: 'query parser', value: rng.pick(['extended', 'simple'] as const) });
  if (rng.chance(0.3)) out.push({ key: 'x-powered-by' });
  if (rng.chance(0.1)) out.push({ key: 'json spaces' });
  return out;
}

function chooseMiddleware(rng: Rng): MiddlewareSpec[] {
  const out: MiddlewareSpec[] = [];
  const add = (use: MiddlewareSpec['use'], path: string | null = null) => out.push({ path, use });
  if (rng.chance(0.25)) add({ local: 'requestId', form: rng.pick(['inline', 'module'] as const) });
  if (rng.chance(0.3)) add({ package: { kind: 'helmet', options: rng.pick([null, '{ contentSecurityPolicy: false }']) } });
  if (rng.chance(0.35)) add({ package: { kind: 'cors', options: rng.pick([null, "{ origin: 'https://example.com', credentials: true }", '{ maxAge: 600 }']) } });
  if (rng.chance(0.15)) add({ package: { kind: 'compression' } });
  if (rng.chance(0.2)) add({ package: { kind: 'morgan', format: rng.pick(['dev', 'combined', 'tiny']) } });
  if (rng.chance(0.7)) add({ package: { kind: 'json', options: rng.pick([null, null, "{ limit: '1mb' }", "{ limit: '10kb', strict: false }"]) } }, rng.chance(0.1) ? '/api' : null);
  if (rng.chance(0.4)) add({ package: { kind: 'urlencoded', options: rng.pick(['{ extended: true }', '{ extended: false }', "{ extended: true, limit: '50kb' }"]) } });
  if (rng.chance(0.15)) add({ package: { kind: 'text', options: rng.pick([null, "{ type: 'text/plain' }"]) } });
  if (rng.chance(0.25)) add({ package: { kind: 'cookie-parser', secret: rng.pick([null, "'cookie-secret'"]) } });
  if (rng.chance(0.2)) add({ package: { kind: 'session', options: rng.pick(["{ secret: 'keyboard cat', resave: false, saveUninitialized: false }", "{ secret: 'keyboard cat', resave: false, saveUninitialized: true, cookie: { maxAge: 60000 } }"]) } });
  if (rng.chance(0.2)) add({ package: { kind: 'static', mountPath: rng.pick([null, '/static', '/public']), options: rng.pick([null, "{ maxAge: '1d' }"]) } });
  if (rng.chance(0.25)) add({ local: 'logger', form: rng.pick(['inline', 'module'] as const) });
  if (rng.chance(0.15)) add({ local: 'poweredBy', form: 'inline' });
  if (rng.chance(0.1)) add({ local: 'requireAuth', form: 'module' }, '/admin');
  return out;
}

/** Catalogue P33: a logger registered after the first route (morgan, or a local logger when morgan already runs). */
function lateMiddleware(middleware: MiddlewareSpec[]): MiddlewareSpec {
  const hasMorgan = middleware.some((m) => 'package' in m.use && m.use.package.kind === 'morgan');
  return { path: null, use: hasMorgan ? { local: 'logger', form: 'inline' } : { package: { kind: 'morgan', format: 'tiny' } } };
}

function chooseAppRoutes(rng: Rng, middleware: MiddlewareSpec[]): RouteSpec[] {
  const out: RouteSpec[] = [];
  if (rng.chance(0.6)) out.push(route(rng, 'get', '/', rng.pick(['home', 'html'] as const)));
  if (rng.chance(0.5)) out.push(route(rng, 'get', '/health', 'health'));
  if (rng.chance(0.15)) out.push(route(rng, 'get', '/old-home', 'redirect'));
  if (rng.chance(0.15)) out.push(route(rng, 'get', '/boom', 'boom'));
  if (middleware.some((m) => 'package' in m.use && m.use.package.kind === 'text')) out.push(route(rng, 'post', '/echo', 'echo-text'));
  if (middleware.some((m) => 'package' in m.use && m.use.package.kind === 'session')) out.push(route(rng, 'get', '/views', 'session-views'));
  if (rng.chance(0.1)) out.push(route(rng, 'all', '/ping', 'health'));
  return out;
}

function route(rng: Rng, method: Method, path: string, operation: Operation, handler?: RouteSpec['handler']): RouteSpec {
  return {
    method,
    path,
    operation,
    handler: handler ?? rng.weighted([['inline-arrow', 4], ['inline-function', 2], ['named', 2]]),
    async: rng.chance(0.3),
    nextError: false,
    middleware: [],
  };
}

function chooseRouters(rng: Rng, express: 4 | 5): RouterSpec[] {
  const count = rng.weighted([[0, 2], [1, 3], [2, 3], [3, 2], [4, 2]]);
  const names = rng.sample(RESOURCES, count);
  const controllers = rng.chance(0.35);
  const routers: RouterSpec[] = [];
  for (const name of names) {
    const parent = routers.length > 0 && rng.chance(0.3) ? rng.pick(routers) : null;
    const nestedUnderParam = parent !== null && rng.chance(0.5);
    const mountPath = nestedUnderParam ? `/:${singular(parent.name)}Id/${name}` : parent ? `/${name}` : rng.weighted<string | null>([[`/${name}`, 4], [`/api/${name}`, 3], [`/api/v1/${name}`, 2], [null, 1]]);
    const creation = nestedUnderParam || rng.chance(0.15) ? 'Router-options' : rng.pick(['express.Router', 'Router'] as const);
    const options = nestedUnderParam ? { mergeParams: true } : creation === 'Router-options' ? rng.pick([{ strict: true }, { caseSensitive: true }, { mergeParams: true }]) : {};
    routers.push({
      name,
      parent: parent?.name ?? null,
      mountPath,
      creation,
      options,
      exportForm: rng.chance(0.7) ? 'default' : 'named',
      middleware: rng.chance(0.3) ? [rng.pick(['requireAuth', 'logger'] as const)] : [],
      param: rng.chance(0.25),
      ...chooseResourceRoutes(rng, express, controllers),
      errorHandler: rng.chance(0.2) ? chooseErrorHandler(rng) : null,
      mountMiddleware: mountPath !== null && rng.chance(0.15),
    });
  }
  return routers;
}

/** The CRUD routes of a resource router, some of them as `route()` chains. */
function chooseResourceRoutes(rng: Rng, express: 4 | 5, controllers: boolean): Pick<RouterSpec, 'routes' | 'chains'> {
  const handler = (): RouteSpec['handler'] => (controllers ? 'controller' : rng.weighted([['inline-arrow', 3], ['inline-function', 1], ['named', 2]]));
  const crud = (method: Method, path: string, operation: Operation): RouteSpec => ({
    method,
    path,
    operation,
    handler: handler(),
    async: rng.chance(0.35),
    nextError: operation === 'show' && rng.chance(0.4),
    middleware: method !== 'get' && rng.chance(0.2) ? [rng.pick(['requireAuth', 'json', 'requireRole'] as const)] : [],
  });
  const idPath = express === 4 && rng.chance(0.15) ? '/:id(\\d+)' : '/:id';
  const collection = [crud('get', '/', 'list'), ...(rng.chance(0.8) ? [crud('post', '/', 'create')] : [])];
  const item = [crud('get', idPath, 'show'), ...(rng.chance(0.6) ? [crud(rng.pick(['put', 'patch'] as const), idPath, 'update')] : []), ...(rng.chance(0.6) ? [crud('delete', idPath, 'remove')] : [])];
  const extras: RouteSpec[] = [];
  if (rng.chance(0.25)) extras.push(crud('get', express === 5 && rng.chance(0.5) ? '/export{.:format}' : '/search', 'search'));
  if (rng.chance(0.2)) extras.push(crud('post', `${idPath}/archive`, 'action'));
  const chains: RouteChainSpec[] = [];
  const routes: RouteSpec[] = [];
  // Extras first: '/search' must come before '/:id' or the parameter would take it.
  routes.push(...extras);
  for (const [path, group] of [['/', collection], [idPath, item]] as const) {
    if (group.length > 1 && rng.chance(0.3)) chains.push({ path, allMiddleware: rng.chance(0.2), routes: group });
    else routes.push(...group);
  }
  return { routes, chains };
}

/** An app-level `app.route(path)` chain on the collection (`/books`: list, create) or one item (`/books/:id`: show, update, remove). */
function chooseChain(rng: Rng): RouteChainSpec {
  const item = rng.chance(0.5);
  const path = item ? '/books/:id' : '/books';
  const r = (method: Method, operation: Operation): RouteSpec => route(rng, method, path, operation);
  const routes = item ? [r('get', 'show'), r('put', 'update'), ...(rng.chance(0.5) ? [r('delete', 'remove')] : [])] : [r('get', 'list'), r('post', 'create')];
  return { path, allMiddleware: rng.chance(0.4), routes };
}

/** 0–2 app-level error middleware; with two, the first logs and delegates (four parameters). */
function chooseAppErrorHandlers(rng: Rng): ErrorHandlerSpec[] {
  const count = rng.weighted([[0, 2], [1, 5], [2, 2]]);
  const handlers = Array.from({ length: count }, () => chooseErrorHandler(rng));
  if (count === 2) handlers[0] = { ...handlers[0], role: 'log-and-delegate', arity: 4, delegates: false };
  return handlers;
}

function chooseErrorHandler(rng: Rng): ErrorHandlerSpec {
  return {
    form: rng.pick(['inline', 'named', 'module'] as const),
    role: 'respond',
    arity: rng.chance(0.08) ? 3 : 4,
    delegates: rng.chance(0.3),
    body: rng.pick(['json-status', 'text-500', 'json-message'] as const),
  };
}

function chooseNotFound(rng: Rng, express: 4 | 5): NotFoundSpec {
  return rng.weighted<NotFoundSpec>([
    [null, 3],
    ['use-json', 3],
    ['use-named', 2],
    [express === 4 ? 'all-star' : 'all-splat', 2],
    ['next-404', 1],
  ]);
}

/** `users` → `user`: the parameter name of a parent resource. */
export function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : name;
}
