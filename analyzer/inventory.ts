/**
 * Turns the routing graph the evaluator recorded into Inventory records: routes with full paths
 * and effective chains, mounts, middleware, error and not-found handlers, static mounts, view
 * engines and settings, each with a stable id and deterministic order.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Node, SyntaxKind, type ts } from 'ts-morph';
import type { EntryRef, MountLayer, RouteLayer, RouterNode } from './graph.js';
import type { ChainEntry, Handler, Inventory, Location, Reason, Resolution } from './model.js';
import type { FastifyContext } from './fastify-graph.js';
import { FastifyRecords, type BridgeInfo } from './fastify-inventory.js';
import { flatten, paramLayersFor, type FlatItem } from './flatten.js';
import { errorReadsOf, innerMiddlewareCalls, routeUsage, usageCache, type Usage } from './usage.js';
import type { HelperLookup } from './helpers.js';
import { startSites } from './starts.js';
import { elementOf, statementOf } from './statements.js';
import { factoryCall } from './folded.js';
import { adapterRecord } from './adapters.js';
import { joinPaths, matchKey, pathParams, pathSyntax, pathText, patternCovers, prefixCovers, type PathSpec } from './path.js';

/** Short stable id: a hash of what the record is about (never of its line). */
export function stableId(prefix: string, ...parts: string[]): string {
  return `${prefix}-${createHash('sha1').update(parts.join('\u0000')).digest('hex').slice(0, 12)}`;
}

/** The record lists of an Inventory that come from the routing graph (plus its diagnostics). */
export type InventoryRecords = Pick<Inventory, 'apps' | 'routers' | 'mounts' | 'routes' | 'middleware' | 'errorHandlers' | 'notFoundHandlers' | 'staticMounts' | 'viewEngines' | 'settings' | 'diagnostics'>;

/** Where a node starts (a ts-morph node, or a compiler node where usage spares it a wrapper). */
type Locate = (node: Node | ts.Node) => Location;

/**
 * Builds all records for the given routers (every app and router the evaluator created) and
 * Fastify apps (fastify-inventory.ts); `helpers` finds the project functions handlers pass
 * `req`/`res` to. An Express app (or router) served through `@fastify/express` is inventoried
 * once, under the Fastify prefix it is served at, with the Fastify hooks before it in its chains.
 */
export function buildRecords(routers: RouterNode[], locateNode: Locate, root: string, helpers: HelperLookup, fastifyApps: FastifyContext[] = []): InventoryRecords {
  const locate = locateOnce(locateNode);
  const out: InventoryRecords = { apps: [], routers: [], mounts: [], routes: [], middleware: [], errorHandlers: [], notFoundHandlers: [], staticMounts: [], viewEngines: [], settings: [], diagnostics: [] };
  // Routers of one name created in one file (a factory called twice) are told apart by their rank.
  const rank = new Map<RouterNode, number>();
  const twins = new Map<string, number>();
  for (const r of routers) {
    const key = `${r.site.getSourceFile().getFilePath()}\u0000${r.name}`;
    const n = twins.get(key) ?? 0;
    twins.set(key, n + 1);
    if (!rank.has(r)) rank.set(r, n);
  }
  const routerIds = new Map<RouterNode, string>();
  const idOf = (r: RouterNode) => {
    let id = routerIds.get(r);
    if (!id) {
      id = stableId(r.kind === 'app' && r.mountedBy.length === 0 ? 'app' : 'router', locate(r.site).file, r.name, String(rank.get(r) ?? -1));
      routerIds.set(r, id);
    }
    return id;
  };
  const usage = usageCache(locate, helpers);
  const fastify = new FastifyRecords(fastifyApps, locate, usage, idOf);
  const bridges = fastify.plan();
  const reached = new Map<RouterNode, string>();
  // Roots: apps mounted nowhere, and routers that only a Fastify instance serves.
  const isRoot = (r: RouterNode) => r.mountedBy.length === 0 && (r.kind === 'app' || bridges.has(r));
  for (const app of routers.filter(isRoot)) {
    const appId = idOf(app);
    out.apps.push({ id: appId, name: app.name, location: locate(app.site), createdBy: app.kind === 'app' ? 'express()' : `${app.package === 'express' ? 'express' : app.package}.Router()`, listen: app.listen.map((l) => ({ location: locate(l.site), args: l.args })), starts: startSites(app.listen, app.servers, locate) });
    reached.set(app, appId);
    const bridge = bridges.get(app);
    const items = bridge ? underPrefix(flatten(app), bridge.prefix) : flatten(app);
    for (const item of items) if (item.type === 'mount' && !reached.has(item.layer.child)) reached.set(item.layer.child, appId);
    addAppRecords(out, app, appId, items, idOf, locate, usage, root, fastify.occurrencesOf(appId), bridge);
  }
  for (const r of routers) {
    if (isRoot(r)) continue;
    out.routers.push({ id: idOf(r), appId: reached.get(r) ?? '', kind: r.kind === 'app' ? 'sub-app' : 'router', name: r.name, package: r.package, location: locate(r.site), options: stripUndefined(r.options), mounted: r.mountedBy.length > 0 });
    if (!reached.has(r)) {
      const routes = r.stack.filter((l) => l.type === 'route').length;
      out.diagnostics.push({ code: 'unmounted-router', severity: routes > 0 ? 'warning' : 'info', message: `router \`${r.name}\` (${routes} route${routes === 1 ? '' : 's'}) is never mounted on an app the analysis reached; its routes are not in the inventory`, location: locate(r.site) });
    }
  }
  fastify.finish(out);
  return out;
}

/** An app's flattened items served under `prefix` (through `@fastify/express`): every full path joined to it. */
function underPrefix(items: FlatItem[], prefix: string): FlatItem[] {
  if (prefix === '/' || prefix === '') return items;
  const join = (full: string) => joinPaths(prefix, full);
  const mounts = new Map<FlatItem['mounts'], FlatItem['mounts']>();
  const moved = (m: FlatItem['mounts']) => {
    let out = mounts.get(m);
    if (!out) mounts.set(m, (out = m.map((x) => ({ ...x, full: join(x.full) }))));
    return out;
  };
  return items.map((i) => ({ ...i, full: join(i.full), mounts: moved(i.mounts) }));
}

/** `occ` numbers repeats of an id's subject within the app (shared with the Fastify routes of an app that serves it); `bridge` is set for an app served through `@fastify/express`. */
function addAppRecords(out: InventoryRecords, app: RouterNode, appId: string, items: FlatItem[], idOf: (r: RouterNode) => string, locate: Locate, usage: Usage, root: string, occ: (key: string) => string, bridge?: BridgeInfo): void {
  const byPath = indexItems(items);
  const routeIdsAt: (string[] | null)[] = [];
  const middlewareIdAt = new Map<number, string>();
  const mountIds = new Map<string, string>();

  items.forEach((item, index) => {
    if (item.type === 'mount') {
      const childId = idOf(item.layer.child);
      const unresolved = item.spec.kind === 'unresolved';
      const mountId = stableId('mount', appId, idOf(item.owner), childId, item.full, occ(`mount ${childId} ${item.full}`));
      mountIds.set(`${item.layer.seq}|${item.full}`, mountId);
      out.mounts.push({
        id: mountId,
        parent: idOf(item.owner), child: childId, mountPath: pathText(item.spec), fullPath: item.full, location: locate(item.layer.site),
        resolution: unresolved ? 'unresolved' : item.layer.conditions.length ? 'partial' : 'exact',
        reasons: unresolved ? [{ code: 'dynamic-path', message: `mount path \`${pathText(item.spec)}\` could not be folded`, location: locate(item.layer.site) }] : [],
      });
      checkPathSyntax(out, item.spec, locate(item.layer.site));
      routeIdsAt.push(null);
    } else if (item.type === 'use') {
      const e = item.layer.entry;
      const scope = item.owner === app ? 'app' : 'router';
      if (item.layer.errorHandler) {
        routeIdsAt.push(null);
        return;
      }
      const id = stableId('mw', appId, item.full, e.name, occ(`mw ${item.full} ${e.name}`));
      middlewareIdAt.set(index, id);
      out.middleware.push({
        id, framework: 'express', appId, ownerId: idOf(item.owner), scope, name: e.name, path: pathText(item.spec), fullPath: item.full,
        origin: e.origin, ...(e.package ? { package: e.package } : {}), ...(e.fn ? { definition: locate(e.fn) } : {}),
        registration: locate(item.layer.site), ...statementOf(item.layer.site), wrappers: e.wrappers, order: index, resolution: worst(e.resolution, item.layer.conditions.length ? 'partial' : 'exact'),
        reasons: [...e.reasons, ...conditionReasons(item.layer.conditions, locate(item.layer.site))],
        source: e.site.getText().slice(0, 500), ...(e.factory ? { factory: factoryCall(e.factory, locate, (fn) => ({ ...usage({ ...e, fn, action: undefined }), handedOn: usage.handedOn(fn) })) } : {}), ...(e.adapter ? { adapter: adapterRecord(e.adapter, locate) } : {}),
        usage: e.origin === 'local' ? { ...usage(e), calls: innerMiddlewareCalls(e, locate) } : { req: [], res: [], next: [] },
      });
      if (item.layer.static) {
        const dir = item.layer.static.dir;
        out.staticMounts.push({ id: stableId('static', appId, item.full, occ(`static ${item.full}`)), appId, middlewareId: id, fullPath: item.full, dir: dir ? projectPath(root, dir) : null, package: item.layer.static.package, options: item.layer.static.options, registration: locate(item.layer.site) });
      }
      routeIdsAt.push(null);
    } else if (isHandOver(item)) {
      // A moved route's hand-over (adapters.ts) is no Express route: Fastify answers the route.
      const record = out.apps.find((a) => a.id === appId);
      if (record && item.type === 'route') (record.handOvers ??= []).push({ methods: [...new Set(item.layer.entries.map((e) => e.method))], fullPath: item.full, order: index, registration: locate(item.layer.site) });
      routeIdsAt.push([]);
    } else {
      routeIdsAt.push(addRoutes(out, app, appId, items, earlierMatches(byPath, item, index), index, item, idOf, locate, usage, middlewareIdAt, mountIds, occ, bridge));
    }
  });

  const routeItems = items.map((item, i) => ({ item, i })).filter((x) => x.item.type === 'route' && !isHandOver(x.item));
  addCatchAllRoutes(out, app, appId, routeItems, idOf, locate);
  let owned: Map<RouterNode, Set<FlatItem>> | undefined;
  items.forEach((item, index) => {
    if (item.type !== 'use') return;
    const e = item.layer.entry;
    // Positions of the routes under this prefix, in order.
    const covered = routesUnder(byPath, items, item.full);
    const coveredBefore = covered.length > 0 && covered[0] < index;
    const coveredAfter = covered.length > 0 && covered[covered.length - 1] > index;
    if (item.layer.errorHandler) {
      const covers = covered.filter((i) => i < index).flatMap((i) => routeIdsAt[i] ?? []);
      const later = coveredAfter;
      out.errorHandlers.push({
        id: stableId('err', appId, item.full, e.name, occ(`err ${item.full} ${e.name}`)), appId, ownerId: idOf(item.owner), scope: item.owner === app ? 'app' : 'router', name: e.name,
        fullPath: item.full, origin: e.origin, ...(e.package ? { package: e.package } : {}), ...(e.fn ? { definition: locate(e.fn) } : {}), registration: locate(item.layer.site), ...statementOf(item.layer.site), ...elementOf(e.site, locate), order: index, covers, reads: errorReadsOf(e, locate),
        passesOn: callsParameter(e, 3), ...(conditionsOf(item).length ? { conditions: conditionsOf(item) } : {}),
      });
      if (covers.length === 0 && later) out.diagnostics.push({ code: 'error-handler-unreachable', severity: 'warning', message: `error handler \`${e.name}\` is registered before every route under ${item.full}, so errors from those routes never reach it`, location: locate(item.layer.site) });
      return;
    }
    if (coveredBefore && !coveredAfter && e.origin === 'local' && (e.arity ?? 3) <= 3 && !item.layer.static && !passesThrough(e)) {
      const body = e.fn?.getText() ?? '';
      out.notFoundHandlers.push({ id: stableId('404', appId, item.full, e.name), appId, ownerId: idOf(item.owner), name: e.name, fullPath: item.full, ...(e.fn ? { definition: locate(e.fn) } : {}), registration: locate(item.layer.site), ...statementOf(item.layer.site), ...elementOf(e.site, locate), resolution: /404|NotFound/i.test(body) ? 'exact' : 'inferred' });
    }
    if (item.owner !== app && pathText(item.spec) === '/') {
      owned ??= routesByRouter(items);
      const ownerRoutes = owned.get(item.owner);
      const leaks = covered.filter((i) => i > index && !ownerRoutes?.has(items[i]));
      if (leaks.length > 0) out.diagnostics.push({ code: 'router-middleware-leak', severity: 'warning', message: `\`${e.name}\` is router-level middleware of \`${item.owner.name}\` without a path, so it also runs for ${leaks.length} route(s) of routers mounted after it (e.g. ${items[leaks[0]].full})`, location: locate(item.layer.site) });
    }
  });

  for (const r of [app, ...new Set(items.filter((i) => i.type === 'mount').map((i) => (i as { layer: { child: RouterNode } }).layer.child))]) {
    if (r.kind !== 'app') continue;
    addSettings(out, r, appId, idOf(r), locate, root);
  }
}

/**
 * An app's flattened items indexed for path matching, by position. Paths are keyed by their
 * lower-cased segments: `routes` by every leading run of them (`''`, `api`, `api/users`, …),
 * middleware and route patterns by their literal head (headKey). A prefix can only cover a route
 * (path.ts prefixCovers) when its head is one of the route's leading runs, so a lookup yields a
 * few candidates, which are then checked with path.ts itself.
 */
interface ItemIndex {
  routes: Map<string, number[]>;
  /** Middleware other than error handlers, by the head of their prefix. */
  middleware: Map<string, number[]>;
  /** Routes whose last segment may be a wildcard (path.ts patternCovers), by the head of the rest. */
  patterns: Map<string, number[]>;
  mounts: Map<MountLayer, number[]>;
}

function indexItems(items: FlatItem[]): ItemIndex {
  const index: ItemIndex = { routes: new Map(), middleware: new Map(), patterns: new Map(), mounts: new Map() };
  items.forEach((item, i) => {
    if (item.type === 'mount') addTo(index.mounts, item.layer, i);
    else if (item.type === 'use') {
      if (!item.layer.errorHandler) addTo(index.middleware, headKey(segments(item.full)), i);
    } else if (!isHandOver(item)) {
      const segs = segments(item.full);
      for (const key of leadingKeys(segs)) addTo(index.routes, key, i);
      if (segs.length > 0 && segs[segs.length - 1].includes('*')) addTo(index.patterns, headKey(segs.slice(0, -1)), i);
    }
  });
  return index;
}

/**
 * Positions before `index` of the items that may contribute to the chain of route item `item`
 * (addRoutes checks each): middleware and route patterns that may cover its path, and the mounts
 * it sits under.
 */
function earlierMatches(byPath: ItemIndex, item: FlatItem, index: number): number[] {
  const found = new Set<number>();
  for (const key of leadingKeys(segments(item.full))) {
    for (const i of byPath.middleware.get(key) ?? []) if (i < index) found.add(i);
    for (const i of byPath.patterns.get(key) ?? []) if (i < index) found.add(i);
  }
  for (const m of item.mounts) for (const i of byPath.mounts.get(m.layer) ?? []) if (i < index) found.add(i);
  return [...found].sort((a, b) => a - b);
}

/** Positions of the route items a middleware prefix covers, in order. */
function routesUnder(byPath: ItemIndex, items: FlatItem[], prefix: string): number[] {
  return (byPath.routes.get(headKey(segments(prefix))) ?? []).filter((i) => prefixCovers(prefix, items[i].full));
}

/**
 * Whether a route item is the hand-over of a moved route (`router.get('/:id', movedToFastify)`,
 * adapters.ts): every function it registers is the hooks module's `movedToFastify`. It passes
 * every request on except those Fastify routed to a moved route, which it ends in Express, so it
 * is neither a route nor a layer in the chain of another.
 */
function isHandOver(item: FlatItem): boolean {
  return item.type === 'route' && item.layer.entries.length > 0 && item.layer.entries.every((e) => e.entry.adapter?.kind === 'hand-over');
}

/** The route items of each router: its own and those of routers mounted in it. */
function routesByRouter(items: FlatItem[]): Map<RouterNode, Set<FlatItem>> {
  const out = new Map<RouterNode, Set<FlatItem>>();
  for (const item of items) {
    if (item.type !== 'route' || isHandOver(item)) continue;
    for (const r of [item.owner, ...item.mounts.map((m) => m.layer.child)]) {
      let set = out.get(r);
      if (!set) out.set(r, (set = new Set()));
      set.add(item);
    }
  }
  return out;
}

/** Lower-cased path segments (split as path.ts splits them). */
function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '').map((s) => s.toLowerCase());
}

/** Segments that may be a parameter or a wildcard, which match other text than their own. */
const MAY_MATCH_ANY = /[:{*]/;

/** The literal segments a prefix starts with (up to the first that may match anything), joined. */
function headKey(segs: string[]): string {
  const n = segs.findIndex((s) => MAY_MATCH_ANY.test(s));
  return (n < 0 ? segs : segs.slice(0, n)).join('/');
}

/** Every leading run of a path's segments, joined: `''`, `api`, `api/users`, … */
function leadingKeys(segs: string[]): string[] {
  const keys = [''];
  segs.forEach((s, i) => keys.push(i === 0 ? s : `${keys[i]}/${s}`));
  return keys;
}

function addTo<K>(map: Map<K, number[]>, key: K, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

const CATCH_ALL = /^(\*|\/\*|\/\*\w+|\/\{\*\w+\}|\/\(\.\*\))$/;

/** `app.all('*', notFound)` / `app.get('/{*splat}', …)` after every other route: the app's 404. */
function addCatchAllRoutes(out: InventoryRecords, app: RouterNode, appId: string, routeItems: { item: FlatItem; i: number }[], idOf: (r: RouterNode) => string, locate: Locate): void {
  const last = routeItems[routeItems.length - 1];
  if (!last || last.item.type !== 'route' || !CATCH_ALL.test(last.item.full) || last.item.owner !== app) return;
  const entries = last.item.layer.entries;
  const handler = entries[entries.length - 1]?.entry;
  if (!handler) return;
  const body = handler.fn?.getText() ?? '';
  out.notFoundHandlers.push({ id: stableId('404', appId, last.item.full, handler.name), appId, ownerId: idOf(app), name: handler.name, fullPath: last.item.full, ...(handler.fn ? { definition: locate(handler.fn) } : {}), registration: locate(last.item.layer.site), ...statementOf(last.item.layer.site, last.item.layer.kind === 'route-chain'), resolution: /404|NotFound/i.test(body) ? 'exact' : 'inferred' });
}

/**
 * Methods a route layer answers: a verb call its own method; a `route()` chain each method it
 * names, plus `ALL` when an `.all()` callback comes last (it then answers every other method).
 */
function routeMethods(layer: RouteLayer): string[] {
  if (layer.entries.length === 0) return [];
  if (layer.kind !== 'route-chain') return [layer.entries[0].method];
  const specific = [...new Set(layer.entries.map((e) => e.method).filter((m) => m !== 'ALL'))];
  const allLast = layer.entries[layer.entries.length - 1].method === 'ALL';
  return allLast || specific.length === 0 ? [...specific, 'ALL'] : specific;
}

/**
 * Route records of route item `items[index]`, one per method it answers. `earlier` holds the
 * positions before `index` whose layers may run first (earlierMatches), in order.
 */
function addRoutes(out: InventoryRecords, app: RouterNode, appId: string, items: FlatItem[], earlier: number[], index: number, item: FlatItem & { type: 'route' }, idOf: (r: RouterNode) => string, locate: Locate, usage: Usage, middlewareIdAt: Map<number, string>, mountIds: Map<string, string>, occ: (k: string) => string, bridge?: BridgeInfo): string[] {
  const layer = item.layer;
  const ids: string[] = [];
  for (const method of routeMethods(layer)) {
    // Route-level error handlers (four parameters) only see errors: neither chain nor handler.
    const ownEntries = layer.entries.filter((e) => (e.method === method || e.method === 'ALL') && e.entry.arity !== 4);
    if (ownEntries.length === 0) continue;
    const own = ownEntries.map((e) => e.entry);
    const verbSite = [...ownEntries].reverse().find((e) => e.method === method)?.site ?? layer.site;
    const handlerEntry = own[own.length - 1];
    const full = item.full;
    const mountParams = item.mounts.flatMap((m) => pathParams(m.spec).map((p) => ({ ...p, fromMount: true })));
    const params = [...mountParams, ...pathParams(item.spec)];
    const ownNames = pathParams(item.spec).map((p) => p.name);
    // Served through @fastify/express: the Fastify hooks and `use` middleware before the app run first.
    const chain: ChainEntry[] = bridge ? bridge.lead(item.full, method) : [];
    for (const i of earlier) {
      const prev = items[i];
      if (prev.type === 'use' && !prev.layer.errorHandler && prefixCovers(prev.full, full)) {
        chain.push(chainEntry(prev.layer.entry, prev.owner === app ? 'app' : 'router', locate(prev.layer.site), locate, middlewareIdAt.get(i), conditionsOf(prev)));
      } else if (prev.type === 'mount' && item.mounts.some((m) => m.layer === prev.layer && m.full === prev.full)) {
        // Express runs the parent router's param callbacks when a mount path with parameters matches.
        const names = pathParams(prev.spec).map((p) => p.name);
        for (const p of paramLayersFor(prev.owner, names)) chain.push({ ...chainEntry(p.entry, 'param', locate(p.site), locate), ...statementOf(p.site) });
      } else if (prev.type === 'route' && patternCovers(prev.full, full)) {
        for (const e of prev.layer.entries) if (e.method === 'ALL' || e.method === method) chain.push(chainEntry(e.entry, 'route', locate(prev.layer.site), locate, undefined, conditionsOf(prev)));
      }
    }
    for (const p of paramLayersFor(item.owner, ownNames)) {
      // What a callback of its own parameters does to `req` (`req.params` written) decides where it can run once the route moves.
      const uses = p.entry.origin === 'local' ? usage(p.entry) : null;
      chain.push({ ...chainEntry(p.entry, 'param', locate(p.site), locate), ...statementOf(p.site), ...(uses && (uses.req.length || uses.res.length || uses.next.length) ? { usage: { req: uses.req, res: uses.res, next: uses.next } } : {}) });
    }
    for (const [i, e] of own.slice(0, -1).entries()) {
      const slot = ownEntries[i].slot;
      const entry = { ...chainEntry(e, 'route', locate(layer.site), locate), ...(slot ? { slot } : {}) };
      // A route's own guard (`protect`, `isAuthenticated`) becomes a hook: its uses are rewritten too.
      const uses = e.origin === 'local' ? usage(e) : null;
      chain.push(uses && (uses.req.length || uses.res.length || uses.next.length) ? { ...entry, usage: { req: uses.req, res: uses.res, next: uses.next } } : entry);
    }
    const reasons: Reason[] = [...handlerEntry.reasons, ...chain.flatMap((c) => (c.resolution === 'exact' ? [] : [{ code: 'unresolved-middleware', message: `middleware \`${c.name}\` could not be resolved`, location: c.registration }]))];
    const blocked = [item.spec, ...item.mounts.map((m) => m.spec)].find((s) => s.kind === 'unresolved');
    const pathUnresolved = blocked !== undefined;
    if (blocked?.kind === 'unresolved') reasons.unshift({ code: blocked.reason ?? 'dynamic-path', message: `path could not be folded: ${full}`, location: locate(layer.site) });
    // What decides the route's own registration, then every mount above it (outermost first).
    for (const m of item.mounts) reasons.push(...m.layer.reasons, ...conditionReasons(m.layer.conditions, locate(m.layer.site)));
    reasons.push(...layer.reasons, ...conditionReasons(layer.conditions, locate(layer.site)));
    reasons.splice(0, reasons.length, ...distinct(reasons));
    const inferred = reasons.some((r) => r.code === 'filesystem-registration' || r.code === 'decorator-routes');
    const resolution: Resolution = pathUnresolved ? 'unresolved' : inferred ? 'inferred' : reasons.length > 0 ? 'partial' : 'exact';
    const key = `${method} ${full}`;
    const id = stableId('route', appId, method, full, occ(`route ${key}`));
    ids.push(id);
    const handlerSlot = ownEntries[ownEntries.length - 1].slot;
    const handler = { ...handlerOf(handlerEntry, locate), ...(handlerSlot ? { slot: handlerSlot } : {}) };
    out.routes.push({
      id, framework: 'express', appId, ownerId: idOf(item.owner), method, key, matchKey: matchKey(method, full),
      path: { raw: pathText(item.spec), full, syntax: pathSyntax(item.spec), params, ...(item.spec.kind !== 'unresolved' && item.spec.element ? { element: true } : {}) },
      mountChain: [...(bridge ? [bridge.mount] : []), ...item.mounts.map((m) => ({ mountId: mountIds.get(`${m.layer.seq}|${m.full}`) ?? '', mountPath: pathText(m.spec), location: locate(m.layer.site) }))],
      registration: { ...locate(verbSite), kind: layer.kind }, ...statementOf(layer.site, layer.kind === 'route-chain'),
      ...(layer.registrar ? { registrar: { call: locate(layer.registrar.site), ...statementOf(layer.registrar.site), definition: locate(layer.registrar.fn) } } : {}),
      handler, chain, usage: routeUsage(handlerEntry, own.slice(0, -1), usage, locate), conditions: layer.conditions, order: index, resolution, reasons,
    });
    checkParamVisibility(out, item, handlerEntry, mountParams.map((p) => p.name), locate);
  }
  checkPathSyntax(out, item.spec, locate(layer.site));
  return ids;
}

/** RegExp paths and Express-4-only string syntax need a human or a rewrite (Express 5 migration guide). */
function checkPathSyntax(out: InventoryRecords, spec: PathSpec, location: Location): void {
  const syntax = pathSyntax(spec);
  if (syntax === 'regexp') out.diagnostics.push({ code: 'regexp-path', severity: 'info', message: `${pathText(spec)} is a RegExp path: Fastify routes and OpenAPI have no direct equivalent`, location });
  if (syntax === 'express4') out.diagnostics.push({ code: 'express4-only-syntax', severity: 'info', message: `path ${pathText(spec)} uses Express 4 syntax (\`?\`, \`(…)\`, \`*\`, \`+\`) that Express 5 rejects or reads differently`, location });
}

/** A chain entry for function `e` registered at `registration` (ChainEntry). */
export function chainEntry(e: EntryRef, scope: ChainEntry['scope'], registration: Location, locate: Locate, middlewareId?: string, conditions: string[] = []): ChainEntry {
  return {
    name: e.name, scope, origin: e.origin, ...(e.package ? { package: e.package } : {}), ...(e.fn ? { definition: locate(e.fn) } : {}),
    registration, ...(middlewareId ? { middlewareId } : {}), ...(e.wrappers.length ? { wrappers: e.wrappers } : {}), resolution: e.resolution,
    ...(conditions.length ? { conditions } : {}), ...(e.factory && !middlewareId ? { factory: factoryCall(e.factory, locate) } : {}),
    ...(e.adapter ? { adapter: adapterRecord(e.adapter, locate) } : {}),
  };
}

/** What an earlier layer (and the mounts above it) was registered under: `if (…)` texts and ternary/environment choices. */
function conditionsOf(item: FlatItem): string[] {
  const layers = [...item.mounts.map((m) => m.layer), item.layer];
  return [...new Set(layers.flatMap((l) => [...l.conditions, ...l.reasons.filter((r) => r.code === 'conditional').map((r) => r.message)]))];
}

/** `dir` relative to the project root when it is inside it (`public`), absolute otherwise (`/var/data/uploads`). */
function projectPath(root: string, dir: string): string {
  const rel = path.relative(root, dir);
  return rel.startsWith('..') || path.isAbsolute(rel) ? toPosix(dir) : toPosix(rel) || '.';
}

/** Whether the function of `e` calls its parameter at `index` (`next` of an error handler); true when it cannot tell. */
function callsParameter(e: EntryRef, index: number): boolean {
  const fn = e.fn;
  if (!fn || !('getParameters' in fn)) return true;
  const param = (fn as Node & { getParameters(): Node[] }).getParameters()[index];
  if (!param || !Node.isParameterDeclaration(param)) return false;
  const name = param.getName();
  return fn.getDescendantsOfKind(SyntaxKind.CallExpression).some((c) => c.getExpression().getText() === name);
}

/**
 * Whether middleware only passes requests on: it calls its `next` parameter with no argument and
 * never with one. Such middleware (a logger registered after the routes) answers nothing, so it is
 * not a not-found handler; `next(createError(404))` is.
 */
function passesThrough(e: EntryRef): boolean {
  const fn = e.fn;
  if (!fn || !('getParameters' in fn)) return false;
  const param = (fn as Node & { getParameters(): Node[] }).getParameters()[2];
  if (!param || !Node.isParameterDeclaration(param)) return false;
  const calls = fn.getDescendantsOfKind(SyntaxKind.CallExpression).filter((c) => c.getExpression().getText() === param.getName());
  return calls.length > 0 && calls.every((c) => c.getArguments().length === 0);
}

/** Reasons without repeats (a route registered inside a directory scan and mounted by it carries the scan once). */
export function distinct(reasons: Reason[]): Reason[] {
  const seen = new Set<string>();
  return reasons.filter((r) => {
    const key = `${r.code}\0${r.message}\0${r.location?.file}:${r.location?.line}:${r.location?.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The handler record of the last function of a route. */
export function handlerOf(e: EntryRef, locate: Locate): Handler {
  const wrapping = e.wrapping?.map((w) => ({ name: w.name, kind: w.kind, ...(w.beyond ? { beyond: w.beyond } : {}), ...(w.applied ? { applied: locate(w.applied) } : {}), ...(w.definition ? { definition: locate(w.definition) } : {}) }));
  return { name: e.name, origin: e.origin, ...(e.package ? { package: e.package } : {}), ...(e.fn ? { definition: locate(e.fn) } : {}), async: e.async, arity: e.arity, wrappers: e.wrappers, ...(wrapping ? { wrapping } : {}) };
}

/**
 * `locate` computed once per node (a chain names the same registrations on many routes); every
 * call returns its own copy.
 */
function locateOnce(locate: Locate): Locate {
  const known = new WeakMap<Node | ts.Node, Location>();
  return (node) => {
    let loc = known.get(node);
    if (!loc) known.set(node, (loc = locate(node)));
    return { ...loc };
  };
}

/** Express hides a parent's route parameters from a router created without `mergeParams`. */
function checkParamVisibility(out: InventoryRecords, item: FlatItem & { type: 'route' }, handler: EntryRef, mountParams: string[], locate: Locate): void {
  if (mountParams.length === 0 || item.owner.options.mergeParams || !handler.fn) return;
  const text = handler.fn.getText();
  for (const name of mountParams) {
    if (new RegExp(`params\\s*\\.\\s*${name}\\b|params\\s*\\[\\s*['"]${name}['"]|\\{[^}]*\\b${name}\\b[^}]*\\}\\s*=\\s*\\w+\\.params`).test(text)) {
      out.diagnostics.push({ code: 'param-not-visible', severity: 'warning', message: `\`${handler.name}\` reads req.params.${name}, declared in a mount path above router \`${item.owner.name}\`, which was created without { mergeParams: true }: the value is undefined`, location: locate(handler.site) });
    }
  }
}

function addSettings(out: InventoryRecords, r: RouterNode, appId: string, ownerId: string, locate: Locate, root: string): void {
  for (const s of r.settings) {
    const value = typeof s.value === 'string' && path.isAbsolute(s.value) && s.value.startsWith(root) ? toPosix(path.relative(root, s.value)) || '.' : s.value;
    out.settings.push({ appId, ownerId, key: s.key, value, raw: s.raw, kind: s.kind, location: locate(s.site), resolution: s.resolved ? 'exact' : s.alternatives ? 'partial' : 'unresolved', ...(s.alternatives ? { alternatives: s.alternatives } : {}) });
  }
  const viewEngine = [...r.settings].reverse().find((s) => s.key === 'view engine' && s.kind === 'set');
  const views = [...r.settings].reverse().find((s) => s.key === 'views' && s.kind === 'set');
  const viewsDir = typeof views?.value === 'string' ? toPosix(path.relative(root, views.value)) || '.' : null;
  const exts = new Set<string>([...(typeof viewEngine?.value === 'string' ? [viewEngine.value] : []), ...r.engines.map((e) => e.ext)]);
  for (const ext of exts) {
    const engine = r.engines.find((e) => e.ext === ext);
    out.viewEngines.push({ appId, ext, engine: engine?.engine ?? (ext === 'html' ? null : ext), views: viewsDir, location: locate((engine ?? viewEngine)!.site) });
  }
}

/** One `conditional` reason per condition a registration sits under. */
export function conditionReasons(conditions: string[], location: Location): Reason[] {
  return conditions.map((c) => ({ code: 'conditional', message: `registered only when ${c}`, location }));
}

const RANK: Record<Resolution, number> = { exact: 0, inferred: 1, partial: 2, unresolved: 3 };
function worst(a: Resolution, b: Resolution): Resolution {
  return RANK[a] >= RANK[b] ? a : b;
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

