/**
 * Handler, middleware and error-middleware code of a generated app: what each operation's body
 * does (an in-memory store per resource, the way the example apps keep data), how a handler is
 * written (inline arrow, inline function, named function, controller export) and how it is
 * registered (`app.get(…)`, `router.route(…).get(…)`). Canonical style (style.ts restyles).
 */
import type { ErrorHandlerSpec, Operation, RouteChainSpec, RouteSpec } from '../spec.js';
import { singular } from '../spec.js';
import type { ModuleWriter } from './module-writer.js';

/** What handler code in one module needs to know. */
export interface HandlerContext {
  w: ModuleWriter;
  express: 4 | 5;
  /** A rejected promise reaches the error middleware (Express 5, or express-async-errors loaded). */
  asyncErrorsHandled: boolean;
  /** Plural resource name: the store is `new Map()` under this name. */
  resource: string;
  /** The parent resource's parameter (`userId`) when the router is mounted under it with mergeParams. */
  parentParam: string | null;
  /** Names already declared in the module (function names are made unique against it). */
  declared: Set<string>;
  /** What the handlers used: the module must declare the store and these async helpers. */
  uses: { store: boolean; asyncHelpers: Set<AsyncHelper> };
}

/** The async data helpers a module declares when its async handlers call them. */
export type AsyncHelper = 'findAll' | 'find' | 'save';

/** A handler either referenced by name or written inline: `head` is `(req, res) =>` or `function name(req, res)`. */
export type HandlerCode = { ref: string } | { head: string; body: string[] };

const OPERATION_NAMES: Record<Operation, (resource: string) => string> = {
  list: (r) => `list${cap(r)}`,
  show: (r) => `show${cap(singular(r))}`,
  create: (r) => `create${cap(singular(r))}`,
  update: (r) => `update${cap(singular(r))}`,
  remove: (r) => `remove${cap(singular(r))}`,
  search: (r) => `search${cap(r)}`,
  action: (r) => `archive${cap(singular(r))}`,
  'echo-text': () => 'echo',
  redirect: () => 'redirectOldHome',
  html: () => 'homePage',
  boom: () => 'boom',
  health: () => 'healthCheck',
  home: () => 'home',
  'session-views': () => 'countViews',
  'param-profile': () => 'showProfile',
};

/** Controller export names (the module is named after the resource). */
const CONTROLLER_NAMES: Partial<Record<Operation, string>> = { list: 'list', show: 'show', create: 'create', update: 'update', remove: 'remove', search: 'search', action: 'archive' };

/** The function name for `operation` in a module of `resource`, unique in `declared`. */
export function functionName(ctx: HandlerContext, operation: Operation, controller = false): string {
  const base = (controller && CONTROLLER_NAMES[operation]) || OPERATION_NAMES[operation](ctx.resource);
  let name = base;
  for (let i = 2; ctx.declared.has(name); i++) name = `${base}${i}`;
  ctx.declared.add(name);
  return name;
}

/** Whether the handler of `route` takes `next`. */
function needsNext(ctx: HandlerContext, route: RouteSpec): boolean {
  return route.nextError || route.operation === 'boom' || (route.async && !ctx.asyncErrorsHandled);
}

/** `(req, res[, next])`, typed in TypeScript when `typed`. */
export function params(ctx: HandlerContext, names: Array<'req' | 'res' | 'next'>, typed: boolean, paramsType: string | null = null): string {
  if (!ctx.w.ts || !typed) return `(${names.join(', ')})`;
  const types = { req: paramsType ? `Request<${paramsType}>` : 'Request', res: 'Response', next: 'NextFunction' };
  for (const n of names) ctx.w.importType('express', types[n].replace(/<.*/, ''));
  return `(${names.map((n) => `${n}: ${types[n]}`).join(', ')})`;
}

/** The route-parameter type a typed handler of `operation` reads (`{ id: string }`), or null. */
function paramsTypeOf(ctx: HandlerContext, route: RouteSpec): string | null {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  if (route.operation === 'list' && ctx.parentParam) names.push(ctx.parentParam);
  return names.length > 0 ? `{ ${names.map((n) => `${n}: string`).join('; ')} }` : null;
}

/** The handler of `route`: inline code, or a reference to a function declared in the module (exported from it for a controller). */
export function handlerCode(ctx: HandlerContext, route: RouteSpec): HandlerCode {
  const names: Array<'req' | 'res' | 'next'> = needsNext(ctx, route) ? ['req', 'res', 'next'] : ['req', 'res'];
  const body = handlerBody(ctx, route);
  const asyncKw = route.async ? 'async ' : '';
  // Inline handlers are typed by context, except where the path alone does not name what they read:
  // a mergeParams router's parent parameter (@types/express infers params from the route path).
  const inlineTyped = ctx.w.ts && ctx.parentParam !== null && route.operation === 'list';
  const inlineParams = params(ctx, names, inlineTyped, inlineTyped ? paramsTypeOf(ctx, route) : null);
  if (route.handler === 'inline-arrow') return { head: `${asyncKw}${inlineParams} =>`, body };
  if (route.handler === 'inline-function') return { head: `${asyncKw}function ${functionName(ctx, route.operation)}${inlineParams}`, body };
  const name = functionName(ctx, route.operation, route.handler === 'controller');
  const declaration = [`${asyncKw}function ${name}${params(ctx, names, true, paramsTypeOf(ctx, route))} {`, ...indent(body), '}', ''];
  if (route.handler === 'controller') ctx.w.exported(name, declaration);
  else ctx.w.line(...declaration);
  return { ref: name };
}

/** A route's body, wrapped in try/catch → next(err) when an async error would otherwise be lost. */
function handlerBody(ctx: HandlerContext, route: RouteSpec): string[] {
  const body = operationBody(ctx, route);
  if (!route.async || ctx.asyncErrorsHandled) return body;
  return ['try {', ...indent(body), '} catch (err) {', '  next(err);', '}'];
}

function operationBody(ctx: HandlerContext, route: RouteSpec): string[] {
  const store = ctx.resource;
  const one = singular(store);
  const find = (id: string) => {
    ctx.uses.store = true;
    if (!route.async) return `${store}.get(${id})`;
    ctx.uses.asyncHelpers.add('find');
    return `await find${cap(one)}(${id})`;
  };
  const all = () => {
    ctx.uses.store = true;
    if (!route.async) return `Array.from(${store}.values())`;
    ctx.uses.asyncHelpers.add('findAll');
    return `(await findAll${cap(store)}())`;
  };
  const missing = route.nextError
    ? [`if (!${one}) {`, `  return next(Object.assign(new Error('${one} not found'), { status: 404 }));`, '}']
    : [`if (!${one}) {`, `  return res.status(404).json({ error: '${one} not found' });`, '}'];
  switch (route.operation) {
    case 'list': {
      const filter = ctx.parentParam ? `.filter((item) => item.${ctx.parentParam} === req.params.${ctx.parentParam})` : '';
      return [`const limit = Number(req.query.limit) || 20;`, `const items = ${all()}${filter}.slice(0, limit);`, `res.json({ count: items.length, ${store}: items });`];
    }
    case 'show':
      return [`const ${one} = ${find('req.params.id')};`, ...missing, `res.json(${one});`];
    case 'create':
      ctx.uses.store = true;
      if (route.async) ctx.uses.asyncHelpers.add('save');
      return [
        `const ${one}${ctx.w.ts ? ': Item' : ''} = { ...req.body, id: String(next${cap(one)}Id++) };`,
        route.async ? `await save${cap(one)}(${one});` : `${store}.set(${one}.id, ${one});`,
        `res.status(201).json(${one});`,
      ];
    case 'update':
      return [`const existing = ${find('req.params.id')};`, 'if (!existing) {', '  return res.sendStatus(404);', '}', `const ${one} = { ...existing, ...req.body, id: existing.id };`, `${store}.set(${one}.id, ${one});`, `res.json(${one});`];
    case 'remove':
      ctx.uses.store = true;
      return [`${store}.delete(req.params.id);`, 'res.status(204).end();'];
    case 'search':
      return [`const q = String(req.query.q || '').toLowerCase();`, `res.json(${all()}.filter((item) => JSON.stringify(item).toLowerCase().includes(q)));`];
    case 'action':
      return [`res.json({ id: req.params.id, archived: true });`];
    case 'echo-text':
      return [`res.type('text/plain').send(req.body);`];
    case 'redirect':
      return [ctx.express === 5 ? `res.redirect(301, '/');` : `res.redirect('/');`];
    case 'html':
      return [`res.send('<!doctype html><h1>Welcome</h1>');`];
    case 'boom':
      return route.async ? [`await Promise.resolve();`, `next(new Error('boom'));`] : [`next(new Error('boom'));`];
    case 'health':
      return [`res.json({ status: 'ok', uptime: process.uptime() });`];
    case 'home':
      return [`res.json({ name: 'generated-app', version: '1.0.0' });`];
    case 'session-views':
      return ctx.w.ts
        ? [`const session = req.session as unknown as { views?: number };`, `session.views = (session.views || 0) + 1;`, `res.json({ views: session.views });`]
        : [`req.session.views = (req.session.views || 0) + 1;`, `res.json({ views: req.session.views });`];
    case 'param-profile':
      return [`res.json({ userId: req.params.userId, checked: res.locals.userId });`];
  }
}

/** Declarations of the store (and async helpers) that the module's handlers used. */
export function storeDeclarations(ctx: HandlerContext): string[] {
  if (!ctx.uses.store) return [];
  const store = ctx.resource;
  const one = cap(singular(store));
  const ts = ctx.w.ts;
  const out = ts ? ['type Item = { id: string; [key: string]: unknown };', ''] : [];
  out.push(`const ${store} = new Map${ts ? '<string, Item>' : ''}();`, `let next${one}Id = 1;`, '');
  const helpers: Record<AsyncHelper, string[]> = {
    findAll: [`async function findAll${cap(store)}() {`, `  return Array.from(${store}.values());`, '}', ''],
    find: [`async function find${one}(id${ts ? ': string' : ''}) {`, `  return ${store}.get(id);`, '}', ''],
    save: [`async function save${one}(item${ts ? ': Item' : ''}) {`, `  ${store}.set(item.id, item);`, '}', ''],
  };
  for (const h of ['findAll', 'find', 'save'] as const) if (ctx.uses.asyncHelpers.has(h)) out.push(...helpers[h]);
  return out;
}

/** `owner.method(args…, handler);` as lines. */
export function registration(call: string, args: string[], handler: HandlerCode): string[] {
  if ('ref' in handler) return [`${call}(${[...args, handler.ref].join(', ')});`];
  return [`${call}(${[...args, `${handler.head} {`].join(', ')}`, ...indent(handler.body), '});'];
}

/** `owner.route(path).all(mw).get(h).post(h);` as lines, one verb per line. */
export function routeChain(owner: string, chain: RouteChainSpec, handlerOf: (route: RouteSpec) => HandlerCode, guard: () => string, quote: (s: string) => string): string[] {
  const out = [owner, `  .route(${quote(chain.path)})`];
  if (chain.allMiddleware) out.push(`  .all(${guard()})`);
  for (const route of chain.routes) {
    const h = handlerOf(route);
    if ('ref' in h) out.push(`  .${route.method}(${h.ref})`);
    else out.push(`  .${route.method}(${h.head} {`, ...indent(indent(h.body)), '  })');
  }
  out[out.length - 1] += ';';
  return out;
}

/** Names of app-level error middleware by role (in the app module or middleware/errors). */
export const ERROR_HANDLER_NAMES: Record<ErrorHandlerSpec['role'], string> = { 'log-and-delegate': 'logErrors', respond: 'errorHandler' };

/** An error middleware as a function head (named function or arrow) and body, by its spec. */
export function errorHandlerFunction(ctx: HandlerContext, spec: ErrorHandlerSpec, name: string | null): { head: string; body: string[] } {
  const ts = ctx.w.ts;
  const delegateOnly = spec.role === 'log-and-delegate';
  const arity4 = spec.arity === 4;
  const nextName = ts && !spec.delegates && !delegateOnly ? '_next' : 'next';
  if (ts) ['Request', 'Response', ...(arity4 ? ['NextFunction'] : [])].forEach((t) => ctx.w.importType('express', t));
  const errType = ts ? ': HttpError' : '';
  const list = ts ? [`err${errType}`, 'req: Request', 'res: Response', ...(arity4 ? [`${nextName}: NextFunction`] : [])] : ['err', 'req', 'res', ...(arity4 ? [nextName] : [])];
  const body: string[] = [];
  if (delegateOnly) body.push('console.error(err.stack);', 'next(err);');
  else {
    if (spec.delegates && arity4) body.push('if (res.headersSent) {', '  return next(err);', '}');
    if (spec.body === 'json-status') body.push('res.status(err.status || 500).json({ error: err.message });');
    if (spec.body === 'text-500') body.push('console.error(err.stack);', "res.status(500).send('Something broke!');");
    if (spec.body === 'json-message') body.push('const status = err.statusCode || err.status || 500;', "res.status(status).json({ message: status >= 500 ? 'Internal Server Error' : err.message });");
  }
  const head = name ? `function ${name}(${list.join(', ')})` : `(${list.join(', ')}) =>`;
  return { head, body };
}

/** The TypeScript type error middleware reads (`err.status`, `err.statusCode`). */
export const HTTP_ERROR_TYPE = 'type HttpError = Error & { status?: number; statusCode?: number };';

/** Lines one canonical level (two spaces) deeper; blank lines stay blank. */
export function indent(lines: string[]): string[] {
  return lines.map((l) => (l === '' ? l : `  ${l}`));
}

/** `users` → `Users`. */
export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
