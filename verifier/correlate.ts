/**
 * Value correlation for one lane (verifier-design.md §7.13; GoReplay token middleware, Keploy
 * templatize, Speedscale smart_replace): values a response creates — Set-Cookie values, the
 * segments of a `Location`, identifiers in JSON bodies — are bound to the value the recording
 * saw at the same place. Later requests are rewritten with this lane's own values, so a session
 * cookie or a created id keeps working; later answers are compared with this lane's values
 * mapped back to the recorded ones, so "baseline id #4 ↔ candidate id #7" compares as equal
 * when both were bound to the same recorded id.
 *
 * Redaction placeholders (`<redacted:…>`) are replaced by the value bound to them (a cookie the
 * lane set where the recording saw that placeholder) or by credentials given for the lane. Cookie
 * jars are kept per session (a cookie cleared by a logout leaves it) and stand in only for a
 * redacted cookie nothing else resolves; a recording may log in several users in one session, so
 * the recorded value, not the last cookie set, says whose cookie a request carries.
 */
import { parseSetCookie } from './normalize.js';
import { REDACTED } from './redact.js';
import type { CanonicalResponse, RawResponse, ReplayRequest } from './model.js';

/** Keys whose values are identifiers, bound and restored even when short (e.g. `id: 3`). */
const ID_KEY = /(^|[_-])(id|uuid|guid|key|token|slug|code|ref|sid)$|[a-z0-9](Id|ID|Uuid|Key|Token|Code|Ref)$|^_id$/i;
/** Shorter strings are restored only at identifier keys (longer ones anywhere they equal a bound value). */
const MIN_FREE_LENGTH = 6;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Headers about one connection, not the request: the client sets its own (curl's `Expect: 100-continue` included). */
const HOP_BY_HOP = /^(content-length|connection|keep-alive|transfer-encoding|expect|upgrade|te|trailer|proxy-connection|http2-settings)$/i;

/** A request as this lane will receive it; `missing` lists placeholders no credential resolved. */
export interface LaneRequest {
  request: ReplayRequest;
  missing: string[];
}

/** Bindings of one lane: recorded value → this lane's value, and back. */
export class LaneBindings {
  private readonly forward = new Map<string, string>();
  private readonly reverse = new Map<string, string>();
  private readonly jars = new Map<string, Map<string, string>>();

  /** @param credentials placeholder (`<redacted:authorization:1>`) → real value for this lane */
  constructor(private readonly credentials: ReadonlyMap<string, string> = new Map()) {}

  /** Rewrites `request` for this lane: bound values, credentials, and cookies from the session jar where nothing else resolves them. */
  rewrite(request: ReplayRequest): LaneRequest {
    const missing = new Set<string>();
    const swap = (value: string): string => {
      const bound = this.forward.get(value);
      if (bound !== undefined) return bound;
      return value.replace(REDACTED, (p) => this.credentials.get(p) ?? this.forward.get(p) ?? (missing.add(p), p));
    };
    // Bound values are swapped where identifiers live — path segments, identifier-named query and
    // body keys, cookies, credentials — or where the value is long enough to be one: `?page=2`
    // stays `?page=2` when id 2 was bound to 3.
    const swapAt = (key: string, value: string): string => (ID_KEY.test(key) || value.length >= MIN_FREE_LENGTH || value.includes('<redacted:') ? swap(value) : value);
    const jar = this.jars.get(request.session);
    const headers = request.headers
      .filter(([name]) => !HOP_BY_HOP.test(name))
      .map(([name, value]): [string, string] => {
        // A recorded cookie value names an identity (a recording may hold several logins in one
        // session): its binding wins; the session jar only stands in for a redacted value nothing resolves.
        if (/^cookie$/i.test(name)) return [name, rewriteCookieHeader(value, (n, v) => (this.resolves(v) ? swap(v) : (jar?.get(n) ?? swap(v))))];
        // A credential may be given with its scheme (`Bearer eyJ…`) or without: never send the scheme twice.
        if (/^authorization$/i.test(name))
          return [name, value.replace(/^(\S+\s+)?(.*)$/, (_, scheme = '', token) => {
            const next = swap(token);
            return scheme && next.toLowerCase().startsWith(scheme.toLowerCase()) ? next : scheme + next;
          })];
        return [name, swapAt(name, value)];
      });
    const [pathname, query] = splitOnce(request.path, '?');
    const path = pathname.split('/').map((s) => encodeSegment(swap(safeDecode(s)), s)).join('/') + (query === undefined ? '' : '?' + rewriteQuery(query, swapAt));
    const body = request.body && rewriteBody(request.body, contentType(request.headers), swapAt);
    return { request: { ...request, path, headers, body }, missing: [...missing] };
  }

  /**
   * Learns bindings from an exchange: the recorded answer and this lane's answer to the same
   * request. Call after comparing, so the answer that creates a value is compared as it is.
   * Cookies and `Location` bind on every request; JSON identifiers only on requests that can
   * create something (not GET/HEAD/OPTIONS), so a list that merely comes back in another order
   * does not bind its ids to each other. `trusted(pointer)` says whether this lane's answer may
   * teach at a place (`/headers/location`, `/body/id`, `/cookies/sid/value`): not where it was a
   * regression, or a renamed redirect would be followed as if it were right.
   */
  learn(session: string, method: string, recorded: RawResponse, lane: RawResponse, trusted: (pointer: string) => boolean = () => true): void {
    const recordedCookies = setCookies(recorded);
    const jar = this.jars.get(session) ?? new Map<string, string>();
    for (const [name, value] of setCookies(lane)) {
      if (value === '') jar.delete(name); // cleared (logout)
      else jar.set(name, value);
      const was = recordedCookies.get(name);
      if (was !== undefined && trusted(`/cookies/${name}/value`)) this.bind(was, value);
    }
    this.jars.set(session, jar);
    const location = (r: RawResponse) => r.headers.find(([k]) => k.toLowerCase() === 'location')?.[1];
    const [from, to] = [location(recorded), location(lane)];
    if (from && to && trusted('/headers/location')) {
      const a = from.split(/[/?&=#]/);
      const b = to.split(/[/?&=#]/);
      if (a.length === b.length) a.forEach((s, i) => this.bind(safeDecode(s), safeDecode(b[i])));
    }
    if (SAFE_METHODS.has(method)) return;
    const [x, y] = [parseJson(recorded), parseJson(lane)];
    if (x !== undefined && y !== undefined) walkPair(x, y, '/body', '', (pointer, key, r, l) => ID_KEY.test(key) && trusted(pointer) && this.bind(r, l));
  }

  /** Maps this lane's bound values in a canonical answer back to the recorded ones (a copy). */
  restore(response: CanonicalResponse): CanonicalResponse {
    if (!this.reverse.size) return response;
    const back = (v: string) => this.reverse.get(v) ?? v;
    const cookies = Object.fromEntries(Object.entries(response.cookies).map(([n, c]) => [n, { ...c, value: back(c.value) }]));
    const headers = { ...response.headers };
    if (headers.location) headers.location = headers.location.replace(/[^/?&=#]+/g, (s) => back(s));
    const body = response.bodyKind === 'json' ? mapJson(response.body, '', (key, v) => (ID_KEY.test(key) || v.length >= MIN_FREE_LENGTH ? back(v) : v)) : response.body;
    return { ...response, cookies, headers, body };
  }

  /** Whether `value` needs nothing from the jar: it is not redacted, or bound, or a credential. */
  private resolves(value: string): boolean {
    return !value.includes('<redacted:') || this.forward.has(value) || [...value.matchAll(REDACTED)].every(([p]) => this.credentials.has(p) || this.forward.has(p));
  }

  private bind(recorded: string, lane: string): void {
    if (!recorded || recorded === lane) return;
    this.forward.set(recorded, lane);
    this.reverse.set(lane, recorded);
  }
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Re-encodes a rewritten segment; an unchanged one keeps its original spelling. */
function encodeSegment(value: string, original: string): string {
  return value === safeDecode(original) ? original : encodeURIComponent(value);
}

function rewriteQuery(query: string, swap: (key: string, v: string) => string): string {
  return query
    .split('&')
    .map((pair) => {
      const [k, v] = splitOnce(pair, '=');
      if (v === undefined) return pair;
      const decoded = safeDecode(v.replace(/\+/g, ' '));
      const next = swap(safeDecode(k), decoded);
      return next === decoded ? pair : `${k}=${encodeURIComponent(next)}`;
    })
    .join('&');
}

function rewriteCookieHeader(header: string, swap: (name: string, value: string) => string): string {
  return header
    .split(';')
    .map((part) => {
      const [name, value] = splitOnce(part.trim(), '=');
      return value === undefined ? part.trim() : `${name}=${swap(name, value)}`;
    })
    .join('; ');
}

function contentType(headers: Array<[string, string]>): string {
  return headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
}

function rewriteBody(body: Buffer, type: string, swap: (key: string, v: string) => string): Buffer {
  if (/json/i.test(type)) {
    const value = parseJsonText(body.toString('utf8'));
    if (value === undefined) return body;
    const next = mapJson(value, '', swap);
    return next === value ? body : Buffer.from(JSON.stringify(next));
  }
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const text = body.toString('utf8');
    const next = rewriteQuery(text, swap);
    return next === text ? body : Buffer.from(next);
  }
  return body;
}

function setCookies(r: RawResponse): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of r.headers) {
    const parsed = k.toLowerCase() === 'set-cookie' ? parseSetCookie(v) : null;
    if (parsed) out.set(parsed.name, parsed.cookie.value);
  }
  return out;
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseJson(r: RawResponse): unknown {
  const type = r.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  return /json/i.test(type) ? parseJsonText(r.body.toString('utf8')) : undefined;
}

/** Calls `visit(pointer, key, recorded, lane)` for primitives at the same place in both trees that differ. */
function walkPair(a: unknown, b: unknown, pointer: string, key: string, visit: (pointer: string, key: string, recorded: string, lane: string) => void): void {
  const at = (k: string | number) => `${pointer}/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    a.forEach((x, i) => i < b.length && walkPair(x, b[i], at(i), key, visit));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of Object.keys(a)) if (k in b) walkPair((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], at(k), k, visit);
  } else if ((typeof a === 'string' || typeof a === 'number') && (typeof b === 'string' || typeof b === 'number') && String(a) !== String(b)) {
    visit(pointer, key, String(a), String(b));
  }
}

/**
 * Maps the strings and numbers of a JSON value through `fn(key, value)`; numbers keep their type
 * when the mapped value is numeric. Returns the same object when nothing changed.
 */
function mapJson(value: unknown, key: string, fn: (key: string, value: string) => string): unknown {
  if (Array.isArray(value)) {
    const next = value.map((v) => mapJson(v, key, fn));
    return next.some((v, i) => v !== value[i]) ? next : value;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => [k, mapJson(v, k, fn)] as const);
    return entries.some(([k, v]) => v !== (value as Record<string, unknown>)[k]) ? Object.fromEntries(entries) : value;
  }
  if (typeof value === 'string') return fn(key, value);
  if (typeof value === 'number') {
    const next = fn(key, String(value));
    return next === String(value) ? value : Number.isFinite(Number(next)) ? Number(next) : next;
  }
  return value;
}
