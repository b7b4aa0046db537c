/**
 * Express ↔ Fastify default differences, as data. One catalogue for the whole tool: the
 * verifier names the differences it sees with these ids, reports (and later the rules and the
 * codemods) read the same entries. Source: shared/reference/express-fastify-mapping.md §0.1 and
 * §2 (probed with Express 4.22 / 5.2 and Fastify 5.12); verifier-design.md §6.2.
 *
 * `visibility` follows DESIGN.md "Behaviour parity": `delta` is a pure framework default that
 * clients rarely depend on (reported as a framework delta with the fix); `regression` is
 * something a client can notice, so it counts as a regression even though a default causes it —
 * the report still names the default and the fix.
 */
export interface FrameworkDefault {
  /** Stable id, used in verdicts, accepted differences and docs. */
  id: string;
  title: string;
  /** What Express does. */
  express: string;
  /** What Fastify 5 does with default options. */
  fastify: string;
  visibility: 'delta' | 'regression';
  /** The Fastify option, plugin or code that restores Express behaviour (Fastify 5.5 and later). */
  fix: string;
  /** The fix for older Fastify versions, when it differs: the first entry whose `below` is above the installed version applies. */
  olderFixes?: Array<{ below: string; fix: string }>;
  /** Express majors whose apps show the difference. */
  expressMajors: Array<4 | 5>;
  /** Section of express-fastify-mapping.md the entry comes from. */
  source: string;
}

/** Every catalogued default difference, keyed by id. */
export const FRAMEWORK_DEFAULTS = {
  'stack-frames': {
    id: 'stack-frames',
    title: 'Stack traces in error answers',
    express: "An error's `stack` an app sends (in development) lists Express's router frames below the app's own code, with the paths of the checkout it runs from.",
    fastify: "The same error's stack lists Fastify's request handling (and the bridge) below the app's own code; the message line is the same.",
    visibility: 'delta',
    fix: 'Nothing to restore: clients do not parse stack frames. Send stacks only in development (or compare in production, where apps usually leave them out).',
    expressMajors: [4, 5],
    source: '§2.2 (error bodies)',
  },
  'x-powered-by': {
    id: 'x-powered-by',
    title: 'X-Powered-By header',
    express: 'Sends `X-Powered-By: Express` on every response.',
    fastify: 'Sends no X-Powered-By header.',
    visibility: 'delta',
    fix: "Add `app.addHook('onSend', async (request, reply) => { reply.header('x-powered-by', 'Express') })`, or accept the delta (most apps disable it anyway).",
    expressMajors: [4, 5],
    source: '§0.1, §2.3',
  },
  etag: {
    id: 'etag',
    title: 'Automatic weak ETag and 304',
    express: 'Adds a weak ETag to every `res.send`/`res.json` and answers 304 when If-None-Match matches.',
    fastify: 'Sends no ETag and never answers 304 by itself.',
    visibility: 'delta',
    fix: 'Register `@fastify/etag` with `{ weak: true }` (its tags differ from Express values), or an onSend hook using the `etag` and `fresh` packages for identical tags.',
    olderFixes: [
      { below: '4.0.0', fix: 'Register `fastify-etag` (the Fastify 3 name of `@fastify/etag`) with `{ weak: true }`, or an onSend hook using the `etag` and `fresh` packages.' },
    ],
    expressMajors: [4, 5],
    source: '§0.1, §2.3',
  },
  'auto-options': {
    id: 'auto-options',
    title: 'Automatic OPTIONS answers',
    express: 'Answers OPTIONS on any routed path with 200 and an `Allow` header.',
    fastify: 'Answers 404 to OPTIONS unless a route or @fastify/cors handles it.',
    visibility: 'delta',
    fix: "Add an OPTIONS route per path (`app.options('/path', …)` setting `Allow`), or register `@fastify/cors` for preflights.",
    expressMajors: [4, 5],
    source: '§2.6',
  },
  'default-404-body': {
    id: 'default-404-body',
    title: 'Built-in 404 page',
    express: 'finalhandler answers 404 `text/html` "Cannot GET /path" with CSP and nosniff headers.',
    fastify: 'Answers 404 JSON `{"message":"Route GET:/path not found","error":"Not Found","statusCode":404}`.',
    visibility: 'delta',
    fix: "Use `setNotFoundHandler` to send the Express page: `migrate run --stage shim --parity express` writes one that answers with Express's own `finalhandler`. An app's own 404 handler is moved to `setNotFoundHandler` by the `errors` stage instead.",
    expressMajors: [4, 5],
    source: '§2.1',
  },
  'default-error-body': {
    id: 'default-error-body',
    title: 'Built-in error page',
    express: 'finalhandler answers errors with an HTML page holding the status text (the stack outside production).',
    fastify: 'Answers JSON `{statusCode, error, message}` — the message is exposed even for 5xx.',
    visibility: 'delta',
    fix: "Use `setErrorHandler` to send the same page: `migrate run --stage shim --parity express` writes one that answers with Express's own `finalhandler` (and prints the error as Express does). An app's own error middleware is moved to `setErrorHandler` by the `errors` stage instead.",
    expressMajors: [4, 5],
    source: '§2.2, §2.10',
  },
  'send-file-directory': {
    id: 'send-file-directory',
    title: 'res.sendFile of a directory',
    express: '`res.sendFile(path)` without a callback, where `path` names a directory, calls `next()`: the next matching route, or the app\'s 404.',
    fastify: 'A Fastify route cannot pass a request on to another route: `sendFileLikeExpress` (routes stage) hands a 404 error (`Not Found`) to the error handler.',
    visibility: 'regression',
    fix: 'Point the route at a file, or answer the directory case in the handler (the routes stage keeps Express\'s answer for every file, range and error).',
    expressMajors: [4, 5],
    source: '§1.4; Express 4.x/5.x lib/response.js sendFile (EISDIR)',
  },
  'next-non-error': {
    id: 'next-non-error',
    title: 'A value that is not an Error, passed on with next',
    express: "`next(value)` gives any value but 'route'/'router' to the error middleware: an Error, a string (`throw 'Username or password is incorrect'` caught by `.catch(next)`), a plain object.",
    fastify: "The routes stage writes `reply.send(value)` for `next(value)` in a sync handler and in a callback: an Error goes to the error handler, any other value is sent as the answer (200, a string as text, an object as JSON).",
    visibility: 'regression',
    fix: "Pass Errors on (`next(new Error('…'))`, services that throw Errors), or let the handler return the promise so that its rejection reaches the error handler (Fastify gives a rejection to the error handler whatever its value).",
    expressMajors: [4, 5],
    source: 'Express 4.x/5.x lib/router `next(err)`; Fastify 5 lib/reply.js `send` (`payload instanceof Error`), lib/wrap-thenable.js',
  },
  'redirect-body': {
    id: 'redirect-body',
    title: 'Redirect response body',
    express: '`res.redirect` sends a short "Redirecting to …" body (HTML or text by Accept).',
    fastify: '`reply.redirect` sends an empty body.',
    visibility: 'delta',
    fix: 'None needed: clients follow the Location header. Send the body yourself if a client reads it.',
    expressMajors: [4, 5],
    source: '§2.11, §2.15',
  },
  'static-content-type': {
    id: 'static-content-type',
    title: "Static files' Content-Type",
    express: 'serve-static names the type from send\'s table: `text/html; charset=UTF-8` (Express 4, send 0.19 and mime 1), `.js` as `text/javascript` (Express 5, mime-types).',
    fastify: '@fastify/static names it from @fastify/send\'s table: `charset=utf-8`, and `.js` as `application/javascript`.',
    visibility: 'delta',
    fix: 'None needed for browsers; a client matching the header byte for byte can set it in @fastify/static `setHeaders`.',
    expressMajors: [4, 5],
    source: 'plugins stage (issue 18), probed with express 4.22.3 / 5.x and @fastify/static 10.1.11',
  },
  'plugin-headers-on-refused-bodies': {
    id: 'plugin-headers-on-refused-bodies',
    title: 'Headers of a root plugin on the answers to refused bodies',
    express: 'A header middleware the app registered after its body parsers (cors, helmet) never ran for a request whose body a parser refused: the error handler\'s answer (400, 413, 415, or the status the app maps them to) lacks its headers.',
    fastify: "Its plugin at the root of the Fastify server (plugins stage) sets them at onRequest, before any body is read, so that answer carries them too.",
    visibility: 'delta',
    fix: '`migrate run --stage plugins --parity express` keeps such a middleware on Express; or register it before the body parsers in the Express app first, which gives Express the same answers.',
    expressMajors: [4, 5],
    source: 'plugins stage (issue 19): cors 2.8 and helmet 8 registered after express.json, against @fastify/cors 11 and @fastify/helmet 13 at the root',
  },
  'static-redirect-page': {
    id: 'static-redirect-page',
    title: 'Folder redirect of static files',
    express: "serve-static redirects `/folder` to `/folder/` (301) with a 'Redirecting to' HTML page and `Content-Security-Policy: default-src 'none'`, `X-Content-Type-Options: nosniff`.",
    fastify: '@fastify/static redirects with an empty body and neither header.',
    visibility: 'delta',
    fix: 'None needed: clients follow the Location header.',
    expressMajors: [4, 5],
    source: 'plugins stage (issue 18), probed with serve-static 1.16 / 2.2 and @fastify/static 10.1.11',
  },
  'static-forbidden-path': {
    id: 'static-forbidden-path',
    title: 'Non-canonical static file paths',
    express: 'serve-static serves `/static//a.txt` and `/static/./a.txt` (send normalizes the path).',
    fastify: '@fastify/static 10 answers 403 `FST_STATIC_FORBIDDEN_PATH` for a path with an empty or dot segment.',
    visibility: 'delta',
    fix: 'None: clients rarely send such paths; keep the mount on Express (`--parity express`) if one does.',
    expressMajors: [4, 5],
    source: 'plugins stage (issue 18), @fastify/static 10.1.11 index.js',
  },
  'static-range-unsatisfiable': {
    id: 'static-range-unsatisfiable',
    title: 'Unsatisfiable Range on a static file',
    express: 'serve-static answers 416 with `Content-Range: bytes */<size>` and the file\'s caching headers (Accept-Ranges, Cache-Control, Last-Modified, ETag).',
    fastify: '@fastify/static answers 416 without those headers (it sends @fastify/send\'s error, index.js, not its headers).',
    visibility: 'regression',
    fix: 'Keep the mount on Express (`--parity express`) if clients resume downloads and read Content-Range on a 416.',
    expressMajors: [4, 5],
    source: 'plugins stage (issue 18), @fastify/static 10.1.11 index.js',
  },
  'static-mount-case': {
    id: 'static-mount-case',
    title: 'Letter case in a static mount path',
    express: '`/ASSETS/a.txt` is served by `app.use(\'/assets\', express.static(…))` (mount paths match case-insensitively).',
    fastify: '@fastify/static compares its prefix with the URL case-sensitively: 404.',
    visibility: 'regression',
    fix: 'Keep the mount on Express (`--parity express`) if clients send the mount path in other cases.',
    expressMajors: [4, 5],
    source: 'plugins stage (issue 18), @fastify/static 10.1.11 index.js getPathnameForSend',
  },
  'trailing-slash': {
    id: 'trailing-slash',
    title: 'Trailing slash in the path',
    express: '`/items/` matches the route `/items` (non-strict routing).',
    fastify: '`/items/` is another path: 404.',
    visibility: 'regression',
    fix: "Create Fastify with `routerOptions: { ignoreTrailingSlash: true }` (the `shim` stage of `migrate run` sets it, unless the app enabled `strict routing`).",
    olderFixes: [
      { below: '5.5.0', fix: 'Create Fastify with `ignoreTrailingSlash: true` (a top-level option before `routerOptions` arrived in Fastify 5.5).' },
    ],
    expressMajors: [4, 5],
    source: '§0.1, §2.7',
  },
  'case-insensitive-routing': {
    id: 'case-insensitive-routing',
    title: 'Letter case in the path',
    express: '`/ITEMS` matches the route `/items` (case-insensitive routing).',
    fastify: 'Paths are case-sensitive: 404.',
    visibility: 'regression',
    fix: "Create Fastify with `routerOptions: { caseSensitive: false }` (the `shim` stage of `migrate run` sets it, unless the app enabled `case sensitive routing`).",
    olderFixes: [
      { below: '5.5.0', fix: 'Create Fastify with `caseSensitive: false` (a top-level option before `routerOptions` arrived in Fastify 5.5).' },
    ],
    expressMajors: [4, 5],
    source: '§0.1, §2.7',
  },
  'string-body-content-type': {
    id: 'string-body-content-type',
    title: 'Content type of string bodies',
    express: '`res.send(string)` is `text/html; charset=utf-8`.',
    fastify: '`reply.send(string)` is `text/plain; charset=utf-8`: browsers show the markup.',
    visibility: 'regression',
    fix: "Set the type explicitly: `reply.type('text/html; charset=utf-8').send(html)`.",
    expressMajors: [4, 5],
    source: '§2.4, §2.5',
  },
  'charset-dropped': {
    id: 'charset-dropped',
    title: 'Charset of explicitly typed bodies',
    express: '`res.type(\'html\')` or `res.set(\'Content-Type\', \'text/plain\')` gains `; charset=utf-8`.',
    fastify: '`reply.type(\'text/html\')` sends no charset: non-ASCII text can show as mojibake (fastify #3157).',
    visibility: 'regression',
    fix: "Include the charset: `reply.type('text/html; charset=utf-8')`.",
    expressMajors: [4, 5],
    source: '§2.4',
  },
  'empty-json-body': {
    id: 'empty-json-body',
    title: 'Empty body with a JSON content type',
    express: 'Parsed as `{}`; the route answers normally.',
    fastify: '400 `FST_ERR_CTP_EMPTY_JSON_BODY`.',
    visibility: 'regression',
    fix: "Replace the JSON parser with one that maps an empty body to `{}`: `app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => done(null, body === '' ? {} : JSON.parse(body)))`.",
    expressMajors: [4, 5],
    source: '§0.1, §2.10',
  },
  'head-routes': {
    id: 'head-routes',
    title: 'HEAD requests on GET routes',
    express: 'Answers HEAD with the GET route (headers, no body).',
    fastify: 'Fastify 3 answers 404 unless `exposeHeadRoutes` is on (the default from Fastify 4).',
    visibility: 'regression',
    fix: 'Keep `exposeHeadRoutes` on (the default); a route registered with `exposeHeadRoutes: false` loses its HEAD.',
    olderFixes: [{ below: '4.0.0', fix: 'Create Fastify with `exposeHeadRoutes: true`.' }],
    expressMajors: [4, 5],
    source: '§2.6',
  },
  'body-parser-errors': {
    id: 'body-parser-errors',
    title: 'Errors from body parsing',
    express: "body-parser's errors (`type: 'entity.parse.failed'`, `'entity.too.large'`, message \"request entity too large\") reach the app's error middleware.",
    fastify: "Fastify's own errors reach the error handler instead: `FST_ERR_CTP_INVALID_JSON_BODY`, `FST_ERR_CTP_BODY_TOO_LARGE`, `FST_ERR_CTP_EMPTY_JSON_BODY`, with other messages and only `statusCode` (no `status`).",
    visibility: 'regression',
    fix: "In `setErrorHandler`, test `err.code` (`FST_ERR_CTP_INVALID_JSON_BODY`, `FST_ERR_CTP_BODY_TOO_LARGE`, `FST_ERR_CTP_EMPTY_JSON_BODY`) next to `err.type` where the Express handler tested `err.type`, and read `err.status || err.statusCode`. The `errors` stage does this in the handler it moves (the first two codes, next to `entity.parse.failed` and `entity.too.large`; docs/stages/errors.md).",
    expressMajors: [4, 5],
    source: '§2.10, §2.12',
  },
  'unsupported-media-type': {
    id: 'unsupported-media-type',
    title: 'Bodies of unknown content types',
    express: 'Ignored: the route runs with an empty body.',
    fastify: '415 `FST_ERR_CTP_INVALID_MEDIA_TYPE`.',
    visibility: 'regression',
    fix: "Add a catch-all parser: `app.addContentTypeParser('*', (req, payload, done) => done(null, undefined))`.",
    expressMajors: [4, 5],
    source: '§0.1, §2.10',
  },
  'body-limit': {
    id: 'body-limit',
    title: 'Request body size limit',
    express: 'body-parser refuses bodies over 100 kb with 413.',
    fastify: 'Accepts bodies up to 1 MiB (`bodyLimit`).',
    visibility: 'regression',
    fix: 'Create Fastify with `bodyLimit` equal to the app’s limit (102400 bytes for the Express default).',
    expressMajors: [4, 5],
    source: '§0.1, §2.10',
  },
  'query-parser': {
    id: 'query-parser',
    title: 'Nested query strings',
    express: 'Express 4 parses `?a[b]=1` with qs into `{ a: { b: "1" } }`.',
    fastify: 'Parses flat: `{ "a[b]": "1" }`.',
    visibility: 'regression',
    fix: "Create Fastify with `routerOptions: { querystringParser: (s) => qs.parse(s, { allowPrototypes: true, arrayLimit: 1000 }) }`.",
    olderFixes: [
      { below: '5.5.0', fix: 'Create Fastify with `querystringParser: (s) => qs.parse(s, { allowPrototypes: true, arrayLimit: 1000 })` (top level before Fastify 5.5).' },
    ],
    expressMajors: [4],
    source: '§0.1, §2.9',
  },
  'async-rejection': {
    id: 'async-rejection',
    title: 'Rejections of promise-returning handlers',
    express: "Express 4 ignores the promise a handler returns: when it rejects, nothing answers — the request waits until a timeout, and Node reports an unhandled rejection (from Node 15 on, the process exits unless the app listens for `unhandledRejection`).",
    fastify: "Fastify awaits it and sends the rejection to the error handler: the app's own (moved by the `errors` stage), else Fastify's 500.",
    visibility: 'delta',
    fix: 'Nothing to restore: no client can depend on an answer that never came (Express 5 answers as Fastify does).',
    expressMajors: [4],
    source: '§2.12 (probe: TIMEOUT); Express 4.22 lib/router/layer.js `handle_request` (the return value is not read); Fastify 5 lib/wrap-thenable.js',
  },
  'max-param-length': {
    id: 'max-param-length',
    title: 'Long path parameters',
    express: 'No limit on a parameter’s length.',
    fastify: 'Parameters over 100 characters get 414 `FST_ERR_MAX_PARAM_LENGTH` (404 before 5.9).',
    visibility: 'regression',
    fix: 'Create Fastify with `routerOptions: { maxParamLength: <the longest value you accept> }`.',
    olderFixes: [
      { below: '5.5.0', fix: 'Create Fastify with `maxParamLength: <the longest value you accept>` (a top-level option before `routerOptions` arrived in Fastify 5.5).' },
    ],
    expressMajors: [4, 5],
    source: '§0.1, §2.7',
  },
} as const satisfies Record<string, FrameworkDefault>;

/**
 * The fix to print for `entry` when the candidate runs Fastify `version` (e.g. `3.14.0`); the
 * Fastify 5.5+ fix when the version is unknown (that is what the codemods write).
 */
export function fixFor(entry: FrameworkDefault, version: string | null): string {
  if (!version) return entry.fix;
  return entry.olderFixes?.find((f) => compareVersions(version, f.below) < 0)?.fix ?? entry.fix;
}

/** Compares dotted numeric versions (`5.4.1` < `5.5.0`); pre-release tags are ignored. */
function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).slice(0, 3).map((n) => Number.parseInt(n, 10) || 0));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** The id of a catalogued default difference. */
export type FrameworkDefaultId = keyof typeof FRAMEWORK_DEFAULTS;

/** Whether the framework default `id` can hold in an app of Express major `major` (its `expressMajors`; an unknown major: it may). */
export function appliesToMajor(id: FrameworkDefaultId, major: number | null): boolean {
  return major === null || FRAMEWORK_DEFAULTS[id].expressMajors.some((m) => m === major);
}
