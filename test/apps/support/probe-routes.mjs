// Loads one example app with Express's registration API instrumented, and prints
// what the app registered, in order, as JSON on stdout.
//
//   node [--import tsx] test/apps/support/probe-routes.mjs <appDir> <entry>
//
// The `express` that <appDir> resolves is patched BEFORE the app is imported, so
// every app.use/app.METHOD/app.route/app.param and Router/Route call is seen as
// it happens. Mounts are recorded as they are registered (Express 5 keeps no
// mount prefix in its stack). Only the outermost call is recorded: app.get calls
// router.route and route.get internally, and those inner calls are ignored.
//
// Every registered function is then described from facts V8 knows about it
// (inspector): where it is defined (a file under node_modules/<pkg> means it
// comes from that package), its name, the target of a bound function, and for
// an anonymous function created elsewhere (a factory product or a wrapper) the
// closure that created it and any function it wraps.
import { createRequire } from 'node:module';
import http from 'node:http';
import inspector from 'node:inspector';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [appDirArg, entryArg] = process.argv.slice(2);
if (!appDirArg || !entryArg) {
  console.error('usage: probe-routes.mjs <appDir> <entry>');
  process.exit(2);
}
const appDir = path.resolve(appDirArg);
const req = createRequire(path.join(appDir, 'package.json'));
const express = req('express');
const expressMajor = Number(req('express/package.json').version.split('.')[0]);
// Express 4 (the `methods` package) and Express 5 both take their verbs from http.METHODS.
const methods = http.METHODS.map((m) => m.toLowerCase());

// ---------------------------------------------------------------- recording
const containers = new Map(); // object -> id
const records = []; // { container, seq, kind, ... }
const functions = []; // registered function values, index = fn id
const fnIds = new Map();
const routeOwners = new WeakMap(); // Route object -> route record
let seq = 0;
let depth = 0;

function containerId(obj, kind) {
  let id = containers.get(obj);
  if (!id) {
    id = `${kind}#${containers.size}`;
    containers.set(obj, id);
  }
  return id;
}

function isApp(fn) {
  return typeof fn === 'function' && typeof fn.handle === 'function' && typeof fn.set === 'function';
}
function isRouter(fn) {
  return typeof fn === 'function' && Array.isArray(fn.stack) && typeof fn.handle === 'function' && !isApp(fn);
}

function callSite() {
  const stack = new Error().stack.split('\n').slice(1);
  for (const line of stack) {
    if (line.includes(fileURLToPath(import.meta.url))) continue;
    if (/node_modules[\\/](express|router)[\\/]/.test(line)) continue;
    const m = /\(?((?:file:\/\/)?[^()\s]+):(\d+):(\d+)\)?$/.exec(line.trim());
    if (m) {
      const file = m[1].startsWith('file://') ? fileURLToPath(m[1]) : m[1];
      return { file, line: Number(m[2]) };
    }
  }
  return null;
}

function fnRef(fn, site) {
  if (isApp(fn)) return { container: containerId(fn, 'app') };
  if (isRouter(fn)) return { container: containerId(fn, 'router') };
  let id = fnIds.get(fn);
  if (id === undefined) {
    id = functions.length;
    functions.push({ fn, site });
    fnIds.set(fn, id);
  }
  return { fn: id, arity: fn.length };
}

function serialPath(p) {
  if (p instanceof RegExp) return { regexp: p.source, flags: p.flags };
  if (Array.isArray(p)) return p.map(serialPath);
  return p;
}

function splitPath(args) {
  let offset = 0;
  let p = '/';
  const first = args[0];
  if (typeof first !== 'function') {
    let arg = first;
    while (Array.isArray(arg) && arg.length !== 0) arg = arg[0];
    if (typeof arg !== 'function') {
      offset = 1;
      p = first;
    }
  }
  return { path: p, fns: args.slice(offset).flat(Infinity) };
}

function guarded(original, record) {
  return function (...args) {
    if (depth > 0) return original.apply(this, args);
    depth++;
    let result;
    try {
      result = original.apply(this, args);
    } finally {
      depth--;
    }
    record.call(this, args, result);
    return result;
  };
}

function owner(self) {
  return isApp(self) ? containerId(self, 'app') : containerId(self, 'router');
}

function patchContainer(proto) {
  proto.use = guarded(proto.use, function (args) {
    const site = callSite();
    const { path: p, fns } = splitPath(args);
    records.push({ container: owner(this), seq: seq++, kind: 'use', path: serialPath(p), fns: fns.map((f) => fnRef(f, site)) });
  });
  proto.route = guarded(proto.route, function (args, route) {
    const rec = { container: owner(this), seq: seq++, kind: 'route', path: serialPath(args[0]), stack: [] };
    routeOwners.set(route, rec);
    records.push(rec);
  });
  proto.param = guarded(proto.param, function (args) {
    const site = callSite();
    const [name, fn] = args;
    if (typeof fn !== 'function') return;
    for (const n of [name].flat()) records.push({ container: owner(this), seq: seq++, kind: 'param', name: n, fn: fnRef(fn, site) });
  });
  for (const method of [...methods, 'all']) {
    if (typeof proto[method] !== 'function') continue;
    proto[method] = guarded(proto[method], function (args) {
      if (method === 'get' && args.length === 1 && isApp(this)) return; // app.get(setting)
      const site = callSite();
      const fns = args.slice(1).flat(Infinity);
      records.push({
        container: owner(this),
        seq: seq++,
        kind: 'route',
        path: serialPath(args[0]),
        stack: [{ method, fns: fns.map((f) => fnRef(f, site)) }],
      });
    });
  }
}

patchContainer(express.application);
patchContainer(expressMajor >= 5 ? express.Router.prototype : express.Router);
const RouteProto = express.Route.prototype;
for (const method of [...methods, 'all']) {
  if (typeof RouteProto[method] !== 'function') continue;
  RouteProto[method] = guarded(RouteProto[method], function (args) {
    const rec = routeOwners.get(this);
    if (!rec) return;
    const site = callSite();
    rec.stack.push({ method, fns: args.flat(Infinity).map((f) => fnRef(f, site)) });
  });
}

// ---------------------------------------------------------------- load the app
const entry = path.resolve(appDir, entryArg);
const mod = await import(pathToFileURL(entry).href);
const app = mod.default && isApp(mod.default) ? mod.default : isApp(mod) ? mod : mod.app;
if (!isApp(app)) {
  console.error(`${entryArg} does not export an Express app`);
  process.exit(2);
}
const root = containerId(app, 'app');

// ---------------------------------------------------------------- describe functions
const session = new inspector.Session();
session.connect();
const scripts = new Map();
session.on('Debugger.scriptParsed', (m) => scripts.set(m.params.scriptId, m.params.url));
function post(method, params) {
  let out;
  let err;
  session.post(method, params, (e, r) => {
    err = e;
    out = r;
  });
  if (err) throw err;
  if (out === undefined) throw new Error(`inspector answered ${method} asynchronously`);
  return out;
}
post('Debugger.enable', {});

function objectIdOf(value) {
  globalThis.__probeValue = value;
  const { result } = post('Runtime.evaluate', { expression: 'globalThis.__probeValue' });
  delete globalThis.__probeValue;
  return result.objectId;
}
function valueOf(objectId) {
  post('Runtime.callFunctionOn', { objectId, functionDeclaration: 'function () { globalThis.__probeValue = this; }' });
  const v = globalThis.__probeValue;
  delete globalThis.__probeValue;
  return v;
}
function internals(fn) {
  const props = post('Runtime.getProperties', { objectId: objectIdOf(fn), ownProperties: true });
  return Object.fromEntries((props.internalProperties ?? []).map((p) => [p.name, p.value]));
}
function fileOf(url) {
  if (!url) return null;
  return url.startsWith('file://') ? fileURLToPath(url) : url;
}
function packageOf(file) {
  const i = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (i < 0) return null;
  const rest = file.slice(i + 14).split(path.sep);
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

function describe(fn, site, seen = new Set()) {
  if (seen.has(fn)) return { name: fn.name || '<anonymous>' };
  seen.add(fn);
  const int = internals(fn);
  if (int['[[TargetFunction]]']) {
    return { ...describe(valueOf(int['[[TargetFunction]]'].objectId), site, seen), bound: true };
  }
  const loc = int['[[FunctionLocation]]']?.value;
  const file = loc ? fileOf(scripts.get(loc.scriptId)) : null;
  const line = loc ? loc.lineNumber + 1 : null;
  const where = file ? { file: path.relative(appDir, file).split(path.sep).join('/'), line } : {};
  const pkg = file ? packageOf(file) : null;
  if (pkg) return { name: fn.name || '<anonymous>', pkg, ...where };
  if (fn.name) return { name: fn.name, ...where };
  const inline = site && file === site.file && line >= site.line;
  if (inline || !int['[[Scopes]]']) return { name: '<anonymous>', ...where };
  // Anonymous and created elsewhere: a wrapper around a function, or a factory product.
  const scopes = post('Runtime.getProperties', { objectId: int['[[Scopes]]'].objectId, ownProperties: true }).result;
  const closure = scopes.find((s) => s.value?.description?.startsWith('Closure'));
  if (closure) {
    const vars = post('Runtime.getProperties', { objectId: closure.value.objectId, ownProperties: true }).result;
    const wrapped = vars.filter((v) => v.value?.type === 'function').map((v) => valueOf(v.value.objectId));
    if (wrapped.length === 1) return { ...describe(wrapped[0], null, seen), wrappedBy: closure.value.description.replace(/^Closure \((.*)\)$/, '$1'), ...where };
    const factory = /^Closure \((.+)\)$/.exec(closure.value.description);
    if (factory) return { name: factory[1], factoryProduct: true, ...where };
  }
  return { name: '<anonymous>', ...where };
}

const described = functions.map(({ fn, site }) => describe(fn, site));
session.disconnect();

const out = {
  express: expressMajor,
  root,
  containers: [...containers.values()],
  records,
  functions: described,
};
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
process.exit(0);
