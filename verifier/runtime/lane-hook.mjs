// Preloaded with `--import` into every lane (verifier/lane.ts), inside the user's process.
// Plain JavaScript without dependencies: it must load before the user's code, under any loader.
//
// It patches net.Server.prototype.listen, which every Node HTTP server goes through
// (http/https/http2/tls servers, Express's app.listen, Fastify's listen), so that whatever the
// app asks for — a port, a host, a pipe path — the server binds 127.0.0.1 only: the first listen
// call on the lane's port (MIGRATE_LANE_PORT, 0 = a free one), any later one on a free port, so
// two servers never fight over the same port. The first server that starts listening is reported
// to the parent over the IPC channel as { type: 'listening', port }.
import { realpathSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const LOOPBACK = '127.0.0.1';

/** Shared with boot.mjs, which reads `listenCalls` to know whether the module listened by itself. */
const state = { listenCalls: 0, port: undefined };
globalThis[Symbol.for('express-to-fastify-migrate.lane')] = state;

// Only the lane's own process reports to the parent and takes the forced port: a process the app
// forks inherits our --import flags (and so this hook, which keeps it on loopback) but not the role.
// Real paths on both sides: module URLs are resolved through symlinks, argv is not.
const isLaneRoot = process.argv[1] !== undefined && realPath(process.argv[1]) === realPath(fileURLToPath(new URL('./boot.mjs', import.meta.url)));
const lanePort = isLaneRoot ? portFrom(process.env.MIGRATE_LANE_PORT) : 0;

// A lane must not outlive the verifier: when the parent goes away (even killed), so do we. The
// channel is unref'd so that it alone does not keep an app that has nothing else to do alive.
if (isLaneRoot && process.channel) {
  process.once('disconnect', () => process.exit(0));
  process.channel.unref();
}

const originalListen = net.Server.prototype.listen;

net.Server.prototype.listen = function laneListen(...args) {
  const callback = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
  const options = listenOptions(args);
  options.port = state.listenCalls === 0 ? lanePort : 0;
  options.host = LOOPBACK;
  state.listenCalls++;
  // Registered before the caller's callback (net adds that inside listen), so we report first.
  this.once('listening', () => report(this));
  return callback ? originalListen.call(this, options, callback) : originalListen.call(this, options);
};

/** The options of any listen() signature, minus where to bind (we decide that). */
function listenOptions(args) {
  const [first, second, third] = args;
  if (first !== null && typeof first === 'object') {
    if ('_handle' in first || 'fd' in first) {
      // An inherited handle or file descriptor is bound already, possibly beyond loopback.
      throw new Error('migrate lane: listening on an existing handle or file descriptor is not supported; listen on a port');
    }
    const { backlog, exclusive, signal } = first;
    return withDefined({ backlog, exclusive, signal });
  }
  // listen(path[, backlog]) or listen([port[, host[, backlog]]]): keep the backlog, found the
  // way net finds it (the second or third argument that is a positive number).
  return withDefined({ backlog: positive(second) ?? positive(third) });
}

function report(server) {
  const address = server.address();
  if (state.port !== undefined || !address || typeof address !== 'object') return;
  state.port = address.port;
  if (!isLaneRoot || typeof process.send !== 'function') return;
  try {
    process.send({ type: 'listening', port: address.port });
  } catch {
    // The parent went away; it will not read the report anyway.
  }
}

function realPath(file) {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function portFrom(value) {
  const port = Number(value ?? 0);
  return Number.isInteger(port) && port >= 0 && port < 65536 ? port : 0;
}

function positive(value) {
  const n = Number(value);
  return n > 0 ? n : undefined;
}

function withDefined(object) {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}
