/**
 * The Fastify API for the evaluator: what `Fastify()`, `fastify.get/post/…/all`, `fastify.route`,
 * `register` (with `prefix`, and `fastify-plugin`), `addHook`, `decorate`, `setErrorHandler`,
 * `setNotFoundHandler`, `listen` and `use` (through `@fastify/express` or `@fastify/middie`)
 * record in the Fastify routing graph (fastify-graph.ts, which states the Fastify semantics).
 *
 * Fastify instances are recognised by provenance only: calling the `fastify` package's export
 * (`Fastify()`, `fastify({…})`, `require('fastify')()`, `require('fastify').default()`,
 * `import { fastify } from 'fastify'`), or being the instance a project plugin receives from
 * `register`. Never by variable name.
 */
import path from 'node:path';
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import { Env, type Evaluator } from './evaluate.js';
import type { EntryRef, RouterNode } from './graph.js';
import type { FastifyHook, Reason } from './model.js';
import type { PathSpec } from './path.js';
import { clip, describeEntry } from './entry.js';
import { expressChainOf } from './adapters.js';
import { FASTIFY_PHASES, type FastifyContext } from './fastify-graph.js';
import { fastifyPrefix } from './fastify-path.js';
import { bindingName, flattenArgs } from './express-api.js';
import { type FnValue, type Value, obj, UNDEF, unknown } from './values.js';
import { toJson } from './folded.js';

/** Fastify's route shorthand methods (Fastify 5 `fastify.js`); `all` registers every supported method. */
export const FASTIFY_ROUTE_METHODS = new Set(['get', 'head', 'post', 'put', 'delete', 'patch', 'options', 'trace', 'query', 'all']);

/** Instance methods that return the instance (so calls chain) and record nothing the inventory needs. */
const CHAINABLE = new Set([
  'withTypeProvider', 'addSchema', 'removeContentTypeParser', 'removeAllContentTypeParsers', 'decorateRequest', 'decorateReply',
  'setValidatorCompiler', 'setSerializerCompiler', 'setReplySerializer', 'setSchemaErrorFormatter', 'setSchemaController', 'setGenReqId', 'addHttpMethod',
]);

/** Plugins that give an instance `use()` (Express middleware), with the option naming the hook they run in (default `onRequest`). */
const BRIDGE_PACKAGES: Record<string, string> = { '@fastify/express': 'expressHook', 'fastify-express': 'expressHook', '@fastify/middie': 'hook', middie: 'hook' };

/** Plugins that register every file of a folder: their routes are not followed. */
const AUTOLOAD_PACKAGES = new Set(['@fastify/autoload', 'fastify-autoload']);

/** `fastify-plugin`'s exports that wrap a plugin so that it is not encapsulated. */
const FASTIFY_PLUGIN_MEMBERS = [[], ['default'], ['fastifyPlugin']];

/**
 * Fastify calls for one evaluation. `nextSeq` numbers registrations in the same sequence as the
 * Express layers, so an analysis can tell what was registered first across both frameworks.
 */
export class FastifyApi {
  /** Every Fastify app the evaluation created, in creation order. */
  readonly apps: FastifyContext[] = [];
  /** Functions wrapped with `fastify-plugin` (`fp(fn)`): registered without a new context. */
  private readonly wrapped = new WeakSet<Node>();
  private uid = 0;

  constructor(private readonly ev: Evaluator, private readonly nextSeq: () => number) {}

  /**
   * A call of a package value that Fastify gives meaning: the `fastify` factory (a new app) or
   * `fastify-plugin` (returns the plugin, marked as not encapsulated). Null for other packages.
   */
  callPackage(callee: Extract<Value, { k: 'pkg' }>, args: Value[], site: Node): Value | null {
    const member = callee.member.filter((m) => m !== 'default');
    if (callee.name === 'fastify' && (member.length === 0 || (member.length === 1 && member[0] === 'fastify'))) return { k: 'fastify', ctx: this.newApp(site) };
    if (callee.name === 'fastify-plugin' && FASTIFY_PLUGIN_MEMBERS.some((m) => m.length === member.length && m.every((p, i) => p === member[i]))) {
      const plugin = args[0];
      if (plugin?.k === 'fn') this.wrapped.add(plugin.node);
      return plugin ?? unknown('call-expression', site);
    }
    return null;
  }

  /** `fastify.x`: a decoration of the context or an outer one, the context's `prefix`, else a method. */
  get(ctx: FastifyContext, name: string): Value {
    for (let c: FastifyContext | null = ctx; c; c = c.parent) {
      const decorated = c.decorations.get(name);
      if (decorated) return decorated;
    }
    if (name === 'prefix') {
      const prefix = knownPrefix(ctx);
      return prefix === null ? unknown('dynamic-path') : { k: 'str', v: prefix };
    }
    return { k: 'fastifyMethod', ctx, name };
  }


  /** `fastify.x = value`: like `decorate('x', value)`. */
  decorate(ctx: FastifyContext, name: string, value: Value): void {
    ctx.decorations.set(name, value);
  }

  /** `fastify.<name>(…args)`: records the registration and returns what Fastify returns. */
  call(ctx: FastifyContext, name: string, args: Value[], argNodes: Node[], site: Node): Value {
    this.ev.visitedCalls.add(site);
    const self: Value = { k: 'fastify', ctx };
    if (FASTIFY_ROUTE_METHODS.has(name)) {
      this.addShorthandRoute(ctx, name, args, argNodes, site);
      return self;
    }
    switch (name) {
      case 'route':
        this.addRouteOptions(ctx, args[0], argNodes[0], site);
        return self;
      case 'addHook':
        this.addHook(ctx, args, argNodes, site);
        return self;
      case 'addContentTypeParser': {
        // (contentType, [options,] parser)
        const i = argNodes.length - 1;
        if (i >= 1) ctx.parsers.push({ site, contentType: args[0]?.k === 'str' ? args[0].v : argNodes[0].getText(), entry: describeEntry(this.ev, argNodes[i], args[i]) });
        return self;
      }
      case 'register':
        this.register(ctx, args, argNodes, site);
        return self;
      case 'after':
        if (args[0]?.k === 'fn') this.ev.invoke(args[0], [UNDEF], site);
        return self;
      case 'then':
        // The instance is thenable (avvio): `build().then((fastify) => fastify.listen(…))`.
        if (args[0]?.k === 'fn') return this.ev.invoke(args[0], [self], site);
        return self;
      case 'ready':
        if (args[0]?.k === 'fn') this.ev.invoke(args[0], [UNDEF], site);
        return unknown('server', site);
      // `fastify.server.listen(…)` (the shim's generated `listen`) is the Node server's, not recorded.
      case 'listen':
        rootOf(ctx).listen.push({ site, args: (Node.isCallExpression(site) ? site.getArguments() : argNodes).map((a) => a.getText()) });
        return unknown('server', site);
      case 'decorate':
        if (args[0]?.k === 'str') this.decorate(ctx, args[0].v, args[1] ?? UNDEF);
        return self;
      case 'use':
        this.addUse(ctx, args, argNodes, site);
        return self;
      case 'setErrorHandler':
        if (args.length) ctx.items.push({ type: 'errorHandler', ...this.base(site), entry: describeEntry(this.ev, argNodes[args.length - 1], args[args.length - 1]) });
        return self;
      case 'setNotFoundHandler':
        this.setNotFoundHandler(ctx, args, argNodes, site);
        return self;
      default:
        return CHAINABLE.has(name) ? self : unknown('call-expression', site);
    }
  }

  // ── creation ───────────────────────────────────────────────────────────────

  private newApp(site: Node): FastifyContext {
    const ctx = this.newContext('app', bindingName(site), site, null);
    this.apps.push(ctx);
    return ctx;
  }

  private newContext(kind: FastifyContext['kind'], name: string, site: Node, parent: FastifyContext | null, prefixes: PathSpec[] = [], reasons: Reason[] = []): FastifyContext {
    return { uid: ++this.uid, kind, name, site, parent, prefixes, items: [], parsers: [], decorations: new Map(), listen: [], conditions: [...this.ev.conditions], reasons };
  }

  /** Fields every item shares: its place in the registration order and what it sits under. */
  private base(site: Node, reasons: Reason[] = [...this.ev.ambient]): { seq: number; site: Node; conditions: string[]; reasons: Reason[] } {
    return { seq: this.nextSeq(), site, conditions: [...this.ev.conditions], reasons };
  }

  // ── routes ─────────────────────────────────────────────────────────────────

  /** `fastify.get(path, [options], handler)`; the handler may also be `options.handler`. */
  private addShorthandRoute(ctx: FastifyContext, name: string, args: Value[], argNodes: Node[], site: Node): void {
    const chain = args.length === 2 && argNodes[1] ? expressChainOf(this.ev, argNodes[1], (n, v) => describeEntry(this.ev, n, v)) : undefined;
    if (chain) {
      const base = this.base(site);
      const paths = this.ev.api.pathsOf(args[0], argNodes[0], site, base.reasons);
      ctx.items.push({ type: 'route', ...base, methods: [name === 'all' ? 'ALL' : name.toUpperCase()], paths, kind: name === 'all' ? 'all' : 'verb', hooks: chain.hooks.map((entry) => ({ hook: 'preHandler' as const, entry })), handler: chain.handler });
      return;
    }
    let options: Value | undefined;
    let optionsNode: Node | undefined;
    let handler: { value: Value | undefined; node: Node | undefined } = { value: undefined, node: undefined };
    if (args.length >= 3) {
      [options, optionsNode] = [args[1], argNodes[1]];
      handler = { value: args[2], node: argNodes[2] };
    } else if (args[1]?.k === 'object') [options, optionsNode] = [args[1], argNodes[1]];
    else handler = { value: args[1], node: argNodes[1] };
    if (!handler.node && options?.k === 'object') handler = this.option(options, optionsNode, 'handler');
    const base = this.base(site);
    const paths = this.ev.api.pathsOf(args[0], argNodes[0], site, base.reasons);
    ctx.items.push({
      type: 'route', ...base, methods: [name === 'all' ? 'ALL' : name.toUpperCase()], paths, kind: name === 'all' ? 'all' : 'verb',
      hooks: this.routeHooks(options, optionsNode), handler: handler.node ? describeEntry(this.ev, handler.node, handler.value) : null,
    });
  }

  /** `fastify.route({ method, url, handler, preHandler, … })`; `method` may be an array. */
  private addRouteOptions(ctx: FastifyContext, options: Value | undefined, optionsNode: Node | undefined, site: Node): void {
    if (options?.k !== 'object' || !optionsNode) {
      this.ev.diagnose('unresolved-router', 'warning', `the options of \`${clip(site.getText())}\` could not be read; the route is missing from this inventory`, site);
      return;
    }
    const method = toJson(options.props.get('method') ?? UNDEF);
    const methods = (Array.isArray(method) ? method : [method]).filter((m): m is string => typeof m === 'string').map((m) => m.toUpperCase());
    if (methods.length === 0) {
      this.ev.diagnose('unresolved-router', 'warning', `the method of \`${clip(site.getText())}\` could not be folded; the route is missing from this inventory`, site);
      return;
    }
    const urlKey = options.props.has('url') ? 'url' : 'path';
    const url = this.option(options, optionsNode, urlKey);
    const handler = this.option(options, optionsNode, 'handler');
    const base = this.base(site);
    const paths = this.ev.api.pathsOf(url.value, url.node ?? optionsNode, site, base.reasons);
    ctx.items.push({
      type: 'route', ...base, methods, paths, kind: 'route-options',
      hooks: this.routeHooks(options, optionsNode), handler: handler.node ? describeEntry(this.ev, handler.node, handler.value) : null,
    });
  }

  /** A route's own hooks (`onRequest`, `preParsing`, `preValidation`, `preHandler`: a function or an array), in phase order. */
  private routeHooks(options: Value | undefined, optionsNode: Node | undefined): { hook: FastifyHook; entry: EntryRef }[] {
    if (options?.k !== 'object') return [];
    return FASTIFY_PHASES.flatMap((hook) => {
      const { value, node } = this.option(options, optionsNode, hook);
      if (!value || !node || value.k === 'undef') return [];
      return flattenArgs([value], [node]).map((f) => ({ hook, entry: describeEntry(this.ev, f.node, f.value) }));
    });
  }

  /**
   * Option `key` of an options object: its value and the expression written for it (in the
   * object literal at the call; for an object held in a variable, the function's own name or the
   * variable it is assigned to, else the options expression).
   */
  private option(options: Extract<Value, { k: 'object' }>, optionsNode: Node | undefined, key: string): { value: Value | undefined; node: Node | undefined } {
    const value = options.props.get(key);
    if (!value || !optionsNode) return { value, node: undefined };
    return { value, node: propertyNode(optionsNode, key) ?? entrySite(value, optionsNode) };
  }

  // ── hooks, plugins, middleware ─────────────────────────────────────────────

  private addHook(ctx: FastifyContext, args: Value[], argNodes: Node[], site: Node): void {
    const [name, fn] = args;
    if (name?.k !== 'str' || !argNodes[1]) return;
    const app = fn?.k === 'fn' && isBridgePhase(name.v) ? this.servedApp(fn) : null;
    if (app) ctx.items.push({ type: 'use', ...this.base(site), path: null, app, hook: name.v as FastifyHook });
    else ctx.items.push({ type: 'hook', ...this.base(site), hook: name.v, entry: describeEntry(this.ev, argNodes[1], fn) });
  }

  /**
   * `setNotFoundHandler([options,] handler)`: the handler (Fastify's own 404 when only options are
   * given: four-oh-four.js basic404), and an Express app its `preHandler` option runs — what the
   * requests no route matched pass through.
   */
  private setNotFoundHandler(ctx: FastifyContext, args: Value[], argNodes: Node[], site: Node): void {
    const [options] = args;
    const hook = options?.k === 'object' ? options.props.get('preHandler') : undefined;
    const app = hook?.k === 'fn' ? this.servedApp(hook) : null;
    if (app) ctx.items.push({ type: 'use', ...this.base(site), path: null, app, hook: 'preHandler', notFound: true });
    const i = args.length - 1;
    if (i >= 0 && args[i].k !== 'object') ctx.items.push({ type: 'notFoundHandler', ...this.base(site), entry: describeEntry(this.ev, argNodes[i], args[i]) });
  }

  /**
   * `register(plugin, options)`: a project plugin runs now with a new encapsulated context (or,
   * wrapped with `fastify-plugin`, with this one); an npm plugin is recorded by name.
   */
  private register(ctx: FastifyContext, args: Value[], argNodes: Node[], site: Node): void {
    const [plugin, options] = args;
    const pluginNode = argNodes[0];
    if (!plugin || !pluginNode) return;
    if (plugin.k === 'pkg') return this.registerPackage(ctx, plugin.name, options, argNodes[1], site);
    const fn = pluginFunction(plugin);
    if (!fn) {
      this.ev.diagnose('unresolved-router', 'warning', `the Fastify plugin \`${clip(pluginNode.getText())}\` could not be followed; the routes it registers are missing from this inventory`, site);
      return;
    }
    const opts = options ?? obj();
    if (this.wrapped.has(fn.node)) {
      this.ev.invoke(fn, [{ k: 'fastify', ctx }, opts, unknown('call-expression', site)], site);
      return;
    }
    const reasons: Reason[] = [...this.ev.ambient];
    const prefix = opts.k === 'object' ? opts.props.get('prefix') : undefined;
    const prefixes = prefix && prefix.k !== 'undef' ? this.ev.api.pathsOf(prefix, (argNodes[1] && propertyNode(argNodes[1], 'prefix')) ?? argNodes[1], site, reasons) : [];
    const child = this.newContext('plugin', pluginName(fn, pluginNode), site, ctx, prefixes, reasons);
    child.fn = fn.node;
    ctx.items.push({ type: 'plugin', ...this.base(site, reasons), child });
    this.ev.invoke(fn, [{ k: 'fastify', ctx: child }, opts, unknown('call-expression', site)], site);
  }

  private registerPackage(ctx: FastifyContext, name: string, options: Value | undefined, optionsNode: Node | undefined, site: Node): void {
    if (AUTOLOAD_PACKAGES.has(name)) {
      this.ev.diagnose('filesystem-registration', 'warning', `\`${name}\` registers the plugins of a folder at start-up; the analyzer does not read them, so their routes are missing from this inventory`, site);
    }
    const hookOption = BRIDGE_PACKAGES[name];
    const hook = hookOption && options?.k === 'object' ? options.props.get(hookOption) : undefined;
    const bridgeHook = hookOption ? ((hook?.k === 'str' && (FASTIFY_PHASES as string[]).includes(hook.v) ? hook.v : 'onRequest') as FastifyHook) : undefined;
    ctx.items.push({ type: 'package', ...this.base(site), package: name, options: optionsNode?.getText().slice(0, 500) ?? null, ...(bridgeHook ? { bridgeHook } : {}) });
  }

  /**
   * `use([path,] fn)` through `@fastify/express`: an Express app or router (`use(app)`), a function
   * that calls one (`use(bridge(app))`, where `bridge` returns `(req, res, next) => app(req, res,
   * next)`), or Express middleware.
   */
  private addUse(ctx: FastifyContext, args: Value[], argNodes: Node[], site: Node): void {
    let spec: PathSpec | null = null;
    let rest = 0;
    const reasons: Reason[] = [...this.ev.ambient];
    const first = args[0];
    if (first && (first.k === 'str' || first.k === 'regexp' || first.k === 'alt' || (first.k === 'unknown' && ['environment', 'dynamic-path'].includes(first.reason)))) {
      spec = this.ev.api.pathsOf(first, argNodes[0], site, reasons)[0];
      rest = 1;
    }
    for (const { value, node } of flattenArgs(args.slice(rest), argNodes.slice(rest))) {
      const app = value.k === 'router' ? value.node : value.k === 'fn' ? this.servedApp(value) : null;
      const base = this.base(site, reasons);
      if (app) ctx.items.push({ type: 'use', ...base, path: spec, app });
      else ctx.items.push({ type: 'use', ...base, path: spec, entry: describeEntry(this.ev, node, value) });
    }
  }

  /**
   * The Express app or router a function passed to `use` runs: a call in its body, with the
   * request and response, of a reference that is an app or router (`app(req, res, next)`,
   * `app.handle(req, res, next)`). Only references are evaluated, never calls.
   */
  private servedApp(fn: FnValue, depth = 0): RouterNode | null {
    const env = new Env(fn.env as Env);
    for (const call of fn.node.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = call.getExpression();
      if (call.getArguments().length < 2 || !isReference(callee)) continue;
      const target = this.ev.ev(callee, env);
      if (target.k === 'router') return target.node;
      if (target.k === 'method' && ['handle', 'call', 'apply'].includes(target.name)) return target.target;
      // A function that runs the app with this one's request and response (a hook calling the shim's
      // `expressBridge(app)` with `request.raw`, `reply.raw`): not one that only calls something else.
      const inner = target.k === 'fn' && depth < SERVED_APP_DEPTH && passesOwnParameters(fn, call) ? this.servedApp(target, depth + 1) : null;
      if (inner) return inner;
    }
    return null;
  }
}

/** How many calls servedApp follows towards the Express app: two (the plugins stage's exceptExpressFree → its hook → the bridge that calls the app). */
const SERVED_APP_DEPTH = 2;

/**
 * Whether `call` passes at least two of `fn`'s parameters on: as they are, a member of one
 * (`request.raw`), through a type assertion (`done as Next`), or through a local constant holding
 * one (`const raw = request.raw as Loose<IncomingMessage>`, as the shim's expressHook writes it).
 */
function passesOwnParameters(fn: FnValue, call: CallExpression): boolean {
  const node = fn.node as Node & { getParameters?: () => Array<{ getName(): string }> };
  const names = new Set((node.getParameters?.() ?? []).map((p) => p.getName()));
  return call.getArguments().filter((a) => names.has(rootName(fn.node, a))).length >= 2;
}

/** The identifier an argument starts from, past assertions, parentheses and one local constant declared in `scope`. */
function rootName(scope: Node, arg: Node, aliases = 1): string {
  let e = arg;
  while (Node.isAsExpression(e) || Node.isParenthesizedExpression(e) || Node.isNonNullExpression(e) || Node.isTypeAssertion(e)) e = e.getExpression();
  while (Node.isPropertyAccessExpression(e)) e = e.getExpression();
  if (!Node.isIdentifier(e)) return '';
  const name = e.getText();
  if (aliases > 0) {
    // A constant of this function itself, not one of a function nested in it.
    const own = (d: Node) => d.getFirstAncestor((a) => Node.isFunctionDeclaration(a) || Node.isFunctionExpression(a) || Node.isArrowFunction(a) || Node.isMethodDeclaration(a)) === scope;
    const local = scope.getDescendantsOfKind(SyntaxKind.VariableDeclaration).find((d) => d.getName() === name && d.getInitializer() && own(d));
    if (local) return rootName(scope, local.getInitializer()!, aliases - 1);
  }
  return name;
}

/** The hooks that can run an Express app for a route: those before its handler, with the request and reply. */
function isBridgePhase(hook: string): boolean {
  return ['onRequest', 'preParsing', 'preValidation', 'preHandler'].includes(hook);
}

/** The plugin function of a `register` argument: a function, or a module namespace's `default` (`register(import('./routes.js'))`). */
function pluginFunction(plugin: Value): FnValue | null {
  if (plugin.k === 'fn') return plugin;
  if (plugin.k === 'object') {
    const def = plugin.props.get('default');
    if (def?.k === 'fn') return def;
  }
  return null;
}

/** A plugin's name: the function's own, the variable it is assigned to, the reference written at `register`, else its file's base name. */
function pluginName(fn: FnValue, written: Node): string {
  const node = fn.node;
  const own = (Node.isFunctionDeclaration(node) || Node.isFunctionExpression(node)) && node.getName();
  if (own) return own;
  const holder = node.getParent();
  if (holder && Node.isVariableDeclaration(holder)) return holder.getName();
  if (Node.isIdentifier(written) || Node.isPropertyAccessExpression(written)) return written.getText();
  const file = node.getSourceFile().getFilePath();
  return path.basename(file).replace(/\.[cm]?[jt]sx?$/, '');
}

/**
 * The node to name a function by when it was not written at the registration (an option of an
 * object held in a variable): a function declaration itself, or the variable it is assigned to.
 */
function entrySite(value: Value, fallback: Node): Node {
  if (value.k !== 'fn') return fallback;
  const node = value.node;
  if (Node.isFunctionDeclaration(node) || Node.isMethodDeclaration(node) || (Node.isFunctionExpression(node) && node.getName())) return node;
  const holder = node.getParent();
  if (holder && Node.isVariableDeclaration(holder)) return holder.getNameNode();
  return fallback;
}

/** The expression written for property `key` in an object literal (`{ preHandler: [auth] }`), or undefined. */
function propertyNode(objectNode: Node, key: string): Node | undefined {
  let n: Node = objectNode;
  while (Node.isParenthesizedExpression(n) || Node.isAsExpression(n) || Node.isSatisfiesExpression(n)) n = n.getExpression();
  if (!Node.isObjectLiteralExpression(n)) return undefined;
  for (const prop of n.getProperties()) {
    if (Node.isPropertyAssignment(prop) && prop.getName().replace(/^['"]|['"]$/g, '') === key) return prop.getInitializerOrThrow();
    if (Node.isShorthandPropertyAssignment(prop) && prop.getName() === key) return prop.getNameNode();
    if (Node.isMethodDeclaration(prop) && prop.getName() === key) return prop;
  }
  return undefined;
}

function isReference(node: Node): boolean {
  return Node.isIdentifier(node) || node.getKind() === SyntaxKind.ThisKeyword || (Node.isPropertyAccessExpression(node) && isReference(node.getExpression()));
}

function rootOf(ctx: FastifyContext): FastifyContext {
  let c = ctx;
  while (c.parent) c = c.parent;
  return c;
}

/** The full prefix of a context when every prefix above it is one known string, else null. */
export function knownPrefix(ctx: FastifyContext): string | null {
  const chain: FastifyContext[] = [];
  for (let c: FastifyContext | null = ctx; c; c = c.parent) chain.unshift(c);
  let prefix = '';
  for (const c of chain) {
    if (c.prefixes.length === 0) continue;
    const [only] = c.prefixes;
    if (c.prefixes.length > 1 || only.kind !== 'string') return null;
    prefix = fastifyPrefix(prefix, only.value);
  }
  return prefix;
}

