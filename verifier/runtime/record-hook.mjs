// The recorder (verifier/record.ts), preloaded with `--import` into the user's app in a lane.
// Plain JavaScript without dependencies: it loads before the user's code, under any loader.
// Design: shared/reference/verifier-design.md §7.2 — capture at the Node request-listener level,
// not as a middleware, so 404s, errors answered by finalhandler and streamed bodies are all seen.
//
// For every 'request' an http/https server emits, it captures:
// - the request as received: method, URL, headers in wire order (rawHeaders), and the body bytes,
//   teed from the stream's own push() — nothing is read from the stream, its mode never changes,
//   and the app's body parser receives every byte as before;
// - the response as written: status line and headers as serialised on the wire (res._header, or
//   getRawHeaderNames()/getHeader() where that is absent), and every chunk given to write()/end() —
//   installed before any middleware, our wrappers are the innermost, so `compression` hands them
//   compressed bytes, which are decoded (gzip, deflate, br) before storing;
// - the route that answered: req.baseUrl + req.route.path (Express), both read when Express
//   dispatches the route (req.route is watched with a setter), the last route dispatched before
//   the response head is written. req.baseUrl is the part of the URL the mount paths matched, as
//   the client wrote it (Express keeps no template for it): a mount path with parameters shows the
//   request's values (/products/p-1/reviews/:id), a case-insensitive match the request's letter case.
// When the app calls end(), one JSON line per exchange is appended to MIGRATE_RECORD_FILE
// (synchronously, so a line is on disk before the client can have read the whole answer).
// Bodies beyond MIGRATE_RECORD_MAX_BODY bytes (default 16 MiB) are cut and flagged `truncated`.
// Nothing here may break the app: every capture step is guarded, errors are reported once on stderr.
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

const FILE = process.env.MIGRATE_RECORD_FILE;
const MAX_BODY = Number(process.env.MIGRATE_RECORD_MAX_BODY) > 0 ? Number(process.env.MIGRATE_RECORD_MAX_BODY) : 16 * 1024 * 1024;
const INSTALLED = Symbol.for('express-to-fastify-migrate.record');
let seq = 0;
/** Writers of exchanges whose response is done but whose request body is still arriving. */
const pending = new Set();
let complained = false;

if (FILE && !globalThis[INSTALLED]) {
  globalThis[INSTALLED] = true;
  for (const proto of [http.Server.prototype, https.Server.prototype]) {
    const emit = proto.emit;
    proto.emit = function recordingEmit(event, req, res) {
      if (event === 'request') guard(() => capture(req, res));
      return emit.apply(this, arguments);
    };
  }
  // The recording stops with SIGTERM. Without a handler Node dies at once, possibly between an
  // answer and the line that records it; a JS handler runs between ticks, after that line. When
  // the app has no SIGTERM handler of its own, exit as the default action would (128 + 15).
  // Exchanges still waiting for their request body are written as they are.
  process.on('SIGTERM', function recorderSigterm() {
    for (const save of [...pending]) save();
    if (process.listenerCount('SIGTERM') === 1) process.exit(143);
  });
}

function capture(req, res) {
  const exchange = {
    v: 1,
    pid: process.pid,
    seq: ++seq,
    start: performance.timeOrigin + performance.now(),
    startedDateTime: new Date().toISOString(),
    request: {
      method: req.method,
      url: req.url,
      scheme: req.socket?.encrypted ? 'https' : 'http',
      httpVersion: `HTTP/${req.httpVersion}`,
      headers: pairs(req.rawHeaders),
    },
  };
  const t0 = performance.now();
  const requestBody = new Body();
  let requestEnd;
  const push = req.push;
  req.push = function recordingPush(chunk, encoding) {
    guard(() => {
      if (chunk === null) requestEnd ??= performance.now();
      else requestBody.add(chunk, encoding);
    });
    return push.apply(this, arguments);
  };

  // Express assigns req.route when it dispatches a route, with req.baseUrl then the mount path of
  // the router running it. Both are read at that moment: an error handler that answers later runs
  // after the routers have restored baseUrl.
  let dispatched;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => dispatched?.route,
    set: (value) => {
      dispatched = { route: value, template: guard(() => templateOf(req.baseUrl, value?.path)) };
    },
  });

  const responseBody = new Body();
  let route;
  let headAt;
  let done = false;
  const commit = () => {
    headAt ??= performance.now();
    route ??= dispatched?.template;
  };
  const { writeHead, write, end } = res;
  res.writeHead = function recordingWriteHead() {
    guard(commit);
    return writeHead.apply(this, arguments);
  };
  res.write = function recordingWrite(chunk, encoding) {
    guard(() => {
      commit();
      if (!this.writableEnded) responseBody.add(chunk, encoding);
    });
    return write.apply(this, arguments);
  };
  res.end = function recordingEnd(chunk, encoding) {
    const first = !done && !this.writableEnded;
    guard(() => {
      commit();
      if (first && typeof chunk !== 'function') responseBody.add(chunk, encoding);
    });
    const result = end.apply(this, arguments);
    if (first) {
      done = true;
      guard(() => {
        const t1 = performance.now();
        exchange.time = round(t1 - t0);
        exchange.timings = { send: round((requestEnd ?? t0) - t0), wait: round(headAt - (requestEnd ?? t0)), receive: round(t1 - headAt) };
        if (route !== undefined) exchange.route = route;
        exchange.response = responseOf(this, responseBody);
      });
      // An app may answer before it reads the body (or never read it). Node drains an unread
      // body once the response is done, and push() still sees those bytes: write the exchange
      // when the request has ended, so its body is complete.
      const save = () =>
        guard(() => {
          exchange.request.body = requestBody.base64();
          if (requestBody.truncated) exchange.request.truncated = true;
          appendFileSync(FILE, `${JSON.stringify(exchange)}\n`);
        });
      const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
      if (!hasBody || req.complete || requestEnd !== undefined) save();
      else {
        // Not 'close': Node emits it on the request when the response is done, body or not.
        const once = () => pending.delete(once) && save();
        pending.add(once);
        req.once('end', once);
        req.once('aborted', once);
        setTimeout(once, 2000).unref();
      }
    }
    return result;
  };
}

/** Status, headers and decoded body of a response whose end() was just called. */
function responseOf(res, body) {
  const head = typeof res._header === 'string' && res._header ? parseHead(res._header) : headFromApi(res);
  const raw = res._hasBody === false ? Buffer.alloc(0) : body.bytes();
  const encoding = head.headers.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
  const response = { ...head, encodedSize: raw.length };
  try {
    response.body = decode(raw, encoding).toString('base64');
  } catch (err) {
    response.body = raw.toString('base64');
    response.decodeError = `${encoding}: ${err.message}`;
  }
  if (body.truncated) response.truncated = true;
  return response;
}

/** The serialised head: `HTTP/1.1 200 OK\r\nName: value\r\n…\r\n\r\n`. */
function parseHead(text) {
  const lines = text.split('\r\n');
  const status = /^(HTTP\/\d(?:\.\d)?) (\d{3})(?: (.*))?$/.exec(lines[0]) ?? [];
  const headers = [];
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers.push([line.slice(0, i), line.slice(i + 1).trim()]);
  }
  return { status: Number(status[2]), statusText: status[3] ?? '', httpVersion: status[1] ?? 'HTTP/1.1', headers };
}

function headFromApi(res) {
  const headers = [];
  for (const name of res.getRawHeaderNames?.() ?? Object.keys(res.getHeaders?.() ?? {})) {
    const value = res.getHeader(name);
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) headers.push([name, String(v)]);
  }
  return { status: res.statusCode, statusText: res.statusMessage ?? '', httpVersion: 'HTTP/1.1', headers };
}

/** Decodes Content-Encoding (a list is undone from the last coding applied). */
function decode(buf, header) {
  if (!header || buf.length === 0) return buf;
  let out = buf;
  for (const coding of header.split(',').map((c) => c.trim().toLowerCase()).reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') out = zlib.gunzipSync(out);
    else if (coding === 'deflate') out = inflate(out);
    else if (coding === 'br') out = zlib.brotliDecompressSync(out);
    else if (coding !== 'identity') throw new Error('unsupported coding');
  }
  return out;
}

/** "deflate" is zlib-wrapped by the spec, raw in some servers. */
function inflate(buf) {
  try {
    return zlib.inflateSync(buf);
  } catch {
    return zlib.inflateRawSync(buf);
  }
}

/** A route's template joined to where its router is mounted (`/api/notes` + `/:id`). */
function templateOf(baseUrl, path) {
  if (path === undefined) return undefined;
  const own = format(path);
  const joined = `${baseUrl ?? ''}${own}`;
  // A router's '/' under '/users' is '/users' (the route-key convention).
  return own === '/' && joined.length > 1 ? joined.slice(0, -1) : joined;
}

function format(path) {
  if (typeof path === 'string') return path;
  if (path instanceof RegExp) return `RegExp(${String(path)})`;
  if (Array.isArray(path)) return path.map(format).join(',');
  return String(path);
}

/** Bytes written to a stream, kept up to MAX_BODY. */
class Body {
  chunks = [];
  size = 0;
  truncated = false;

  add(chunk, encoding) {
    if (chunk === undefined || chunk === null) return;
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : ArrayBuffer.isView(chunk)
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.from(String(chunk), typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8');
    if (this.size + buf.length > MAX_BODY) {
      this.truncated = true;
      const room = MAX_BODY - this.size;
      if (room > 0) this.chunks.push(buf.subarray(0, room));
      this.size = MAX_BODY;
      return;
    }
    // Copy: the caller may reuse its buffer after write() returns.
    this.chunks.push(Buffer.from(buf));
    this.size += buf.length;
  }

  bytes() {
    return Buffer.concat(this.chunks);
  }

  base64() {
    return this.bytes().toString('base64');
  }
}

function pairs(raw) {
  const out = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
  return out;
}

function round(ms) {
  return Math.max(0, Math.round(ms * 100) / 100);
}

/** Runs `fn`, returning its value; an error is reported once on stderr and swallowed. */
function guard(fn) {
  try {
    return fn();
  } catch (err) {
    if (complained) return;
    complained = true;
    process.stderr.write(`migrate record: could not capture an exchange (${err?.message ?? err}); recording what it can\n`);
  }
}
