// The main module of every lane (verifier/lane.ts): `node --import lane-hook.mjs boot.mjs <entry>`.
// Imports the user's entry (CommonJS or ESM; TypeScript when the tsx loader is preloaded). A module
// that listens by itself — at once or later — is left alone: lane-hook.mjs puts it on loopback and
// reports the port. A module that has not called listen shortly after it loaded is started from its
// exports: an Express app, a Fastify instance, an http.Server, or a zero-argument factory of one.
// Anything else ends the process with a message on stderr that names what the module exported.
import net from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

const LOOPBACK = '127.0.0.1';
/** How long after the import settles a module may take to call listen before we look at its exports. */
const SETTLE_MS = 250;
/** How long a module that exports nothing usable may still take to listen while it keeps the process busy. */
const GRACE_MS = 3000;

const APP_EXPORTS = ['default', 'app', 'server', 'fastify'];
const FACTORY_EXPORTS = ['buildApp', 'createApp', 'build', 'default'];

const state = globalThis[Symbol.for('express-to-fastify-migrate.lane')];
const entry = process.argv[2];
const shown = entry && path.relative(process.cwd(), path.resolve(entry)); // for messages

if (!state) fail('lane-hook.mjs was not preloaded (run boot.mjs through verifier/lane.ts)');
if (!entry) fail('usage: node --import lane-hook.mjs boot.mjs <entry>');

let namespace;
try {
  namespace = await import(pathToFileURL(path.resolve(entry)).href);
} catch (err) {
  fail(`loading ${shown} threw ${describeError(err)}`);
}

await delay(SETTLE_MS);
if (state.listenCalls === 0) {
  try {
    await startFromExports(namespace);
  } catch (err) {
    fail(`starting ${shown} from its exports threw ${describeError(err)}`);
  }
}

async function startFromExports(ns) {
  const found = await findStartable(ns);
  if (found.start) {
    note(`${shown} did not call listen; starting the ${found.start.kind} exported as ${found.start.label}`);
    return listen(found.start);
  }
  const reason =
    `${shown} did not call listen and exports nothing a lane can start ` +
    `(an Express app, a Fastify instance, an http.Server, or a zero-argument factory ${FACTORY_EXPORTS.join('/')} of one); ` +
    `it exports ${describeExports(ns)}${found.problems.length ? `; ${found.problems.join('; ')}` : ''}`;
  waitForLateListen(reason);
}

/** The first usable export in order of preference: instances before factories. */
async function findStartable(ns) {
  // A CommonJS module's exports arrive as `default`; look inside a plain exports object too.
  const holders = [ns];
  if (isPlainObject(ns.default) && !kindOf(ns.default)) holders.push(ns.default);
  const problems = [];

  for (const holder of holders) {
    for (const name of APP_EXPORTS) {
      let value = holder[name];
      if (value === undefined) continue;
      if (!kindOf(value) && isThenable(value)) value = await value; // `export default buildApp()`
      const kind = kindOf(value);
      if (kind) return { start: { kind, value, label: labelOf(holder, ns, name) }, problems };
    }
  }
  for (const holder of holders) {
    for (const name of FACTORY_EXPORTS) {
      const fn = holder[name];
      if (typeof fn !== 'function' || kindOf(fn) || isClass(fn)) continue;
      const label = labelOf(holder, ns, name);
      if (fn.length > 0) {
        problems.push(`${label} takes ${fn.length} parameter(s)${fn.length === 2 ? ' (a Fastify plugin?)' : ''}; lanes call factories without arguments`);
        continue;
      }
      const value = await fn();
      const kind = kindOf(value);
      if (kind) return { start: { kind, value, label: `${label}()` }, problems };
      problems.push(`${label}() returned ${describeValue(value)}`);
    }
  }
  return { problems };
}

async function listen({ kind, value }) {
  // lane-hook.mjs decides the port and host; these arguments only say "any port, loopback".
  if (kind === 'Fastify instance') await value.listen({ port: 0, host: LOOPBACK });
  else value.listen(0, LOOPBACK);
}

/** The module may still listen (e.g. once a database connects); give up when it cannot or takes too long. */
function waitForLateListen(reason) {
  const giveUp = () => {
    if (state.listenCalls === 0) fail(reason);
  };
  process.once('beforeExit', giveUp);
  setTimeout(giveUp, GRACE_MS).unref();
}

function kindOf(value) {
  if (value instanceof net.Server) return 'http.Server';
  if (typeof value === 'function' && typeof value.handle === 'function' && typeof value.listen === 'function') return 'Express app';
  if (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof value.inject === 'function' &&
    typeof value.listen === 'function' &&
    typeof value.register === 'function'
  ) {
    return 'Fastify instance';
  }
  return undefined;
}

function labelOf(holder, ns, name) {
  if (holder === ns) return name === 'default' ? 'default' : `"${name}"`;
  return `default.${name}`;
}

function describeExports(ns) {
  const names = Object.keys(ns);
  if (names.length === 0) return 'nothing';
  const parts = names.map((name) => `${name} (${describeValue(ns[name])})`);
  if (isPlainObject(ns.default)) {
    const inner = Object.keys(ns.default);
    parts.push(`default's keys: ${inner.length ? inner.join(', ') : 'none'}`);
  }
  return parts.join(', ');
}

function describeValue(value) {
  if (value === null) return 'null';
  if (typeof value === 'function') return isClass(value) ? `class ${value.name || '(anonymous)'}` : `function with ${value.length} parameter(s)`;
  if (typeof value === 'object') return value.constructor && value.constructor !== Object ? `${value.constructor.name} object` : 'object';
  return typeof value;
}

function describeError(err) {
  return err instanceof Error ? `${err.stack ?? `${err.name}: ${err.message}`}` : `a non-error value: ${String(err)}`;
}

function isClass(fn) {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

function isThenable(value) {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function';
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);
}

function note(message) {
  process.stderr.write(`migrate lane: ${message}\n`);
}

function fail(message) {
  note(message);
  process.exit(1);
}
