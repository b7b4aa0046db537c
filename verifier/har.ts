/**
 * HAR 1.2 storage for recordings (verifier-design.md §7.3): read with clear errors, write stable
 * and diff-friendly, turn entries into requests to replay and responses to compare, and the small
 * building blocks a recorder or importer needs to make entries (bodies, cookies, query strings).
 *
 * Stable output, like Polly's persister: a fixed key order per HAR object (the spec's order, our
 * `_` extensions after it, any other key after those in code-point order), entries in recorded
 * order numbered by `_seq`, two-space JSON, a trailing newline, written atomically.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from './files.js';
import type { Har, HarCookie, HarEntry, HarNameValue, HarRequest, HarResponse, RawResponse, ReplayRequest } from './model.js';
import { splitSetCookie } from './normalize.js';

/** A HAR file that cannot be read or is not HAR 1.x; `file` names it, the message says where. */
export class HarError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'HarError';
  }
}

/**
 * Reads and checks a HAR 1.x file. Optional HAR fields a browser may leave out (cookies, query
 * string, sizes, timings…) get their empty defaults, so consumers can rely on the model's shape.
 * @throws HarError when the file is unreadable, not JSON, not HAR 1.x, or an entry lacks
 *   `request.method`, `request.url` (absolute: with a scheme) or `response.status`; the message names the file
 *   and the 1-based entry.
 */
export function readHar(file: string): Har {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new HarError(file, `cannot read ${file}: ${(e as Error).message}`);
  }
  return parseHar(text, file);
}

/** Like {@link readHar} for text already in memory; `source` names it in errors. */
export function parseHar(text: string, source: string): Har {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new HarError(source, `${source} is not JSON: ${(e as Error).message}`);
  }
  const log = isObject(data) ? data.log : undefined;
  if (!isObject(log)) throw new HarError(source, `${source} is not a HAR file: it has no "log" object`);
  if (typeof log.version !== 'string' || !/^1\./.test(log.version)) {
    const found = log.version === undefined ? 'log.version is missing' : `log.version is ${JSON.stringify(log.version)}`;
    throw new HarError(source, `${source} is not HAR 1.x (${found})`);
  }
  if (!Array.isArray(log.entries)) throw new HarError(source, `${source} is not a HAR file: log.entries is not an array`);
  const entries = log.entries.map((e: unknown, i: number) => checkedEntry(e, `${source}: entry ${i + 1}`, source));
  const creator = isObject(log.creator) ? log.creator : { name: 'unknown', version: '' };
  return { log: { ...log, version: log.version, creator: creator as Har['log']['creator'], entries } };
}

function checkedEntry(e: unknown, where: string, source: string): HarEntry {
  const fail = (what: string) => new HarError(source, `${where} ${what}`);
  if (!isObject(e)) throw fail('is not an object');
  const req = e.request;
  const res = e.response;
  if (!isObject(req)) throw fail('lacks request');
  if (typeof req.method !== 'string' || !req.method) throw fail('lacks request.method');
  if (typeof req.url !== 'string' || !req.url) throw fail('lacks request.url');
  if (!/^[a-z][a-z0-9+.-]*:/i.test(req.url)) throw fail(`has a request.url that is not absolute: ${JSON.stringify(req.url)}`);
  if (!isObject(res)) throw fail('lacks response');
  if (typeof res.status !== 'number') throw fail('lacks response.status');
  for (const [side, obj] of [['request', req], ['response', res]] as const) {
    for (const key of ['headers', 'cookies', ...(side === 'request' ? ['queryString'] : [])]) {
      if (obj[key] !== undefined && !Array.isArray(obj[key])) throw fail(`has a ${side}.${key} that is not an array`);
      const bad = ((obj[key] as unknown[]) ?? []).findIndex((h) => !isObject(h) || typeof h.name !== 'string');
      if (bad >= 0) throw fail(`has ${side}.${key}[${bad}] without a name`);
    }
  }
  const request: HarRequest = {
    ...(req as unknown as HarRequest),
    httpVersion: str(req.httpVersion, 'HTTP/1.1'),
    cookies: (req.cookies as HarCookie[]) ?? [],
    headers: ((req.headers as HarNameValue[]) ?? []).map(stringValue),
    queryString: (req.queryString as HarNameValue[]) ?? [],
    headersSize: num(req.headersSize, -1),
    bodySize: num(req.bodySize, -1),
  };
  const response: HarResponse = {
    ...(res as unknown as HarResponse),
    statusText: str(res.statusText, ''),
    httpVersion: str(res.httpVersion, 'HTTP/1.1'),
    cookies: (res.cookies as HarCookie[]) ?? [],
    headers: ((res.headers as HarNameValue[]) ?? []).map(stringValue),
    content: isObject(res.content) ? (res.content as unknown as HarResponse['content']) : { size: 0, mimeType: '' },
    redirectURL: str(res.redirectURL, ''),
    headersSize: num(res.headersSize, -1),
    bodySize: num(res.bodySize, -1),
  };
  return {
    ...(e as unknown as HarEntry),
    startedDateTime: str(e.startedDateTime, ''),
    time: num(e.time, 0),
    request,
    response,
    cache: isObject(e.cache) ? e.cache : {},
    timings: isObject(e.timings) ? (e.timings as HarEntry['timings']) : { send: 0, wait: 0, receive: 0 },
  };
}

/**
 * The stable text of a HAR: fixed key order, `_seq` set to each entry's 1-based position (the
 * array order is the recorded order), two-space indentation, trailing newline. Pure: `har` is not
 * modified.
 */
export function stringifyHar(har: Har): string {
  const log = har.log;
  const ordered = order(log, LOG_KEYS, {
    creator: (c) => order(c, CREATOR_KEYS),
    browser: (b) => order(b, CREATOR_KEYS),
    entries: (entries) => (entries as HarEntry[]).map((e, i) => orderEntry({ ...e, _seq: i + 1 })),
  });
  return `${JSON.stringify({ log: ordered }, null, 2)}\n`;
}

/**
 * Writes `har` to `file` ({@link stringifyHar}), creating its folder; atomic (a temporary file
 * renamed over the target), so a reader never sees half a recording. Write → read → write gives
 * the same bytes.
 */
export function writeHar(file: string, har: Har): void {
  writeFileAtomic(file, stringifyHar(har));
}

/**
 * The requests of a recording, in order, ready to send to a lane.
 * - `id`: `e<1-based index>`; `session`: the entry's `_session`, else `"default"`.
 * - `path`: path and query exactly as in the recorded URL (no normalisation), fragment dropped.
 * - `headers`: in recorded order, `:`-pseudo-headers (HTTP/2) dropped; a `Content-Length` is set
 *   to the body's byte length (redaction may have changed the body).
 * - `body`: `postData.text` (base64-decoded when `_encoding` is `base64`, else UTF-8); without
 *   text, `params` rebuilt as an urlencoded body, or as multipart when the MIME type names a boundary.
 */
export function toReplayRequests(har: Har): ReplayRequest[] {
  return har.log.entries.map((entry, i) => toReplayRequest(entry, i));
}

/** One entry as a replay request (see {@link toReplayRequests}); `index` is 0-based. */
export function toReplayRequest(entry: HarEntry, index: number): ReplayRequest {
  const { request } = entry;
  const body = requestBody(request);
  const headers = request.headers
    .filter((h) => !h.name.startsWith(':'))
    .map((h): [string, string] => [h.name, body && /^content-length$/i.test(h.name) ? String(body.length) : h.value]);
  const out: ReplayRequest = { id: `e${index + 1}`, session: entry._session ?? 'default', method: request.method, path: pathOf(request.url), headers };
  if (body) out.body = body;
  if (entry.comment) out.comment = entry.comment;
  if (entry._routeTemplate) out.routeTemplate = entry._routeTemplate;
  return out;
}

/**
 * The recorded response of an entry as a lane answer would look: status, headers in order
 * (pseudo-headers dropped; `Content-Encoding` kept though the body is decoded, as in a lane's
 * {@link RawResponse}), body from `content.text` (base64 when `content.encoding` is `base64`),
 * empty when the recording has no text.
 */
export function recordedResponse(entry: HarEntry): RawResponse {
  const { response } = entry;
  const { text, encoding } = response.content;
  return {
    status: response.status,
    headers: response.headers.filter((h) => !h.name.startsWith(':')).map((h): [string, string] => [h.name, h.value]),
    body: text === undefined ? Buffer.alloc(0) : Buffer.from(text, encoding === 'base64' ? 'base64' : 'utf8'),
  };
}

// ---------------------------------------------------------------------------------------------
// Building blocks for recorders and importers.

/** True for MIME types whose bodies are stored as text when they are valid UTF-8. */
export function isTextual(mimeType: string | undefined): boolean {
  return /^(text\/|application\/(json|javascript|ecmascript|xml|x-www-form-urlencoded|graphql)\b|image\/svg\+xml)|\+json|\+xml/i.test(mimeType ?? '');
}

/** True when `buf` is valid UTF-8. */
export function isUtf8(buf: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

/**
 * A response `content` for a decoded body: text when textual and UTF-8, base64 otherwise.
 * `encodedSize` is the byte count on the wire (before decoding Content-Encoding); when it differs,
 * `compression` records the bytes saved (HAR 1.2: size − bodySize).
 */
export function harContent(body: Buffer, mimeType: string, encodedSize = body.length): HarResponse['content'] {
  const content: HarResponse['content'] = { size: body.length, mimeType };
  if (encodedSize !== body.length) content.compression = body.length - encodedSize;
  if (body.length) {
    if (isTextual(mimeType) && isUtf8(body)) content.text = body.toString('utf8');
    else {
      content.text = body.toString('base64');
      content.encoding = 'base64';
    }
  }
  return content;
}

/** A request `postData` for a body: UTF-8 text, else base64 with `_encoding`; urlencoded bodies also list `params`. */
export function harPostData(body: Buffer, mimeType: string): NonNullable<HarRequest['postData']> {
  const postData: NonNullable<HarRequest['postData']> = isUtf8(body)
    ? { mimeType, text: body.toString('utf8') }
    : { mimeType, text: body.toString('base64'), _encoding: 'base64' };
  if (/^application\/x-www-form-urlencoded/i.test(mimeType) && postData._encoding === undefined) {
    postData.params = [...new URLSearchParams(body.toString('utf8'))].map(([name, value]) => ({ name, value }));
  }
  return postData;
}

/** The cookies of a `Cookie` request header (`a=1; b=2`), in order, values as sent. */
export function parseCookieHeader(value: string): HarCookie[] {
  return value
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      return i < 0 ? { name: '', value: p } : { name: p.slice(0, i).trim(), value: p.slice(i + 1).trim() };
    });
}

/** One `Set-Cookie` line as a HAR cookie (path, domain, expires as ISO 8601, httpOnly, secure, sameSite). Max-Age stays in the header. */
export function parseSetCookie(line: string): HarCookie {
  const { name, value, attributes } = splitSetCookie(line);
  const cookie: HarCookie = { name: name ?? '', value };
  for (const [key, val] of attributes) {
    if (key === 'path') cookie.path = val;
    else if (key === 'domain') cookie.domain = val;
    else if (key === 'expires' && !Number.isNaN(Date.parse(val))) cookie.expires = new Date(val).toISOString();
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'samesite') cookie.sameSite = val;
  }
  return cookie;
}

/** The query of a URL or path as HAR name/value pairs, decoded (`+` is a space). */
export function queryStringOf(url: string): HarNameValue[] {
  const q = pathOf(url).split('?').slice(1).join('?');
  return [...new URLSearchParams(q)].map(([name, value]) => ({ name, value }));
}

/** Path and query of an absolute URL as written (no normalisation), without the fragment; `/` at least. */
export function pathOf(url: string): string {
  const origin = ABSOLUTE_URL.exec(url);
  let rest = origin ? url.slice(origin[0].length) : url;
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

// ---------------------------------------------------------------------------------------------

const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

function requestBody(request: HarRequest): Buffer | undefined {
  const pd = request.postData;
  if (!pd) return undefined;
  if (pd.text !== undefined) return Buffer.from(pd.text, pd._encoding === 'base64' ? 'base64' : 'utf8');
  if (!pd.params?.length) return undefined;
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(pd.mimeType ?? '');
  if (/^multipart\/form-data/i.test(pd.mimeType ?? '') && boundary) return multipartOf(pd.params as MultipartParam[], boundary[1] ?? boundary[2]);
  return Buffer.from(new URLSearchParams(pd.params.map((p) => [p.name, p.value ?? ''])).toString());
}

/** HAR 1.2 params of a multipart body may carry `fileName` and `contentType`. */
type MultipartParam = HarNameValue & { fileName?: string; contentType?: string };

function multipartOf(params: MultipartParam[], boundary: string): Buffer {
  const parts = params.map((p) => {
    const file = p.fileName === undefined ? '' : `; filename="${p.fileName}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}`;
    return `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\n\r\n${p.value ?? ''}\r\n`;
  });
  return Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
}

// Key orders: the HAR 1.2 spec's, then our extensions. Anything else follows in code-point order.
const LOG_KEYS = ['version', 'creator', 'browser', 'pages', 'entries', 'comment', '_verifierVersion'];
const CREATOR_KEYS = ['name', 'version', 'comment'];
const NAME_VALUE_KEYS = ['name', 'value', 'comment'];
const ENTRY_KEYS = ['pageref', 'startedDateTime', 'time', 'request', 'response', 'cache', 'timings', 'serverIPAddress', 'connection', 'comment', '_seq', '_session', '_routeTemplate', '_redactions'];
const REQUEST_KEYS = ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'postData', 'headersSize', 'bodySize', 'comment'];
const POST_DATA_KEYS = ['mimeType', 'text', '_encoding', 'params', 'comment'];
const PARAM_KEYS = ['name', 'value', 'fileName', 'contentType', 'comment'];
const RESPONSE_KEYS = ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize', 'comment'];
const CONTENT_KEYS = ['size', 'compression', 'mimeType', 'text', 'encoding', 'comment'];
const COOKIE_KEYS = ['name', 'value', 'path', 'domain', 'expires', 'httpOnly', 'secure', 'sameSite', 'comment'];
const TIMINGS_KEYS = ['blocked', 'dns', 'connect', 'send', 'wait', 'receive', 'ssl', 'comment'];

type Shape = (value: unknown) => unknown;

function orderEntry(e: HarEntry): unknown {
  const list = (keys: string[]) => (v: unknown) => (Array.isArray(v) ? v.map((x) => order(x, keys)) : v);
  return order(e, ENTRY_KEYS, {
    request: (r) =>
      order(r, REQUEST_KEYS, {
        cookies: list(COOKIE_KEYS),
        headers: list(NAME_VALUE_KEYS),
        queryString: list(NAME_VALUE_KEYS),
        postData: (p) => order(p, POST_DATA_KEYS, { params: list(PARAM_KEYS) }),
      }),
    response: (r) => order(r, RESPONSE_KEYS, { cookies: list(COOKIE_KEYS), headers: list(NAME_VALUE_KEYS), content: (c) => order(c, CONTENT_KEYS) }),
    timings: (t) => order(t, TIMINGS_KEYS),
  });
}

/** A copy of `value` with `keys` first in that order, then the rest sorted; undefined values left out. */
function order(value: unknown, keys: string[], shape: Record<string, Shape> = {}): unknown {
  if (!isObject(value)) return value;
  const rest = Object.keys(value)
    .filter((k) => !keys.includes(k))
    .sort();
  const out: Record<string, unknown> = {};
  for (const k of [...keys, ...rest]) {
    if (value[k] === undefined) continue;
    out[k] = shape[k] ? shape[k](value[k]) : value[k];
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function stringValue(h: HarNameValue): HarNameValue {
  return typeof h.value === 'string' ? h : { ...h, value: h.value === undefined || h.value === null ? '' : String(h.value) };
}
