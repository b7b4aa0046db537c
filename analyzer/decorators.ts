/**
 * Routes declared with decorators, by the two libraries that turn them into Express calls:
 *
 * - routing-controllers: `useExpressServer(app, options)` / `createExpressServer(options)` read
 *   `@Controller`/`@JsonController` classes with `@Get(path)`… actions, `@UseBefore` middleware and
 *   global `@Middleware({ type })` classes (src/index.ts createExecutor,
 *   src/driver/express/ExpressDriver.ts).
 * - tsoa: the generated routes file's `RegisterRoutes(app)` makes plain `app.get(…)` calls, which the
 *   evaluator follows; `fetchMiddlewares(…)` there returns the `@Middlewares` decorator arguments
 *   (packages/runtime/src/decorators/middlewares.ts). When that file is not in the project (it is
 *   generated at build time), the routes are inferred from `@Route`/`@Get`… decorators, as the
 *   generator would write them (packages/cli/src/routeGeneration/templates/express.hbs).
 *
 * In every case the Express calls the library makes are replayed on the app through ExpressApi,
 * so chains, error handlers and 404 handlers follow from the Express rules; the handler of a
 * route is then the controller method, named `ClassName.method`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Node, type ClassDeclaration, type ClassExpression, type MethodDeclaration } from 'ts-morph';
import { globSync } from 'tinyglobby';
import type { Env, Evaluator } from './evaluate.js';
import type { EntryRef, RouteLayer, RouterNode } from './graph.js';
import { readPackageJson } from './project.js';
import { type ClassValue, type FnValue, type Value, UNDEF, unknown } from './values.js';

const ROUTING_CONTROLLERS = ['routing-controllers'];
/** tsoa re-exports its runtime; the generated file imports `@tsoa/runtime`. */
const TSOA = ['tsoa', '@tsoa/runtime'];

/** Verb decorators → Express method. */
const ROUTING_CONTROLLERS_VERBS: Record<string, string> = { Get: 'get', Post: 'post', Put: 'put', Patch: 'patch', Delete: 'delete', Head: 'head', All: 'all' };
const TSOA_VERBS: Record<string, string> = { Get: 'get', Post: 'post', Put: 'put', Patch: 'patch', Delete: 'delete', Head: 'head', Options: 'options' };

type ControllerClass = ClassDeclaration | ClassExpression;

/** A middleware value with the expression that produced it (its name in chains). */
interface Use {
  value: Value;
  node: Node;
}

/** A verb-decorated method of a controller class, found on the class or one of its ancestors. */
interface Action {
  owner: ClassValue;
  method: MethodDeclaration;
  verb: string;
  /** The verb decorator's call, e.g. `Get('/:id')`. */
  decorator: Node;
  /** The decorator's path argument, when given. */
  route: Value;
}

/**
 * Calls on package values that register decorator routes: routing-controllers'
 * `useExpressServer(app, options)` (returns `app`) and `createExpressServer(options)` (returns a
 * new app), tsoa's `fetchMiddlewares(target)`. Null for every other package call.
 */
export function callDecoratorPackage(ev: Evaluator, callee: Extract<Value, { k: 'pkg' }>, args: Value[], site: Node): Value | null {
  const member = callee.member.filter((m) => m !== 'default').join('.');
  if (ROUTING_CONTROLLERS.includes(callee.name) && member === 'useExpressServer') {
    if (args[0]?.k === 'router') useExpressServer(ev, args[0].node, args[1] ?? UNDEF, site);
    else ev.diagnose('decorator-routes', 'warning', 'the app given to `useExpressServer` is not a known Express app; its controller routes are not in the inventory', site);
    return args[0] ?? UNDEF;
  }
  if (ROUTING_CONTROLLERS.includes(callee.name) && member === 'createExpressServer') {
    const app = ev.api.newRouter('app', 'express', undefined, site);
    if (app.k === 'router') useExpressServer(ev, app.node, args[0] ?? UNDEF, site);
    return app;
  }
  if (TSOA.includes(callee.name) && member === 'fetchMiddlewares') return fetchMiddlewares(ev, args[0] ?? UNDEF, site);
  return null;
}

/**
 * `RegisterRoutes(app)` imported from tsoa's generated routes file when that file is missing
 * (`callee` is the unresolved import): registers on `app` the routes the generator would write,
 * from the decorators of the controllers of tsoa.json `controllerPathGlobs` (or of every file with
 * `@Route(`), each `inferred`, and reports `decorator-routes`. Null when the call is not that.
 */
export function registerMissingTsoaRoutes(ev: Evaluator, callee: Extract<Value, { k: 'unknown' }>, args: Value[], site: Node): Value | null {
  const imported = callee.node;
  if (callee.reason !== 'unresolved-import' || !imported || !Node.isImportSpecifier(imported) || imported.getName() !== 'RegisterRoutes') return null;
  const pkg = readPackageJson(ev.ctx.root);
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
  if (!TSOA.some((name) => name in deps) || args[0]?.k !== 'router') return null;
  const app = args[0].node;
  const config = readTsoaConfig(ev.ctx.root);
  const files = config.controllerPathGlobs
    ? globSync(config.controllerPathGlobs, { cwd: ev.ctx.root, absolute: true, ignore: ['**/node_modules/**'] })
    : globSync(['**/*.ts'], { cwd: ev.ctx.root, absolute: true, ignore: ['**/node_modules/**', '**/*.d.ts'] }).filter((f) => readFileSync(f, 'utf8').includes('@Route('));
  let routes = 0;
  for (const cls of files.sort().flatMap((f) => moduleClasses(ev, f))) {
    const env = cls.env as Env;
    const route = decoratorsOf(ev, classNode(cls), env, TSOA).find((d) => d.name === 'Route');
    if (!route) continue;
    const controllerUses = tsoaClassMiddlewares(ev, cls);
    for (const action of actionsOf(ev, cls, TSOA, TSOA_VERBS)) {
      const parts = [stringValue(config.basePath), route.args[0] ? ev.ev(route.args[0], env) : UNDEF, action.route];
      const name = `${className(cls)}.${action.method.getName()}`;
      const layer = replayRoute(ev, app, action, tsoaPath(parts, action.decorator), [...controllerUses, ...middlewaresDecorated(ev, action.owner, action.method)], actionEntry(name, action.method, action.decorator));
      layer.reasons.push({ code: 'decorator-routes', message: `inferred from the tsoa decorators of \`${name}\`; the generated routes file is not in the project`, location: ev.ctx.location(action.decorator) });
      if (action.owner !== cls) {
        ev.diagnose('decorator-routes', 'warning', `\`${name}\` is inherited from \`${className(action.owner)}\`: tsoa does not generate routes for inherited methods (tsoa#1832), so this route may not exist at run time`, action.decorator);
      }
      routes++;
    }
  }
  const specifier = imported.getImportDeclaration().getModuleSpecifierValue();
  ev.diagnose('decorator-routes', 'warning', `\`RegisterRoutes\` comes from tsoa's generated routes file "${specifier}", which is not in the project (tsoa writes it at build time): ${routes} route(s) inferred from the controller decorators instead`, site);
  return UNDEF;
}

/**
 * The handler of a route registered by tsoa's generated file: the generated
 * `async function UsersController_getUser(request, response, next)` runs the controller method
 * that the route's `...(fetchMiddlewares(UsersController.prototype.getUser))` argument names, so
 * that method is the handler, `UsersController.getUser`. Runs once the evaluation is over.
 */
export function joinTsoaActions(ev: Evaluator): void {
  for (const router of ev.routers) {
    for (const layer of router.stack) {
      if (layer.type !== 'route' || layer.entries.length === 0 || !Node.isCallExpression(layer.site)) continue;
      for (const arg of layer.site.getArguments()) {
        const call = Node.isSpreadElement(arg) ? unparenthesized(arg.getExpression()) : null;
        if (!call || !Node.isCallExpression(call) || !isFetchMiddlewares(ev.argValues.get(call.getExpression()))) continue;
        const target = call.getArguments()[0] ? ev.argValues.get(call.getArguments()[0]) : undefined;
        if (target?.k !== 'fn' || target.self?.k !== 'instance' || !Node.isMethodDeclaration(target.node)) continue;
        const handler = layer.entries[layer.entries.length - 1];
        handler.entry = actionEntry(`${className(target.self.cls)}.${target.node.getName()}`, target.node, handler.entry.site);
      }
    }
  }
}

// ── routing-controllers ──────────────────────────────────────────────────────

/**
 * What `useExpressServer(app, options)` registers, in its order (createExecutor): global
 * `type: 'before'` middlewares, each controller action, then `type: 'after'` middlewares. Global
 * middlewares are `app.use(routePrefix || '/', …)`, ordered by `priority` (highest first), error
 * handlers when the class has an `error` method (ExpressDriver.registerMiddleware). An action is
 * `app[verb](routePrefix + controller route + action route, …class @UseBefore, …method @UseBefore,
 * handler)` (ExpressDriver.registerAction; the route guard and body parsers the library adds are
 * its own and not listed). `@UseAfter` middleware runs after the action and is not in chains.
 */
function useExpressServer(ev: Evaluator, app: RouterNode, options: Value, site: Node): void {
  const option = (key: string) => (options.k === 'object' ? options.props.get(key) : undefined) ?? UNDEF;
  const routePrefix = option('routePrefix');
  // ActionMetadata.appendBaseRoute: a prefix without any `/` gets one in front.
  const prefix = routePrefix.k === 'str' ? (routePrefix.v && !routePrefix.v.includes('/') ? `/${routePrefix.v}` : routePrefix.v) : '';
  const middlewares = classesOf(ev, option('middlewares'), site)
    .flatMap(({ cls, node }) => {
      const m = globalMiddleware(ev, cls);
      return m ? [{ ...m, node }] : [];
    })
    .sort((a, b) => b.priority - a.priority);
  const registerGlobal = (type: string) => {
    for (const m of middlewares.filter((x) => x.type === type)) {
      ev.api.call({ k: 'method', target: app, name: 'use' }, [{ k: 'str', v: prefix || '/' }, m.fn], [site, m.node], site);
      const layer = app.stack[app.stack.length - 1];
      if (layer?.type === 'use') layer.errorHandler = m.error;
    }
  };
  if (option('controllers').k === 'undef') {
    ev.diagnose('decorator-routes', 'warning', '`useExpressServer` without `controllers` registers every controller class loaded by then; the analysis does not collect those, so their routes are not in the inventory', site);
  }
  registerGlobal('before');
  for (const { cls } of classesOf(ev, option('controllers'), site)) {
    const env = cls.env as Env;
    const controller = decoratorsOf(ev, classNode(cls), env, ROUTING_CONTROLLERS).find((d) => d.name === 'Controller' || d.name === 'JsonController');
    if (!controller) continue;
    const base = controller.args[0] ? ev.ev(controller.args[0], env) : UNDEF;
    const controllerUses = usesBefore(ev, cls, classNode(cls));
    for (const action of actionsOf(ev, cls, ROUTING_CONTROLLERS, ROUTING_CONTROLLERS_VERBS)) {
      // MetadataBuilder.createActions looks an action's @UseBefore up by the controller class, so an
      // inherited action keeps none of its own.
      const actionUses = action.owner === cls ? usesBefore(ev, cls, action.method) : [];
      const route = concatenated([{ k: 'str', v: prefix }, base, action.route], action.decorator);
      replayRoute(ev, app, action, route, [...controllerUses, ...actionUses], actionEntry(`${className(cls)}.${action.method.getName()}`, action.method, action.decorator));
    }
  }
  registerGlobal('after');
}

/**
 * `@Middleware({ type, priority })` of a class (defaults `before`, 0) with the method Express
 * ends up calling; null for a class without that decorator or without `use`/`error` method.
 */
function globalMiddleware(ev: Evaluator, cls: ClassValue): { type: string; priority: number; fn: FnValue; error: boolean } | null {
  const env = cls.env as Env;
  const decorator = decoratorsOf(ev, classNode(cls), env, ROUTING_CONTROLLERS).find((d) => d.name === 'Middleware');
  const fn = middlewareFunction(ev, cls);
  if (!decorator || !fn) return null;
  const options = decorator.args[0] ? ev.ev(decorator.args[0], env) : UNDEF;
  const type = options.k === 'object' ? options.props.get('type') : undefined;
  const priority = options.k === 'object' ? options.props.get('priority') : undefined;
  return { type: type?.k === 'str' ? type.v : 'before', priority: priority?.k === 'num' ? priority.v : 0, fn, error: ev.findMember(cls, 'error') !== null };
}

/** `@UseBefore(…)` arguments on a class or method, in the order the decorators apply (bottom up). */
function usesBefore(ev: Evaluator, cls: ClassValue, target: ControllerClass | MethodDeclaration): Use[] {
  const env = cls.env as Env;
  return decoratorsOf(ev, target, env, ROUTING_CONTROLLERS)
    .filter((d) => d.name === 'UseBefore')
    .flatMap((d) => d.args.map((node) => {
      const value = ev.ev(node, env);
      // A middleware class runs its `use` (or `error`) method (ExpressDriver.prepareMiddlewares).
      return { value: value.k === 'class' ? middlewareFunction(ev, value) ?? value : value, node };
    }));
}

/** The method Express ends up calling for a middleware class: `error` for error middleware, else `use`. */
function middlewareFunction(ev: Evaluator, cls: ClassValue): FnValue | null {
  const method = ev.findMember(cls, 'error') ?? ev.findMember(cls, 'use');
  return method ? { k: 'fn', node: method, env: cls.env, bound: true, method: true } : null;
}

/**
 * The classes of a `controllers` / `middlewares` option, each with the expression naming it:
 * class references, and glob strings expanded like importClassesFromDirectories (every class a
 * matching .js/.ts file exports). A compiled app globs its `.js` output; the sources are `.ts`.
 */
function classesOf(ev: Evaluator, list: Value, site: Node): { cls: ClassValue; node: Node }[] {
  if (list.k === 'undef') return [];
  if (list.k !== 'array') {
    ev.diagnose('decorator-routes', 'warning', 'a `controllers` or `middlewares` option of `useExpressServer` is not a literal array; the classes it lists are not in the inventory', site);
    return [];
  }
  return list.items.flatMap((item, i) => {
    const node = list.nodes?.[i] ?? site;
    if (item.k === 'class') return [{ cls: item, node }];
    if (item.k === 'str') {
      const files = globSync([path.resolve(ev.ctx.root, item.v).replace(/\.js$/, '.{js,ts}')], { absolute: true, ignore: ['**/node_modules/**', '**/*.d.ts'] });
      return files
        .filter((f) => f.startsWith(ev.ctx.root + path.sep) && /\.(js|ts|tsx)$/.test(f))
        .sort()
        .flatMap((f) => moduleClasses(ev, f))
        .map((cls) => ({ cls, node: classNode(cls).getNameNode() ?? classNode(cls) }));
    }
    ev.diagnose('decorator-routes', 'warning', `\`${node.getText().slice(0, 60)}\` is neither a class nor a glob string; the controllers or middlewares it stands for are not in the inventory`, node);
    return [];
  });
}

// ── tsoa ─────────────────────────────────────────────────────────────────────

/**
 * `fetchMiddlewares(Controller)`: the `@Middlewares` arguments of the class and its ancestors
 * (Reflect metadata is inherited, each class adding to its parent's); `fetchMiddlewares(Controller.prototype.method)`:
 * those of the method.
 */
function fetchMiddlewares(ev: Evaluator, target: Value, site: Node): Value {
  let uses: Use[] | null = null;
  if (target.k === 'class') uses = tsoaClassMiddlewares(ev, target);
  else if (target.k === 'fn' && target.self?.k === 'instance' && Node.isMethodDeclaration(target.node)) {
    const method = target.node;
    const owner = ancestry(target.self.cls).find((c) => c.node === method.getParent());
    if (owner) uses = middlewaresDecorated(ev, owner, method);
  }
  if (!uses) return unknown('unresolved-value', site);
  return { k: 'array', items: uses.map((u) => u.value), nodes: uses.map((u) => u.node) };
}

function tsoaClassMiddlewares(ev: Evaluator, cls: ClassValue): Use[] {
  return ancestry(cls).reverse().flatMap((c) => middlewaresDecorated(ev, c, classNode(c)));
}

/** `@Middlewares(…)` arguments on a class or method, in the order the decorators apply (bottom up). */
function middlewaresDecorated(ev: Evaluator, cls: ClassValue, target: ControllerClass | MethodDeclaration): Use[] {
  const env = cls.env as Env;
  return decoratorsOf(ev, target, env, TSOA)
    .filter((d) => d.name === 'Middlewares')
    .flatMap((d) => d.args.map((node) => ({ value: ev.ev(node, env), node })));
}

/** tsoa.json at the project root: the fields that decide routes. */
function readTsoaConfig(root: string): { controllerPathGlobs?: string[]; basePath?: string } {
  try {
    const json = JSON.parse(readFileSync(path.join(root, 'tsoa.json'), 'utf8')) as { controllerPathGlobs?: string[]; routes?: { basePath?: string } };
    return { controllerPathGlobs: json.controllerPathGlobs, basePath: json.routes?.basePath };
  } catch {
    return {};
  }
}

/**
 * A tsoa route path as the generator writes it (pathUtils.normalisePath, convertBracesPathParams):
 * base path, `@Route` and verb paths joined by single slashes, `{userId}` → `:userId`.
 */
function tsoaPath(parts: Value[], node: Node): Value {
  const blocker = unfoldedPart(parts, node);
  if (blocker) return blocker;
  const joined = parts.map((p) => (p.k === 'str' ? p.v.replace(/^[/\\\s]+|[/\\\s]+$/g, '') : '')).filter(Boolean).join('/');
  return { k: 'str', v: `/${joined}`.replace(/[/\\\s]+/g, '/').replace(/{(\w*)}/g, ':$1') };
}

function isFetchMiddlewares(v: Value | undefined): boolean {
  return v?.k === 'pkg' && TSOA.includes(v.name) && v.member.filter((m) => m !== 'default').join('.') === 'fetchMiddlewares';
}

// ── shared ───────────────────────────────────────────────────────────────────

/**
 * Decorators of a class or method whose callee comes from one of `packages` (by import
 * provenance, not by name), with their argument expressions, in the order TypeScript applies
 * them: bottom to top.
 */
function decoratorsOf(ev: Evaluator, target: ControllerClass | MethodDeclaration, env: Env, packages: string[]): { name: string; args: Node[]; call: Node }[] {
  return target
    .getDecorators()
    .reverse()
    .flatMap((d) => {
      const call = d.getCallExpression();
      const callee = ev.ev(call ? call.getExpression() : d.getExpression(), env);
      if (callee.k !== 'pkg' || !packages.includes(callee.name)) return [];
      const member = callee.member.filter((m) => m !== 'default');
      return [{ name: member[member.length - 1] ?? '', args: call?.getArguments() ?? [], call: call ?? d }];
    });
}

/**
 * Verb-decorated methods of a controller and its ancestors; a method name found on the class
 * hides the same name further up (routing-controllers MetadataBuilder.createActions).
 */
function actionsOf(ev: Evaluator, cls: ClassValue, packages: string[], verbs: Record<string, string>): Action[] {
  const actions: Action[] = [];
  for (const owner of ancestry(cls)) {
    const env = owner.env as Env;
    for (const method of classNode(owner).getInstanceMethods()) {
      if (actions.some((a) => a.method.getName() === method.getName())) continue;
      const verb = decoratorsOf(ev, method, env, packages).find((d) => d.name in verbs);
      if (verb) actions.push({ owner, method, verb: verbs[verb.name], decorator: verb.call, route: verb.args[0] ? ev.ev(verb.args[0], env) : UNDEF });
    }
  }
  return actions;
}

/**
 * `app[verb](path, ...uses, handler)` on the app, as the library calls it, with the controller
 * method as handler. The registration site is the verb decorator. Returns the new route layer.
 */
function replayRoute(ev: Evaluator, app: RouterNode, action: Action, route: Value, uses: Use[], handler: EntryRef): RouteLayer {
  const method: FnValue = { k: 'fn', node: action.method, env: action.owner.env, bound: true, method: true };
  const site = action.decorator;
  // An unfolded path is reported at the expression that blocked it.
  const pathNode = route.k === 'unknown' && route.node ? route.node : site;
  ev.api.call({ k: 'method', target: app, name: action.verb }, [route, ...uses.map((u) => u.value), method], [pathNode, ...uses.map((u) => u.node), site], site);
  const layer = app.stack[app.stack.length - 1] as RouteLayer;
  layer.entries[layer.entries.length - 1].entry = handler;
  return layer;
}

/**
 * A controller action as a route handler: `ClassName.method`, defined at the method. Express
 * calls the library's `(req, res, next)` function around it (routing-controllers' routeHandler,
 * tsoa's generated function), hence arity 3.
 */
function actionEntry(name: string, method: MethodDeclaration, site: Node): EntryRef {
  return { name, origin: 'local', fn: method, action: true, site, wrappers: [], async: method.isAsync(), arity: 3, resolution: 'exact', reasons: [] };
}

/** routing-controllers joins routes by concatenation (ActionMetadata.buildFullRoute); `/` when all parts are empty. */
function concatenated(parts: Value[], node: Node): Value {
  const blocker = unfoldedPart(parts, node);
  if (blocker) return blocker;
  return { k: 'str', v: parts.map((p) => (p.k === 'str' ? p.v : '')).join('') || '/' };
}

/** The first path part (absent parts are undefined) that is not a string, as an unknown value; null when every part folds. */
function unfoldedPart(parts: Value[], node: Node): Value | null {
  const part = parts.find((p) => p.k !== 'str' && p.k !== 'undef');
  if (!part) return null;
  return part.k === 'unknown' ? part : unknown('dynamic-path', node);
}

/** Classes a project file exports, once it has been evaluated. */
function moduleClasses(ev: Evaluator, file: string): ClassValue[] {
  const record = ev.loadModule(file);
  return exportedClasses(record.replaced ?? record.exports);
}

/** Classes a module exports, at any depth of its exports object (importClassesFromDirectories). */
function exportedClasses(value: Value, seen = new Set<Value>()): ClassValue[] {
  if (seen.has(value)) return [];
  seen.add(value);
  if (value.k === 'class') return [value];
  if (value.k === 'object') return [...value.props.values()].flatMap((v) => exportedClasses(v, seen));
  if (value.k === 'array') return value.items.flatMap((v) => exportedClasses(v, seen));
  return [];
}

/** The class and its ancestors, nearest first. */
function ancestry(cls: ClassValue): ClassValue[] {
  const chain: ClassValue[] = [];
  for (let c: Value | undefined = cls; c?.k === 'class' && !chain.includes(c); c = c.parent) chain.push(c);
  return chain;
}

/** The evaluator makes class values of class declarations and class expressions only. */
function classNode(cls: ClassValue): ControllerClass {
  return cls.node as ControllerClass;
}

function className(cls: ClassValue): string {
  return classNode(cls).getName() ?? '<anonymous>';
}

function stringValue(s: string | undefined): Value {
  return s === undefined ? UNDEF : { k: 'str', v: s };
}

function unparenthesized(node: Node): Node {
  return Node.isParenthesizedExpression(node) ? unparenthesized(node.getExpression()) : node;
}
