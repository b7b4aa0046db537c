/**
 * Property reads, writes and calls on abstract values, and above all the Express API: what
 * `app.get`, `router.use`, `app.route`, `router.param`, `app.set`, `app.listen`, `express()`,
 * `express.Router()` and friends record in the routing graph.
 *
 * Express semantics followed here (https://expressjs.com/en/4x/api.html):
 * - `app.get(name)` with one argument reads a setting; with more it registers a route.
 * - `use([path], ...fns)`: path defaults to `/`; arrays of functions are flattened; an app or a
 *   router argument is mounted; a function with exactly four declared parameters
 *   (`Function.length === 4`) is an error handler.
 * - `route(path)` creates one route layer at call time; its verb methods append to it.
 */
import { handedRoutesCall, type HandedRoutes } from './handed-routes.js';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Node, SyntaxKind } from 'ts-morph';
import type { Evaluator } from './evaluate.js';
import type { EntryRef, FactoryRecord, Layer, RouteLayer, RouterNode } from './graph.js';
import type { PathSpec } from './path.js';
import { clip, describeEntry } from './entry.js';
import { callDecoratorPackage, registerMissingTsoaRoutes } from './decorators.js';
import { CONFIG_PACKAGES, ERROR_HANDLER_NAME, ERROR_HANDLER_PACKAGES, STATIC_PACKAGES, listed } from './packages.js';
import { type AltValue, type FnValue, type Value, alt, obj, UNDEF, unknown } from './values.js';
import { toJson } from './folded.js';
import type { ArgumentSlot, Location, Reason } from './model.js';
import { FastifyApi } from './fastify-api.js';

/** Methods Express creates on apps and routers (the `methods` package, lower-case) plus `all`. */
export const ROUTE_METHODS = new Set([
  'get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'all', 'del',
  'copy', 'lock', 'mkcol', 'move', 'purge', 'propfind', 'proppatch', 'unlock', 'report', 'mkactivity',
  'checkout', 'merge', 'm-search', 'notify', 'subscribe', 'unsubscribe', 'search', 'trace', 'connect', 'link', 'unlink', 'query',
]);

/**
 * The Express API and generic value semantics for one evaluation: `get`/`set` on values, `call`,
 * and the registrations calls on apps and routers record. Counters are per instance, so two
 * analyses in one process number their routers and layers alike.
 */
export class ExpressApi {
  private readonly locals = new Map<RouterNode, Value>();
  /** Properties the app's code assigned onto an app or router (`app.map = function …`). */
  private readonly extensions = new Map<RouterNode, Map<string, Value>>();
  /** Callbacks already run by runCallbacks (a callback registered twice runs once). */
  private readonly invokedCallbacks = new Set<Node>();
  /** Plugins handed over per Express app through the server module (handed-routes.ts). */
  private readonly handed: HandedRoutes = new WeakMap();
  private uid = 0;
  private seq = 0;
  /** The call that made each package value a factory returned (`express.json(opts)`, `cors(options)`): FactoryCall's source. */
  private readonly factoryCalls = new WeakMap<Value, FactoryRecord>();

  /** How many layers (Express) and items (Fastify) have been registered so far (to tell whether a call registered any). */
  get layers(): number {
    return this.seq;
  }

  /** The Fastify API (fastify-api.ts); its registrations share this sequence. */
  readonly fastify: FastifyApi;

  constructor(private readonly ev: Evaluator) {
    this.fastify = new FastifyApi(ev, () => ++this.seq);
  }

  // ── generic value semantics ────────────────────────────────────────────────

  get(target: Value, name: string, site: Node): Value {
    switch (target.k) {
      case 'object': {
        const own = target.props.get(name);
        // A spread the evaluator could not read (`{ ...parsed.data }`) or a computed key may hold the
        // member, or replace it when it was set before (the same value as when the spread came).
        const hidden = target.opaque?.some((o) => !o.shadows || own === undefined || o.shadows.get(name) === own);
        return hidden ? unknown('unresolved-value', site) : own ?? UNDEF;
      }
      case 'instance': {
        if (target.props.has(name)) return target.props.get(name)!;
        const member = this.ev.findMember(target.cls, name);
        if (!member) return UNDEF;
        const fn: FnValue = { k: 'fn', node: member, env: target.cls.env, self: target, bound: false, method: true };
        return Node.isGetAccessorDeclaration(member) ? this.ev.invoke({ ...fn, bound: true }, [], site) : fn;
      }
      case 'class':
        // `C.prototype.m` is the method `m` (tsoa's generated routes read decorators through it).
        return target.statics.get(name) ?? (name === 'prototype' ? { k: 'instance', cls: target, props: new Map() } : UNDEF);
      case 'array':
        if (name === 'length') return { k: 'num', v: target.items.length };
        return /^\d+$/.test(name) ? target.items[Number(name)] ?? UNDEF : { k: 'builtin', name: 'array', member: [name] };
      case 'express':
        return { k: 'express', member: [...target.member, name] };
      case 'pkg':
        return { k: 'pkg', name: target.name, member: [...target.member, name], called: target.called };
      case 'builtin':
        return { k: 'builtin', name: target.name, member: [...target.member, name] };
      case 'str':
        return name === 'length' ? { k: 'num', v: target.v.length } : { k: 'builtin', name: 'string', member: [name] };
      case 'router':
        if (name === 'locals') return this.localsOf(target.node);
        return this.extensions.get(target.node)?.get(name) ?? { k: 'method', target: target.node, name };
      case 'routeChain':
        return { k: 'routeChainMethod', layer: target.layer, router: target.router, name };
      case 'fastify':
        return this.fastify.get(target.ctx, name);
      case 'fn':
        if (target.props?.has(name)) return target.props.get(name)!;
        return name === 'bind' || name === 'call' || name === 'apply' ? { k: 'builtin', name: 'function', member: [name] } : UNDEF;
      case 'unknown':
        return target;
      case 'alt':
        return alt(target.items.map((i) => this.get(i, name, site)), target.reason, target.text, site);
      default:
        return unknown('unresolved-value', site);
    }
  }

  set(holder: Value, key: string, value: Value, site: Node): void {
    if (holder.k === 'object') {
      holder.props.set(key, value);
      if (holder.localsOf) this.setting(holder.localsOf, key, value, 'locals', site);
    } else if (holder.k === 'instance') holder.props.set(key, value);
    else if (holder.k === 'class') holder.statics.set(key, value);
    else if (holder.k === 'fn') (holder.props ??= new Map()).set(key, value);
    else if (holder.k === 'fastify') this.fastify.decorate(holder.ctx, key, value);
    else if (holder.k === 'router') {
      // `app.resource = function (path, obj) { this.get(…) }`: apps extended with registrars.
      const own = this.extensions.get(holder.node) ?? new Map<string, Value>();
      own.set(key, value);
      this.extensions.set(holder.node, own);
    }
  }

  private localsOf(router: RouterNode): Value {
    let v = this.locals.get(router);
    if (!v) {
      v = { ...obj(), localsOf: router };
      this.locals.set(router, v);
    }
    return v;
  }

  /** Calls `callee`; `receiver` is the value before the dot for method calls (`x` in `x.m()`). */
  call(callee: Value, args: Value[], argNodes: Node[], site: Node, receiver?: Value): Value {
    switch (callee.k) {
      case 'fn': {
        const handed = handedRoutesCall(this.handed, callee, args);
        if (handed) return handed;
        this.ev.calls.push({ site, fn: callee.node });
        try {
          return this.ev.invoke(callee.bound || !receiver ? callee : { ...callee, self: receiver }, args, site);
        } finally {
          this.ev.calls.pop();
        }
      }
      case 'express':
        return this.made(this.callExpress(callee.member, args, site), args, argNodes, site);
      case 'pkg': {
        const fastify = this.fastify.callPackage(callee, args, site);
        if (fastify) return fastify;
        const routerPkg = this.ev.routerPackage(callee);
        if (routerPkg) return this.newRouter('router', routerPkg, args[0], site);
        if (CONFIG_PACKAGES.has(callee.name) && callee.member.length > 0) return unknown('environment', site);
        const result = callDecoratorPackage(this.ev, callee, args, site);
        if (result) return result;
        this.runCallbacks(`${callee.name}${callee.member.length ? `.${callee.member.join('.')}` : ''}`, args, site);
        return this.made({ k: 'pkg', name: callee.name, member: callee.member, called: true }, args, argNodes, site);
      }
      case 'builtin':
        return this.callBuiltin(callee, args, argNodes, site, receiver);
      case 'method':
        return this.callRouterMethod(callee.target, callee.name, args, argNodes, site);
      case 'routeChainMethod':
        return this.callRouteChain(callee.layer, callee.router, callee.name, args, argNodes, site);
      case 'fastifyMethod':
        return this.fastify.call(callee.ctx, callee.name, args, argNodes, site);
      case 'class':
        return this.ev.construct(callee, args, site);
      case 'unknown':
        return registerMissingTsoaRoutes(this.ev, callee, args, site) ?? this.callOnUnknown(callee, args, site);
      default:
        return unknown('call-expression', site);
    }
  }

  /** Remembers the call that made package value `v` (a value a package's factory returned). */
  private made(v: Value, args: Value[], argNodes: Node[], site: Node): Value {
    if (v.k === 'pkg') this.factoryCalls.set(v, { site, args, argNodes });
    return v;
  }

  /** The call that made package value `v` (`express.json({ limit })` for the value it returned), when it was made by one. */
  factoryOf(v: Value): FactoryRecord | undefined {
    return this.factoryCalls.get(v);
  }

  /**
   * `items.forEach(cb)` / `for … of` over a collection known only at run time: the callback runs
   * once with an unknown element, under a condition, so what it registers is reported unresolved
   * (`GET <unresolved:x.path>`) instead of vanishing.
   */
  private callOnUnknown(callee: Extract<Value, { k: 'unknown' }>, args: Value[], site: Node): Value {
    const member = Node.isCallExpression(site) ? site.getExpression() : null;
    const fn = args[0];
    // A promise's callbacks, an event's (`server.on('listening', () => …)`) and a Node server's listen callback (the shim's `listen` hands it `app.listen`'s arguments) run later.
    if (member && Node.isPropertyAccessExpression(member) && ['then', 'finally', 'on', 'once', 'listen'].includes(member.getName())) {
      this.runCallbacks(clip(member.getText()), args, site);
      return unknown('call-expression', site);
    }
    if (!member || !Node.isPropertyAccessExpression(member) || !['forEach', 'map'].includes(member.getName()) || fn?.k !== 'fn') return unknown(callee.reason === 'environment' ? 'environment' : 'call-expression', site);
    return this.ev.withCondition(`loop over ${clip(member.getExpression().getText())}`, () => {
      this.ev.invoke(fn, [unknown('dynamic-path', member.getExpression()), unknown('dynamic-path', member.getExpression())], site);
      return unknown('dynamic-path', site);
    });
  }

  /**
   * Functions of the project handed to a package or a promise (`db.connect().then(() => …)`,
   * `bootstrap({ loaders: [expressLoader] })`) run later, when the package calls them: each runs
   * once here, with unknown arguments, under a condition, so the routes they register are listed
   * (partial) instead of lost. Only functions of at most one parameter: a function taking
   * `(req, res)` is a handler or middleware the package wraps, not a callback that sets up the app.
   */
  private runCallbacks(callee: string, args: Value[], site: Node): void {
    const callbacks = args.flatMap((a) => (a.k === 'object' ? [...a.props.values()] : [a])).flatMap((a) => (a.k === 'array' ? a.items : [a]));
    for (const fn of callbacks) {
      if (fn.k !== 'fn' || !('getParameters' in fn.node) || (fn.node as Node & { getParameters(): Node[] }).getParameters().length > 1) continue;
      if (this.invokedCallbacks.has(fn.node)) continue;
      this.invokedCallbacks.add(fn.node);
      this.ev.withCondition(`callback of ${callee}`, () => this.ev.invoke(fn, [unknown('call-expression', site)], site));
    }
  }

  private callExpress(member: string[], args: Value[], site: Node): Value {
    const m = member.filter((p) => p !== 'default');
    if (m.length === 0) return this.newRouter('app', 'express', undefined, site);
    if (m.length === 1 && m[0] === 'Router') return this.newRouter('router', 'express', args[0], site);
    return { k: 'pkg', name: 'express', member: m, called: true };
  }

  private callBuiltin(callee: Extract<Value, { k: 'builtin' }>, args: Value[], argNodes: Node[], site: Node, receiver?: Value): Value {
    const [first, ...rest] = callee.member;
    const strings = args.every((a) => a.k === 'str') ? args.map((a) => (a as { v: string }).v) : null;
    if (callee.name === 'path' && ['join', 'resolve', 'dirname', 'basename', 'extname'].includes(first) && rest.length === 0) {
      if (!strings) return unknown('dynamic-path', site);
      const [a, b] = strings;
      // `path.resolve('public')` resolves against the process's working directory: the app's root when it runs, not ours.
      const fold = { join: () => path.join(...strings), resolve: () => path.resolve(this.ev.ctx.root, ...strings), dirname: () => path.dirname(a), basename: () => path.basename(a, b), extname: () => path.extname(a) };
      return { k: 'str', v: fold[first as keyof typeof fold]() };
    }
    if ((callee.name === 'http' || callee.name === 'https') && (first === 'createServer' || first === 'Server') && rest.length === 0) return this.serve(args, site);
    if (callee.name === 'url' && first === 'fileURLToPath' && strings?.[0]?.startsWith('file://')) return { k: 'str', v: fileURLToPath(strings[0]) };
    if (callee.name === 'function') return this.callFunctionMethod(receiver, first, args, site);
    if (callee.name === 'array') return this.callArrayMethod(receiver, first, site, args, argNodes);
    if (callee.name === 'string' && receiver?.k === 'str') return callStringMethod(receiver.v, first, args, site);
    if ((callee.name === 'fs' || callee.name === 'fs/promises') && /^readdir(Sync)?$/.test(callee.member.at(-1) ?? '')) return this.listDirectory(args[0], site);
    if (callee.name === 'global' && first === 'Object' && args[0]?.k === 'object') {
      const props = [...args[0].props];
      if (rest[0] === 'keys') return { k: 'array', items: props.map(([k]) => ({ k: 'str', v: k })) };
      if (rest[0] === 'values') return { k: 'array', items: props.map(([, v]) => v) };
      if (rest[0] === 'entries') return { k: 'array', items: props.map(([k, v]) => ({ k: 'array', items: [{ k: 'str', v: k }, v] })) };
    }
    return unknown('call-expression', site);
  }

  /**
   * `http.createServer([options,] app)`, `http.Server(app)`, `new https.Server(options, app)`
   * (node:http, node:https): a server for the Express app among the arguments (the request
   * listener), by its value; a server for anything else (a redirect function) records nothing.
   */
  private serve(args: Value[], site: Node): Value {
    const appArgument = args.findIndex((a) => a.k === 'router' && a.node.kind === 'app');
    if (appArgument < 0) return unknown('call-expression', site);
    const app = (args[appArgument] as Extract<Value, { k: 'router' }>).node;
    if (!app.servers.some((s) => s.site === site)) app.servers.push({ site, appArgument });
    return unknown('server', site);
  }

  /** `fn.bind(self)`: the same function with `this` fixed. */
  private callFunctionMethod(target: Value | undefined, method: string, args: Value[], site: Node): Value {
    if (target?.k !== 'fn') return unknown('call-expression', site);
    if (method === 'bind') return { ...target, self: args[0] ?? UNDEF, bound: true };
    if (method === 'call') return this.ev.invoke({ ...target, self: args[0] }, args.slice(1), site);
    return unknown('call-expression', site);
  }

  /**
   * Array methods over a known array: `forEach`/`map`/`filter` run the callback once per element
   * (`filter` keeps what the callback keeps; a run-time decision makes the result unknown), `push`
   * appends (registrars that collect routes first).
   */
  private callArrayMethod(target: Value | undefined, method: string, site: Node, args: Value[], argNodes: Node[]): Value {
    const fn = args[0];
    if (target?.k === 'array' && method === 'push') {
      target.items.push(...args);
      target.nodes?.push(...argNodes);
      return { k: 'num', v: target.items.length };
    }
    if (target?.k !== 'array' || fn?.k !== 'fn' || !['forEach', 'map', 'filter'].includes(method)) return unknown('call-expression', site);
    const results = this.ev.overFilesystem(target, () => target.items.map((item, i) => this.ev.invoke(fn, [item, { k: 'num', v: i }, target], argNodes[0] ?? site)));
    if (method === 'forEach') return UNDEF;
    if (method === 'map') return { k: 'array', items: results, fromFilesystem: target.fromFilesystem };
    const kept = results.map((r) => this.ev.truthiness(r));
    if (kept.some((k) => k === undefined)) return unknown('dynamic-path', site);
    return { k: 'array', items: target.items.filter((_, i) => kept[i]), fromFilesystem: target.fromFilesystem };
  }

  /** `fs.readdirSync(dir)` inside the project: the names there now, sorted, as a directory listing. */
  private listDirectory(dir: Value | undefined, site: Node): Value {
    if (dir?.k !== 'str' || !path.resolve(dir.v).startsWith(this.ev.ctx.root)) return unknown('filesystem-registration', site);
    try {
      const names = readdirSync(dir.v).sort();
      return { k: 'array', items: names.map((v): Value => ({ k: 'str', v })), fromFilesystem: site };
    } catch {
      return unknown('filesystem-registration', site);
    }
  }

  // ── Express ────────────────────────────────────────────────────────────────

  newRouter(kind: 'app' | 'router', pkg: string, options: Value | undefined, site: Node): Value {
    const opts = options?.k === 'object' ? options.props : new Map<string, Value>();
    const flag = (k: string) => {
      const v = opts.get(k);
      return v?.k === 'bool' ? v.v : undefined;
    };
    const node: RouterNode = {
      uid: ++this.uid,
      kind,
      name: bindingName(site),
      package: pkg,
      site,
      options: { mergeParams: flag('mergeParams'), caseSensitive: flag('caseSensitive'), strict: flag('strict') },
      stack: [],
      settings: [],
      engines: [],
      listen: [],
      servers: [],
      mountedBy: [],
    };
    this.ev.routers.push(node);
    return { k: 'router', node };
  }

  private callRouterMethod(router: RouterNode, name: string, args: Value[], argNodes: Node[], site: Node): Value {
    const self: Value = { k: 'router', node: router };
    this.ev.visitedCalls.add(site);
    if (ROUTE_METHODS.has(name)) {
      if (name === 'get' && args.length === 1) {
        this.setting(router, args[0].k === 'str' ? args[0].v : argNodes[0].getText(), UNDEF, 'read', site);
        return unknown('setting', site);
      }
      if (name === 'del') this.ev.diagnose('express5-removed-api', 'warning', '`app.del()` was removed in Express 5; use `app.delete()`', site);
      this.addRoute(router, name === 'del' ? 'delete' : name, args, argNodes, site);
      return self;
    }
    switch (name) {
      case 'use':
        this.addUse(router, args, argNodes, site);
        return self;
      case 'route': {
        const reasons: Reason[] = [...this.ev.ambient];
        const registrar = this.ev.registrarOf(site);
        const layer: RouteLayer = { type: 'route', kind: 'route-chain', seq: ++this.seq, site, paths: this.pathsOf(args[0], argNodes[0], site, reasons), entries: [], conditions: [...this.ev.conditions], reasons, ...(registrar ? { registrar } : {}) };
        router.stack.push(layer);
        return { k: 'routeChain', layer, router };
      }
      case 'param':
        this.addParam(router, args, argNodes, site);
        return self;
      case 'set':
        this.setting(router, args[0]?.k === 'str' ? args[0].v : argNodes[0]?.getText() ?? '', args[1] ?? UNDEF, 'set', site, argNodes[1]);
        return self;
      case 'enable':
      case 'disable':
        this.setting(router, args[0]?.k === 'str' ? args[0].v : argNodes[0]?.getText() ?? '', { k: 'bool', v: name === 'enable' }, name, site);
        return self;
      case 'engine':
        router.engines.push({ ext: args[0]?.k === 'str' ? args[0].v.replace(/^\./, '') : argNodes[0]?.getText() ?? '', engine: args[1]?.k === 'pkg' ? args[1].name : null, site });
        return self;
      case 'listen':
        router.listen.push({ site, args: argNodes.map((a) => a.getText()) });
        // Its callback runs once the server listens: what it registers comes late (runCallbacks).
        this.runCallbacks(`${router.name}.listen`, args, site);
        return unknown('server', site);
      default:
        return unknown('call-expression', site);
    }
  }

  private callRouteChain(layer: RouteLayer, router: RouterNode, name: string, args: Value[], argNodes: Node[], site: Node): Value {
    this.ev.visitedCalls.add(site);
    if (!ROUTE_METHODS.has(name)) return unknown('call-expression', site);
    // In `route('/x').get(a).post(b)` every call starts where the chain starts; point at `.post`.
    const callee = Node.isCallExpression(site) ? site.getExpression() : null;
    const verbSite = callee && Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : site;
    for (const { value, node, slot } of flattenArgs(args, argNodes)) layer.entries.push({ method: name === 'del' ? 'DELETE' : name.toUpperCase(), entry: describeEntry(this.ev, node, value), site: verbSite, slot });
    return { k: 'routeChain', layer, router };
  }

  /**
   * The paths of a path argument: one per array element and per alternative (`dev ? '/a' : '/b'`,
   * `process.env.P ?? '/api'`), whose reasons go to `reasons`; unresolved ones say why.
   */
  pathsOf(v: Value | undefined, node: Node | undefined, site: Node, reasons: Reason[] = []): PathSpec[] {
    if (!v || !node) return [{ kind: 'unresolved', text: '' }];
    if (v.k === 'str') return [{ kind: 'string', value: v.v }];
    if (v.k === 'regexp') return [{ kind: 'regexp', source: v.source, flags: v.flags }];
    if (v.k === 'array') return v.items.flatMap((item) => this.pathsOf(item, node, site, reasons)).map((spec) => (spec.kind === 'unresolved' ? spec : { ...spec, element: true as const }));
    if (v.k === 'alt') {
      reasons.push(altReason(v, this.ev.ctx.location(node)));
      return v.items.flatMap((item) => this.pathsOf(item, node, site, reasons));
    }
    const reason = v.k === 'unknown' ? v.reason : 'dynamic-path';
    this.ev.diagnose('unresolved-path', 'warning', `path \`${clip(node.getText())}\` could not be folded to a string (${v.k === 'unknown' ? v.reason : v.k})`, node);
    return [{ kind: 'unresolved', text: clip(node.getText()), reason: ['environment', 'call-expression'].includes(reason) ? reason : 'dynamic-path' }];
  }

  private addRoute(router: RouterNode, method: string, args: Value[], argNodes: Node[], site: Node): void {
    const entries = flattenArgs(args.slice(1), argNodes.slice(1)).map(({ value, node, slot }) => ({ method: method.toUpperCase(), entry: describeEntry(this.ev, node, value), slot }));
    const reasons: Reason[] = [...this.ev.ambient];
    const paths = this.pathsOf(args[0], argNodes[0], site, reasons);
    const registrar = this.ev.registrarOf(site);
    router.stack.push({ type: 'route', kind: method === 'all' ? 'all' : 'verb', seq: ++this.seq, site, paths, entries, conditions: [...this.ev.conditions], reasons, ...(registrar ? { registrar } : {}) });
  }

  private addUse(router: RouterNode, args: Value[], argNodes: Node[], site: Node): void {
    let paths: PathSpec[] = [{ kind: 'string', value: '/' }];
    let rest = 0;
    const pathReasons: Reason[] = [...this.ev.ambient];
    if (args.length > 0 && isPathArg(args[0], argNodes[0])) {
      paths = this.pathsOf(args[0], argNodes[0], site, pathReasons);
      rest = 1;
    }
    const base = { seq: 0, site, paths, conditions: [...this.ev.conditions], reasons: pathReasons };
    for (const { value, node } of flattenArgs(args.slice(rest), argNodes.slice(rest))) {
      let layer: Layer;
      if (value.k === 'alt' && value.items.every((i) => i.k === 'router')) {
        // `app.use('/auth', sso ? oidcRouter : localRouter)`: each candidate is mounted, conditionally.
        const reasons = [...pathReasons, altReason(value, this.ev.ctx.location(node))];
        for (const candidate of value.items as Extract<Value, { k: 'router' }>[]) {
          const mount: Layer = { ...base, reasons, seq: ++this.seq, type: 'mount', child: candidate.node };
          candidate.node.mountedBy.push(mount);
          router.stack.push(mount);
        }
        continue;
      }
      if (value.k === 'router') {
        layer = { ...base, seq: ++this.seq, type: 'mount', child: value.node };
        value.node.mountedBy.push(layer);
      } else {
        const entry = describeEntry(this.ev, node, value);
        layer = { ...base, seq: ++this.seq, type: 'use', entry, errorHandler: isErrorHandler(entry, value) };
        if (value.k === 'pkg' && rest === 1 && /router|routes?$/i.test(entry.name)) {
          this.ev.diagnose('unresolved-router', 'warning', `\`${entry.name}\` from the package ${value.name} is mounted at ${clip(argNodes[0].getText())}; if it is a router, its routes are in package code the analyzer does not read and are missing from this inventory`, node);
        }
        const stat = staticOf(value, this.ev.argValues, node);
        if (stat) layer.static = stat;
        if (!layer.errorHandler && value.k === 'fn' && looksLikeErrorHandler(value.node)) {
          this.ev.diagnose('not-an-error-handler', 'warning', `\`${entry.name}\` looks like an error handler but declares ${entry.arity ?? '?'} parameters (Function.length must be 4), so Express never passes it errors`, node);
        }
      }
      router.stack.push(layer);
    }
  }

  private addParam(router: RouterNode, args: Value[], argNodes: Node[], site: Node): void {
    const names = args[0]?.k === 'str' ? [args[0].v] : args[0]?.k === 'array' ? args[0].items.flatMap((i) => (i.k === 'str' ? [i.v] : [])) : [];
    const fnNode = argNodes[1];
    if (!fnNode) return;
    router.stack.push({ type: 'param', seq: ++this.seq, site, paths: [], names, entry: describeEntry(this.ev, fnNode, args[1]), conditions: [...this.ev.conditions], reasons: [] });
  }

  setting(router: RouterNode, key: string, value: Value, kind: 'set' | 'enable' | 'disable' | 'locals' | 'read', site: Node, valueNode?: Node): void {
    const json = toJson(value);
    const alternatives = value.k === 'alt' ? value.items.map(toJson) : undefined;
    router.settings.push({
      key, value: json ?? null, raw: valueNode?.getText() ?? '', kind, site, resolved: json !== undefined || kind === 'read',
      ...(alternatives && alternatives.every((a) => a !== undefined) ? { alternatives } : {}),
    });
  }
}

/** The string methods paths are built with; anything else is unknown. */
function callStringMethod(text: string, method: string, args: Value[], site: Node): Value {
  const strs = args.map((a) => (a.k === 'str' ? a.v : a.k === 'num' ? a.v : undefined));
  if (strs.some((a) => a === undefined)) return unknown('call-expression', site);
  const [a, b] = strs as (string | number)[];
  switch (method) {
    case 'toLowerCase':
      return { k: 'str', v: text.toLowerCase() };
    case 'toUpperCase':
      return { k: 'str', v: text.toUpperCase() };
    case 'trim':
      return { k: 'str', v: text.trim() };
    case 'replace':
      return typeof a === 'string' && typeof b === 'string' ? { k: 'str', v: text.replace(a, b) } : unknown('call-expression', site);
    case 'slice':
      return { k: 'str', v: text.slice(Number(a ?? 0), b === undefined ? undefined : Number(b)) };
    case 'split':
      return typeof a === 'string' ? { k: 'array', items: text.split(a).map((v): Value => ({ k: 'str', v })) } : unknown('call-expression', site);
    case 'startsWith':
    case 'endsWith':
    case 'includes':
      return { k: 'bool', v: text[method](String(a)) };
    default:
      return unknown('call-expression', site);
  }
}

/** The reason an alternative gives the layers it decides: `conditional` or `environment`. */
function altReason(v: AltValue, location: Location): Reason {
  const message = v.reason === 'environment' ? `depends on \`${clip(v.text)}\`; the fallback is used here` : `registered only for one outcome of \`${clip(v.text)}\``;
  return { code: v.reason, message, location };
}

/**
 * Flattens nested arrays of handlers (`[auth, [validate]]`) keeping each element's node and its
 * slot: the argument it came from and, inside arrays, its index per level (model.ts ArgumentSlot).
 */
export function flattenArgs(args: Value[], nodes: Node[]): { value: Value; node: Node; slot: ArgumentSlot }[] {
  const out: { value: Value; node: Node; slot: ArgumentSlot }[] = [];
  const walk = (items: Value[], itemNodes: Node[], slot: (i: number) => ArgumentSlot) => {
    items.forEach((value, i) => {
      const node = itemNodes[i] ?? itemNodes[itemNodes.length - 1];
      if (value.k === 'array') {
        const outer = slot(i);
        walk(value.items, value.items.map((_, j) => value.nodes?.[j] ?? node), (j) => ({ argument: outer.argument, element: [...(outer.element ?? []), j] }));
      } else out.push({ value, node, slot: slot(i) });
    });
  };
  walk(args, nodes, (i) => ({ argument: i }));
  return out;
}

/** Is the first `use` argument a path (string, RegExp, array of them, or a path-like expression)? */
function isPathArg(v: Value, node: Node): boolean {
  if (v.k === 'str' || v.k === 'regexp') return true;
  if (v.k === 'alt') return v.items.every((i) => isPathArg(i, node));
  if (v.k === 'array') return v.items.length > 0 && v.items.every((i) => i.k === 'str' || i.k === 'regexp');
  if (v.k === 'unknown') return v.reason === 'environment' || v.reason === 'dynamic-path' || Node.isTemplateExpression(node) || Node.isStringLiteral(node) || (Node.isBinaryExpression(node) && node.getOperatorToken().getKind() === SyntaxKind.PlusToken);
  return false;
}

function isErrorHandler(entry: EntryRef, value: Value): boolean {
  if (value.k === 'pkg') {
    const member = value.member.filter((m) => m !== 'default');
    return listed(ERROR_HANDLER_PACKAGES, value.name, member) || (member.length > 0 && ERROR_HANDLER_NAME.test(member[member.length - 1]));
  }
  return entry.arity === 4;
}

/** `(err, req, res)`, `(err, req, res, next = noop)`, `(...args)` with an error-like first name. */
function looksLikeErrorHandler(fn: Node): boolean {
  const params = (fn as Node & { getParameters?(): { getName(): string; isRestParameter(): boolean }[] }).getParameters?.() ?? [];
  const errorFirst = params.length >= 3 && /^_?(err|error|e|ex|exception)$/i.test(params[0].getName());
  const restOnly = params.length === 1 && params[0].isRestParameter();
  return errorFirst || restOnly;
}

function staticOf(value: Value, argValues: WeakMap<Node, Value>, node: Node): { dir: string | null; options: string | null; package: string } | null {
  if (value.k !== 'pkg' || !value.called) return null;
  const member = STATIC_PACKAGES[value.name];
  const m = value.member.filter((p) => p !== 'default');
  if (!member || member.length !== m.length || !member.every((p, i) => p === m[i])) return null;
  const call = Node.isCallExpression(node) ? node : null;
  const dirNode = call?.getArguments()[0];
  const dir = dirNode ? argValues.get(dirNode) : undefined;
  return { dir: dir?.k === 'str' ? dir.v : null, options: call?.getArguments()[1]?.getText() ?? null, package: value.name };
}

/** Name of the variable, property or class field a creation expression is assigned to. */
export function bindingName(site: Node): string {
  let n: Node | undefined = site.getParent();
  while (n && (Node.isAsExpression(n) || Node.isParenthesizedExpression(n) || Node.isAwaitExpression(n) || Node.isNonNullExpression(n))) n = n.getParent();
  if (!n) return '<anonymous>';
  if (Node.isVariableDeclaration(n) || Node.isPropertyDeclaration(n) || Node.isPropertyAssignment(n)) return n.getName();
  if (Node.isBinaryExpression(n)) return n.getLeft().getText();
  if (Node.isReturnStatement(n) || Node.isArrowFunction(n)) {
    const fn = n.getFirstAncestor((a) => Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a) || Node.isVariableDeclaration(a));
    const name = fn && 'getName' in fn ? (fn as { getName(): string | undefined }).getName() : undefined;
    return name ? `${name}()` : '<anonymous>';
  }
  return '<anonymous>';
}
