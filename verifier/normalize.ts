/**
 * Turns a response as received (RawResponse) into the canonical form that is diffed
 * (CanonicalResponse). Rules and where they come from:
 *
 * - Header names are lower-cased: Express sends the casing the code used, Fastify lower-cases,
 *   and header order differs too (express-fastify-mapping §2.3, §2.15).
 * - Dropped: hop-by-hop headers (`connection`, `keep-alive`, `transfer-encoding`, `te`,
 *   `trailer`, `upgrade`, `proxy-*`; RFC 9110 §7.6.1), `date` (always differs, §2.3),
 *   `content-length` (the body itself is compared) and `content-encoding` (bodies arrive
 *   decoded; `@fastify/compress` prefers br where `compression` uses gzip, §2.13).
 *   Verifier-design §1.13 and §7.7.
 * - Kept: `x-powered-by`, `etag` and every other header. §2.15 lists them as droppable, but the
 *   design reports them as *framework deltas* with the Fastify fix (DESIGN.md "Behaviour parity"),
 *   so dropping them here would hide them.
 * - A repeated header is joined with `, ` in received order (RFC 9110 §5.3), except Set-Cookie.
 * - Lists whose order means nothing (`vary`, `allow`, the CORS lists) are sorted, and so are the
 *   directives of a Content Security Policy (CSP 3 §2.2.1: a set; helmet majors order it differently).
 * - `content-type` becomes `mediaType` (lower-cased, parameters removed) and `charset`
 *   (lower-cased, unquoted; null when absent), so `text/html; charset=UTF-8` equals
 *   `text/html;charset=utf-8` (Express 4 static files send `UTF-8`, §2.4). It is not kept in `headers`.
 * - `set-cookie` becomes `cookies[name]` (RFC 6265 §5.2 attribute parsing, simplified):
 *   value as sent, `path`, `domain` (lower-cased, leading dot removed), `expires` (ISO 8601 when
 *   parsable, else as sent), `maxAge` (seconds), `httpOnly` and `secure` (always present, true or
 *   false), `sameSite` (lower-cased). When a name repeats, the last cookie wins (as in a browser).
 * - The body, by media type: JSON (`application/json` and any `+json` type) is parsed (bodyKind `json`;
 *   unparsable JSON falls back to `text`); textual types (`text/*`, XML and `+xml` including SVG,
 *   JavaScript, `application/x-www-form-urlencoded`) become a string (bodyKind `text`), decoded
 *   with the declared charset (UTF-8 when absent or unknown); an empty body is bodyKind `empty`
 *   with body null whatever the type; anything else, including a body without a content type,
 *   is bodyKind `binary` with body `{ sha256, size }` (hex digest, size in bytes).
 */
import { createHash } from 'node:crypto';
import type { CanonicalCookie, CanonicalResponse, RawResponse } from './model.js';

const DROPPED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'date', 'content-length', 'content-encoding']);

/** True for a header the canonical form never keeps (see the module docs). `name` must be lower-case. */
export function isDroppedHeader(name: string): boolean {
  return DROPPED.has(name) || name.startsWith('proxy-');
}

/** The body of a `binary` canonical response. */
export interface BinaryBody {
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  /** Size in bytes. */
  size: number;
}

/**
 * Headers whose value is a set of tokens: order and spacing carry no meaning (`GET,HEAD` from
 * Express 4 and `GET, HEAD` from Express 5; middleware add to `Vary` in any order), so they are
 * compared sorted (verifier-design §7.7).
 */
const UNORDERED_LISTS = new Set(['vary', 'allow', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-expose-headers']);

/** Content Security Policy headers: a policy is a set of directives, whose order does not matter (CSP 3 §2.2.1). */
const POLICIES = new Set(['content-security-policy', 'content-security-policy-report-only']);

/**
 * A policy's directives, sorted, each with its name lower-cased and its values as sent (a
 * directive repeated is ignored after its first, as browsers do: CSP 3 §2.2.1): helmet 8.3 writes
 * its default directives in another order than earlier helmets wrote the same policy.
 */
function canonicalPolicy(value: string): string {
  const directives = new Map<string, string>();
  for (const part of value.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), [name.toLowerCase(), ...values].join(' '));
  }
  return [...directives.keys()].sort().map((name) => directives.get(name)).join(';');
}

/** Canonicalises one response. Never throws: whatever cannot be parsed is kept as text or bytes. */
export function canonicalize(raw: RawResponse): CanonicalResponse {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of raw.headers) {
    const key = name.trim().toLowerCase();
    if (isDroppedHeader(key)) continue;
    grouped.set(key, [...(grouped.get(key) ?? []), value.trim()]);
  }
  const { mediaType, charset } = parseContentType(grouped.get('content-type')?.[0]);
  const cookies: Record<string, CanonicalCookie> = {};
  for (const line of grouped.get('set-cookie') ?? []) {
    const parsed = parseSetCookie(line);
    if (parsed) cookies[parsed.name] = parsed.cookie;
  }
  const headers: Record<string, string> = {};
  for (const name of [...grouped.keys()].sort()) {
    if (name === 'content-type' || name === 'set-cookie') continue;
    const value = grouped.get(name)!.join(', ');
    headers[name] = UNORDERED_LISTS.has(name) ? [...new Set(value.split(',').map((v) => v.trim()).filter(Boolean))].sort().join(', ') : POLICIES.has(name) ? canonicalPolicy(value) : value;
  }
  const sortedCookies: Record<string, CanonicalCookie> = {};
  for (const name of Object.keys(cookies).sort()) sortedCookies[name] = cookies[name];
  return { status: raw.status, mediaType, charset, headers, cookies: sortedCookies, ...canonicalBody(raw.body, mediaType, charset) };
}

/** Splits a Content-Type value: `Text/HTML; Charset="UTF-8"` → `{ mediaType: 'text/html', charset: 'utf-8' }`. */
export function parseContentType(value: string | undefined): { mediaType: string | null; charset: string | null } {
  if (value === undefined || value.trim() === '') return { mediaType: null, charset: null };
  const [type, ...params] = value.split(';');
  let charset: string | null = null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase() || null;
  }
  return { mediaType: type.trim().toLowerCase() || null, charset };
}

/**
 * The parts of one Set-Cookie line: the `name=value` pair as written (name null without `=`) and
 * the attributes as [lower-cased key, trimmed value] pairs. Shared by the canonical form here
 * and the HAR cookies of the recorder (verifier/har.ts), which keep different shapes.
 */
export function splitSetCookie(line: string): { name: string | null; value: string; attributes: Array<[string, string]> } {
  const [pair, ...rest] = line.split(';');
  const eq = pair.indexOf('=');
  const attributes = rest.map((a): [string, string] => {
    const at = a.indexOf('=');
    return [(at < 0 ? a : a.slice(0, at)).trim().toLowerCase(), at < 0 ? '' : a.slice(at + 1).trim()];
  });
  return eq < 0 ? { name: null, value: pair.trim(), attributes } : { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
}

/** Parses one Set-Cookie line; null when it has no `name=` part. */
export function parseSetCookie(line: string): { name: string; cookie: CanonicalCookie } | null {
  const { name, value: cookieValue, attributes } = splitSetCookie(line);
  if (!name) return null;
  const cookie: CanonicalCookie = { value: cookieValue, httpOnly: false, secure: false };
  for (const [key, value] of attributes) {
    if (key === 'path') cookie.path = value;
    else if (key === 'domain') cookie.domain = value.replace(/^\./, '').toLowerCase();
    else if (key === 'expires') cookie.expires = Number.isNaN(Date.parse(value)) ? value : new Date(value).toISOString();
    else if (key === 'max-age' && /^-?\d+$/.test(value)) cookie.maxAge = Number(value);
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'samesite') cookie.sameSite = value.toLowerCase();
  }
  return { name, cookie };
}

/** True for `application/json` and any `+json` type. */
export function isJsonMediaType(mediaType: string | null): boolean {
  return mediaType !== null && (mediaType === 'application/json' || mediaType.endsWith('+json'));
}

const TEXTUAL = new Set(['application/xml', 'application/javascript', 'application/x-javascript', 'application/ecmascript', 'application/x-www-form-urlencoded']);

/** True for media types whose body is compared as a string. */
export function isTextualMediaType(mediaType: string | null): boolean {
  return mediaType !== null && (mediaType.startsWith('text/') || mediaType.endsWith('+xml') || TEXTUAL.has(mediaType));
}

/** The body as text in its charset (UTF-8 when absent or unknown), or null when the bytes are not valid in it. */
function decode(body: Buffer, charset: string | null): string | null {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8', { fatal: true });
  } catch {
    decoder = new TextDecoder('utf-8', { fatal: true });
  }
  try {
    return decoder.decode(body);
  } catch {
    return null;
  }
}

/** An integer literal JSON.parse would round (beyond 2^53): such a body is compared as text. */
const UNSAFE_INTEGER = /(?:^|[[,:\s])-?\d{16,}(?=[\s,\]}]|$)/;

/**
 * The body by media type: JSON as a tree, text as text, anything else (and text whose bytes are
 * not valid in its charset, which decoding would blur into U+FFFD) by sha256 and size.
 */
function canonicalBody(body: Buffer, mediaType: string | null, charset: string | null): Pick<CanonicalResponse, 'body' | 'bodyKind'> {
  if (body.length === 0) return { body: null, bodyKind: 'empty' };
  const text = isJsonMediaType(mediaType) || isTextualMediaType(mediaType) ? decode(body, charset) : null;
  if (text !== null && isJsonMediaType(mediaType) && !UNSAFE_INTEGER.test(text)) {
    try {
      return { body: JSON.parse(text), bodyKind: 'json' };
    } catch {
      // not JSON after all: compared as text
    }
  }
  if (text !== null) return { body: text, bodyKind: 'text' };
  const binary: BinaryBody = { sha256: createHash('sha256').update(body).digest('hex'), size: body.length };
  return { body: binary, bodyKind: 'binary' };
}
