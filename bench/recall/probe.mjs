// Preloaded (`--import`) into a child process that loads someone else's Express app, for
// bench/recall.ts only: this dev benchmark is the one place the project runs an app it did not
// write. It instruments Express before the app loads, lets the app register its routes, then
// writes what Express really registered to $RECALL_OUT and exits.
//
// What it records, per route key (`METHOD /full/path`, the analyzer's notation): the ordered chain
// that runs for a request to that route — matching app- and router-level middleware registered
// before it, `param` callbacks, route-level callbacks, the handler last — each function as a token:
// `pkg:<name>` for a function defined in node_modules, `file:<path relative to the app>` for one
// defined in the app (bound functions are followed to their target).
//
// Express 4 and 5 both keep `route.path` on route layers but not mount paths (pillarjs/router#122),
// so `use` is wrapped to tag each new layer with the mount path and the value it was given.
import inspector from 'node:inspector';
import { writeFileSync, realpathSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = realpathSync(process.env.RECALL_APP_DIR ?? process.cwd());
const out = process.env.RECALL_OUT;
const waitMs = Number(process.env.RECALL_WAIT_MS ?? 3000);

const session = new inspector.Session();
session.connect();
const scripts = new Map();
session.on('Debugger.scriptParsed', ({ params }) => scripts.set(params.scriptId, params.url));
session.post('Debugger.enable');

const apps = [];
const problems = [];
/** Uncaught exceptions, seen even when the app's logger handles them (winston's exitOnError). */
const crashes = [];
process.on('uncaughtExceptionMonitor', (err) => crashes.push(String(err?.message ?? err).split('\n')[0].slice(0, 160)));
instrument();

let written = false;
process.on('exit', dump);
setTimeout(() => process.exit(0), waitMs).unref?.();
// Keep the process alive for the wait even when the app has nothing else to do.
const keepAlive = setInterval(() => {}, 1000);
setTimeout(() => clearInterval(keepAlive), waitMs);

function instrument() {
  let express;
  let expressPath;
  try {
    const req = createRequire(path.join(appDir, 'package.json'));
    expressPath = req.resolve('express');
    express = req('express');
  } catch (err) {
    problems.push(`express not loadable from ${appDir}: ${err.message}`);
    return;
  }
  const sample = express.Router();
  const routerProto = Object.getPrototypeOf(sample);
  wrapUse(routerProto, (self) => self.stack);
  wrapRoute(Object.getPrototypeOf(sample.route('/')));
  const appProto = express.application;
  wrapUse(appProto, (self) => routerOf(self)?.stack ?? []);
  const init = appProto.init;
  appProto.init = function probeInit(...args) {
    apps.push(this);
    return init.apply(this, args);
  };
  // express-promise-router and other Router look-alikes built on `router` (Express 5) or Express's own.
  try {
    const RouterPkg = createRequire(expressPath)('router');
    if (RouterPkg?.prototype && RouterPkg.prototype !== routerProto) wrapUse(RouterPkg.prototype, (self) => self.stack);
  } catch {
    // Express 4 does not depend on `router`.
  }
}

/** Wraps `use` so that every layer it adds remembers its mount path and the function given. */
function wrapUse(proto, stackOf) {
  const original = proto.use;
  if (original.__probe) return;
  proto.use = function probeUse(...args) {
    const stack = stackOf(this) ?? [];
    const before = stack.length;
    const result = original.apply(this, args);
    const after = stackOf(this) ?? [];
    let offset = 0;
    let mount = '/';
    if (typeof args[0] !== 'function') {
      let arg = args[0];
      while (Array.isArray(arg) && arg.length !== 0) arg = arg[0];
      if (typeof arg !== 'function') {
        offset = 1;
        mount = args[0];
      }
    }
    const fns = args.slice(offset).flat(Infinity);
    // One layer per function, at the end: Express 4 may add its own `query` and `expressInit`
    // layers first when this call created the router.
    tag(after.slice(Math.max(before, after.length - fns.length)), fns, mount);
    return result;
  };
  proto.use.__probe = true;
}

/**
 * Wraps the verb methods of Route so that route-level layers remember the function given, which
 * packages such as express-async-errors replace with a wrapper of their own.
 */
function wrapRoute(proto) {
  for (const method of [...http.METHODS.map((m) => m.toLowerCase()), 'all']) {
    const original = proto[method];
    if (typeof original !== 'function' || original.__probe) continue;
    proto[method] = function probeVerb(...args) {
      const before = this.stack.length;
      const result = original.apply(this, args);
      const fns = args.flat(Infinity);
      tag(this.stack.slice(Math.max(before, this.stack.length - fns.length)), fns.slice(-(this.stack.length - before) || fns.length), undefined);
      return result;
    };
    proto[method].__probe = true;
  }
}

function tag(layers, fns, mount) {
  layers.forEach((layer, i) => {
    if (mount !== undefined) layer.__probeMount = mount;
    if (fns[i]) layer.__probeTarget = fns[i];
  });
}

/** The app's router: `_router` in Express 4 (whose `app.router` getter throws), `router` in Express 5. */
function routerOf(app) {
  if (app._router) return app._router;
  try {
    return app.router;
  } catch {
    return undefined;
  }
}

const isApp = (fn) => typeof fn === 'function' && typeof fn.handle === 'function' && typeof fn.set === 'function';
const isRouter = (fn) => typeof fn === 'function' && Array.isArray(fn.stack) && typeof fn.handle === 'function';

function dump() {
  if (written || !out) return;
  written = true;
  const mounted = new Set();
  const events = new Map();
  for (const app of apps) events.set(app, walk(app, '/', mounted, new Set()));
  const roots = apps.filter((a) => !mounted.has(a));
  const routes = [];
  for (const app of roots) routes.push(...chains(events.get(app)));
  writeFileSync(out, JSON.stringify({ apps: apps.length, roots: roots.length, routes, problems, crashes }, null, 1));
}

/** The app's routing tree flattened in Express's matching order: middleware and routes. */
function walk(owner, prefix, mounted, seen) {
  if (seen.has(owner)) return [];
  seen.add(owner);
  const router = isApp(owner) ? routerOf(owner) : owner;
  const events = [];
  for (const layer of router?.stack ?? []) {
    if (layer.route) {
      for (const p of list(layer.route.path)) events.push({ type: 'route', full: join(prefix, p), route: layer.route, params: router.params ?? {}, raw: p });
      continue;
    }
    const target = layer.__probeTarget ?? layer.handle;
    if (isInternal(target)) continue;
    for (const m of list(layer.__probeMount ?? '/')) {
      const full = join(prefix, m);
      if (isApp(target) || isRouter(target)) {
        if (isApp(target)) mounted.add(target);
        // Express runs the owner's `param` callbacks for parameters of a mount path too.
        for (const name of paramNames(m)) for (const fn of router.params?.[name] ?? []) events.push({ type: 'middleware', full, fn });
        events.push(...walk(target, full, mounted, new Set(seen)));
      } else if (target.length !== 4) {
        events.push({ type: 'middleware', full, fn: target });
      }
    }
  }
  return events;
}

function chains(events) {
  const routes = [];
  events.forEach((e, i) => {
    if (e.type !== 'route') return;
    const before = events.slice(0, i).filter((m) => m.type === 'middleware' && covers(m.full, e.full)).map((m) => m.fn);
    const params = paramNames(e.raw).flatMap((n) => e.params[n] ?? []);
    const methods = Object.keys(e.route.methods).filter((m) => m !== '_all');
    // `app.all` registers the route for every method Node knows (Express 4 and 5): one ALL route.
    const all = !methods.length || http.METHODS.every((m) => methods.includes(m.toLowerCase()));
    const perMethod = all ? ['_all'] : methods;
    for (const m of perMethod) {
      const own = e.route.stack.filter((l) => l.method === undefined || l.method === m || (m === '_all' && l.method === 'get')).map((l) => l.__probeTarget ?? l.handle);
      routes.push({ key: `${m === '_all' ? 'ALL' : m.toUpperCase()} ${e.full}`, chain: [...before, ...params, ...own].map(token) });
    }
  });
  return routes;
}

/** Express 4's own `query` and `expressInit` layers, which the analyzer does not list. */
function isInternal(fn) {
  const t = token(fn);
  return (fn.name === 'query' || fn.name === 'expressInit') && t === 'pkg:express';
}

function paramNames(p) {
  return typeof p === 'string' ? [...p.matchAll(/:(\w+)/g)].map((m) => m[1]) : [];
}

function covers(mount, full) {
  if (mount === '/') return true;
  if (mount.startsWith('RegExp(')) return full.startsWith(mount);
  const a = mount.split('/').filter(Boolean);
  const b = full.split('/').filter(Boolean);
  // A mount parameter matches any segment; a route parameter does not match a literal mount segment.
  return a.length <= b.length && a.every((s, i) => s === b[i] || s.startsWith(':'));
}

function list(p) {
  return (Array.isArray(p) ? p.flat(Infinity) : [p]).map((x) => (x instanceof RegExp ? `RegExp(${x})` : String(x)));
}

function join(prefix, p) {
  // Paths as written: a root-level `*` (Express 4) stays `*`, a RegExp keeps its source.
  if (p.startsWith('RegExp(') || (prefix === '/' && !p.startsWith('/'))) return prefix === '/' ? p : `${prefix}${p}`;
  const joined = `${prefix.replace(/\/+$/, '')}/${p.replace(/^\/+/, '')}`;
  return joined.length > 1 ? joined.replace(/\/+$/, '') || '/' : '/';
}

const tokens = new WeakMap();
function token(fn) {
  if (typeof fn !== 'function') return '?';
  if (!tokens.has(fn)) tokens.set(fn, tokenOf(locate(fn)));
  return tokens.get(fn);
}

function tokenOf(url) {
  if (!url) return '?';
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = file.slice(nm + '/node_modules/'.length).split('/');
    return `pkg:${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  return `file:${path.relative(appDir, file).split(path.sep).join('/')}`;
}

/** The URL of the script a function is defined in, through the inspector (synchronous on the main thread). */
function locate(fn) {
  globalThis.__recallProbeFn = fn;
  let url;
  session.post('Runtime.evaluate', { expression: 'globalThis.__recallProbeFn' }, (err, res) => {
    if (err) return;
    url = urlOf(res.result.objectId, 0);
  });
  return url;
}

function urlOf(objectId, depth) {
  let url;
  session.post('Runtime.getProperties', { objectId, ownProperties: true }, (err, res) => {
    if (err) return;
    const internal = res.internalProperties ?? [];
    const target = internal.find((p) => p.name === '[[TargetFunction]]');
    if (target && depth < 5) return (url = urlOf(target.value.objectId, depth + 1));
    const location = internal.find((p) => p.name === '[[FunctionLocation]]');
    if (location) url = scripts.get(location.value.value.scriptId);
  });
  return url;
}
