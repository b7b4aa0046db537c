/**
 * The ETags Express sends by itself and what they say. The `etag` package (jshttp/etag, used by
 * `res.send` and, through `send`, by `express.static`) writes weak tags of two forms:
 * - a body: `W/"<length hex>-<27 chars of base64 sha1>"` (`entitytag`);
 * - a static file: `W/"<size hex>-<mtime in ms, hex>"` (`stattag`), sent with a `Last-Modified` of
 *   the same mtime (whole seconds). `@fastify/static` (through `@fastify/send`) writes the same form.
 * An app's own tag is neither. Whether a request's validators match an answer follows jshttp/fresh,
 * which Express (`req.fresh`) and `send` use to answer 304.
 */
import type { CanonicalResponse, ReplayRequest } from './model.js';

const EXPRESS_ETAG = /^W\/"[0-9a-f]+-([A-Za-z0-9+/]{27}|[0-9a-f]+)"$/;
const STATIC_ETAG = /^W\/"([0-9a-f]+)-([0-9a-f]{1,13})"$/;

/** True for a tag of either automatic form (body or static file). */
export function isExpressEtag(value: unknown): boolean {
  return typeof value === 'string' && EXPRESS_ETAG.test(value);
}

/** What a static file's tag says about the file. */
export interface StaticFileTag {
  /** Size in bytes. */
  size: number;
  /** Modification time, ms since the epoch. */
  mtimeMs: number;
}

/**
 * The size and mtime a static file's validators name: the ETag of the static-file form, whose
 * mtime falls in the second `Last-Modified` names when the answer sends one. Null for any other
 * tag, no tag, or validators that contradict each other.
 */
export function staticFileTag(response: CanonicalResponse): StaticFileTag | null {
  const m = STATIC_ETAG.exec(response.headers.etag ?? '');
  if (!m) return null;
  const tag = { size: parseInt(m[1], 16), mtimeMs: parseInt(m[2], 16) };
  const lastModified = response.headers['last-modified'];
  if (lastModified === undefined) return tag;
  const seconds = Date.parse(lastModified) / 1000;
  return seconds === Math.floor(tag.mtimeMs / 1000) ? tag : null;
}

/** The value of a request header (the first, by case-insensitive name). */
export function requestHeader(request: ReplayRequest, name: string): string | undefined {
  return request.headers.find(([k]) => k.toLowerCase() === name)?.[1];
}

/** True when the request carries a validator (`If-None-Match` or `If-Modified-Since`). */
export function isConditional(request: ReplayRequest): boolean {
  return requestHeader(request, 'if-none-match') !== undefined || requestHeader(request, 'if-modified-since') !== undefined;
}

/**
 * Whether `response`'s validators satisfy the request's conditions, as jshttp/fresh decides (so an
 * Express or `send` answer is 304 exactly then): no condition or `Cache-Control: no-cache` → no; an
 * `If-None-Match` other than `*` must list the ETag (weak comparison); an `If-Modified-Since` must
 * not be older than `Last-Modified`.
 */
export function isFresh(request: ReplayRequest, response: CanonicalResponse): boolean {
  const noneMatch = requestHeader(request, 'if-none-match');
  const modifiedSince = requestHeader(request, 'if-modified-since');
  if (!noneMatch && !modifiedSince) return false;
  if (/(?:^|,)\s*no-cache\s*(?:,|$)/.test(requestHeader(request, 'cache-control') ?? '')) return false;
  if (noneMatch && noneMatch !== '*') {
    const etag = response.headers.etag;
    const strip = (t: string) => t.trim().replace(/^W\//, '');
    if (!etag || !noneMatch.split(',').some((t) => strip(t) === strip(etag))) return false;
  }
  if (modifiedSince) {
    const lastModified = response.headers['last-modified'];
    if (!lastModified || !(Date.parse(lastModified) <= Date.parse(modifiedSince))) return false;
  }
  return true;
}
