/**
 * Inventory records of the Fastify apps the evaluator recorded (fastify-graph.ts): apps, plugin
 * contexts (routers of kind `plugin`) and their mounts, hooks and `use` middleware (middleware
 * records), routes with their chains, error and not-found handlers; and, for every Express app
 * served through `@fastify/express`, what its own records need (BridgeInfo): the prefix, the
 * bridge mount and the Fastify hooks and middleware that run before it.
 *
 * Chains follow Fastify's order: phase by phase, the hooks of the route's context and the contexts
 * above it in the order they were added (a plugin loads completely where it is registered, so a
 * hook its parent adds after registering it runs after the plugin's own hooks; checked with
 * Fastify 5.12 `printRoutes({ includeHooks: true })`), then the route's own hooks of that phase. The
 * `@fastify/express` bridge runs in its `expressHook` phase at the point it was registered: there
 * the `use` middleware of the context and those above it run in registration order, and an
 * Express app served there runs its own middleware (and wildcard routes) that match the request.
 * `use` middleware of a context above reaches a plugin only when it was added before the plugin
 * loaded (`@fastify/express` copies it at registration).
 */
import type { Node, ts } from 'ts-morph';
import type { EntryRef, RouterNode } from './graph.js';
import type { App, ChainEntry, ErrorHandler, HandOver, Location, MountRef, Middleware, PathParam, Reason, Resolution, Route } from './model.js';
import { FASTIFY_PHASES, type FastifyContext, type FastifyHandlerItem, type FastifyHookItem, type FastifyItem, type FastifyRouteItem, type FastifyUseItem } from './fastify-graph.js';
import { bridgeUsePath, fastifyPrefix, fastifyRoutePath, keyPath } from './fastify-path.js';
import { chainEntry, conditionReasons, distinct, handlerOf, stableId, type InventoryRecords } from './inventory.js';
import { matchKey, optionalForms, pathParams, pathSyntax, pathText, patternCovers, prefixCovers, type PathSpec } from './path.js';
import { errorReadsOf, type Usage } from './usage.js';
import { startSites } from './starts.js';
import { statementOf } from './statements.js';
import { factoryCall } from './folded.js';
import { adapterRecord } from './adapters.js';
import { generatedKindOf } from './generated.js';

type Locate = (node: Node | ts.Node) => Location;

/** What the records of an Express app served through `@fastify/express` need. */
export interface BridgeInfo {
  /** Id of the Fastify app that serves it. */
  fastifyAppId: string;
  /** Full path the app is served at (Fastify prefix + `use` path), route-key spelling. */
  prefix: string;
  /** The bridge edge, first in every route's mount chain. */
  mount: MountRef;
  /** What runs before the Express app for a request `method full`: Fastify hooks and earlier `use` middleware. */
  lead(full: string, method: string): ChainEntry[];
}

/** One context as reached with one prefix (a plugin registered under `dev ? '/a' : '/b'` is reached twice). */
interface FlatContext {
  ctx: FastifyContext;
  id: string;
  appId: string;
  parent: FlatContext | null;
  depth: number;
  /** Full prefix as registered (`''` at the app), Fastify's join. */
  prefix: string;
  /** The prefix spec of each plugin from the app down (for parameters and unresolved parts). */
  specs: PathSpec[];
  mounts: MountRef[];
  /** Contexts from the app down to this one (this one last). */
  lineage: FlatContext[];
}

interface FlatEntry {
  item: FastifyItem;
  at: FlatContext;
  order: number;
}

/**
 * Builds the Fastify records in two steps: `plan` (before the Express records: ids, and the bridge
 * of each served Express app) and `finish` (after them: everything else, since Fastify chains and
 * error handlers name Express middleware and routes).
 */
export class FastifyRecords {
  private readonly flats: FlatContext[] = [];
  private readonly entries: FlatEntry[] = [];
  /** The entries of each flat context, in order (what lineage walks read). */
  private readonly byContext = new Map<FlatContext, FlatEntry[]>();
  private readonly ctxIds = new Map<FastifyContext, string>();
  private readonly middlewareIds = new Map<string, string>();
  private readonly middleware: Middleware[] = [];
  private readonly occurrences = new Map<string, Map<string, number>>();
  /** Per Fastify app: the id its routes are hashed with (the Express app it serves, so ids survive a route's move). */
  private readonly idScope = new Map<string, string>();
  private readonly bridges = new Map<RouterNode, BridgeInfo>();

  constructor(private readonly apps: FastifyContext[], private readonly locate: Locate, private readonly usage: Usage, private readonly expressIdOf: (r: RouterNode) => string) {}

  /** Occurrence counters of one id scope (an app id), shared by Express and Fastify routes of that scope. */
  occurrencesOf(scope: string): (key: string) => string {
    let counts = this.occurrences.get(scope);
    if (!counts) this.occurrences.set(scope, (counts = new Map()));
    const map = counts;
    return (key) => {
      const n = map.get(key) ?? 0;
      map.set(key, n + 1);
      return String(n);
    };
  }

  /** Assigns ids, builds the middleware records, and returns the bridge of every Express app or router served through `@fastify/express`. */
  plan(): Map<RouterNode, BridgeInfo> {
    this.assignIds();
    for (const app of this.apps) this.flatten(app, null, null);
    this.entries.sort((a, b) => a.order - b.order);
    for (const e of this.entries) if (e.item.type === 'hook' || (e.item.type === 'use' && e.item.entry)) this.addMiddleware(e);
    for (const e of this.entries) if (e.item.type === 'use' && e.item.app && !this.bridges.has(e.item.app)) this.bridges.set(e.item.app, this.bridgeOf(e as FlatEntry & { item: FastifyUseItem }));
    return this.bridges;
  }

  /** Pushes every Fastify record into `out` (the Express records of served apps are there already). */
  finish(out: InventoryRecords): void {
    for (const app of this.apps) out.apps.push(this.appRecord(app));
    const seen = new Set<FastifyContext>();
    for (const flat of this.flats) {
      if (flat.ctx.kind !== 'plugin') continue;
      if (!seen.has(flat.ctx)) {
        seen.add(flat.ctx);
        out.routers.push({ id: flat.id, appId: flat.appId, kind: 'plugin', name: flat.ctx.name, package: 'fastify', location: this.locate(flat.ctx.fn ?? flat.ctx.site), options: {}, mounted: true, framework: 'fastify' });
      }
      out.mounts.push(this.mountRecord(flat));
    }
    for (const [app, bridge] of this.bridges) {
      const use = this.entries.find((e) => e.item.type === 'use' && e.item.app === app)!;
      out.mounts.push({ id: bridge.mount.mountId, parent: use.at.id, child: this.expressIdOf(app), mountPath: bridge.mount.mountPath, fullPath: bridge.prefix, location: bridge.mount.location, resolution: use.item.conditions.length ? 'partial' : 'exact', reasons: [], framework: 'fastify', kind: 'bridge' });
      const record = out.apps.find((a) => a.id === this.expressIdOf(app));
      if (record) record.servedBy = bridge.fastifyAppId;
    }
    out.middleware.push(...this.middleware);
    const routeIds = new Map<FlatEntry, string[]>();
    for (const e of this.entries) if (e.item.type === 'route') routeIds.set(e, this.addRoutes(out, e as FlatEntry & { item: FastifyRouteItem }));
    for (const e of this.entries) {
      if (e.item.type === 'errorHandler') out.errorHandlers.push(this.errorHandler(out, e as FlatEntry & { item: FastifyHandlerItem }, routeIds));
      if (e.item.type === 'notFoundHandler') out.notFoundHandlers.push(this.notFoundHandler(e as FlatEntry & { item: FastifyHandlerItem }));
      if (e.item.type === 'use' && !e.item.hook && !this.bridgeOfContext(e.at)) {
        out.diagnostics.push({ code: 'missing-bridge', severity: 'warning', message: '`use()` on a Fastify instance needs @fastify/express (or @fastify/middie) registered on it or a context above it; none was found', location: this.locate(e.item.site) });
      }
    }
  }

  // ── ids and flattening ─────────────────────────────────────────────────────

  private assignIds(): void {
    const twins = new Map<string, number>();
    const rank = (key: string) => {
      const n = twins.get(key) ?? 0;
      twins.set(key, n + 1);
      return String(n);
    };
    const visit = (ctx: FastifyContext) => {
      const file = this.locate(ctx.site).file;
      this.ctxIds.set(ctx, ctx.kind === 'app' ? stableId('app', 'fastify', file, ctx.name, rank(`app ${file} ${ctx.name}`)) : stableId('router', 'fastify', file, ctx.name, rank(`plugin ${file} ${ctx.name}`)));
      for (const item of ctx.items) if (item.type === 'plugin') visit(item.child);
    };
    for (const app of this.apps) visit(app);
  }

  /** Depth-first, in registration order: one FlatContext per prefix alternative, and the entries in Fastify's order. */
  private flatten(ctx: FastifyContext, parent: FlatContext | null, appId: string | null): void {
    const id = this.ctxIds.get(ctx)!;
    const root = appId ?? id;
    const occ = this.occurrencesOf(`fastify ${root}`);
    for (const spec of ctx.prefixes.length ? ctx.prefixes : [null]) {
      const prefix = spec ? fastifyPrefix(parent?.prefix ?? '', pathText(spec)) : parent?.prefix ?? '';
      const mounts = parent ? [...parent.mounts, { mountId: stableId('mount', root, parent.id, id, keyPath(prefix), occ(`mount ${id} ${keyPath(prefix)}`)), mountPath: spec ? pathText(spec) : '/', location: this.locate(ctx.site) }] : [];
      const flat: FlatContext = { ctx, id, appId: root, parent, depth: parent ? parent.depth + 1 : 0, prefix, specs: [...(parent?.specs ?? []), ...(spec ? [spec] : [])], mounts, lineage: [] };
      flat.lineage = [...(parent?.lineage ?? []), flat];
      this.flats.push(flat);
      this.byContext.set(flat, []);
      for (const item of ctx.items) {
        const entry = { item, at: flat, order: this.entries.length };
        this.entries.push(entry);
        this.byContext.get(flat)!.push(entry);
        if (item.type === 'plugin') this.flatten(item.child, flat, root);
      }
    }
  }

  // ── records ────────────────────────────────────────────────────────────────

  private appRecord(ctx: FastifyContext): App {
    const id = this.ctxIds.get(ctx)!;
    const plugins = this.entries.filter((e) => e.at.appId === id && e.item.type === 'package').map((e) => {
      const item = e.item as Extract<FastifyItem, { type: 'package' }>;
      return { package: item.package, prefix: keyPath(e.at.prefix), registration: this.locate(item.site), options: item.options };
    });
    const parsers = contextsOf(ctx).flatMap((c) => c.parsers.map((p) => ({
      contentType: p.contentType, ownerId: this.ctxIds.get(c)!, name: p.entry.name, registration: this.locate(p.site), ...statementOf(p.site), ...(p.entry.adapter ? { adapter: adapterRecord(p.entry.adapter, this.locate) } : {}),
    })));
    return {
      id, name: ctx.name, location: this.locate(ctx.site), createdBy: 'fastify()', listen: ctx.listen.map((l) => ({ location: this.locate(l.site), args: l.args })), starts: startSites(ctx.listen, [], this.locate), framework: 'fastify',
      ...(plugins.length ? { plugins } : {}), ...(parsers.length ? { contentTypeParsers: parsers } : {}), ...(generatedKindOf(ctx.site.getSourceFile().compilerNode) === 'server-module' ? { generated: 'server-module' as const } : {}),
    };
  }

  private mountRecord(flat: FlatContext) {
    const ref = flat.mounts[flat.mounts.length - 1];
    const spec = flat.specs.length && flat.ctx.prefixes.length ? flat.specs[flat.specs.length - 1] : null;
    const unresolved = spec?.kind === 'unresolved';
    const reasons: Reason[] = [...flat.ctx.reasons, ...conditionReasons(flat.ctx.conditions, this.locate(flat.ctx.site))];
    if (unresolved) reasons.unshift({ code: spec.reason ?? 'dynamic-path', message: `plugin prefix \`${pathText(spec)}\` could not be folded`, location: this.locate(flat.ctx.site) });
    const resolution: Resolution = unresolved ? 'unresolved' : reasons.length ? 'partial' : 'exact';
    return { id: ref.mountId, parent: flat.parent!.id, child: flat.id, mountPath: ref.mountPath, fullPath: keyPath(flat.prefix), location: ref.location, resolution, reasons: distinct(reasons), framework: 'fastify' as const, kind: 'plugin' as const };
  }

  /** A hook (`framework: 'fastify'`) or a `use` middleware (`framework: 'express'`, run by the bridge). */
  private addMiddleware(e: FlatEntry): void {
    const item = e.item as FastifyHookItem | FastifyUseItem;
    const entry = item.entry!;
    const use = item.type === 'use';
    const fullPath = use ? bridgeUsePath(e.at.prefix, item.path ? pathText(item.path) : null) : keyPath(e.at.prefix);
    const id = stableId('mw', e.at.appId, fullPath, entry.name, this.occurrencesOf(`fastify ${e.at.appId}`)(`mw ${fullPath} ${entry.name}`));
    this.middlewareIds.set(`${e.order}`, id);
    const hook = use ? this.bridgeOfContext(e.at)?.hook ?? 'onRequest' : (item as FastifyHookItem).hook;
    const conditions = [...e.at.lineage.flatMap((f) => f.ctx.conditions), ...item.conditions];
    this.middleware.push({
      id, framework: use ? 'express' : 'fastify', appId: e.at.appId, ownerId: e.at.id, scope: e.at.ctx.kind === 'app' ? 'app' : 'router', name: entry.name,
      path: use && item.path ? pathText(item.path) : '/', fullPath, origin: entry.origin, ...(entry.package ? { package: entry.package } : {}), ...(entry.fn ? { definition: this.locate(entry.fn) } : {}),
      registration: this.locate(item.site), ...statementOf(item.site), wrappers: entry.wrappers, order: e.order, resolution: entry.resolution === 'exact' && conditions.length ? 'partial' : entry.resolution,
      reasons: [...entry.reasons, ...conditionReasons(conditions, this.locate(item.site))], source: entry.site.getText().slice(0, 500), ...(entry.factory ? { factory: factoryCall(entry.factory, this.locate) } : {}), ...(entry.adapter ? { adapter: adapterRecord(entry.adapter, this.locate) } : {}),
      usage: use && entry.origin === 'local' ? this.usage(entry) : { req: [], res: [], next: [] }, hook,
    });
  }

  private addRoutes(out: InventoryRecords, e: FlatEntry & { item: FastifyRouteItem }): string[] {
    const { item, at } = e;
    const ids: string[] = [];
    if (!item.handler) {
      out.diagnostics.push({ code: 'unresolved-router', severity: 'warning', message: 'a Fastify route without a handler the analyzer could read; it is missing from this inventory', location: this.locate(item.site) });
      return ids;
    }
    const handler = item.handler;
    const scope = this.idScope.get(at.appId) ?? at.appId;
    const occ = this.occurrencesOf(scope);
    const mountParams: PathParam[] = at.specs.flatMap((s) => pathParams(s).map((p) => ({ ...p, fromMount: true })));
    for (const spec of item.paths) {
      const full = fastifyRoutePath(at.prefix, pathText(spec));
      for (const method of item.methods) {
        const chain = this.chainOf(out, at, item, full, method);
        const reasons: Reason[] = [...handler.reasons, ...chain.flatMap((c) => (c.resolution === 'exact' ? [] : [{ code: 'unresolved-middleware', message: `middleware \`${c.name}\` could not be resolved`, location: c.registration }]))];
        const blocked = [...at.specs, spec].find((s) => s.kind === 'unresolved');
        if (blocked?.kind === 'unresolved') reasons.unshift({ code: blocked.reason ?? 'dynamic-path', message: `path could not be folded: ${full}`, location: this.locate(item.site) });
        for (const f of at.lineage) if (f.parent) reasons.push(...f.ctx.reasons, ...conditionReasons(f.ctx.conditions, this.locate(f.ctx.site)));
        reasons.push(...item.reasons, ...conditionReasons(item.conditions, this.locate(item.site)));
        const all = distinct(reasons);
        const inferred = all.some((r) => r.code === 'filesystem-registration');
        const resolution: Resolution = blocked ? 'unresolved' : inferred ? 'inferred' : all.length ? 'partial' : 'exact';
        const key = `${method} ${full}`;
        const id = stableId('route', scope, method, full, occ(`route ${key}`));
        ids.push(id);
        const syntax = pathSyntax(spec);
        const route: Route = {
          id, framework: 'fastify', appId: at.appId, ownerId: at.id, method, key, matchKey: matchKey(method, full),
          path: { raw: pathText(spec), full, syntax: syntax === 'express4' || syntax === 'express5' ? 'fastify' : syntax, params: [...mountParams, ...pathParams(spec)], ...(spec.kind !== 'unresolved' && spec.element ? { element: true } : {}) },
          mountChain: at.mounts, registration: { ...this.locate(item.site), kind: item.kind }, ...statementOf(item.site), handler: handlerOf(handler, this.locate), chain,
          usage: handler.origin === 'local' ? this.usage(handler) : { req: [], res: [], next: [] }, conditions: item.conditions, order: e.order, resolution, reasons: all,
        };
        out.routes.push(route);
      }
    }
    return ids;
  }

  private errorHandler(out: InventoryRecords, e: FlatEntry & { item: FastifyHandlerItem }, routeIds: Map<FlatEntry, string[]>): ErrorHandler {
    const { item, at } = e;
    const entry = item.entry;
    const fullPath = keyPath(at.prefix);
    const covers: string[] = [];
    for (const [route, ids] of routeIds) if (this.nearestErrorHandler(route.at) === e) covers.push(...ids);
    for (const [app, bridge] of this.bridges) {
      const use = this.entries.find((x) => x.item.type === 'use' && x.item.app === app)!;
      if (this.nearestErrorHandler(use.at) !== e) continue;
      const appId = this.expressIdOf(app);
      const handled = new Set(out.errorHandlers.filter((h) => h.appId === appId).flatMap((h) => h.covers));
      covers.push(...out.routes.filter((r) => r.appId === appId && !handled.has(r.id)).map((r) => r.id));
      void bridge;
    }
    const conditions = [...at.lineage.flatMap((f) => f.ctx.conditions), ...item.conditions];
    return {
      id: stableId('err', at.appId, fullPath, entry.name, this.occurrencesOf(`fastify ${at.appId}`)(`err ${fullPath} ${entry.name}`)), appId: at.appId, ownerId: at.id, scope: at.ctx.kind === 'app' ? 'app' : 'router', name: entry.name,
      fullPath, origin: entry.origin, ...(entry.package ? { package: entry.package } : {}), ...(entry.fn ? { definition: this.locate(entry.fn) } : {}), registration: this.locate(item.site), ...statementOf(item.site), order: e.order,
      covers, reads: errorReadsOf(entry, this.locate), passesOn: false, ...(conditions.length ? { conditions } : {}), framework: 'fastify',
    };
  }

  private notFoundHandler(e: FlatEntry & { item: FastifyHandlerItem }) {
    const { item, at } = e;
    const entry = item.entry;
    const fullPath = keyPath(at.prefix);
    return { id: stableId('404', at.appId, fullPath, entry.name), appId: at.appId, ownerId: at.id, name: entry.name, fullPath, ...(entry.fn ? { definition: this.locate(entry.fn) } : {}), registration: this.locate(item.site), ...statementOf(item.site), resolution: 'exact' as const, framework: 'fastify' as const };
  }

  // ── chains ─────────────────────────────────────────────────────────────────

  /** The error handler that sees errors of routes in `at`: the last `setErrorHandler` of the nearest context that has one. */
  private nearestErrorHandler(at: FlatContext): FlatEntry | undefined {
    for (let f: FlatContext | null = at; f; f = f.parent) {
      const own = this.entriesOf(f).filter((x) => x.item.type === 'errorHandler');
      if (own.length) return own[own.length - 1];
    }
    return undefined;
  }

  /**
   * What runs the Express middleware of `at`'s routes, with its hook: the `@fastify/express` (or
   * `@fastify/middie`) registration that gives the context its `use()`, or a hook that runs an
   * Express app itself (FastifyUseItem.hook; the not-found handler's is not the routes').
   */
  private bridgeOfContext(at: FlatContext): { entry: FlatEntry; hook: ChainEntry['hook'] & string } | undefined {
    for (let f: FlatContext | null = at; f; f = f.parent) {
      const hooked = this.entriesOf(f).find((x) => x.item.type === 'use' && x.item.hook && !x.item.notFound);
      if (hooked) return { entry: hooked, hook: (hooked.item as FastifyUseItem).hook! };
      const pkg = this.entriesOf(f).filter((x) => x.item.type === 'package' && x.item.bridgeHook);
      if (pkg.length) return { entry: pkg[0], hook: (pkg[0].item as Extract<FastifyItem, { type: 'package' }>).bridgeHook! };
    }
    return undefined;
  }

  /** Instance hooks of `phase` that apply in `at`: those of its context and the contexts above it, in the order they were added. */
  private instanceHooks(at: FlatContext, phase: string): FlatEntry[] {
    return at.lineage.flatMap((f) => this.entriesOf(f).filter((x) => x.item.type === 'hook' && x.item.hook === phase)).sort((a, b) => a.order - b.order);
  }

  private entriesOf(at: FlatContext): FlatEntry[] {
    return this.byContext.get(at) ?? [];
  }

  private hookEntry(e: FlatEntry): ChainEntry {
    const item = e.item as FastifyHookItem;
    const conditions = [...e.at.lineage.flatMap((f) => f.ctx.conditions), ...item.conditions];
    return { ...chainEntry(item.entry, e.at.ctx.kind === 'app' ? 'app' : 'router', this.locate(item.site), this.locate, this.middlewareIds.get(`${e.order}`), conditions), hook: item.hook as ChainEntry['hook'], ...this.hookUsage(item.entry) };
  }

  /** A local hook's request and reply uses (`usage`, as a handler's), when it has any: what a stage checks before the hook runs without Express. */
  private hookUsage(entry: EntryRef): Pick<ChainEntry, 'usage'> {
    if (entry.origin !== 'local') return {};
    const { req, res, next } = this.usage(entry);
    return req.length || res.length ? { usage: { req, res, next } } : {};
  }

  /** A Fastify route's chain: per phase, instance hooks (with the bridge at its place), then the route's own hooks. */
  private chainOf(out: InventoryRecords, at: FlatContext, item: FastifyRouteItem, full: string, method: string): ChainEntry[] {
    const bridge = this.bridgeOfContext(at);
    const chain: ChainEntry[] = [];
    for (const phase of FASTIFY_PHASES) {
      const hooks = this.instanceHooks(at, phase);
      if (bridge?.hook === phase) {
        const i = hooks.findIndex((h) => before(bridge.entry, h));
        const position = i < 0 ? hooks.length : i;
        chain.push(...hooks.slice(0, position).map((h) => this.hookEntry(h)), ...this.bridged(out, at, full, method, () => true), ...hooks.slice(position).map((h) => this.hookEntry(h)));
      } else chain.push(...hooks.map((h) => this.hookEntry(h)));
      for (const own of item.hooks.filter((h) => h.hook === phase)) chain.push({ ...chainEntry(own.entry, 'route', this.locate(item.site), this.locate), hook: phase, ...this.hookUsage(own.entry) });
    }
    return chain;
  }

  /**
   * What the bridge runs for a request `method full` in context `at`: the `use` items of the
   * context and those above it (those `include` keeps), in registration order, each when its path
   * covers the request: middleware, or an Express app's middleware and wildcard routes.
   */
  private bridged(out: InventoryRecords, at: FlatContext, full: string, method: string, include: (u: FlatEntry) => boolean): ChainEntry[] {
    const hook = this.bridgeOfContext(at)?.hook ?? 'onRequest';
    const uses = this.visibleUses(at).filter(include);
    const chain: ChainEntry[] = [];
    for (const u of uses) {
      const item = u.item as FastifyUseItem;
      if (!prefixCovers(bridgeUsePath(u.at.prefix, item.path ? pathText(item.path) : null), full)) continue;
      if (item.entry) {
        const conditions = [...u.at.lineage.flatMap((f) => f.ctx.conditions), ...item.conditions];
        chain.push({ ...chainEntry(item.entry, u.at.ctx.kind === 'app' ? 'app' : 'router', this.locate(item.site), this.locate, this.middlewareIds.get(`${u.order}`), conditions), hook, bridged: true });
      } else if (item.app) chain.push(...this.expressRunsFor(out, item.app, full, method, hook));
    }
    return chain;
  }

  /**
   * The `use` items the bridge of `at` runs, in the order they were added: its own, and those of
   * each context above it added before the plugin below it was registered (`@fastify/express`
   * copies its parent's middleware when a plugin registers; later ones stay with the parent).
   */
  private visibleUses(at: FlatContext): FlatEntry[] {
    return at.lineage.flatMap((f, i) => {
      const next = at.lineage[i + 1];
      const limit = next ? this.entriesOf(f).find((e) => e.item.type === 'plugin' && e.item.child === next.ctx)?.order ?? Infinity : Infinity;
      return this.entriesOf(f).filter((x) => x.item.type === 'use' && !x.item.notFound && x.order < limit);
    });
  }

  /**
   * What a served Express app runs for a request it does not route: its middleware covering the
   * path, and wildcard routes matching it — up to the hand-over of the route (handOverOrder).
   */
  private expressRunsFor(out: InventoryRecords, app: RouterNode, full: string, method: string, hook: ChainEntry['hook']): ChainEntry[] {
    const appId = this.expressIdOf(app);
    const cut = handOverOrder(out.apps.find((a) => a.id === appId)?.handOvers ?? [], full, method);
    const steps: { order: number; entries: ChainEntry[] }[] = [];
    for (const m of out.middleware) {
      if (m.appId !== appId || m.framework !== 'express' || m.order > cut || !prefixCovers(m.fullPath, full)) continue;
      steps.push({ order: m.order, entries: [{ name: m.name, scope: m.scope, origin: m.origin, ...(m.package ? { package: m.package } : {}), ...(m.definition ? { definition: m.definition } : {}), registration: m.registration, middlewareId: m.id, ...(m.wrappers.length ? { wrappers: m.wrappers } : {}), resolution: m.resolution, hook, bridged: true }] });
    }
    for (const r of out.routes) {
      if (r.appId !== appId || r.order > cut || (r.method !== 'ALL' && r.method !== method) || !patternCovers(r.path.full, full)) continue;
      const own = [...r.chain.filter((c) => c.scope === 'route'), { name: r.handler.name, scope: 'route' as const, origin: r.handler.origin, ...(r.handler.package ? { package: r.handler.package } : {}), ...(r.handler.definition ? { definition: r.handler.definition } : {}), registration: { file: r.registration.file, line: r.registration.line, column: r.registration.column }, resolution: r.resolution }];
      steps.push({ order: r.order, entries: own.map((c) => ({ ...c, hook, bridged: true as const })) });
    }
    return steps.sort((a, b) => a.order - b.order).flatMap((s) => s.entries);
  }

  /** The bridge of the Express app served by `use`: its prefix, mount, and what runs before it. */
  private bridgeOf(use: FlatEntry & { item: FastifyUseItem }): BridgeInfo {
    const { at, item } = use;
    const prefix = bridgeUsePath(at.prefix, item.path ? pathText(item.path) : null);
    const child = this.expressIdOf(item.app!);
    const mount: MountRef = { mountId: stableId('mount', at.appId, at.id, child, prefix, this.occurrencesOf(`fastify ${at.appId}`)(`mount ${child} ${prefix}`)), mountPath: item.path ? pathText(item.path) : '/', location: this.locate(item.site) };
    const fastifyAppId = at.appId;
    if (!this.idScope.has(fastifyAppId)) this.idScope.set(fastifyAppId, child);
    return {
      fastifyAppId, prefix, mount,
      lead: (full, method) => {
        // A hook that runs the app is its bridge; the not-found handler's runs after every hook of the context.
        const bridge = item.hook ? { entry: use, hook: item.hook } : this.bridgeOfContext(at);
        const phase = bridge?.hook ?? 'onRequest';
        const chain: ChainEntry[] = [];
        for (const p of FASTIFY_PHASES.slice(0, FASTIFY_PHASES.indexOf(phase) + 1)) {
          const hooks = this.instanceHooks(at, p);
          chain.push(...(p === phase && bridge && !item.notFound ? hooks.filter((h) => before(h, bridge.entry)) : hooks).map((h) => this.hookEntry(h)));
        }
        // Only `use` middleware before this app; Express apps served earlier are left to route parity.
        chain.push(...this.bridged({ middleware: [], routes: [] } as unknown as InventoryRecords, at, full, method, (u) => before(u, use) && !(u.item as FastifyUseItem).app));
        return chain;
      },
    };
  }
}

/**
 * The position of the first hand-over (in Express's order) that a Fastify route `method full`
 * stops at, or Infinity: one of the same match key (an Express 5 path with optional groups stands
 * for each of its forms) for the method, or for GET when the route is HEAD (Express's GET route
 * answers HEAD).
 */
function handOverOrder(handOvers: HandOver[], full: string, method: string): number {
  const orders = handOvers
    .filter((h) => h.methods.some((m) => m === method || (method === 'HEAD' && m === 'GET')))
    .filter((h) => optionalForms(h.fullPath).some((form) => matchKey(method, form) === matchKey(method, full)))
    .map((h) => h.order);
  return Math.min(Infinity, ...orders);
}

/** A context and the plugin contexts below it, depth-first in registration order. */
function contextsOf(ctx: FastifyContext): FastifyContext[] {
  return [ctx, ...ctx.items.flatMap((i) => (i.type === 'plugin' ? contextsOf(i.child) : []))];
}

/**
 * Whether `a` was added before `b`: Fastify loads a plugin completely where it was registered
 * (avvio's queue; `addHook` is queued too), so the order things are added in is the flattened
 * order, whatever context they belong to.
 */
function before(a: FlatEntry, b: FlatEntry): boolean {
  return a.order < b.order;
}
