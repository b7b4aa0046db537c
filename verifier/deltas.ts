/**
 * Recognises Express ↔ Fastify default differences in a replayed exchange and names them with
 * the ids of `rules/catalogue/framework-defaults.ts` (the data: what differs, whether a client
 * can notice, the fix). Detection rules follow express-fastify-mapping.md §2 (the probed
 * responses): e.g. finalhandler's 404 page is HTML `<pre>Cannot GET /x</pre>`, Fastify's is JSON
 * `{"message":"Route GET:/x not found",…}`.
 */
import { appliesToMajor, type FrameworkDefaultId } from '../rules/catalogue/framework-defaults.js';
import { MIDDLEWARE, type MiddlewareEntry } from '../rules/catalogue/middleware.js';
import { APP_ROOT_EXPRESS_ETAG } from './app-root.js';
import { isExpressEtag } from './etags.js';
import type { CanonicalResponse, Difference, ReplayRequest } from './model.js';

/** What a detector sees: the request as recorded, both canonical answers, the differences left. */
export interface DeltaContext {
  request: ReplayRequest;
  baseline: CanonicalResponse;
  candidate: CanonicalResponse;
  differences: Difference[];
  /** The baseline's Express major, when known (the query-parser delta exists only for 4). */
  expressMajor: number | null;
}

/** Differences attributed to one catalogued default. */
export interface Explanation {
  id: FrameworkDefaultId;
  differences: Difference[];
}

type Detector = (ctx: DeltaContext) => Difference[];

const everything: (test: (ctx: DeltaContext) => boolean) => Detector = (test) => (ctx) => (test(ctx) ? ctx.differences : []);
const atPointer = (test: (d: Difference) => boolean): Detector => (ctx) => ctx.differences.filter(test);

/** The differences under `pointers` when `test` holds: a default explains those and nothing else. */
const only = (pointers: RegExp, test: (ctx: DeltaContext) => boolean): Detector => (ctx) => (test(ctx) ? ctx.differences.filter((d) => pointers.test(d.pointer)) : []);
/** finalhandler's page replaced by Fastify's JSON: the body, its type and the page's own headers (CORS headers lost on a 404 are still reported). */
const PAGE = /^\/(body|bodyKind|mediaType|charset|headers\/(content-security-policy|x-content-type-options))(\/|$)/;
const onlyPage = (test: (ctx: DeltaContext) => boolean): Detector => only(PAGE, test);
/** Express's automatic OPTIONS answer: status, the `Allow` list as body and header. */
const OPTIONS_ANSWER = /^\/(status|body|bodyKind|mediaType|charset|headers\/(allow|x-content-type-options|etag))(\/|$)/;
/** A 304 against a full answer: status, body and its type, the validators — not the caching headers a 304 must repeat. */
const CONDITIONAL_ANSWER = /^\/(status|body|bodyKind|mediaType|charset|headers\/(etag|last-modified))(\/|$)/;
/** serve-static's folder redirect page and its headers (a 301 whose Location both sides agree on). */
const STATIC_REDIRECT_PAGE = /^\/(body|bodyKind|mediaType|charset|headers\/(content-type|content-security-policy|x-content-type-options))(\/|$)/;
/** The headers serve-static sends with a 416 that @fastify/static drops. */
const RANGE_ERROR_HEADERS = /^\/headers\/(content-range|accept-ranges|cache-control|last-modified|etag)$/;
/**
 * Express's automatic ETags (verifier/etags.ts), also where the body named the app's folder and the
 * tag was written as a placeholder (verifier/app-root.ts); an app's own tag is not a framework default.
 */
const isAutomaticEtag = (v: unknown) => isExpressEtag(v) || v === APP_ROOT_EXPRESS_ETAG;
const pathOf = (r: ReplayRequest) => r.path.split('?')[0];
/** A V8 stack trace: `Name: message` then `    at …` frames. */
const isStack = (v: unknown): v is string => typeof v === 'string' && /^[^\n]*\n\s+at \S/.test(v);
const firstLine = (v: string) => v.split('\n', 1)[0];
const ok = (c: CanonicalResponse) => c.status < 400;
const header = (r: ReplayRequest, name: string) => r.headers.find(([k]) => k.toLowerCase() === name)?.[1];
const text = (c: CanonicalResponse) => (typeof c.body === 'string' ? c.body : '');
/** The body as text, JSON included, for message tests. */
const bodyText = (c: CanonicalResponse) => (typeof c.body === 'string' ? c.body : JSON.stringify(c.body ?? ''));
const json = (c: CanonicalResponse) => (c.bodyKind === 'json' && c.body && typeof c.body === 'object' ? (c.body as Record<string, unknown>) : null);

/** finalhandler's page (Express 4 and 5): `<title>Error</title>` and a `<pre>` (mapping §2.1, §2.2). */
const isFinalhandlerPage = (c: CanonicalResponse) => c.mediaType === 'text/html' && /<title>Error<\/title>/.test(text(c)) && /<pre>/.test(text(c));
/** Fastify's default error/404 body (lib/error-handler.js, lib/four-oh-four.js). */
const isFastifyErrorBody = (c: CanonicalResponse) => typeof json(c)?.statusCode === 'number' && typeof json(c)?.message === 'string';

const bodyPointers = /^\/(body|bodyKind|mediaType|charset|headers\/content-type|headers\/vary)(\/|$)/;
/** Messages of Fastify's content-type parser errors (lib/errors.js, FST_ERR_CTP_*). */
const FASTIFY_PARSE_ERROR = /FST_ERR_CTP_|Body cannot be empty when content-type|Body is not valid JSON|Request body is too large|Unsupported Media Type/;

/** The headers the catalogue's root plugins set (rules/catalogue/middleware.ts `rootPlugin.headers`). */
const ROOT_PLUGIN_HEADERS = new RegExp(`^/headers/(${[...new Set((Object.values(MIDDLEWARE) as MiddlewareEntry[]).flatMap((e) => e.rootPlugin?.headers ?? []))].join('|')})$`);
/** Whether the list header `candidate` holds every token of `baseline` and more (a Vary a plugin added to). */
const addsTokens = (baseline: unknown, candidate: unknown) => {
  const tokens = (v: unknown) => new Set(String(v ?? '').toLowerCase().split(',').map((t) => t.trim()).filter(Boolean));
  const [b, c] = [tokens(baseline), tokens(candidate)];
  return c.size > b.size && [...b].every((t) => c.has(t));
};
/** A request with a body both sides answered with the same error status (a body parser's 400, 413 or 415, or what the app's error handler made of it: a 500). */
const refusedBody = ({ request: r, baseline: b, candidate: c }: DeltaContext) => !!r.body?.length && b.status >= 400 && b.status === c.status;

/** Detectors in precedence order (most specific first); a detector takes the differences it explains. */
const DETECTORS: Array<[FrameworkDefaultId, Detector]> = [
  // Deltas take only what the default explains: an app's own CORS or cache headers lost on the
  // way still count as regressions.
  ['auto-options', only(OPTIONS_ANSWER, ({ request: r, baseline: b, candidate: c }) => r.method === 'OPTIONS' && ok(b) && 'allow' in b.headers && c.status === 404)],
  // The other way: the app's catch-all 404 moved to Fastify (errors stage) while its routes stay on Express, whose router then answers OPTIONS itself.
  ['auto-options', only(OPTIONS_ANSWER, ({ request: r, baseline: b, candidate: c }) => r.method === 'OPTIONS' && b.status === 404 && ok(c) && 'allow' in c.headers)],
  ['etag', only(CONDITIONAL_ANSWER, ({ request: r, baseline: b, candidate: c }) => header(r, 'if-none-match') !== undefined && b.status === 304 && c.status === 200)],
  // A stack trace the app sends: the same message line, frames that name the framework and the checkout's paths.
  ['stack-frames', atPointer((d) => d.kind === 'value' && isStack(d.baseline) && isStack(d.candidate) && firstLine(d.baseline) === firstLine(d.candidate))],
  // Pure framework headers next, so a whole-answer cause below does not absorb them.
  ['x-powered-by', atPointer((d) => d.pointer === '/headers/x-powered-by' && d.candidate === undefined)],
  ['etag', atPointer((d) => d.pointer === '/headers/etag' && d.candidate === undefined && isAutomaticEtag(d.baseline))],
  // With both upper case and a trailing slash, case is named: Fastify answers a prefixed plugin's
  // root with and without the slash, so case is the usual cause.
  ['case-insensitive-routing', everything(({ request: r, baseline: b, candidate: c }) => pathOf(r) !== pathOf(r).toLowerCase() && ok(b) && c.status === 404)],
  ['trailing-slash', everything(({ request: r, baseline: b, candidate: c }) => pathOf(r).length > 1 && pathOf(r).endsWith('/') && ok(b) && c.status === 404)],
  ['head-routes', everything(({ request: r, baseline: b, candidate: c }) => r.method === 'HEAD' && ok(b) && c.status === 404)],
  ['max-param-length', everything(({ request: r, baseline: b, candidate: c }) => ok(b) && (c.status === 414 || c.status === 404) && pathOf(r).split('/').some((s) => s.length > 100))],
  ['empty-json-body', everything(({ request: r, baseline: b, candidate: c }) => /json/i.test(header(r, 'content-type') ?? '') && !r.body?.length && c.status === 400 && (ok(b) || FASTIFY_PARSE_ERROR.test(bodyText(c))))],
  // Headers a root plugin (cors, helmet) adds where the body parser before its middleware refused the body (plugins stage).
  ['plugin-headers-on-refused-bodies', (ctx) => (refusedBody(ctx) ? ctx.differences.filter((d) => ROOT_PLUGIN_HEADERS.test(d.pointer) && (d.baseline === undefined || (d.pointer === '/headers/vary' && addsTokens(d.baseline, d.candidate)))) : [])],
  ['unsupported-media-type', everything(({ baseline: b, candidate: c }) => c.status === 415 && b.status !== 415)],
  ['body-limit', everything(({ baseline: b, candidate: c }) => b.status === 413 && c.status !== 413)],
  ['body-parser-errors', everything(({ request: r, baseline: b, candidate: c }) => !!r.body?.length && [400, 413, 415].includes(b.status) && b.status === c.status && FASTIFY_PARSE_ERROR.test(bodyText(c)))],
  ['default-404-body', onlyPage(({ baseline: b, candidate: c }) => b.status === 404 && c.status === 404 && isFinalhandlerPage(b) && /^Route \w+:.* not found$/.test(String(json(c)?.message)))],
  ['default-error-body', onlyPage(({ baseline: b, candidate: c }) => b.status === c.status && b.status >= 400 && isFinalhandlerPage(b) && isFastifyErrorBody(c))],
  // Static files served by @fastify/static where serve-static served them (plugins stage).
  ['static-redirect-page', only(STATIC_REDIRECT_PAGE, ({ baseline: b, candidate: c }) => b.status === 301 && c.status === 301 && b.headers.location === c.headers.location && b.headers['content-security-policy'] === "default-src 'none'")],
  ['static-forbidden-path', everything(({ request: r, baseline: b, candidate: c }) => ok(b) && c.status === 403 && /\/\/|\/\.\.?(\/|$)/.test(pathOf(r)))],
  ['static-range-unsatisfiable', only(RANGE_ERROR_HEADERS, ({ baseline: b, candidate: c }) => b.status === 416 && c.status === 416)],
  ['static-content-type', atPointer((d) => d.pointer === '/mediaType' && d.baseline === 'text/javascript' && d.candidate === 'application/javascript')],
  [
    'redirect-body',
    everything(({ baseline: b, candidate: c, differences }) => b.status >= 300 && b.status < 400 && b.status === c.status && b.headers.location === c.headers.location && differences.every((d) => bodyPointers.test(d.pointer))),
  ],
  ['query-parser', everything(({ request: r, expressMajor }) => expressMajor === 4 && /[?&][^=&]*\[/.test(decodeURIComponent(r.path)))],
  ['string-body-content-type', atPointer((d) => d.pointer === '/mediaType' && d.baseline === 'text/html' && d.candidate === 'text/plain')],
  // A charset dropped from a content type the candidate still sends (an answer without a content type, a 304, lost more than its charset).
  ['charset-dropped', only(/^\/charset$/, ({ baseline: b, candidate: c }) => b.charset === 'utf-8' && c.charset === null && c.mediaType !== null)],
];

/**
 * Splits `ctx.differences` into those a catalogued default explains and the rest. Each
 * difference is attributed to at most one default (the first detector in precedence order).
 * @returns explanations in detection order (one per default id) and the unexplained differences.
 */
export function explainDifferences(ctx: DeltaContext): { explained: Explanation[]; unexplained: Difference[] } {
  let left = ctx.differences;
  const explained: Explanation[] = [];
  for (const [id, detect] of DETECTORS) {
    if (!left.length) break;
    if (!appliesToMajor(id, ctx.expressMajor)) continue;
    const hit = new Set(detect({ ...ctx, differences: left }));
    if (!hit.size) continue;
    const prior = explained.find((e) => e.id === id);
    if (prior) prior.differences.push(...hit);
    else explained.push({ id, differences: [...hit] });
    left = left.filter((d) => !hit.has(d));
  }
  return { explained, unexplained: left };
}

/** undici's codes for a lane that did not answer in time (verifier/send.ts `timeoutMs`). */
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * An exchange the baseline never answered (the request timed out) and the candidate answered with
 * an error status (≥ 400, its error handler's answer): in an Express 4 app that is a handler whose
 * promise rejected — Express 4 does not read it, a Fastify route sends the rejection to the error
 * handler (framework default `async-rejection`, mapping §2.12). Null otherwise (Express 5 forwards
 * rejections itself; a success on the candidate or another failure is no such delta).
 * @param error what sending to the baseline threw (undici's error, `code` set)
 */
export function explainUnanswered(ctx: { error: Error; candidateStatus: number; expressMajor: number | null }): Explanation | null {
  if (!appliesToMajor('async-rejection', ctx.expressMajor)) return null;
  const code = String((ctx.error as NodeJS.ErrnoException).code);
  if (!TIMEOUTS.has(code) || ctx.candidateStatus < 400) return null;
  return { id: 'async-rejection', differences: [{ pointer: '/status', kind: 'status', baseline: `no response (${code})`, candidate: ctx.candidateStatus }] };
}
