/**
 * Shared shapes of the verifier: the recording (HAR 1.2 with `_`-prefixed extensions), one
 * exchange as replayed, the canonical response that is compared, and the differences found.
 * Design: shared/reference/verifier-design.md §7; HAR 1.2: http://www.softwareishard.com/blog/har-12-spec/
 */

/** A HAR name/value pair (headers, query, cookies as sent). */
export interface HarNameValue {
  name: string;
  value: string;
  comment?: string;
}

/** A HAR cookie (request cookies or parsed Set-Cookie). */
export interface HarCookie extends HarNameValue {
  path?: string;
  domain?: string;
  /** ISO 8601 */
  expires?: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
}

/** HAR request. `postData.text` is UTF-8 text, or base64 when `_encoding` is `base64`. */
export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarCookie[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: { mimeType: string; text?: string; params?: HarNameValue[]; _encoding?: 'base64'; comment?: string };
  headersSize: number;
  bodySize: number;
}

/** HAR response. `content.text` is the decoded body (after Content-Encoding), base64 when `encoding` is `base64`. */
export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarCookie[];
  headers: HarNameValue[];
  content: { size: number; mimeType: string; text?: string; encoding?: 'base64'; compression?: number };
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

/**
 * One recorded exchange. Our extensions (HAR allows `_`-prefixed fields):
 * `_session` groups requests replayed in order with one cookie jar per lane (default: one
 * session, `default`); `_seq` is the order within the recording; `_routeTemplate` is the
 * route that matched when recorded (`req.baseUrl + req.route.path` for Express);
 * `_redactions` lists what redaction replaced (e.g. `header:authorization`, `body:/password`).
 */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, unknown>;
  timings: { send: number; wait: number; receive: number; [k: string]: number };
  comment?: string;
  _session?: string;
  _seq?: number;
  _routeTemplate?: string;
  _redactions?: string[];
}

/** A whole HAR file. `_verifierVersion` is set by `migrate record`. */
export interface Har {
  log: {
    version: string;
    creator: { name: string; version: string; comment?: string };
    pages?: unknown[];
    entries: HarEntry[];
    comment?: string;
    _verifierVersion?: string;
  };
}

/** A request ready to send to a lane: path with query as on the wire, headers in order. */
export interface ReplayRequest {
  /** Stable id of the exchange: `e<index in the recording>` (1-based, e.g. `e12`). */
  id: string;
  session: string;
  method: string;
  /** Path and query, e.g. `/users/1?x=2`. */
  path: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  comment?: string;
  routeTemplate?: string;
}

/** A response as received from a lane (or from the recording): body decoded from Content-Encoding. */
export interface RawResponse {
  status: number;
  /** Header name/value pairs as received, repeated names kept (Set-Cookie). */
  headers: Array<[string, string]>;
  body: Buffer;
}

/** A parsed Set-Cookie, compared attribute by attribute. `maxAge` in seconds. */
export interface CanonicalCookie {
  value: string;
  path?: string;
  domain?: string;
  expires?: string;
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
}

/**
 * The canonical form of a response that differences are computed on. JSON Pointers
 * (RFC 6901) address it: `/status`, `/headers/content-type`, `/cookies/sid/httpOnly`,
 * `/body/items/0/id`. Header names are lower-case; hop-by-hop headers and `date` are
 * dropped; `content-type` is split into `/mediaType` and `/charset` (lower-cased);
 * `set-cookie` moves to `/cookies`; `content-length` is dropped (the body is compared).
 */
export interface CanonicalResponse {
  status: number;
  mediaType: string | null;
  charset: string | null;
  headers: Record<string, string>;
  cookies: Record<string, CanonicalCookie>;
  /** JSON → the parsed value; text → the string; binary → `{ sha256, size }`; empty → null. */
  body: unknown;
  bodyKind: 'json' | 'text' | 'binary' | 'empty';
}

/** What kind of difference (verifier-design §7.8; Diffy's typed tree). */
export type DifferenceKind = 'status' | 'header' | 'missing' | 'extra' | 'type' | 'value' | 'order' | 'size';

/** One difference between two canonical responses, addressed by a JSON Pointer into them. */
export interface Difference {
  pointer: string;
  kind: DifferenceKind;
  /** The value on the baseline side (absent for `extra`). */
  baseline?: unknown;
  /** The value on the candidate side (absent for `missing`). */
  candidate?: unknown;
  /** sha1 of both full values, set when stored values are shortened (accepted differences match on it). */
  fingerprint?: string;
}
