/**
 * A router module of a generated app (`routes/<name>`): creation, router-level middleware,
 * `router.param`, routes and `route()` chains, the routers it mounts, a router-level error handler,
 * and its export; plus `controllers/<name>` when its handlers live there. Canonical style.
 */
import type { RouterSpec } from '../spec.js';
import { singular } from '../spec.js';
import { importLocalMiddleware, modulePath, quote, routeMiddlewareRef, type RenderContext } from './common.js';
import { errorHandlerFunction, handlerCode, HTTP_ERROR_TYPE, indent, registration, routeChain, storeDeclarations, type HandlerCode, type HandlerContext } from './handlers.js';
import { localMiddlewareBody } from './middleware.js';
import { ModuleWriter } from './module-writer.js';

/** The name a router is imported under (`usersRouter`). */
export function routerBinding(router: RouterSpec): string {
  return `${router.name}Router`;
}

/** Imports `router` into `w` in its export form; returns the binding. */
export function importRouter(rc: RenderContext, w: ModuleWriter, router: RouterSpec): string {
  const spec = w.local(modulePath(rc, `routes/${router.name}`));
  return router.exportForm === 'default' ? w.importDefault(spec, routerBinding(router)) : w.importNamed(spec, routerBinding(router));
}

/** `owner.use(path, [middleware,] child);` for every router `parent` mounts (null: the app). */
export function mountLines(rc: RenderContext, w: ModuleWriter, owner: string, parent: string | null): string[] {
  const out: string[] = [];
  for (const child of rc.spec.routers.filter((r) => r.parent === parent)) {
    const binding = importRouter(rc, w, child);
    const guard = child.mountMiddleware ? [importLocalMiddleware(rc, w, 'requireAuth')] : [];
    const args = [...(child.mountPath === null ? [] : [quote(child.mountPath)]), ...guard, binding];
    out.push(`${owner}.use(${args.join(', ')});`);
  }
  return out;
}

/** Writes `routes/<name>` (and `controllers/<name>` when used) into `rc.files`. */
export function writeRouter(rc: RenderContext, router: RouterSpec): void {
  const w = new ModuleWriter(modulePath(rc, `routes/${router.name}`) + rc.ext, rc.spec.module);
  const controllerWriter = new ModuleWriter(modulePath(rc, `controllers/${router.name}`) + rc.ext, rc.spec.module);
  const parentParam = router.options.mergeParams && router.mountPath?.startsWith('/:') ? `${singular(router.parent ?? '')}Id` : null;
  const context = (writer: ModuleWriter): HandlerContext => ({
    w: writer,
    express: rc.spec.express,
    asyncErrorsHandled: rc.spec.express === 5 || rc.spec.asyncErrorsPatch,
    resource: router.name,
    parentParam,
    declared: new Set([routerBinding(router), 'router']),
    uses: { store: false, asyncHelpers: new Set() },
  });
  const ctx = context(w);
  const controllerCtx = context(controllerWriter);
  const controllerNs = `${router.name}Controller`;
  let controllerUsed = false;
  const handlerOf = (route: RouterSpec['routes'][number]): HandlerCode => {
    if (route.handler !== 'controller') return handlerCode(ctx, route);
    controllerUsed = true;
    w.importNamespace(w.local(modulePath(rc, `controllers/${router.name}`)), controllerNs);
    const h = handlerCode(controllerCtx, route);
    return 'ref' in h ? { ref: `${controllerNs}.${h.ref}` } : h;
  };

  const binding = router.exportForm === 'default' ? 'router' : routerBinding(router);
  const main: string[] = [];
  for (const mw of router.middleware) {
    if (mw === 'requireAuth') main.push(`${binding}.use(${importLocalMiddleware(rc, w, 'requireAuth')});`);
    else main.push(...registration(`${binding}.use`, [], { head: '(req, res, next) =>', body: localMiddlewareBody(mw) }));
  }
  if (router.param) main.push(...paramLines(`${binding}.param`, 'id'));
  for (const route of router.routes) {
    const middleware = route.middleware.map((m) => routeMiddlewareRef(rc, w, m));
    main.push(...registration(`${binding}.${route.method}`, [quote(route.path), ...middleware], handlerOf(route)));
  }
  for (const chain of router.chains) main.push(...routeChain(binding, chain, handlerOf, () => importLocalMiddleware(rc, w, 'requireAuth'), quote));
  main.push(...mountLines(rc, w, binding, router.name));
  if (router.errorHandler) {
    const name = router.errorHandler.form === 'inline' ? null : `${router.name}ErrorHandler`;
    const fn = errorHandlerFunction(ctx, router.errorHandler, name);
    if (w.ts) w.prependBody([HTTP_ERROR_TYPE, '']);
    if (name) {
      w.line(`${fn.head} {`, ...indent(fn.body), '}', '');
      main.push(`${binding}.use(${name});`);
    } else main.push(...registration(`${binding}.use`, [], fn));
  }

  w.prependBody(storeDeclarations(ctx));
  const creation = routerCreation(w, router);
  if (router.exportForm === 'named') w.exported(binding, [`const ${binding} = ${creation};`, '']);
  else w.line(`const router = ${creation};`, '');
  w.line(...main);
  if (router.exportForm === 'default') w.exportDefault('router');
  rc.files[w.file] = w.toString();

  if (controllerUsed) {
    controllerWriter.prependBody(storeDeclarations(controllerCtx));
    rc.files[controllerWriter.file] = controllerWriter.toString();
  }
}

/** `express.Router()`, `Router()` or `express.Router({ mergeParams: true })`. */
function routerCreation(w: ModuleWriter, router: RouterSpec): string {
  const options = Object.entries(router.options).map(([k, v]) => `${k}: ${v}`);
  const args = router.creation === 'Router-options' && options.length > 0 ? `{ ${options.join(', ')} }` : '';
  if (router.creation === 'Router') return `${w.importNamed('express', 'Router')}(${args})`;
  return `${w.importDefault('express', 'express')}.Router(${args})`;
}

/** `owner('name', (req, res, next, value) => { … });`: a param callback that checks and stores the value. */
export function paramLines(call: string, name: string): string[] {
  return registration(call, [quote(name)], {
    head: `(req, res, next, ${name}) =>`,
    body: [`if (!/^\\w+$/.test(${name})) {`, `  return res.status(400).json({ error: 'invalid ${name}' });`, '}', `res.locals.${name} = ${name};`, 'next();'],
  });
}
