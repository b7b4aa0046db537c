/**
 * Express middleware packages → their Fastify replacement, as data. One catalogue for the whole
 * tool (DESIGN.md "Layout", `rules/`): the rules name the replacement in their findings, the
 * `shim`/`plugins`/`schemas`/`unshim` codemods read the option translations, and the packages
 * they add come from `versions.ts` (every `fastify` and `requires` package of an entry is there).
 *
 * Source: shared/reference/express-fastify-mapping.md §3 (one row per package), with the
 * observable differences of §0.1, §1, §2 and the bridge notes of §4; entries the mapping has no
 * row for say so in `source` and cite what they were checked against (plugin source/README of
 * the version in `versions.ts`).
 *
 * Keys are npm package names, except Express's own middleware, keyed `express.json`,
 * `express.urlencoded`, `express.text`, `express.raw`, `express.static`; body-parser's parsers
 * (`bodyParser.json` …) resolve to those entries — see `middlewareFor`.
 */
import semver from 'semver';
import type { Stage } from '../../analyzer/model.js';

/**
 * How close a mechanical replacement gets (mapping §0 legend): `safe` (Y) keeps the HTTP
 * response identical modulo the global differences of §2; `needs-care` (P) needs a guard,
 * extra options or code a human checks; `no-equivalent` (N) needs restructuring by a human.
 */
export type Safety = 'safe' | 'needs-care' | 'no-equivalent';

/**
 * What replaces the middleware:
 * - `plugin`: an official Fastify plugin (`fastify` names the package);
 * - `core`: Fastify's own features — server options, built-in parsers, the logger, route
 *   `schema`, `setErrorHandler` (`fastify` is `core`);
 * - `hook`: a short hook (or handler code) the codemod writes with Fastify's hook API
 *   (`fastify` is `core`: no package needed);
 * - `remove`: the call goes away because Fastify already behaves that way (`fastify` is `core`);
 * - `none`: nothing mechanical (`fastify` is `none`, `stage` is `manual`, safety `no-equivalent`).
 */
export type MiddlewareKind = 'plugin' | 'core' | 'hook' | 'remove' | 'none';

/** One option of the Express middleware and where it goes on Fastify. */
export interface OptionTranslation {
  /** Option (or call form) on the Express side, e.g. `origin`, `limit`, `upload.single('f')`. */
  express: string;
  /** Its Fastify counterpart (option name or code); `null` when Fastify has none. */
  fastify: string | null;
  note?: string;
}

/** A package the replacement needs besides `fastify`; `when` names the option that makes it needed. */
export interface RequiredPackage {
  package: string;
  when?: string;
}

/**
 * A text that holds for some versions of the Express-side package only (the package the
 * middleware comes from: `helmet`, `compression`). Bounds are semver versions: `since` inclusive,
 * `below` exclusive. Against the app's version (installed, else its declared range — `^4.1.0`
 * must fall wholly inside the bounds; see `forVersion`) a bounded text holds, is excluded, or is
 * undecided (the range straddles a bound). `unknown: true` marks the text for an app whose version
 * is not known that precisely: nothing installed or declared, an unreadable range, or a range a
 * bounded sibling in the same list is undecided about; with bounds as well it also holds in them.
 */
export interface VersionedText {
  text: string;
  since?: string;
  below?: string;
  unknown?: true;
}

/**
 * What makes the newer major of a package that a root plugin runs (helmet 8 in @fastify/helmet 13)
 * answer as an older major the app has did, read by the plugin's option translator
 * (transforms/server-module/root-plugin-options.ts). `since` inclusive, `below` exclusive.
 */
export interface OlderMajor {
  since: string;
  below: string;
  /** Options given unless the app sets the same one (or its older name): the older major's defaults where the newer one's differ. */
  defaults: Readonly<Record<string, unknown>>;
  /**
   * The older major's default CSP directives (kebab-case) where they differ from the newer one's,
   * and whether it merged an app's `directives` into them without `useDefaults: true` (helmet 5.0.0
   * made that the default).
   */
  csp?: { directives: Readonly<Record<string, readonly string[]>>; mergedByDefault: boolean };
  /** Options of the newer major it did not read (their values were ignored): left out for the newer one. */
  ignores?: readonly string[];
  /**
   * It sent `Expect-CT`, which the newer major has no option for: by default (helmet 4 and 5:
   * `max-age=0` unless the app's `expectCt` option says otherwise), or only when the app's options
   * ask for it (helmet 6).
   */
  expectCt?: 'by-default' | 'when-given';
}

/** A caveat: a plain string holds for every version of the package. */
export type Caveat = string | VersionedText;

/** One catalogued middleware package (or Express built-in). */
export interface MiddlewareEntry {
  /** The key: npm package, or `express.<member>` for Express's built-in middleware. */
  package: string;
  /** The Fastify plugin package, `core` when Fastify does it itself (no package), `none` when nothing replaces it. */
  fastify: string;
  kind: MiddlewareKind;
  /** The replacement in one line, as a finding's "Fastify equivalent" prints it (for an app whose version no `replacementByVersion` text holds for). */
  replacement: string;
  /** Replacements for some versions of the package (each with `since` and/or `below`); the first that holds for the app's version is printed instead of `replacement`. */
  replacementByVersion?: readonly VersionedText[];
  /** Other packages the replacement needs (companion plugins, helpers); all are in `versions.ts`. */
  requires?: RequiredPackage[];
  /** How the options (and call forms) translate. */
  options: OptionTranslation[];
  /**
   * Behaviour differences a user must know (observable unless said otherwise), most important
   * first; version-dependent ones as `VersionedText` (a finding shows the first that holds for
   * the app's version of the package).
   */
  caveats: Caveat[];
  /**
   * Caveats of one member (`lusca.xframe`, `passport.authenticate`), most important first; a
   * finding about that member shows these instead of the package's general ones.
   */
  memberCaveats?: Record<string, Caveat[]>;
  /**
   * The stage whose codemod replaces it (`manual` when none can). Body parsers are `plugins`: the
   * `shim` keeps them in the Express app (its errors still reach the app's error middleware) and
   * gives Fastify routes the same parsers (docs/stages/shim.md "Bodies"), so Fastify's own parsing
   * takes over only once the routes have moved.
   */
  stage: Stage;
  safety: Safety;
  /** Section(s) of express-fastify-mapping.md (or the other source) the entry comes from. */
  source: string;
  /** The methods of the routes it matters for, when not all (method-override: the methods a form is overridden to). */
  affectsMethods?: readonly string[];
  /**
   * The middleware re-routes a request by changing `req.method` before the app's routes match
   * (method-override), read from its source (method-override 3.0.0 index.js): called without a
   * getter it reads the `defaultHeader` header (a getter string starting with `X-` names another
   * header; any other string is a query key, a function anything), only on requests whose method is
   * one of `defaultMethods` (the `methods` option), takes the header's first comma-separated value,
   * trimmed, and makes it the method, upper-cased, when it names a method Node knows (the `methods`
   * package: `http.METHODS`, compared lower-cased). Fastify routes before any middleware runs, so
   * the routes stage applies the header form in the generated module's request listener, before
   * Fastify routes (transforms/routes-move/method-override.ts).
   */
  overridesMethod?: { defaultHeader: string; defaultMethods: readonly string[] };
  /**
   * Routes the Fastify plugin registers itself, as `METHOD path`, `{prefix}` standing for the
   * middleware's mount path: an app route with the same method and path makes Fastify refuse to
   * boot (FST_ERR_DUPLICATED_ROUTE).
   */
  registersRoutes?: readonly string[];
  /**
   * The Fastify server option that replaces the middleware when the `plugins` stage moves it
   * (`logger: true` for morgan: Fastify logs each request and its completion with pino), with the
   * factory's arguments it takes over as they are: `format` when the first argument may be a
   * format string (which the option does not keep: the log lines change shape), nothing else.
   */
  serverOption?: { name: string; value: string; takes: readonly 'format'[] };
  /**
   * The official plugin the `plugins` stage registers at the root of the Fastify server in the
   * middleware's place, when the app ran it for every request (transforms/server-module/root-plugins.ts):
   * it sets response headers at `onRequest`, for every request, those the Express app answers too
   * (the Express hook puts the headers Fastify hooks set on Node's response first: plugins-bridge).
   * `local`: the name it is imported as; `defaults`: options whose default differs from the
   * middleware's, given the middleware's value when the app sets none (cors: @fastify/cors 11 index.js
   * `defaultOptions` against cors 2.8 lib/index.js `defaults`); `headers`: the response headers it
   * sets, lower case, which the verifier recognises on an answer Express gave before it ran
   * (framework default `plugin-headers-on-refused-bodies`).
   */
  rootPlugin?: {
    local: string;
    defaults: Readonly<Record<string, unknown>>;
    headers: readonly string[];
    /** It answers some requests itself, with no body (cors: every OPTIONS request, a preflight). */
    answers?: 'bodiless';
    /** Options that may be functions of the app, which the generated module reaches where they are written (transforms/server-module/app-functions.ts). */
    carries?: readonly string[];
    /** The plugin runs a newer major of the package than apps may have: what makes it answer as each older major did. */
    olderMajors?: readonly OlderMajor[];
  };
  /**
   * As app middleware it ends no request and changes nothing a later middleware's root plugin reads
   * (the method, the URL, the request headers), so registered before a middleware that moves to a
   * root plugin it does not keep that one on Express (root-plugins.ts); what it does to the answers
   * it does not make itself: `unchanged`, `body` (compresses a body: a bodiless answer is as it was),
   * `headers` (adds headers), `log` (writes a log line per request, the answer unchanged). Read from
   * each package's source.
   */
  passesEveryRequest?: 'unchanged' | 'body' | 'headers' | 'log';
  /** What a registration of the plugin after the app's first one needs (a second @fastify/static: `decorateReply: false`). */
  againInApp?: string;
  /** What keeps one instance shared by several routes shared on Fastify; `{name}` and `{routes}` are filled in. */
  sharedByRoutes?: string;
  /**
   * When the app never uses `<package>.<member>`, the replacement to print instead, and the move is
   * a decision for a human (passport without `passport.session()`: token-only authentication).
   */
  withoutMember?: { member: string; replacement: string };
  /**
   * As route middleware it only reads the request (params, query, body, headers), may replace
   * those, and calls `next()`/`next(err)`: the routes stage can run it unchanged as a preHandler
   * hook through its `expressMiddleware` adapter until the schemas or plugins stage replaces it.
   */
  readsRequestOnly?: true;
  /**
   * Functions of the package a route handler calls with Express's request (express-validator's
   * `validationResult(req)`, `check('email').isEmail().run(req)`): they read what the package's
   * middleware stored on that request, or run its validators on it. On a moved route the request
   * those middleware saw is Express's own, `request.raw` (they ran in the bridge, or through the
   * `expressMiddleware` adapter, which hands them `request.raw`): the handler rewrite passes that
   * (transforms/handler-rewrite/package-calls.ts). `calls`: exports called with the request as
   * their first argument; `runs`: the method (`run`) of the values some exports build, called with
   * the request; `readParams`: the exports whose chains read the route parameters (`req.params`),
   * which Express's request lacks on a route Fastify matched — on a route with parameters those refuse.
   */
  takesRequest?: { calls: readonly string[]; runs?: { method: string; exports: readonly string[]; readParams: readonly string[] } };
  /**
   * As route middleware it works on Express's own request and response, and on nothing Fastify
   * changes: it reads the request (Express's getters such as `req.ip`, what the app's middleware put
   * there such as `req.session`), sets properties on `req`, `res.locals` and response headers, and
   * either calls `next()`/`next(err)` or answers itself, once, through Express's response
   * (`res.redirect`, `res.status(…).send(…)`, `res.end`); it never replaces a response method for
   * the answer a later handler gives. `body-stream`: besides, it reads the request's body stream
   * (multer), which a moved route leaves unread for Express (the hooks module's `bodyLeftToExpress`).
   * After the bridge a moved route's `request.raw`/`reply.raw` are Express's own, so the routes stage
   * runs it unchanged through its `expressMiddleware` adapter, answering byte for byte as Express
   * did, until the plugins stage replaces it; each entry names the routes-move fixture that checks
   * it at run time against Express. A wider form of `readsRequestOnly` (see `runsThroughAdapter`).
   */
  worksOnExpress?: 'request-and-response' | 'body-stream';
  /**
   * As route middleware it may read `req.path` or `req.url` (lusca's `allowlist`/`blocklist`): in a
   * router mounted under a path Express gave it them relative to the mount path, while the
   * `expressMiddleware` adapter gives the whole URL, so a route there keeps it on Express.
   */
  readsRequestPath?: true;
  /**
   * As app or router middleware it replaces `req.query` on Express's request, or changes it in place
   * (xss-clean, hpp, express-mongo-sanitize). Fastify parsed its own `request.query` before the bridge
   * ran it, so where an app has it the routes stage hands Express's query to the moved routes'
   * `request.query` (a preHandler hook in movedRoutes), as their Express handlers read it.
   */
  replacesRequestQuery?: true;
  /**
   * As app or router middleware it keeps running in the bridge for every request until a later stage
   * replaces it, and what it does reaches a moved route as it reached the Express route: it changes
   * only request data a moved route reads as Express left it (`req.body` through `bodyLikeExpress`,
   * `req.query` through `replacesRequestQuery`; an app-level `req.params` is not the route's), and
   * never re-routes the request (`req.url`, `req.method`: method-override does) or replaces a response
   * method. So its finding (no Fastify equivalent) keeps no route on Express: it is for the human who
   * removes it before the unshim stage (route-blockers.ts `humanFindings`).
   */
  keptInBridge?: true;
  /**
   * Response methods it replaces on Express's response for the requests it runs for (express-flash's
   * `res.render` wrapper): a route whose handler calls one must not move while it does, since
   * Fastify's reply is not patched (rules/checks/res-method-reassign.ts).
   */
  replacesResponseMethods?: string[];
  /**
   * Error middleware that answers every error itself on Node's request and response (`res.statusCode`,
   * `res.setHeader`, `res.end`) and never calls `next`: the errors stage can run it unchanged as the
   * Fastify error handler on `request.raw`/`reply.raw` after `reply.hijack()`, which is what it did in
   * the Express app behind the bridge (server-module/build-fastify.ts `registerHandler`).
   */
  answersErrorsOnRaw?: true;
  /**
   * The package makes handler wrappers (`asyncHandler(fn)`, `co.wrap(fn)`): called with a function,
   * it returns an Express handler that runs it, and the analyzer takes that function as the
   * handler (analyzer/entry.ts; `Handler.wrappers`). The one table of such packages.
   */
  handlerWrapper?: HandlerWrapper;
}

/**
 * What a package's handler wrapper does, read from its source at the version named (issue 17):
 * - `forwards: 'always'`: it only calls the function with the request's arguments and hands a
 *   throw or a rejection to `next` (`Promise.resolve(fn(...args)).catch(next)`), which a Fastify
 *   route does itself (Fastify awaits the handler and sends a rejection to the error handler): the
 *   routes stage unwraps it;
 * - `forwards: 'promise'`: the same through `.catch` on what the function returns
 *   (`fn(req, res, next).catch(next)`): alike only for a function that returns a promise (an async
 *   one); Express hands a sync function's TypeError to next;
 * - `runs: 'generator'`: it runs a generator function (`function*`) as co does — each `yield`
 *   resolved, the generator resumed — and returns a promise of its end, handing a rejection to
 *   nobody (co.wrap). Called on Fastify with (request, reply), it is an ordinary function returning
 *   a promise, which Fastify awaits as an async handler's: the wrapper stays where it is and the
 *   generator is rewritten as the handler (Express 4 never saw a rejection: framework-defaults
 *   `async-rejection`). Given a function that is not a generator, the route stays;
 * - `does`: what it does beyond that, in words completing "which …" (the route stays, saying so).
 * `member`: only that member of the package wraps (`wrap` of co); absent: the package's export itself.
 */
export type HandlerWrapper = { member?: string; source: string } & ({ forwards: 'always' | 'promise' } | { runs: 'generator' } | { does: string });

/** The JSON parser's empty-body answer (framework-defaults `empty-json-body`), first for JSON parsers: generic clients send it on DELETE. */
const EMPTY_JSON_CAVEAT = 'Empty body with `Content-Type: application/json`: Express `{}`, Fastify 400 `FST_ERR_CTP_EMPTY_JSON_BODY` (framework-defaults `empty-json-body`).';

const BODY_CAVEATS = [
  'A body of an unparsed content type: Express ignores it, Fastify answers 415 `FST_ERR_CTP_INVALID_MEDIA_TYPE` (framework-defaults `unsupported-media-type`).',
  'No body: Express 4 `req.body` is `{}`, Express 5 and Fastify `undefined` — `if (!req.body)` checks flip.',
  'Parse errors reach the error handler as `FST_ERR_CTP_*` with only `statusCode`, not body-parser’s `type: \'entity.parse.failed\'`/`\'entity.too.large\'` (framework-defaults `body-parser-errors`).',
  'Never leave body-parser/express body parsers in the @fastify/express bridge next to Fastify routes: they drain the stream at onRequest and Fastify’s parser then waits forever (POSTs hang, §4.4).',
] as const;

/** helmet 4's default CSP directives (bare `helmet()` of helmet 4.6.0). */
const HELMET_4_CSP = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'block-all-mixed-content': [],
  'font-src': ["'self'", 'https:', 'data:'],
  'frame-ancestors': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", 'https:', "'unsafe-inline'"],
  'upgrade-insecure-requests': [],
} as const;

/** helmet 8's own names of options helmet 4 and 5 knew only by their older ones (`hsts`, `frameguard`, …), which those majors ignored (probed: each set to false). */
const HELMET_8_NAMES = ['strictTransportSecurity', 'xContentTypeOptions', 'xDnsPrefetchControl', 'xDownloadOptions', 'xFrameOptions', 'xPermittedCrossDomainPolicies', 'xXssProtection', 'xPoweredBy'] as const;

/** Every catalogued middleware package, keyed by package (or `express.<member>`). */
export const MIDDLEWARE = {
  'body-parser': {
    package: 'body-parser',
    fastify: 'core',
    kind: 'core',
    replacement: 'Fastify’s built-in JSON parser and `@fastify/formbody` (bare `bodyParser()` is json + urlencoded).',
    requires: [{ package: '@fastify/formbody' }],
    options: [
      { express: 'bodyParser()', fastify: 'built-in JSON parser + @fastify/formbody', note: 'The deprecated combined form of body-parser 1.x (removed in 2.x).' },
      { express: 'bodyParser.json/urlencoded/text/raw(…)', fastify: null, note: 'See the `express.json`, `express.urlencoded`, `express.text`, `express.raw` entries (same code: Express re-exports body-parser).' },
    ],
    caveats: [EMPTY_JSON_CAVEAT, ...BODY_CAVEATS],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3 (body-parser rows), §2.10, §4.4',
  },
  'express.json': {
    package: 'express.json',
    fastify: 'core',
    kind: 'core',
    replacement: 'The `plugins` stage writes Fastify content-type parsers translated from the app’s options (`parseBodiesLikeExpress`: body-parser’s types, limit, strictness, inflation, charsets and errors) for the moved routes that run no Express code. By hand: Fastify’s built-in JSON parser, with the app’s limit as that parser’s `bodyLimit` (not server-wide: urlencoded bodies keep their own limit).',
    options: [
      { express: 'limit', fastify: 'bodyLimit', note: 'Bytes, server-wide or per route; Express default 100 kb (102400), Fastify 1 MiB.' },
      { express: 'type', fastify: "addContentTypeParser(type, { parseAs: 'string' }, fastify.getDefaultJsonParser('error', 'error'))", note: 'Also for `application/vnd.api+json` and other +json types the app accepted.' },
      { express: 'strict', fastify: null, note: '`strict: false` is Fastify’s behaviour; Express’s default `strict: true` (400 for `"str"`, `5`) needs a custom parser.' },
      { express: 'reviver', fastify: 'custom parser (`parseAs: \'string\'`, JSON.parse with the reviver)' },
      { express: 'verify', fastify: "custom parser with `parseAs: 'buffer'`", note: 'Keeps the raw bytes for webhook signatures.' },
      { express: 'inflate', fastify: '@fastify/compress request decompression or a preParsing hook', note: 'body-parser inflates gzip/deflate (and br in 2.x) by default; Fastify does not.' },
    ],
    caveats: [
      EMPTY_JSON_CAVEAT,
      ...BODY_CAVEATS,
      'Non-object JSON (`"str"`, `5`) is accepted by Fastify; Express (strict) answers 400.',
      'Bodies between 100 kb and 1 MiB: Express 413, Fastify 200 unless `bodyLimit` is set (framework-defaults `body-limit`).',
      'JSON with `__proto__`/`constructor` keys: Fastify 400 (`onProtoPoisoning: \'error\'`).',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §2.10, §0.1, §4.4',
  },
  'express.urlencoded': {
    package: 'express.urlencoded',
    fastify: '@fastify/formbody',
    kind: 'plugin',
    replacement: 'The `plugins` stage writes a Fastify content-type parser with body-parser’s own `querystring`/`qs` call for the app’s version (`parseBodiesLikeExpress`, `parameterLimit` and its 413 kept) for the moved routes that run no Express code. By hand: `@fastify/formbody`, with a `qs` parser when the app used `extended: true`.',
    requires: [{ package: 'qs', when: 'extended: true (Express 4 default)' }],
    options: [
      { express: 'extended: true', fastify: 'parser: (s) => qs.parse(s, { allowPrototypes: true, depth: 32, strictDepth: true, arrayLimit: 100, parameterLimit: 1000 })', note: 'body-parser’s own qs call; Express 4 defaults to extended, Express 5 to `extended: false`.' },
      { express: 'extended: false', fastify: 'default parser (fast-querystring)', note: 'Flat keys, string values.' },
      { express: 'limit', fastify: 'bodyLimit', note: 'Plugin option or server/route `bodyLimit`; Express default 100 kb.' },
      { express: 'parameterLimit', fastify: 'qs `parameterLimit` in the custom parser', note: 'fast-querystring has no cap: body-parser’s 413 "too many parameters" disappears.' },
      { express: 'type', fastify: "addContentTypeParser(type, { parseAs: 'string' }, parser)", note: '@fastify/formbody only handles application/x-www-form-urlencoded.' },
    ],
    caveats: [
      ...BODY_CAVEATS,
      'Without `qs`: `a[b]=1` → `{ "a[b]": "1" }` where Express 4 gave `{ a: { b: "1" } }`.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §2.10',
  },
  'express.text': {
    package: 'express.text',
    fastify: 'core',
    kind: 'core',
    replacement: 'Fastify’s built-in text/plain parser; other types with `addContentTypeParser(type, { parseAs: \'string\' }, fastify.defaultTextParser)`.',
    options: [
      { express: 'type', fastify: "addContentTypeParser(type, { parseAs: 'string' }, fastify.defaultTextParser)", note: 'Only for types other than text/plain.' },
      { express: 'limit', fastify: 'bodyLimit' },
      { express: 'defaultCharset', fastify: null, note: 'Fastify decodes as UTF-8.' },
    ],
    caveats: [
      ...BODY_CAVEATS,
      'Fastify parses text/plain to a string even in apps that never used express.text (their `req.body` was `{}`/`undefined`); the shim’s catch-all parser runs only the app’s own parsers, so such bodies stay unparsed; removing Fastify’s text parser without a catch-all would turn text/plain bodies into 415.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §0.1, §2.10',
  },
  'express.raw': {
    package: 'express.raw',
    fastify: 'core',
    kind: 'core',
    replacement: "`fastify.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (req, body, done) => done(null, body))`.",
    options: [
      { express: 'type', fastify: 'the content type passed to addContentTypeParser', note: "`'*/*'` → `addContentTypeParser('*', …)`." },
      { express: 'limit', fastify: 'bodyLimit' },
      { express: 'inflate', fastify: '@fastify/compress request decompression or a preParsing hook' },
    ],
    caveats: [...BODY_CAVEATS, 'Without the parser, application/octet-stream bodies get 415.'],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §2.10',
  },
  'express.static': {
    package: 'express.static',
    fastify: '@fastify/static',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyStatic, { root, prefix: '<mount path, no trailing slash>', dotfiles: 'ignore', redirect: true })`.",
    options: [
      { express: 'root (first argument)', fastify: 'root', note: 'Absolute path.' },
      { express: 'mount path (app.use(\'/p\', …))', fastify: "prefix: '/p'", note: "Without the trailing slash: @fastify/static registers the `/p` → `/p/` redirect only then (index.js); with '/p/' a request to /p falls through to other routes." },
      { express: 'maxAge, immutable, etag, lastModified, index, extensions', fastify: 'same names', note: 'Passed to @fastify/send.' },
      { express: 'dotfiles', fastify: 'dotfiles', note: 'Always emit it: @fastify/static defaults to `allow`, serve-static to `ignore` (404).' },
      { express: 'redirect', fastify: 'redirect', note: 'serve-static defaults to true (301 `/dir` → `/dir/`), @fastify/static to false; `redirect: true` is refused with `wildcard: false` under `ignoreTrailingSlash`.' },
      { express: 'setHeaders(res, path, stat)', fastify: 'setHeaders(reply, path, stat)', note: 'Receives the Fastify reply; synchronous.' },
      { express: 'fallthrough', fastify: null, note: 'A missing file goes to the app’s 404 handler (JSON by default).' },
      { express: 'several dirs on one prefix', fastify: 'root: [a, b]' },
      { express: 'a second mount', fastify: 'decorateReply: false' },
    ],
    caveats: [
      'dotfiles: `/.env` in the root is served (200) unless `dotfiles: \'ignore\'` is set; Express 404 (§2.13).',
      '`/dir` with an index: serve-static 301 to `/dir/`, @fastify/static answers 200 with the index unless `redirect: true` (§2.13).',
      'Registers a wildcard route `/prefix/*` that collides with an app-level `GET /*` SPA catch-all (use `setNotFoundHandler` + `reply.sendFile(\'index.html\')`, or `wildcard: false`).',
      'Register @fastify/compress before it, or static files are sent uncompressed.',
      'Charset casing: Express 4 `charset=UTF-8`, Express 5 and @fastify/static `charset=utf-8`; Express 4 serves .js as application/javascript, Express 5 and @fastify/static as text/javascript.',
      'Inside the bridge, express.static writes to the raw response: cookies set by Fastify hooks are lost on those responses (§4.3).',
      // Probed (express 4.22.3, @fastify/static 10.1.11, fastify 5.12.8 with the shim's router options).
      "Under `ignoreTrailingSlash` with `redirect: true`, @fastify/static's own route for the prefix (`/p`) also answers `/p/` and redirects it to itself (a loop); with `prefix: '/p/'` a request for `/p/` is routed as `/p`, outside `/p/*`, so an index at the folder's root is not served.",
      'A path with an empty or dot segment (`/p//a.txt`) answers 403 FST_STATIC_FORBIDDEN_PATH (@fastify/static 10 refuses non-canonical paths); serve-static served the file.',
      'Express 4 without `dotfiles` serves files inside dot-folders (`.well-known/x.txt`: send 0.19 ignores only a last segment starting with a dot); `dotfiles: \'ignore\'` in @fastify/send ignores any dot segment.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §2.4, §2.13, §4.3',
    // @fastify/static registers `GET`/`HEAD` on `prefix + '*'` unless `wildcard: false` (index.js).
    registersRoutes: ['GET {prefix}/*', 'HEAD {prefix}/*'],
    // @fastify/static decorates `reply.sendFile`; a second registration fails with FST_ERR_DEC_ALREADY_PRESENT unless it opts out (README).
    againInApp: 'This app registers @fastify/static more than once: this one needs `decorateReply: false`.',
  },
  'serve-static': {
    package: 'serve-static',
    fastify: '@fastify/static',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyStatic, { root, prefix: '<mount path, no trailing slash>', dotfiles: 'ignore', redirect: true })` (same as `express.static`).",
    options: [
      { express: 'root (first argument)', fastify: 'root' },
      { express: 'mount path', fastify: "prefix: '/p/'" },
      { express: 'maxAge, immutable, etag, lastModified, index, extensions', fastify: 'same names' },
      { express: 'dotfiles', fastify: 'dotfiles', note: 'Always emit it (`ignore` is serve-static’s default, `allow` is @fastify/static’s).' },
      { express: 'redirect', fastify: 'redirect', note: 'Defaults differ: true vs false.' },
      { express: 'setHeaders(res, path, stat)', fastify: 'setHeaders(reply, path, stat)' },
      { express: 'fallthrough', fastify: null, note: 'Missing files reach the app’s 404 handler.' },
    ],
    caveats: [
      'Same differences as `express.static` (serve-static is its implementation): dotfiles served by default, no directory redirect by default, wildcard route collides with SPA catch-alls.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3 (express.static / serve-static row), §2.13',
    // @fastify/static registers `GET`/`HEAD` on `prefix + '*'` unless `wildcard: false` (index.js).
    registersRoutes: ['GET {prefix}/*', 'HEAD {prefix}/*'],
    // @fastify/static decorates `reply.sendFile`; a second registration fails with FST_ERR_DEC_ALREADY_PRESENT unless it opts out (README).
    againInApp: 'This app registers @fastify/static more than once: this one needs `decorateReply: false`.',
  },
  cors: {
    package: 'cors',
    fastify: '@fastify/cors',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyCors, { …same options, methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false })`.",
    options: [
      { express: 'origin, allowedHeaders, exposedHeaders, credentials, maxAge, preflightContinue, optionsSuccessStatus', fastify: 'same names' },
      { express: 'methods', fastify: 'methods', note: 'Emit it: @fastify/cors defaults to `GET,HEAD,POST` (since v11), cors to `GET,HEAD,PUT,PATCH,POST,DELETE`.' },
      { express: 'per-route cors()', fastify: 'route `config.cors`' },
      { express: '(none)', fastify: 'strictPreflight: false', note: 'Keeps cors’ 204 for preflights without Origin/Access-Control-Request-Method (Fastify default: 400).' },
    ],
    caveats: [
      'Preflight `Access-Control-Allow-Methods` differs unless `methods` is emitted; arrays are joined with ", " (cors: ",").',
      '`strictPreflight` (default true) answers 400 "Invalid Preflight Request" to incomplete preflights; cors answers 204.',
      'Adds `Vary: Origin` for non-string origins; runs at onRequest, so 404s get CORS headers too.',
      'Registers an `OPTIONS *` route: every OPTIONS gets 204 (Express answered 200 + Allow on routed paths).',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §2.6',
    // @fastify/cors index.js: `fastify.options('*', …)` answers preflight requests (unless `preflight: false`).
    // Inside a prefixed plugin the route is `<prefix>/*`: cors mounted at /api does not clash with a root OPTIONS * (probed on Fastify 5.12).
    registersRoutes: ['OPTIONS {prefix}/*'],
    // cors answers every OPTIONS itself (a preflight without Origin too): @fastify/cors does so with
    // strictPreflight false; its methods default is 'GET,HEAD,POST' where cors's is all six.
    rootPlugin: {
      local: 'fastifyCors',
      defaults: { methods: 'GET,HEAD,PUT,PATCH,POST,DELETE', strictPreflight: false },
      headers: ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers', 'vary'],
      answers: 'bodiless',
      // cors 2.8: `origin(requestOrigin, callback)`; @fastify/cors 11 calls a function origin the same way.
      carries: ['origin'],
    },
  },
  helmet: {
    package: 'helmet',
    fastify: '@fastify/helmet',
    kind: 'plugin',
    replacement: '`fastify.register(fastifyHelmet, sameOptions)`.',
    options: [
      { express: 'the helmet options object', fastify: 'same object', note: '@fastify/helmet wraps helmet 8.' },
      { express: 'per-route helmet', fastify: 'route option `helmet`' },
      { express: 'CSP nonces (res.locals.cspNonce)', fastify: 'enableCSPNonces: true → reply.cspNonce' },
    ],
    // @fastify/helmet 13 depends on helmet ^8.0.0 (`npm view @fastify/helmet@13.2.0 dependencies`),
    // so the headers are helmet 8's. The per-major differences come from running bare `helmet()`
    // of helmet 3.23.3, 4.6.0, 5.1.1, 6.0.1, 7.2.0 and 8.3.0 (node_modules of the example apps and
    // `npm pack`) and comparing the headers set, and from helmet's CHANGELOG.md (8.3.0 package):
    // 4.0.0 default CSP and `X-XSS-Protection: 0`; 5.0.0 CSP `useDefaults: true` (the app's
    // `directives` merge into the defaults instead of replacing them: checked on 4.6.0 and
    // 5.1.1), `form-action`, COEP/COOP/CORP/Origin-Agent-Cluster on; 6.0.0 no
    // `block-all-mixed-content`, no Expect-CT; 7.0.0 COEP off; 7.2.0 warns and 8.0.0 throws on an
    // unquoted CSP keyword (`self`), 8.0.0 HSTS max-age 365 days (was 180).
    caveats: [
      { text: 'Header values are helmet 8’s defaults: an app pinned to an older helmet major sees different CSP, COOP and X-XSS-Protection values.', unknown: true },
      { below: '4.0.0', text: '@fastify/helmet runs helmet 8, whose defaults are not helmet 3’s: a Content-Security-Policy appears (`default-src \'self\'`, `script-src \'self\'`, `script-src-attr \'none\'` …, which blocks inline and third-party scripts the pages used), `X-XSS-Protection` goes from `1; mode=block` to `0`, HSTS max-age from 15552000 to 31536000, and Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy (`same-origin`), `Origin-Agent-Cluster: ?1`, `Referrer-Policy: no-referrer` and `X-Permitted-Cross-Domain-Policies: none` are added; pass `contentSecurityPolicy: false` and the old values to keep the old headers.' },
      { since: '4.0.0', below: '5.0.0', text: '@fastify/helmet runs helmet 8, whose defaults are not helmet 4’s: the CSP gains `form-action \'self\'` and loses `block-all-mixed-content`, and `contentSecurityPolicy.directives` the app passes are merged into the defaults instead of replacing them (`useDefaults: false` keeps helmet 4’s behaviour); Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy (`same-origin`) and `Origin-Agent-Cluster: ?1` are added, `Expect-CT: max-age=0` is gone and HSTS max-age goes from 15552000 to 31536000.' },
      { since: '5.0.0', below: '6.0.0', text: '@fastify/helmet runs helmet 8, whose defaults are not helmet 5’s: the CSP loses `block-all-mixed-content`, `Cross-Origin-Embedder-Policy: require-corp` and `Expect-CT: max-age=0` are gone, and HSTS max-age goes from 15552000 to 31536000.' },
      { since: '6.0.0', below: '7.0.0', text: '@fastify/helmet runs helmet 8, whose defaults are not helmet 6’s: `Cross-Origin-Embedder-Policy: require-corp` is gone (pages lose cross-origin isolation unless `crossOriginEmbedderPolicy: true` is passed) and HSTS max-age goes from 15552000 to 31536000.' },
      { since: '7.0.0', below: '8.0.0', text: '@fastify/helmet runs helmet 8: HSTS max-age goes from 15552000 to 31536000 (180 to 365 days), and an unquoted CSP keyword (`self` for `\'self\'`), which helmet 7.2 only warned about, throws when the plugin registers.' },
      { below: '7.0.0', text: 'An unquoted CSP keyword in the app’s directives (`self` for `\'self\'`) throws when @fastify/helmet (helmet 8) registers; helmet before 7.2 accepted it.' },
      { below: '4.0.0', text: 'helmet 3 options that helmet 8 no longer has (`noCache`, `hpkp`, `featurePolicy`, `expectCt`) are ignored without an error: their headers stop.' },
      'Runs at onRequest, so 404s and errors carry the headers too.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3',
    // helmet 8 index.js: every header is set on Node's response (@fastify/helmet calls it on reply.raw), and X-Powered-By removed.
    rootPlugin: {
      local: 'fastifyHelmet',
      defaults: {},
      headers: [
        'content-security-policy',
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
        'origin-agent-cluster',
        'referrer-policy',
        'strict-transport-security',
        'x-content-type-options',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-frame-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
        'cross-origin-embedder-policy',
        'expect-ct',
      ],
      // Each major's bare `helmet()` against helmet 8.1's (headers of 4.6.0, 5.1.1, 6.2.0, 7.2.0, the
      // test's devDependencies), and CHANGELOG.md: 5.0.0 `useDefaults: true`, COEP/COOP/CORP/
      // Origin-Agent-Cluster; 6.0.0 no block-all-mixed-content, no Expect-CT; 7.0.0 COEP off; 8.0.0
      // HSTS 365 days. Legacy option names (`hsts`, `frameguard`, …) are still read by helmet 8.
      olderMajors: [
        {
          since: '4.0.0',
          below: '5.0.0',
          defaults: { crossOriginOpenerPolicy: false, crossOriginResourcePolicy: false, originAgentCluster: false, strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true } },
          csp: {
            directives: HELMET_4_CSP,
            mergedByDefault: false,
          },
          ignores: HELMET_8_NAMES,
          expectCt: 'by-default',
        },
        {
          since: '5.0.0',
          below: '6.0.0',
          defaults: { crossOriginEmbedderPolicy: true, strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true } },
          csp: {
            directives: { ...HELMET_4_CSP, 'form-action': ["'self'"] },
            mergedByDefault: true,
          },
          ignores: HELMET_8_NAMES,
          expectCt: 'by-default',
        },
        { since: '6.0.0', below: '7.0.0', defaults: { crossOriginEmbedderPolicy: true, strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true } }, expectCt: 'when-given' },
        { since: '7.0.0', below: '8.0.0', defaults: { strictTransportSecurity: { maxAge: 15552000, includeSubDomains: true } } },
      ],
    },
    passesEveryRequest: 'headers',
  },
  compression: {
    package: 'compression',
    fastify: '@fastify/compress',
    kind: 'plugin',
    replacement: '`fastify.register(fastifyCompress, { threshold, encodings: [\'gzip\', \'deflate\'] })`, registered before static/view plugins.',
    // Which encodings each side sends (checked in the sources):
    // - compression 1.7.4 and 1.7.5 index.js negotiate `['gzip', 'deflate', 'identity']` only,
    //   gzip preferred; 1.8.0 (HISTORY.md "add brotli support", 2025-02-10; index.js of 1.8.0 and
    //   1.8.2) negotiates `['br', 'gzip', 'deflate', 'identity']` preferring br then gzip
    //   (negotiator 0.6.4 `preferred`), so a browser's `gzip, deflate, br, zstd` gets br, and
    //   `Accept-Encoding: *` gets br too.
    // - @fastify/compress 9.2.0 index.js: `['br', 'gzip', 'deflate', 'identity']`, with `zstd`
    //   put first when `zlib.createZstdCompress` exists (Node 22.15+/23.8+); the client's q-values
    //   decide, ties go to the first in that list (@fastify/accept-negotiator 2.x); `*` and
    //   `x-gzip` are read as gzip; `encodings` filters and orders the list. README: "the first
    //   acceptable token in this order: zstd, br, gzip, deflate".
    replacementByVersion: [
      { below: '1.8.0', text: '`fastify.register(fastifyCompress, { threshold, encodings: [\'gzip\', \'deflate\'] })`, registered before static/view plugins: compression before 1.8.0 never sends br.' },
      { since: '1.8.0', text: '`fastify.register(fastifyCompress, { threshold, encodings: [\'br\', \'gzip\', \'deflate\'] })`, registered before static/view plugins: the order compression 1.8+ prefers (br, then gzip); the list only keeps out zstd, which @fastify/compress would put first on Node 22.15+.' },
    ],
    options: [
      { express: 'threshold', fastify: 'threshold', note: '1024 bytes by default in both.' },
      { express: 'filter', fastify: 'customTypes / route `compress: false`' },
      { express: 'level, memLevel, strategy, windowBits', fastify: 'zlibOptions' },
      { express: 'brotli', fastify: 'brotliOptions' },
      { express: 'enforceEncoding', fastify: null, note: 'compression 1.8+ compresses the answers to requests without Accept-Encoding with this encoding; @fastify/compress leaves those uncompressed.' },
    ],
    caveats: [
      { unknown: true, text: 'Unrestricted it prefers br (zstd first on Node 22.15+) over gzip, so `Content-Encoding` differs from compression before 1.8.0 (gzip or deflate only): the replacement restricts `encodings` to what such a `compression` sends; compression 1.8+ prefers br as well, so there list `[\'br\', \'gzip\', \'deflate\']` instead (the verifier compares decoded bodies anyway).' },
      { below: '1.8.0', text: 'compression before 1.8.0 sends gzip or deflate, never br; unrestricted, @fastify/compress prefers br (zstd first on Node 22.15+), so `Content-Encoding` would differ: the replacement restricts `encodings` to `[\'gzip\', \'deflate\']` (the verifier compares decoded bodies anyway).' },
      { since: '1.8.0', text: 'compression 1.8+ prefers br, then gzip, like @fastify/compress: keep br first — restricting `encodings` to gzip/deflate would change `Content-Encoding` for every browser. Only zstd (which @fastify/compress offers first on Node 22.15+, compression never) is left out by the replacement’s list; `Accept-Encoding: *` still gets gzip instead of br (the verifier compares decoded bodies anyway).' },
      'Also decompresses request bodies by default (Express apps never did without body-parser’s inflate).',
      'Adds `Vary: accept-encoding`.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §2.13',
    // compression 1.7/1.8 index.js: wraps res.write/end/writeHead and calls next(); answers nothing;
    // an answer without a compressible Content-Type (a bodiless 204) is left as it is, Vary included.
    passesEveryRequest: 'body',
  },
  'cookie-parser': {
    package: 'cookie-parser',
    fastify: '@fastify/cookie',
    kind: 'plugin',
    replacement: '`fastify.register(fastifyCookie, { secret })`; `req.cookies` → `request.cookies`.',
    options: [
      { express: 'secret (string or array)', fastify: 'secret', note: 'String, array (rotation) or custom signer.' },
      { express: 'decode', fastify: 'parseOptions.decode' },
    ],
    caveats: [
      'No `req.signedCookies`: read with `request.unsignCookie(request.cookies[name])`; Express-signed values carry an `s:` prefix to strip first (§1.3).',
      '`j:{…}` JSON cookies are not decoded into objects.',
      '`reply.setCookie` defaults differ from `res.cookie` (SameSite=Lax, no Path, maxAge in seconds — see the `res.cookie` API entry).',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §1.3, §1.4',
    // cookie-parser 1.4 index.js: sets req.cookies/req.signedCookies and calls next().
    passesEveryRequest: 'unchanged',
  },
  'express-session': {
    package: 'express-session',
    fastify: '@fastify/session',
    kind: 'plugin',
    replacement: "`fastify.register(fastifySession, { secret, cookieName: 'connect.sid', cookiePrefix: 's:', rolling: false, cookie: { secure: 'auto' } })` after @fastify/cookie.",
    requires: [{ package: '@fastify/cookie' }],
    options: [
      { express: 'secret', fastify: 'secret', note: 'At least 32 characters, or an array.' },
      { express: 'name', fastify: 'cookieName', note: 'Default `sessionId` vs `connect.sid`: emit `connect.sid` (+ `cookiePrefix: \'s:\'`) to keep existing sessions valid.' },
      { express: 'cookie.maxAge', fastify: 'cookie.maxAge', note: 'Milliseconds in both.' },
      { express: 'cookie.secure', fastify: 'cookie.secure', note: 'Default true on Fastify — emit the app’s value (or `\'auto\'`).' },
      { express: 'rolling', fastify: 'rolling', note: 'Default true on Fastify, false in express-session: emit it.' },
      { express: 'saveUninitialized', fastify: 'saveUninitialized', note: 'True in both.' },
      { express: 'resave', fastify: null, note: 'Not supported.' },
      { express: 'store', fastify: 'store', note: 'express-session stores (connect-redis, connect-mongo) work unchanged.' },
      { express: 'genid', fastify: 'idGenerator' },
    ],
    caveats: [
      '`cookie.secure` defaults to true and the plugin then sets no cookie at all over plain HTTP: logins silently fail in http test rigs.',
      '`request.session.destroy()`/`regenerate()` return promises (callbacks optional).',
      'A store built on express-session’s `Store` needs express-session to stay installed.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §5 #10; @fastify/session 11.1.3 index.js (defaults)',
  },
  'connect-redis': {
    package: 'connect-redis',
    fastify: '@fastify/session',
    kind: 'plugin',
    replacement: 'The same store instance as `store:` of @fastify/session.',
    requires: [{ package: '@fastify/cookie' }],
    options: [{ express: 'constructor options', fastify: 'unchanged' }],
    caveats: ['Subclasses express-session’s `Store`: express-session must stay a dependency after `unshim`.'],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3 (connect-mongo / connect-redis row)',
  },
  'connect-mongo': {
    package: 'connect-mongo',
    fastify: '@fastify/session',
    kind: 'plugin',
    replacement: 'The same store instance as `store:` of @fastify/session.',
    requires: [{ package: '@fastify/cookie' }],
    options: [{ express: 'constructor options', fastify: 'unchanged' }],
    caveats: ['Subclasses express-session’s `Store`: express-session must stay a dependency after `unshim`.'],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3 (connect-mongo / connect-redis row)',
  },
  'cookie-session': {
    package: 'cookie-session',
    fastify: '@fastify/secure-session',
    kind: 'plugin',
    replacement: "`fastify.register(fastifySecureSession, { cookieName: 'session', secret, salt, expiry, cookie: { path: '/', httpOnly: true } })`.",
    options: [
      { express: 'name', fastify: 'cookieName', note: 'Both default to `session`.' },
      { express: 'keys / secret', fastify: 'key (32-byte sodium key, array for rotation) or secret (≥ 32 bytes) + salt', note: 'Different crypto: existing cookies are not readable.' },
      { express: 'maxAge (ms)', fastify: 'expiry (seconds) and cookie.maxAge (seconds)', note: 'secure-session defaults to 86401 s.' },
      { express: 'path, domain, secure, httpOnly, sameSite, signed', fastify: 'cookie.{path, domain, secure, httpOnly, sameSite}', note: 'No separate `.sig` cookie: the value is encrypted and authenticated.' },
    ],
    caveats: [
      'Sessions are encrypted (libsodium secretbox), not signed base64 JSON: every existing session is dropped at the switch and the cookie value/length differ.',
      'cookie-session writes two cookies (`session` and `session.sig`), secure-session one.',
      '`req.session = null` (logout) → `request.session.delete()`; property access works, but `changed`/`deleted` are reserved names (use `get`/`set`).',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: 'Not in mapping §3; @fastify/secure-session 8.4.0 README and index.js (defaults)',
  },
  'connect-flash': {
    package: 'connect-flash',
    fastify: '@fastify/flash',
    kind: 'plugin',
    replacement: '`fastify.register(fastifyFlash)` after the session plugin; `req.flash(type, msg)` → `request.flash(type, msg)`, reads → `reply.flash(type)`.',
    requires: [{ package: '@fastify/session', when: 'the app used express-session' }, { package: '@fastify/secure-session', when: 'the app used cookie-session' }],
    options: [
      { express: 'req.flash(type, msg)', fastify: 'request.flash(type, msg)' },
      { express: 'req.flash(type) (read)', fastify: 'reply.flash(type)' },
    ],
    caveats: ['The API is split between request (write) and reply (read): every read site changes.'],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3',
  },
  'express-flash': {
    package: 'express-flash',
    fastify: '@fastify/flash',
    kind: 'plugin',
    replacement: '`fastify.register(fastifyFlash)` after the session plugin, plus a hook putting `reply.flash()` into the view context (`reply.locals.messages`) where express-flash wrapped `res.render`.',
    requires: [{ package: '@fastify/session', when: 'the app used express-session' }],
    options: [
      { express: 'req.flash(type, msg)', fastify: 'request.flash(type, msg)' },
      { express: 'res.locals.messages in views', fastify: 'reply.locals.messages set from reply.flash() in a preHandler hook' },
    ],
    caveats: ['express-flash is connect-flash plus a `res.render` wrapper that adds `messages` to every view: views read `messages` only if a hook puts it into `reply.locals` before `reply.view`.'],
    replacesResponseMethods: ['res.render'],
    stage: 'plugins',
    safety: 'needs-care',
    source: 'express-flash README; express-fastify-mapping.md §3 (connect-flash row)',
  },
  morgan: {
    package: 'morgan',
    fastify: 'core',
    kind: 'core',
    replacement: 'Fastify’s pino logger (`logger: true`), or an `onResponse` hook logging `reply.elapsedTime` in the old format.',
    options: [
      { express: "format ('dev', 'combined', custom)", fastify: 'a custom `onResponse` log line', note: 'pino logs JSON request/response lines by default.' },
      { express: 'skip', fastify: 'logController / disableRequestLogging' },
      { express: 'stream', fastify: 'logger.stream (or loggerInstance)', note: 'v5: a custom logger instance goes in `loggerInstance`.' },
    ],
    caveats: ['Not HTTP-observable; the log lines change shape (tools parsing them must follow).'],
    stage: 'plugins',
    safety: 'safe',
    source: '§3, §5 #20',
    // Fastify 5 `logger: true`: pino JSON to stdout at level info, an 'incoming request' and a
    // 'request completed' line (with responseTime) per request (fastify docs Reference/Logging).
    serverOption: { name: 'logger', value: 'true', takes: ['format'] },
    // morgan 1.10 index.js: logs and calls next(); `immediate` or not, it answers nothing.
    passesEveryRequest: 'log',
  },
  multer: {
    package: 'multer',
    fastify: '@fastify/multipart',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyMultipart, { limits })`; `upload.single('f')` → `await request.file()`.",
    options: [
      { express: 'limits', fastify: 'limits', note: 'busboy names in both; always emit `fileSize`.' },
      { express: "upload.single('f')", fastify: 'await request.file()' },
      { express: 'upload.array / upload.fields / upload.any', fastify: 'request.parts() or request.saveRequestFiles()' },
      { express: 'dest / diskStorage', fastify: 'request.saveRequestFiles()' },
      { express: 'text fields into req.body', fastify: "attachFieldsToBody: 'keyValues'" },
      { express: 'fileFilter', fastify: null, note: 'Check `part.mimetype`/`part.filename` while iterating `request.parts()`.' },
    ],
    caveats: [
      'Default `fileSize` is Fastify’s `bodyLimit` (1 MiB unless the server sets one; the shim does not) and `parts` 1000; multer is unlimited — emit `limits.fileSize`.',
      'Over the limit: 413 `RequestFileTooLargeError` JSON; multer’s `LIMIT_FILE_SIZE` went to the error middleware (500 page unless handled).',
      'File objects differ: `filename` vs `originalname`, a stream `file` vs `buffer`/`path`.',
      'Multipart to a route without the plugin: 415; `request.file()` on a non-multipart request: 406 `FST_INVALID_MULTIPART_CONTENT_TYPE`.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3; @fastify/multipart 10.1.9 README (fileSize default = bodyLimit)',
    // Reads the body stream a moved route leaves unread, sets req.file(s) and req.body, calls next/next(err) (multer 2 lib/make-middleware.js); fixture routes-move/package-middleware.
    worksOnExpress: 'body-stream',
  },
  'express-fileupload': {
    package: 'express-fileupload',
    fastify: '@fastify/multipart',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyMultipart, { attachFieldsToBody: true, limits })`.",
    options: [
      { express: 'limits.fileSize', fastify: 'limits.fileSize' },
      { express: 'useTempFiles / tempFileDir', fastify: 'request.saveRequestFiles()' },
    ],
    caveats: [
      '`req.files.x.mv()` and the file object API are gone; handlers change.',
      'Same size defaults as multer’s row: `fileSize` follows `bodyLimit`.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3',
  },
  'express-rate-limit': {
    package: 'express-rate-limit',
    fastify: '@fastify/rate-limit',
    kind: 'plugin',
    replacement: '`fastify.register(fastifyRateLimit, { max, timeWindow, … })`; per route `config.rateLimit`.',
    options: [
      { express: 'windowMs', fastify: 'timeWindow' },
      // express-rate-limit defaults to 5 in 5.3.0 (lib/express-rate-limit.js), 6.11.2, 7.5.1 and 8.7.5 (dist/index.cjs).
      { express: 'limit / max', fastify: 'max', note: 'Emit it: defaults are 5 (express-rate-limit 5 to 8) vs 1000.' },
      { express: 'keyGenerator(req)', fastify: 'keyGenerator(request)' },
      { express: 'handler / message / statusCode', fastify: 'errorResponseBuilder' },
      { express: 'skip', fastify: 'allowList', note: '`allowList` also takes a function `(request, key) => boolean`.' },
      { express: 'skipSuccessfulRequests / skipFailedRequests', fastify: null, note: '@fastify/rate-limit counts every request (no success/failure skipping, v11 options): a login limiter that skipped successes now locks users out — count in an onResponse hook instead.' },
      { express: 'standardHeaders / legacyHeaders', fastify: 'enableDraftSpec, addHeaders, addHeadersOnExceeding' },
      { express: 'store', fastify: 'redis / store', note: 'Stores are not interchangeable.' },
    ],
    caveats: [
      'Default 429 body: ERL `Too many requests, please try again later.` (text/html); Fastify JSON `{"statusCode":429,"error":"Too Many Requests","message":"Rate limit exceeded, retry in 1 minute"}`.',
      'A route’s `config.rateLimit` replaces the global limit for that route (Express counts both limiters), and each route gets its own counter: a limiter instance shared by several routes needs `const limit = fastify.rateLimit(opts)` used as `onRequest` on each of them to keep one counter.',
      'The 429 is thrown into `setErrorHandler` (whatever `errorResponseBuilder` returns must carry `statusCode: 429`), so an app error handler that answers 500 by default turns it into a 500.',
      'Headers are lower-case `x-ratelimit-*`; `x-ratelimit-reset` is seconds remaining (ERL legacy: epoch timestamp; draft: `RateLimit-*`).',
      '404s are not counted unless the not-found handler opts in (`setNotFoundHandler({ preHandler: fastify.rateLimit() }, …)`); a global `app.use(rateLimit())` counted every request.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3',
    // Reads req.ip (Express's getter, the app's trust proxy), sets its headers and answers 429 with res.status().send() (7.x dist/index.cjs); fixture routes-move/package-middleware.
    worksOnExpress: 'request-and-response',
    // One instance shares one counter in express-rate-limit; route `config.rateLimit` counts per route (probed on @fastify/rate-limit 10).
    sharedByRoutes: '{name} is shared by {routes} routes: one `const limiter = fastify.rateLimit(options)` as their onRequest hook keeps one counter (route `config.rateLimit` would count each route apart).',
  },
  passport: {
    package: 'passport',
    fastify: '@fastify/passport',
    kind: 'plugin',
    replacement: '`register(fastifyPassport.initialize())` + `register(fastifyPassport.secureSession())`; `passport.authenticate(s, o)` → `{ preValidation: fastifyPassport.authenticate(s, o) }`.',
    requires: [{ package: '@fastify/session', when: 'the app used express-session' }, { package: '@fastify/secure-session', when: 'the app used cookie-session' }, { package: '@fastify/cookie' }],
    options: [
      { express: 'app.use(passport.initialize())', fastify: 'fastify.register(fastifyPassport.initialize())' },
      { express: 'app.use(passport.session())', fastify: 'fastify.register(fastifyPassport.secureSession())' },
      { express: 'passport.authenticate(strategy, options)', fastify: '{ preValidation: fastifyPassport.authenticate(strategy, options) }' },
      { express: 'passport.serializeUser / deserializeUser', fastify: 'fastifyPassport.registerUserSerializer / registerUserDeserializer', note: 'Async functions.' },
      { express: 'passport.use(strategy)', fastify: 'fastifyPassport.use(strategy)', note: 'passport-* strategy packages are reused.' },
    ],
    // Login and the session: passport 0.6.0 (CHANGELOG.md, 2022-05-20) made `req.login()`
    // regenerate the session and drop its data unless `keepSessionInfo: true`
    // (lib/sessionmanager.js of 0.7.0; 0.4.1 keeps the session). @fastify/passport 3.0.2
    // SecureSessionManager.logIn regenerates too (`clearSessionOnLogin`, default true), keeping
    // only `clearSessionIgnoreFields` (default `passport`, `session`) or everything with
    // `keepSessionInfo`.
    caveats: [
      { unknown: true, text: 'The session is cleared on login by default (`clearSessionOnLogin`).' },
      { below: '0.6.0', text: 'Login clears the session (`clearSessionOnLogin`, default true), where passport before 0.6 kept it: values stored before login (a `returnTo` URL, a cart) are gone afterwards unless listed in `clearSessionIgnoreFields`.' },
      'Same secure-cookie trap as sessions: with `cookie.secure` true no session cookie is set over HTTP.',
      'Decorates `request.user`; so does @fastify/jwt — one of them needs another decorator name.',
      'The plugin is labelled beta in its README.',
    ],
    memberCaveats: {
      initialize: ['@fastify/passport needs a session plugin even for `session: false` strategies (it registers @fastify/flash): an API that only checks tokens is better served by @fastify/jwt or a preHandler that verifies the token. Decorates `request.user`; so does @fastify/jwt — one of them needs another decorator name.'],
      authenticate: ['Not a `(req, res, next)` function on Fastify: `fastifyPassport.authenticate(s, o)` is a preValidation hook, and a custom callback takes `(request, reply, err, user, info, status)`; code that calls `passport.authenticate(…)(req, res, next)` is rewritten by hand.'],
    },
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §2.14; smoke test with @fastify/jwt (FST_ERR_DEC_ALREADY_PRESENT)',
    // authenticate/authorize read req.session and the body, log in (req.logIn), then next(), next(err), res.redirect or res.end (401) (0.7 lib/middleware/authenticate.js); fixture routes-move/package-middleware.
    worksOnExpress: 'request-and-response',
    withoutMember: { member: 'session', replacement: 'Token-only here (no passport.session()): @fastify/jwt, or a preHandler that verifies the token; @fastify/passport would also need a session plugin (@fastify/session or @fastify/secure-session) to boot.' },
  },
  csurf: {
    package: 'csurf',
    fastify: '@fastify/csrf-protection',
    kind: 'plugin',
    replacement: '`fastify.register(fastifyCsrf, { sessionPlugin | cookieOpts })`; protect routes with `{ preValidation: fastify.csrfProtection }`; `req.csrfToken()` → `reply.generateCsrf()`.',
    requires: [{ package: '@fastify/cookie', when: 'cookie: true (or cookie options)' }, { package: '@fastify/session', when: 'session-backed tokens' }],
    options: [
      { express: 'req.csrfToken()', fastify: 'reply.generateCsrf()' },
      { express: 'route protection', fastify: 'preValidation: fastify.csrfProtection', note: '`onRequest` sees no body, so tokens posted in the body need preValidation.' },
      { express: 'cookie: true / cookie options', fastify: 'cookieOpts' },
      { express: 'session storage (default)', fastify: "sessionPlugin: '@fastify/session'" },
      { express: 'value(req)', fastify: 'getToken(request)' },
      { express: 'ignoreMethods', fastify: null, note: 'Attach the hook only to the state-changing routes.' },
    ],
    caveats: [
      'Token lookup: `body._csrf` and headers csrf-token, xsrf-token, x-csrf-token, x-xsrf-token — no `query._csrf` (csurf reads it): pass `getToken` to keep it.',
      'Invalid token: 403 JSON `FST_CSRF_INVALID_TOKEN` vs csurf `EBADCSRFTOKEN` through the error middleware (HTML).',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3',
  },
  lusca: {
    package: 'lusca',
    fastify: '@fastify/csrf-protection',
    kind: 'plugin',
    replacement: '`lusca.csrf()` → `@fastify/csrf-protection` with `{ preValidation: fastify.csrfProtection }`; `xframe`, `hsts`, `nosniff`, `referrerPolicy`, `csp` → `@fastify/helmet` options; `xssProtection` → an onSend hook setting X-XSS-Protection.',
    requires: [{ package: '@fastify/helmet', when: 'the header options (xframe, hsts, nosniff, csp, referrerPolicy)' }, { package: '@fastify/session', when: 'csrf tokens kept in the session (lusca’s default)' }],
    options: [
      { express: 'csrf()', fastify: "fastifyCsrf with sessionPlugin: '@fastify/session'", note: 'lusca keeps the secret in req.session (`_csrfSecret`), so tokens issued before the move do not validate after it.' },
      { express: 'csrf({ angular: true })', fastify: "cookieOpts + getToken reading the 'x-xsrf-token' header" },
      { express: 'xframe(value)', fastify: 'helmet frameguard: { action }' },
      { express: 'hsts(options)', fastify: 'helmet hsts' },
      { express: 'nosniff()', fastify: 'helmet noSniff (on by default)' },
      { express: 'xssProtection(enabled)', fastify: null, note: 'helmet 8 sets X-XSS-Protection: 0; keep the old value with an onSend hook.' },
    ],
    caveats: [
      'Invalid token: lusca answers 403 through the error middleware (`err.code` undefined, message "CSRF token mismatch"); @fastify/csrf-protection throws `FST_CSRF_INVALID_TOKEN` (403 JSON).',
      'Called inside a wrapper (`lusca.csrf()(req, res, next)` for all but some paths) the exemptions become the routes that do not get the hook.',
    ],
    memberCaveats: {
      xframe: ['A header only: @fastify/helmet `frameguard` sets `X-Frame-Options` the same way; nothing else changes.'],
      xssProtection: ['`lusca.xssProtection(true)` sends `X-XSS-Protection: 1; mode=block`; @fastify/helmet 8 sends `0`: keep the old value with an onSend hook if clients rely on it.'],
      hsts: ['A header only: @fastify/helmet `hsts` with the same maxAge/includeSubDomains.'],
      nosniff: ['A header only: @fastify/helmet sets `X-Content-Type-Options: nosniff` by default.'],
      referrerPolicy: ['A header only: @fastify/helmet `referrerPolicy` with the same value.'],
    },
    stage: 'plugins',
    safety: 'needs-care',
    source: 'lusca README; @fastify/csrf-protection README; express-fastify-mapping.md §3 (csurf row)',
    // Sets its headers and res.locals._csrf, checks the token in req.body or a header against req.session, next(err) with 403 (1.7 lib/csrf.js); fixture routes-move/package-middleware.
    worksOnExpress: 'request-and-response',
    // lib/csrf.js compares req.path with the allowlist and blocklist options.
    readsRequestPath: true,
  },
  'serve-favicon': {
    package: 'serve-favicon',
    fastify: '@fastify/static',
    kind: 'plugin',
    replacement: "`fastify.get('/favicon.ico', (request, reply) => reply.sendFile('favicon.ico', dir, { maxAge }))`.",
    options: [{ express: 'maxAge', fastify: 'sendFile option maxAge' }],
    caveats: [
      'serve-favicon sends `Cache-Control: public, max-age=…` (1 year default) and its own ETag; @fastify/static sends send’s headers (`max-age=0` unless set) and a weak `W/"size-mtime"` ETag.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3',
  },
  'method-override': {
    package: 'method-override',
    fastify: 'none',
    kind: 'none',
    replacement: 'None: rewrite `req.method` in a `serverFactory` before Fastify routes (header variant only), or change the clients.',
    options: [
      { express: "getter 'X-HTTP-Method-Override' (header)", fastify: 'serverFactory that rewrites req.method', note: 'Manual.' },
      { express: "getter '_method' (query string)", fastify: 'rewriteUrl that sets req.method from the query', note: 'Relies on undocumented behaviour; manual.' },
      { express: 'function getter reading req.body', fastify: null, note: 'Routing happens before any hook and before the body is parsed.' },
    ],
    caveats: [
      "Fastify routes before any hook runs and before the body is parsed, so a body getter cannot work; `methodOverride('_method')` reads the query string (a getter without `X-` is a query key), and the header and query forms can only be emulated by changing `req.method` in `rewriteUrl` or a `serverFactory`, which Fastify does not document.",
    ],
    stage: 'manual',
    safety: 'no-equivalent',
    affectsMethods: ['PUT', 'PATCH', 'DELETE'],
    overridesMethod: { defaultHeader: 'X-HTTP-Method-Override', defaultMethods: ['POST'] },
    source: '§3',
  },
  'express-validator': {
    readsRequestOnly: true,
    // express-validator 6.x/7.x: validationResult and matchedData read the contexts its chains stored
    // on the request (lib/validation-result.js `req[contextsKey]`, lib/matched-data.js); a chain's
    // run(req) selects fields from req[location] for its locations (lib/field-selection.js): `check`
    // reads every location, `param` and the schema/oneOf/exact builders may read req.params.
    takesRequest: {
      calls: ['validationResult', 'matchedData'],
      runs: { method: 'run', exports: ['body', 'check', 'checkExact', 'checkSchema', 'cookie', 'header', 'oneOf', 'param', 'query'], readParams: ['check', 'checkExact', 'checkSchema', 'oneOf', 'param'] },
    },
    package: 'express-validator',
    fastify: 'core',
    kind: 'core',
    replacement: 'Route `schema` (JSON Schema, Ajv); `validationResult()` branching → `attachValidation: true` + `request.validationError`.',
    options: [
      { express: 'body()/query()/param() chains', fastify: 'schema.body / schema.querystring / schema.params', note: 'Only chains with an exact JSON Schema translation; the rest stay as a preValidation hook.' },
      { express: 'validationResult(req)', fastify: 'attachValidation: true + request.validationError' },
      { express: 'sanitizers (trim, normalizeEmail, toInt)', fastify: null, note: 'No JSON Schema counterpart; keep in a preValidation hook.' },
    ],
    caveats: [
      'Fastify answers 400 `FST_ERR_VALIDATION` automatically unless `attachValidation` is set; the app’s own 422/400 body changes.',
      'Ajv coerces types, inserts defaults and strips extras where `additionalProperties: false` (§2.8): handlers see mutated input.',
      'v5 requires full JSON Schemas (`type: \'object\'` + `properties`); `date-time`/`time` formats require a timezone.',
    ],
    stage: 'schemas',
    safety: 'needs-care',
    source: '§3, §2.8',
  },
  celebrate: {
    readsRequestOnly: true,
    package: 'celebrate',
    fastify: 'core',
    kind: 'core',
    replacement: '`schema` with a Joi `validatorCompiler` (`({ schema }) => (data) => schema.validate(data)`); `errors()` → `setErrorHandler`/`schemaErrorFormatter`.',
    options: [
      { express: 'celebrate({ body, query, params, headers })', fastify: 'schema: { body, querystring, params, headers }' },
      { express: 'errors()', fastify: 'setErrorHandler or schemaErrorFormatter', note: 'Reproduces celebrate’s 400 body.' },
      { express: 'Joi options (second argument)', fastify: 'passed to schema.validate in the validatorCompiler' },
    ],
    caveats: [
      'Error shape: celebrate 400 `{statusCode, error, message, validation: {source, keys}}` vs Fastify `{statusCode, code: \'FST_ERR_VALIDATION\', error, message}`.',
      'Joi `convert` applies to the value Fastify assigns back to `request.body`/`query`.',
    ],
    stage: 'schemas',
    safety: 'needs-care',
    source: '§3',
  },
  'express-validation': {
    readsRequestOnly: true,
    package: 'express-validation',
    fastify: 'core',
    kind: 'core',
    replacement: 'Route `schema` with a Joi `validatorCompiler` (`({ schema }) => (data) => schema.validate(data)`), as for celebrate; `validate({ body, query, params })` → `schema: { body, querystring, params }`.',
    replacementByVersion: [
      // express-validation 1.x: schemas are plain objects of Joi types, unknown keys allowed by default (allowUnknownBody/Query/Params: true).
      { below: '2.0.0', text: 'Route `schema` with a Joi `validatorCompiler`: express-validation 1.x schemas are plain objects of Joi types, so wrap each part as `Joi.object(part).unknown(true)` (1.x allowed unknown keys, `Joi.object` rejects them with 400).' },
    ],
    options: [
      { express: 'validate({ body, query, params, headers })', fastify: 'schema: { body, querystring, params, headers }' },
      { express: 'validate(schema, { context, keyByField }, joiOptions)', fastify: 'joiOptions passed to schema.validate in the validatorCompiler' },
    ],
    caveats: [
      // express-validation 1.x: ValidationError carries `status` and `errors` (every failing field; abortEarly false); 3.x `statusCode` and `details`.
      { below: '2.0.0', text: 'Errors: express-validation 1.x passes a `ValidationError` (`err.status` 400, `err.errors` listing every failing field) to the error middleware; Fastify throws `FST_ERR_VALIDATION` with `err.validation` (Joi stops at the first error unless `abortEarly: false`), so `err instanceof ValidationError` branches stop matching (rule error-type-checks).' },
      'Errors: express-validation passes a `ValidationError` (`err.statusCode` 400, `err.details`) to the error middleware; Fastify throws `FST_ERR_VALIDATION` with `err.validation`, so `err instanceof ValidationError` branches stop matching (rule error-type-checks).',
    ],
    stage: 'schemas',
    safety: 'needs-care',
    source: 'express-validation README; express-fastify-mapping.md §3 (celebrate/joi row)',
  },
  'express-joi-validation': {
    readsRequestOnly: true,
    package: 'express-joi-validation',
    fastify: 'core',
    kind: 'core',
    replacement: 'Route `schema` with a Joi `validatorCompiler`, as for celebrate.',
    options: [
      { express: 'validator.body/query/params/headers(joiSchema)', fastify: 'schema.body/querystring/params/headers with the Joi validatorCompiler' },
      { express: 'createValidator({ passError: true })', fastify: 'setErrorHandler / schemaErrorFormatter' },
    ],
    caveats: [
      'The 400 body changes (express-joi-validation sends text `Error validating request body. …`); Fastify sends its validation JSON unless formatted.',
      'Joi `convert` defaults apply to the value Fastify assigns back to `request.body`.',
    ],
    stage: 'schemas',
    safety: 'needs-care',
    source: '§3 (Joi-based validators row)',
  },
  'express-json-validator-middleware': {
    readsRequestOnly: true,
    package: 'express-json-validator-middleware',
    fastify: 'core',
    kind: 'core',
    replacement: 'Route `schema` (the JSON Schemas carry over; Fastify compiles them with Ajv).',
    options: [
      { express: 'validate({ body, query, params })', fastify: 'schema: { body, querystring, params }' },
      { express: 'new Validator(ajvOptions)', fastify: 'ajv.customOptions (server option)', note: 'Fastify’s defaults differ: coerceTypes \'array\', useDefaults, removeAdditional.' },
      { express: 'ValidationError in error middleware', fastify: 'setErrorHandler checking `err.validation`' },
    ],
    caveats: [
      'Same JSON Schema, different Ajv defaults: Fastify coerces and strips where the middleware’s Ajv did not (§2.8).',
      'Validation failures: Fastify 400 `FST_ERR_VALIDATION` JSON instead of the app’s ValidationError handling.',
    ],
    stage: 'schemas',
    safety: 'needs-care',
    source: 'Not a §3 row; by analogy with express-validator (§3) and §2.8',
  },
  'express-jwt': {
    readsRequestOnly: true,
    package: 'express-jwt',
    fastify: '@fastify/jwt',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyJwt, { secret, verify: { algorithms }, decoratorName: 'auth' })` + `onRequest: (request) => request.jwtVerify()`.",
    // Where the payload goes: express-jwt 6.1.2 lib/index.js `options.userProperty ||
    // options.requestProperty || 'user'`; 7.0.0 src/index.ts `request.auth = …` (CHANGELOG 7.0.0);
    // 8.4.1 dist/index.js `requestProperty` defaulting to 'auth'. @fastify/jwt decorates the
    // request with `decoratorName` only, default 'user' (jwt.js).
    replacementByVersion: [
      { below: '7.0.0', text: '`fastify.register(fastifyJwt, { secret, verify: { algorithms } })` + `onRequest: (request) => request.jwtVerify()`: the payload stays on `request.user` (the default `decoratorName`), where express-jwt before 7 put it.' },
      { since: '7.0.0', text: "`fastify.register(fastifyJwt, { secret, verify: { algorithms }, decoratorName: 'auth' })` + `onRequest: (request) => request.jwtVerify()`: `request.auth`, where express-jwt 7+ puts the payload." },
    ],
    options: [
      { express: 'secret', fastify: 'secret' },
      { express: 'algorithms', fastify: 'verify.algorithms' },
      { express: 'requestProperty / userProperty', fastify: 'decoratorName / formatUser', note: 'express-jwt before 7 defaults to `req.user` (`userProperty` is 6’s alias), 7+ to `req.auth`: the decorator keeps the name the handlers read.' },
      { express: 'getToken', fastify: 'verify.extractToken' },
      { express: 'credentialsRequired: false', fastify: 'try/catch around request.jwtVerify()' },
      { express: 'isRevoked', fastify: 'trusted' },
    ],
    caveats: [
      '401 bodies: @fastify/jwt JSON (`FST_JWT_NO_AUTHORIZATION_IN_HEADER`, `FST_JWT_AUTHORIZATION_TOKEN_INVALID`…) vs express-jwt `UnauthorizedError` through the error middleware (HTML by default).',
      // With express-jwt 7+ the replacement decorates `request.auth` instead: no collision.
      { below: '7.0.0', unknown: true, text: 'Decorates `request.user` by default, which collides with @fastify/passport.' },
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §5 #17',
  },
  'express-async-errors': {
    package: 'express-async-errors',
    fastify: 'core',
    kind: 'remove',
    replacement: 'Delete the import: Fastify awaits handlers and routes rejections to the error handler.',
    options: [],
    caveats: ['Needed while routes stay on Express: it sends their rejected promises to `next(err)`, and through the bridge to the Fastify error handler (docs/stages/errors.md); it goes with `unshim`, once the last route has moved.'],
    stage: 'unshim',
    safety: 'safe',
    source: '§3, §2.12',
  },
  'express-async-handler': {
    package: 'express-async-handler',
    fastify: 'core',
    kind: 'remove',
    replacement: 'Unwrap: `asyncHandler(fn)` → `fn`.',
    options: [],
    caveats: ['An async handler that answers from a callback/timer must `return reply`, or Fastify sends an empty 200 first (§1.5).'],
    stage: 'routes',
    safety: 'needs-care',
    source: '§3, §1.5',
    handlerWrapper: { forwards: 'always', source: 'express-async-handler 1.2.0 index.js: `(...args) => Promise.resolve(fn(...args)).catch(args[args.length - 1])`' },
  },
  'express-async-wrap': {
    package: 'express-async-wrap',
    fastify: 'core',
    kind: 'remove',
    replacement: 'Unwrap: `wrap(fn)` → `fn` (an async `fn`).',
    options: [],
    caveats: ['It calls `.catch` on what the handler returns: a sync handler made Express answer with a TypeError, so only async handlers are unwrapped.'],
    stage: 'routes',
    safety: 'needs-care',
    source: 'Not a §3 row; express-async-wrap 1.0.0 lib/index.js',
    handlerWrapper: { forwards: 'promise', source: 'express-async-wrap 1.0.0 lib/index.js: `(req, res, next) => fn(req, res, next).catch(next)` (four parameters for an error handler)' },
  },
  'express-promise-wrap': {
    package: 'express-promise-wrap',
    fastify: 'core',
    kind: 'remove',
    replacement: 'Unwrap: `wrap(fn)` → `fn` (an async `fn`).',
    options: [],
    caveats: ['It calls `.catch` on what the handler returns: a sync handler made Express answer with a TypeError, so only async handlers are unwrapped.'],
    stage: 'routes',
    safety: 'needs-care',
    source: 'Not a §3 row; express-promise-wrap 0.2.2 dist/index.js',
    handlerWrapper: { member: 'wrap', forwards: 'promise', source: 'express-promise-wrap 0.2.2 dist/index.js: `wrap(fn)` → `(req, res, next) => fn(req, res, next).catch(next)`' },
  },
  'async-handler': {
    package: 'async-handler',
    fastify: 'none',
    kind: 'none',
    replacement: 'Rewrite the handler as an async function by hand (it runs on the `asyncawait` fibers), then drop the wrapper.',
    options: [],
    caveats: ['`asyncHandler(fn).cacheFor(ms)` caches answers by URL: a Fastify route needs its own cache.'],
    stage: 'manual',
    safety: 'no-equivalent',
    source: 'Not a §3 row; async-handler 0.0.3 index.js',
    handlerWrapper: { does: "runs the handler through the asyncawait package's fibers (`async(fn)` with its own `await`) and can cache answers (`cacheFor`)", source: 'async-handler 0.0.3 index.js' },
  },
  '@awaitjs/express': {
    package: '@awaitjs/express',
    fastify: 'none',
    kind: 'none',
    replacement: 'Drop `wrap` by hand where the handler always answers; where it relies on `next()` after its promise resolves, register what runs next as a hook.',
    options: [],
    caveats: ['`wrap(fn)` calls `next()` when the promise resolves and nothing was sent, so the request goes on to the next route or the 404 handler.'],
    stage: 'manual',
    safety: 'no-equivalent',
    source: 'Not a §3 row; @awaitjs/express 0.9.0 index.js',
    handlerWrapper: { member: 'wrap', does: 'calls next() when the handler’s promise resolves without an answer (the request goes on to the next route)', source: '@awaitjs/express 0.9.0 index.js `wrap`' },
  },
  co: {
    package: 'co',
    fastify: 'core',
    kind: 'core',
    replacement: 'Keep `co.wrap(function* (request, reply) { … })`: what it makes returns a promise of the generator\'s end, which a Fastify route awaits as it awaits an async handler; the routes stage rewrites the generator as the handler.',
    options: [],
    caveats: ['A rejection (a throw in the generator, a rejected yield): Express 4 ignores the promise `co.wrap` returns, so it reached no error handler; a Fastify route sends it to the error handler (framework-defaults `async-rejection`). Express 5 hands it to next, as Fastify does.'],
    stage: 'routes',
    safety: 'needs-care',
    source: 'Not a §3 row; co 4.6.0 index.js `co.wrap`',
    handlerWrapper: { member: 'wrap', runs: 'generator', source: 'co 4.6.0 index.js: `co.wrap(fn)` returns `function () { return co.call(this, fn.apply(this, arguments)) }`; `co(gen)` returns a Promise and resolves a non-generator with its value' },
  },
  'http-errors': {
    package: 'http-errors',
    fastify: 'core',
    kind: 'core',
    replacement: 'Keep it (Fastify honours `status`/`statusCode`/`headers`), or `@fastify/sensible` (`reply.notFound()`, `fastify.httpErrors.*`).',
    options: [
      { express: 'createError(status, message)', fastify: 'unchanged, or fastify.httpErrors.<name>(message) with @fastify/sensible' },
      { express: 'expose: false', fastify: null, note: 'Ignored: Fastify’s default handler prints `message` for 5xx too.' },
    ],
    caveats: [
      'Fastify’s default handler exposes the message of 5xx errors, where Express (production) hid it: the errors stage ports the app’s handler, otherwise the body changes.',
      'Errors answer JSON `{statusCode, error, message}` instead of finalhandler’s HTML page (framework-defaults `default-error-body`).',
    ],
    stage: 'errors',
    safety: 'needs-care',
    source: '§3, §2.2',
  },
  errorhandler: {
    package: 'errorhandler',
    fastify: 'core',
    kind: 'core',
    replacement: '`setErrorHandler` (Fastify’s default handler answers JSON without the stack).',
    options: [{ express: 'log', fastify: 'Fastify’s logger (5xx logged at error level)' }],
    caveats: [
      'errorhandler renders the stack as HTML/JSON/text by Accept (development only); Fastify’s default answers JSON with the message and no stack.',
      'Usually guarded by `NODE_ENV === \'development\'`: keep the guard around the new handler.',
    ],
    stage: 'errors',
    safety: 'needs-care',
    source: 'Not a §3 row; §2.2 (error bodies), §2.12; errorhandler 1.5 index.js (answers with res.statusCode/setHeader/end, never next)',
    answersErrorsOnRaw: true,
  },
  'response-time': {
    package: 'response-time',
    fastify: 'core',
    kind: 'hook',
    replacement: "`onSend` hook: `reply.header('X-Response-Time', reply.elapsedTime.toFixed(3) + 'ms')`.",
    options: [
      { express: 'digits', fastify: 'toFixed(digits)' },
      { express: 'header', fastify: 'the header name in the hook' },
      { express: 'suffix', fastify: "the 'ms' suffix (omitted when false)" },
    ],
    caveats: ['The value differs on every run anyway (the verifier ignores it).'],
    stage: 'plugins',
    safety: 'safe',
    source: '§3',
    // response-time 2.3 index.js: sets the header at writeHead (on-headers) and calls next().
    passesEveryRequest: 'headers',
  },
  'connect-timeout': {
    package: 'connect-timeout',
    fastify: 'core',
    kind: 'core',
    replacement: '`handlerTimeout` (server or route option, Fastify ≥ 5.8).',
    options: [
      { express: 'time', fastify: 'handlerTimeout (ms)', note: 'Older 5.x: connectionTimeout/requestTimeout or an onTimeout-based hook.' },
      { express: 'respond: false', fastify: null, note: 'Fastify always answers 503 and aborts `request.signal`.' },
    ],
    caveats: [
      'Timeout answer: Fastify 503 `FST_ERR_HANDLER_TIMEOUT` through the error handler (JSON); connect-timeout `next(err)` 503 "Response timeout" HTML, and it keeps running the handler.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §2.13',
  },
  hpp: {
    package: 'hpp',
    fastify: 'core',
    kind: 'hook',
    replacement: '`preValidation` hook collapsing array values of `query`/`body` to the last value (or schema `type: \'string\'`).',
    options: [
      { express: 'whitelist', fastify: 'per-key exceptions in the hook' },
      { express: 'checkBody / checkQuery', fastify: 'which of request.body / request.query the hook walks' },
    ],
    caveats: [
      'No official plugin. hpp keeps the originals in `req.queryPolluted`/`req.bodyPolluted`; the hook must write them if the app reads them.',
      'A schema `type: \'string\'` is not the same: Ajv (`coerceTypes: \'array\'`) unwraps only one-item arrays, multi-item → 400.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3',
    replacesRequestQuery: true,
    // hpp 0.2 index.js: moves repeated query/body values aside and calls next(); answers nothing.
    passesEveryRequest: 'unchanged',
  },
  'express-mongo-sanitize': {
    package: 'express-mongo-sanitize',
    fastify: 'core',
    kind: 'hook',
    replacement: '`preValidation` hook stripping keys that start with `$` or contain `.` from body, query and params (or strict schemas).',
    options: [
      { express: 'replaceWith', fastify: 'replacement character in the hook' },
      { express: 'allowDots', fastify: 'keep keys with dots in the hook' },
      { express: 'onSanitize', fastify: 'callback in the hook' },
    ],
    caveats: [
      'No official plugin.',
      'Fastify already rejects JSON bodies with `__proto__`/`constructor` keys (400).',
      'Express 5 `req.query` is a getter: express-mongo-sanitize ≤ 2 fails there; on Fastify `request.query` is writable.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: '§3, §1.3 (req.query row)',
    replacesRequestQuery: true,
    // express-mongo-sanitize 2.x index.js: rewrites keys of body, params, headers and query and calls
    // next(); answers nothing (on Express 5 its query write throws for every request with a query,
    // an app broken before any stage).
    passesEveryRequest: 'unchanged',
  },
  'xss-clean': {
    package: 'xss-clean',
    fastify: 'none',
    kind: 'none',
    replacement: 'None (deprecated): escape on output, or constrain input with schema patterns.',
    options: [],
    caveats: ['The Express app’s handlers saw HTML-escaped input; without it they see the raw input.'],
    stage: 'manual',
    safety: 'no-equivalent',
    source: '§3; xss-clean 0.1.4 lib/index.js (assigns req.body, req.query and req.params, then next())',
    // Fixture routes-move/app-middleware-kept checks a moved route's body and query against Express's.
    replacesRequestQuery: true,
    keptInBridge: true,
    passesEveryRequest: 'unchanged',
  },
  'view-helpers': {
    package: 'view-helpers',
    fastify: 'core',
    kind: 'hook',
    replacement: 'A preHandler hook putting the same helpers into `reply.locals` (`appName`, `title`, `req`, `isActive`, `formatDate`, `formatDatetime`, `stripScript`, `createPagination`, and connect-flash’s `info`, `errors`, `success`, `warning`), and the same `.mobile` view choice in front of `reply.view`.',
    options: [{ express: 'helpers(name)', fastify: 'reply.locals.appName and reply.locals.title', note: 'Both default to `App`.' }],
    caveats: [
      'It replaces `res.render` on Express’s response to render `<view>.mobile.<ext>` for a mobile User-Agent when that file exists: a moved route renders through the replacement (`reply.renderLikeExpress`, JavaScript apps) while it runs in the bridge, and its hook must choose the mobile view the same way.',
      'It reads the connect-flash messages into `res.locals` on every request, which consumes them: a hook that reads them only for rendered pages changes when messages are shown.',
      '`res.locals.req` is Express’s request: templates that read `req.*` need the same members on what the hook puts there.',
    ],
    replacesResponseMethods: ['res.render'],
    stage: 'plugins',
    safety: 'needs-care',
    source: 'Not a §3 row; view-helpers 0.2.0 index.js (npm pack): res.locals helpers, req.isMobile, a res.render wrapper, then next()',
  },
  'pino-http': {
    package: 'pino-http',
    fastify: 'core',
    kind: 'core',
    replacement: 'Fastify’s logger: `loggerInstance` given the app’s pino logger (or `logger` with its options), which logs every request and response; `req.log` → `request.log`.',
    options: [
      { express: 'logger (a pino instance)', fastify: 'loggerInstance' },
      { express: 'genReqId', fastify: 'genReqId (server option)' },
      { express: 'autoLogging', fastify: 'disableRequestLogging' },
      { express: 'serializers', fastify: 'the logger’s serializers' },
      { express: 'customLogLevel / customSuccessMessage / customErrorMessage / customProps', fastify: null, note: 'An onResponse hook writes the line the app wants.' },
    ],
    caveats: [
      'Not HTTP-observable; the log lines change shape: Fastify logs `incoming request` and `request completed` lines with `reqId`, pino-http one line per response with `req`, `res` and `responseTime`.',
      'It keeps a `req.id` already set: behind the bridge that is Fastify’s request id (@fastify/express sets it first), so its `genReqId` runs only where Fastify gave none.',
      'Until the plugins stage it runs in the bridge and logs on the raw response’s `finish` for moved routes too; `req.log` in a moved handler is its logger, read on `request.raw`.',
    ],
    stage: 'plugins',
    safety: 'safe',
    source: 'Not a §3 row; pino-http 10.5.0 logger.js (npm pack): req.id, req.log, res.log, a log line on the response’s finish/close, then next(); by analogy with morgan (§3, §5 #20)',
  },
  'swagger-ui-express': {
    package: 'swagger-ui-express',
    fastify: '@fastify/swagger-ui',
    kind: 'plugin',
    replacement: "`fastify.register(fastifySwagger, { mode: 'static', specification: { document } })` and `fastify.register(fastifySwaggerUi, { routePrefix: '<mount path>' })`, given the document `swaggerUi.setup` served.",
    requires: [{ package: '@fastify/swagger' }],
    options: [
      { express: 'swaggerUi.serve + swaggerUi.setup(document)', fastify: "@fastify/swagger { mode: 'static', specification: { document } } + @fastify/swagger-ui { routePrefix }" },
      { express: 'setup(document, { swaggerOptions })', fastify: 'uiConfig' },
      { express: 'customCss / customSiteTitle / customfavIcon', fastify: 'theme' },
    ],
    caveats: [
      'The page is @fastify/swagger-ui’s own HTML and swagger-ui build, not the HTML swagger-ui-express generates: the body of the docs page differs, the document it shows is the same.',
      '@fastify/swagger-ui registers its own routes under `routePrefix` (the page, its static files, the document as JSON and YAML): an app route there collides.',
      'Until the plugins stage it runs in the bridge: `swaggerUi.serve` answers `swagger-ui-init.js` and the static files, and `swaggerUi.setup(…)` the page, with Express’s `res.send`.',
    ],
    stage: 'plugins',
    safety: 'needs-care',
    source: 'Not a §3 row; swagger-ui-express 5.0.1 index.js (npm pack): serve = [an init-script middleware, express.static], setup returns (req, res) => res.send(html); @fastify/swagger-ui README',
  },
  pug: {
    package: 'pug',
    fastify: '@fastify/view',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyView, { engine: { pug }, root: 'views', viewExt: 'pug' })`; `res.render` → `reply.view`.",
    options: [
      { express: "app.set('views', dir)", fastify: 'root', note: 'Express default `./views`, @fastify/view `./`.' },
      { express: "app.set('view engine', 'pug')", fastify: "engine: { pug } + viewExt: 'pug'", note: 'The extension is not appended without `viewExt`/`includeViewExtension`.' },
      { express: 'app.locals', fastify: 'defaultContext' },
    ],
    caveats: [
      'Layouts through pug `extends` only (no @fastify/view `layout` for pug).',
      'Content type `text/html; charset=utf-8` (option `charset`); render errors go to Fastify’s JSON error path.',
    ],
    stage: 'routes',
    safety: 'needs-care',
    source: '§3, §1.1 (view rows), §1.4 (res.render)',
  },
  ejs: {
    package: 'ejs',
    fastify: '@fastify/view',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyView, { engine: { ejs }, root: 'views', viewExt: 'ejs' })`; `res.render` → `reply.view`.",
    options: [
      { express: "app.set('views', dir)", fastify: 'root', note: 'Express default `./views`, @fastify/view `./`.' },
      { express: "app.set('view engine', 'ejs')", fastify: "engine: { ejs } + viewExt: 'ejs'" },
      { express: 'app.locals', fastify: 'defaultContext' },
    ],
    caveats: [
      'Includes resolve relative to the template.',
      'Content type `text/html; charset=utf-8` (option `charset`); render errors go to Fastify’s JSON error path.',
    ],
    stage: 'routes',
    safety: 'needs-care',
    source: '§3, §1.1 (view rows)',
  },
  hbs: {
    package: 'hbs',
    fastify: '@fastify/view',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyView, { engine: { handlebars: hbs.handlebars }, root: 'views', viewExt: 'hbs', layout, options: { partials } })`.",
    options: [
      { express: "app.set('views', dir)", fastify: 'root' },
      { express: 'hbs.registerPartials(dir)', fastify: 'options.partials (a name → path map)', note: 'No directory scan.' },
      { express: 'hbs.registerHelper', fastify: 'register on the handlebars instance (unchanged)' },
      { express: "layout.hbs (hbs's implicit default layout)", fastify: 'layout', note: 'hbs uses `views/layout.hbs` automatically; @fastify/view only with `layout`.' },
    ],
    caveats: ['`reply.locals`/`defaultContext` reach templates as `@data` only when configured.'],
    stage: 'routes',
    safety: 'needs-care',
    source: '§3 (express-handlebars row), §1.1 (view rows)',
  },
  'express-handlebars': {
    package: 'express-handlebars',
    fastify: '@fastify/view',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyView, { engine: { handlebars }, root: 'views', layout, options: { partials } })`.",
    options: [
      { express: 'defaultLayout', fastify: 'layout', note: 'Path relative to `root`.' },
      { express: 'partialsDir', fastify: 'options.partials (a name → path map)' },
      { express: 'helpers', fastify: 'register on the handlebars instance' },
      { express: 'extname', fastify: 'viewExt' },
    ],
    caveats: ['`reply.locals`/`defaultContext` reach templates as `@data` only when configured.'],
    stage: 'routes',
    safety: 'needs-care',
    source: '§3',
  },
  nunjucks: {
    package: 'nunjucks',
    fastify: '@fastify/view',
    kind: 'plugin',
    replacement: "`fastify.register(fastifyView, { engine: { nunjucks }, templates: dirs, viewExt: 'njk' })`.",
    options: [
      { express: 'nunjucks.configure(dirs, { express: app })', fastify: 'templates: dirs', note: 'Other configure options → `options`.' },
      { express: "app.set('view engine', 'njk')", fastify: "viewExt: 'njk'" },
    ],
    caveats: ['Environment customisations (filters, globals) must move to `options.onConfigure`.'],
    stage: 'routes',
    safety: 'needs-care',
    source: 'Not a §3 row; §1.1 (view rows), @fastify/view 12 README (nunjucks)',
  },
} as const satisfies Record<string, MiddlewareEntry>;

/**
 * Whether the routes stage runs `entry` as a moved route's own middleware unchanged through its
 * `expressMiddleware` adapter: it only reads the request (`readsRequestOnly`) or works on Express's
 * request and response (`worksOnExpress`). Not for an entry that is undefined (an unknown package).
 */
export function runsThroughAdapter(entry: MiddlewareEntry | undefined): boolean {
  return !!entry && (entry.readsRequestOnly === true || entry.worksOnExpress !== undefined);
}

/** A catalogued middleware key. */
export type MiddlewareKey = keyof typeof MIDDLEWARE;

/** Express members that are catalogued middleware (`express.json` …); body-parser's members map to them. */
const EXPRESS_MEMBERS = new Set(['json', 'urlencoded', 'text', 'raw', 'static']);

function entry(key: string): MiddlewareEntry | undefined {
  return Object.hasOwn(MIDDLEWARE, key) ? MIDDLEWARE[key as MiddlewareKey] : undefined;
}

/** `@scope/name/deep/path` → `@scope/name`; `name/deep` → `name`. */
export function packageRoot(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The entry for a middleware, or `undefined` when it is not catalogued (local code, an
 * unknown package, or Express itself without a catalogued member).
 *
 * Accepts:
 * - a catalogue key: a package (`cors`) or an Express built-in (`express.json`);
 * - the inventory's chain-entry text `name [package]` (fixtures/analyzer/README.md):
 *   `upload.single [multer]`, `bodyParser.json [body-parser]`;
 * - a name and the package it comes from (`pkg`, as the Inventory's `package` field gives it);
 * - a package member or deep import: `passport.authenticate` → `passport`,
 *   `body-parser.json` → `express.json`, `express-validator/check` → `express-validator`.
 *
 * Decisions:
 * - body-parser's parsers are Express's (Express re-exports body-parser), so
 *   `bodyParser.json [body-parser]` resolves to the `express.json` entry (likewise urlencoded,
 *   text, raw); a bare `bodyParser()` resolves to `body-parser`. A destructured member
 *   (`json [express]`) resolves the same way.
 * - Only the package decides the entry; the local name is never guessed from (DESIGN.md:
 *   provenance, not variable names), so a bare `bodyParser.json` or `cookieParser` without its
 *   package is `undefined` — the analyzer knows the package; pass it.
 * - Any member of another package resolves to the package's entry (`passport.initialize`,
 *   `upload.array [multer]`, `body.isEmail [express-validator]`): the entry's `options` list the
 *   per-member translations.
 */
export function middlewareFor(packageOrCallee: string, pkg?: string): MiddlewareEntry | undefined {
  let name = packageOrCallee.trim();
  let from = pkg?.trim();
  const tagged = /^(.*?)\s*\[([^\]]+)\]$/.exec(name);
  if (tagged && !from) [name, from] = [tagged[1], tagged[2]];
  if (from) {
    const root = packageRoot(from);
    if (root === 'express' || root === 'body-parser') {
      const member = name.includes('.') ? name.slice(name.indexOf('.') + 1).split('.')[0] : name;
      if (EXPRESS_MEMBERS.has(member) && !(root === 'body-parser' && member === 'static')) return entry(`express.${member}`);
      return root === 'body-parser' ? entry('body-parser') : undefined;
    }
    return entry(root);
  }
  const exact = entry(name);
  if (exact) return exact;
  if (name.includes('/')) return middlewareFor(packageRoot(name), packageRoot(name));
  const dot = name.indexOf('.');
  if (dot > 0) {
    const head = name.slice(0, dot);
    if (entry(head) || head === 'express') return middlewareFor(name.slice(dot + 1), head);
  }
  return undefined;
}

/**
 * The handler wrapper that `member` (the access path, `[]` for the export itself) of the npm
 * package `pkg` is, when the catalogue says it makes one (`MiddlewareEntry.handlerWrapper`).
 */
export function handlerWrapperOf(pkg: string, member: readonly string[]): HandlerWrapper | undefined {
  const wrapper = entry(packageRoot(pkg))?.handlerWrapper;
  if (!wrapper) return undefined;
  return (wrapper.member ? member.length === 1 && member[0] === wrapper.member : member.length === 0) ? wrapper : undefined;
}

/** Whether a bounded text holds for every version `range` admits, for none of them, or for some. */
function decide(t: VersionedText, range: string): 'holds' | 'excluded' | 'undecided' {
  const bounds = [t.since ? `>=${t.since}` : '', t.below ? `<${t.below}` : ''].filter(Boolean).join(' ');
  const options = { includePrerelease: true };
  if (semver.subset(range, bounds, options)) return 'holds';
  return semver.intersects(range, bounds, options) ? 'undecided' : 'excluded';
}

/**
 * The texts of `list` that hold for the app's version of the package, in catalogue order.
 * `version` is an exact installed version (`4.6.0`) or the declared range (`^4.1.0`), null when
 * neither is known or readable. A plain string always holds; a bounded `VersionedText` holds when
 * every version `version` admits is within its bounds (`^1.7.4` is not within `below: '1.8.0'`:
 * it admits 1.8.2); an `unknown` text holds when the version is null or a bounded text of `list`
 * is undecided. `versioned` is true for a bounded text chosen by its bounds.
 */
export function forVersion(list: readonly Caveat[], version: string | null): { text: string; versioned: boolean }[] {
  const range = version !== null && semver.validRange(version) ? version : null;
  const status = list.map((c) => (typeof c === 'string' ? 'always' : !c.since && !c.below ? 'unbounded' : range === null ? 'undecided' : decide(c, range)));
  const undecided = status.includes('undecided');
  return list.flatMap((c, i): { text: string; versioned: boolean }[] => {
    if (typeof c === 'string') return [{ text: c, versioned: false }];
    if (status[i] === 'holds') return [{ text: c.text, versioned: true }];
    return c.unknown && (range === null || undecided) ? [{ text: c.text, versioned: false }] : [];
  });
}
