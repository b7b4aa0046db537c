/**
 * The module the `routes` stage writes next to the generated server module when a moved handler
 * needs it (`fastify-like-express.*`): Express's own `res.send`, `res.json`, `res.sendStatus`,
 * `res.append`, `res.vary`, `res.links`, `res.cookie` and `res.clearCookie`, run for the reply of a
 * route moved off Express. The
 * rewrite calls them where Express's answer depends on values known only at run time
 * (`res.send(value)`: the content type and body Express picks from the value and from a type set
 * before), and where the app's middleware replaced a response method on Express's response (a
 * `res.send` that records the body): the replacement runs as it ran in Express.
 *
 * How: on a moved route `reply.raw` is Express's own response once the bridge ran the app (its
 * prototypes, `res.app` with the app's settings, `res.req`, `res.locals`, and any method the app's
 * middleware put on it). The functions call Express's method on a stand-in that inherits all of
 * that, but reads and writes headers on the reply, keeps the status on the response Fastify writes,
 * and answers through `reply.send`: Express's code decides (Express 4 reads a number as a status,
 * Express 5 sends it as JSON; the charset it sets on a type set before; 'json spaces', 'json
 * replacer', 'json escape'; its ETag and the 304 it enables; no body for 204/304), for the app's own
 * Express version. Checked at run time against Express 4 and 5 in test/transforms/like-express.test.ts.
 */
import { ROUTES_HOOKS_MARK } from '../../analyzer/generated.js';
import { DEFAULT_STYLE, restyle } from '../lib/style.js';

/** What the module's text depends on. */
export interface LikeExpressFacts {
  module: 'esm' | 'commonjs';
  typescript: boolean;
}

/** The functions the module exports, which the handler rewrite calls (reply-forms.ts), each `(reply, …Express's arguments)`, returning the reply. */
export const LIKE_EXPRESS_FUNCTIONS = ['appendLikeExpress', 'clearCookieLikeExpress', 'cookieLikeExpress', 'jsonLikeExpress', 'linksLikeExpress', 'paramsLikeExpress', 'redirectLikeExpress', 'sendFileLikeExpress', 'sendLikeExpress', 'sendStatusLikeExpress', 'varyLikeExpress', 'wildcardLikeExpress'] as const;

/** A function of the module. */
export type LikeExpressFunction = (typeof LIKE_EXPRESS_FUNCTIONS)[number];

/** The Express method each reply function runs on the stand-in (RAW_METHODS run on Express's response itself; the others are route hooks: routeHooks). */
const METHODS: Record<Exclude<LikeExpressFunction, 'paramsLikeExpress' | 'wildcardLikeExpress' | 'sendFileLikeExpress' | keyof typeof RAW_METHODS>, { method: string; params: string[]; doc: string }> = {
  appendLikeExpress: { method: 'append', params: ['field: string', 'value: unknown'], doc: "Express's `res.append(field, value)`: the value after the header's, written as res.set writes it." },
  jsonLikeExpress: { method: 'json', params: ['body?: unknown'], doc: "Express's `res.json(body)`: JSON text with the app's JSON settings, typed application/json unless a type is set." },
  linksLikeExpress: { method: 'links', params: ['links: Record<string, string | string[]>'], doc: "Express's `res.links(links)`: the Link header, after the one set before." },
  redirectLikeExpress: { method: 'redirect', params: ['...args: any[]'], doc: "Express's `res.redirect([status,] url)`: the Location Express writes (encoded; 'back' read from the Referrer in Express 4), the status, and its 'Redirecting to' body by the Accept header, with Vary: Accept." },
  sendLikeExpress: { method: 'send', params: ['body?: unknown'], doc: "Express's `res.send(body)`: the type and body Express picks from the value and from a type set before." },
  sendStatusLikeExpress: { method: 'sendStatus', params: ['status: number'], doc: "Express's `res.sendStatus(status)`: the status and its text." },
  varyLikeExpress: { method: 'vary', params: ['field: string | string[]'], doc: "Express's `res.vary(field)`: the field added to Vary unless it names it already." },
};

/**
 * The Express methods run on Express's response itself (`reply.raw`), not on the stand-in: they
 * only add a Set-Cookie header, which stays on Express's response as in Express, so what the app's
 * middleware adds there later (express-session's cookie, written when the headers go out) joins it
 * instead of being replaced by the reply's own set-cookie (Node's writeHead lets the headers it is
 * given win over those set before). Express's code writes the header: the cookie package's
 * serialize with Express's defaults (`Path=/`; `maxAge` in milliseconds → `Max-Age` in seconds and
 * `Expires`; an object as `j:` JSON; `signed` with cookie-parser's `req.secret`, which the bridge set
 * on Express's request), and clearCookie as the app's Express major writes it.
 */
const RAW_METHODS = {
  clearCookieLikeExpress: { method: 'clearCookie', params: ['name: string', 'options?: object'], doc: "Express's `res.clearCookie(name, options)`: the cookie expired, as the app's Express writes it." },
  cookieLikeExpress: { method: 'cookie', params: ['name: string', 'value: unknown', 'options?: object'], doc: "Express's `res.cookie(name, value, options)`: the Set-Cookie header Express writes, on Express's response." },
} as const;

/** Whether `source` (the module as it is on disk) already has every function of this version: else it is written again. */
export function hasLikeExpressFunctions(source: string): boolean {
  return LIKE_EXPRESS_FUNCTIONS.every((name) => source.includes(`function ${name}(`));
}

/** The module text (always in the default style: a generated module, written whole). */
export function likeExpressModule(facts: LikeExpressFacts): string {
  const ts = facts.typescript;
  const t = (annotation: string) => (ts ? annotation : '');
  const exported = facts.module === 'esm' ? 'export ' : '';
  const reply = t(': FastifyReply<any>');
  // Each function calls its Express method on `receiver` and returns the reply.
  const build = (table: Record<string, { method: string; params: readonly string[]; doc: string }>, receiver: string) =>
    Object.entries(table).flatMap(([name, { method, params, doc }]) => {
      const names = params.map((p) => p.split(/\??:/)[0]);
      return ['', `/** ${doc} */`, `${exported}function ${name}(reply${reply}, ${(ts ? params : names).join(', ')})${t(': FastifyReply<any>')} {`, `  ${receiver}.${method}(${names.join(', ')});`, '  return reply;', '}'];
    });
  const functions = build(METHODS, 'expressResponse(reply)');
  const rawFunctions = build(RAW_METHODS, ts ? '(reply.raw as any)' : 'reply.raw');
  const lines = [
    `// Express's answers on Fastify's reply for routes moved off Express: ${ROUTES_HOOKS_MARK} (express-to-fastify migrate).`,
    "// Express's own response methods, run for the handlers of moved routes on a stand-in for Express's response",
    "// whose headers are the reply's and whose answer leaves through the reply (the app's Express decides as before).",
    ...(facts.module === 'commonjs' && !ts ? ["'use strict';"] : []),
    ...(ts ? ['', "import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';"] : []),
    '',
    '/**',
    " * Express's response for `reply`: `reply.raw` after the bridge is Express's own (the app's prototypes,",
    " * `res.app`, `res.req`, `res.locals`, a method the app's middleware replaced); the stand-in inherits it",
    ' * all, with the headers and the answer on the reply and the status on the response Fastify writes.',
    " * Its request is Express's with `res` the stand-in (req.fresh reads the ETag and status there), and",
    ' * HEAD read as GET: Express would end a HEAD answer without its body, which Fastify counts for',
    ' * Content-Length before it drops it.',
    ' */',
    `function expressResponse(reply${reply})${t(': any')} {`,
    `  const raw = reply.raw${t(' as any')};`,
    '  const res = Object.create(raw);',
    "  const req = Object.create(raw.req, { res: { value: res }, method: { value: raw.req.method === 'HEAD' ? 'GET' : raw.req.method } });",
    '  Object.defineProperties(res, {',
    '    req: { value: req },',
    `    statusCode: { get: () => raw.statusCode, set: (code${t(': number')}) => void (raw.statusCode = code) },`,
    `    getHeader: { value: (name${t(': string')}) => reply.getHeader(name) },`,
    `    hasHeader: { value: (name${t(': string')}) => reply.hasHeader(name) },`,
    "    // Node's setHeader replaces a header; Fastify's reply.header adds to a set-cookie it holds.",
    `    setHeader: { value: (name${t(': string')}, value${t(': any')}) => (reply.removeHeader(name).header(name, value), res) },`,
    `    removeHeader: { value: (name${t(': string')}) => { reply.removeHeader(name); } },`,
    `    end: { value: (chunk${t('?: string | Uint8Array')}) => (answer(reply, chunk), res) },`,
    '  });',
    '  return res;',
    '}',
    '',
    '/**',
    " * The end of Express's answer, through the reply: Node's writeHead takes a status of 100–999 and",
    " * throws Express's RangeError otherwise; an empty chunk (Express makes one of null) is no payload",
    ' * (Fastify would type an empty string text/plain, an empty Buffer binary, where Express set no type).',
    ' */',
    `function answer(reply${reply}, chunk${t('?: string | Uint8Array')}) {`,
    '  const code = reply.raw.statusCode;',
    '  const status = code | 0;',
    "  if (status < 100 || status > 999) throw Object.assign(new RangeError(`Invalid status code: ${Object.is(code, -0) ? '-0' : code}`), { code: 'ERR_HTTP_INVALID_STATUS_CODE' });",
    '  if (chunk === undefined || chunk.length === 0) reply.send();',
    '  else reply.send(chunk);',
    '}',
    ...functions,
    ...rawFunctions,
    ...sendFile(t, exported, reply),
    ...routeHooks(t, exported),
    ...(facts.module === 'commonjs' && !ts ? ['', `module.exports = { ${LIKE_EXPRESS_FUNCTIONS.join(', ')} };`] : []),
  ];
  return restyle(lines, DEFAULT_STYLE);
}

/**
 * Express's own `res.sendFile(path[, options])` (the send package, as the app's Express version
 * calls it: Cache-Control with `maxAge`, ETag, Last-Modified, Accept-Ranges, the type of the
 * extension, HEAD, conditional GET's 304, ranges and 416, 412), written by Express on its own
 * response, which `reply.raw` is after the bridge; Fastify's response listeners (logging,
 * onResponse) see it finish. Express's answer without a callback, kept: a write error or an aborted
 * request is dropped; any other error goes to the error handler (`next(err)` in Express:
 * `reply.send(err)` here), or ends the socket once the headers are out (Express's final handler).
 * A path that names a directory is Express's `next()` — its next route or its 404 —, which a route
 * Fastify matched cannot reach: its error handler gets a 404 error instead (docs/stages/routes.md,
 * Limits). Headers the reply holds go on Express's response first, where send keeps them.
 * Checked at run time against Express 4 and 5 (test/transforms/like-express.test.ts).
 */
function sendFile(t: (annotation: string) => string, exported: string, reply: string): string[] {
  return [
    '',
    '/**',
    " * Express's `res.sendFile(path, options)`: the file, answered by Express's own (the send package) on",
    " * Express's response; its errors go to the error handler as Express's went to next. Returns the reply,",
    ' * which an async handler returns (Fastify waits for the answer).',
    ' */',
    `${exported}function sendFileLikeExpress(reply${reply}, path${t(': string')}, options${t('?: Record<string, unknown>')})${t(': FastifyReply<any>')} {`,
    `  const res = reply.raw${t(' as any')};`,
    `  const held = reply.getHeaders()${t(' as Record<string, any>')};`,
    '  for (const name of Object.keys(held)) if (held[name] !== undefined) res.setHeader(name, held[name]);',
    `  res.sendFile(path, options || {}, (err${t('?: any')}) => {`,
    "    if (!err || err.code === 'ECONNABORTED' || err.syscall === 'write') return;",
    '    if (res.headersSent) res.req.socket.destroy();',
    "    else reply.send(err.code === 'EISDIR' ? Object.assign(new Error('Not Found'), { status: 404, statusCode: 404, expose: true }) : err);",
    '  });',
    '  return reply;',
    '}',
  ];
}

/**
 * The route hooks of Express 4 paths (routes-move/paths.ts, probed against path-to-regexp 0.1 with
 * real requests): `req.params` as Express 4 fills it, before the route's own hooks run.
 */
function routeHooks(t: (annotation: string) => string, exported: string): string[] {
  const hook = `request${t(': FastifyRequest<any>')}, _reply${t(': FastifyReply<any>')}, done${t(': HookHandlerDoneFunction')}`;
  return [
    '',
    '/**',
    " * Express 4's optional parameters (`/users/:id?`) on the Fastify routes of each form: the route's own",
    ' * parameters in path order, an absent one undefined, as Express 4 lists it.',
    ' */',
    `${exported}function paramsLikeExpress(names${t(': string[]')}) {`,
    `  return function expressOptionalParams(${hook}) {`,
    `    const params = request.params${t(' as Record<string, unknown>')};`,
    `    const listed${t(': Record<string, unknown>')} = {};`,
    '    for (const name of names) listed[name] = params[name];',
    '    request.params = listed;',
    '    done();',
    '  };',
    '}',
    '',
    '/**',
    " * Express 4's unnamed wildcard (`*`, `/*`, `/files/*`) on find-my-way's `*`: `req.params[0]`, the rest",
    " * of the path as it came, decoded whole, its trailing slash kept (find-my-way drops it where trailing",
    " * slashes are ignored); one that does not decode is Express's 400.",
    ' */',
    `${exported}function wildcardLikeExpress(${hook}) {`,
    `  const params = request.params${t(' as Record<string, unknown>')};`,
    `  const pattern = request.routeOptions.url${t(' as string')};`,
    "  const skip = pattern.slice(0, pattern.indexOf('*')).split('/').length - 1;",
    `  const rest = request.raw.url${t('!')}.split('?')[0].split('/').slice(skip).join('/');`,
    "  delete params['*'];",
    '  try {',
    '    params[0] = decodeURIComponent(rest);',
    '  } catch (_error) {',
    "    return done(Object.assign(new URIError(`Failed to decode param '${rest}'`), { status: 400, statusCode: 400 }));",
    '  }',
    '  done();',
    '}',
  ];
}
