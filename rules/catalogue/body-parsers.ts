/**
 * body-parser's four parsers (`express.json` … re-export them), as the `plugins` stage rebuilds
 * them as Fastify content-type parsers (issue 18 item 2): what a request must be for each to parse
 * it, and how it reads and parses the body, per body-parser version. Read from body-parser's
 * source — 1.x lib/types/{json,urlencoded,text,raw}.js and lib/read.js, 2.x lib/utils.js
 * (normalizeOptions) and lib/read.js — and raw-body's errors; each fact is checked at run time
 * against Express 4 (body-parser 1.20) and Express 5 (body-parser 2.x) in
 * test/transforms/plugins-bodies.test.ts.
 */
import semver from 'semver';

/** The parsers: `json`, `urlencoded`, `text`, `raw` (body-parser's exports, Express's members). */
export type BodyParserKind = 'json' | 'urlencoded' | 'text' | 'raw';

/**
 * Which charsets a parser reads (the request's `charset` parameter, else its default): others
 * are refused with 415 `charset.unsupported`. `utf` any `utf-*` (JSON, RFC 7159 §8.1), `utf-8`
 * only (urlencoded 1.x), `utf-8-latin1` (urlencoded 2.x also takes `iso-8859-1`), `decodable`
 * any the decoder knows (text), `none` the body stays bytes (raw).
 */
export type CharsetRule = 'utf' | 'utf-8' | 'utf-8-latin1' | 'decodable' | 'none';

/** What one parser does in one body-parser major. */
export interface BodyParserFacts {
  /** The content type it parses unless `type` says otherwise. */
  defaultType: string;
  charsets: CharsetRule;
  /** The options the stage translates (others, such as `verify` or `reviver`, keep the parser on Express). */
  options: string[];
}

/** The body-parser majors whose parsers are catalogued. */
export type BodyParserMajor = 1 | 2;

/** Per major and parser (1.x: lib/types/*.js; 2.x: the same files, with normalizeOptions). */
export const BODY_PARSERS: Record<BodyParserMajor, Record<BodyParserKind, BodyParserFacts>> = {
  1: {
    json: { defaultType: 'application/json', charsets: 'utf', options: ['limit', 'strict', 'type', 'inflate'] },
    urlencoded: { defaultType: 'application/x-www-form-urlencoded', charsets: 'utf-8', options: ['limit', 'extended', 'parameterLimit', 'depth', 'type', 'inflate'] },
    text: { defaultType: 'text/plain', charsets: 'decodable', options: ['limit', 'defaultCharset', 'type', 'inflate'] },
    raw: { defaultType: 'application/octet-stream', charsets: 'none', options: ['limit', 'type', 'inflate'] },
  },
  2: {
    json: { defaultType: 'application/json', charsets: 'utf', options: ['limit', 'strict', 'type', 'inflate'] },
    urlencoded: { defaultType: 'application/x-www-form-urlencoded', charsets: 'utf-8-latin1', options: ['limit', 'extended', 'parameterLimit', 'depth', 'type', 'inflate', 'defaultCharset', 'charsetSentinel', 'interpretNumericEntities'] },
    text: { defaultType: 'text/plain', charsets: 'decodable', options: ['limit', 'defaultCharset', 'type', 'inflate'] },
    raw: { defaultType: 'application/octet-stream', charsets: 'none', options: ['limit', 'type', 'inflate'] },
  },
};

/** The limit of every parser without a `limit` option: 100 kb, in bytes. */
export const DEFAULT_LIMIT = 102400;

/** The most parameters an urlencoded body may have without `parameterLimit` (more: 413 `parameters.too.many`). */
export const DEFAULT_PARAMETER_LIMIT = 1000;

/**
 * The `Content-Encoding`s a parser inflates unless `inflate: false` (then any but `identity` is
 * refused with 415 `encoding.unsupported`): read.js `contentstream`, 2.x adds `br`.
 */
export const INFLATED: Record<BodyParserMajor, string[]> = { 1: ['deflate', 'gzip'], 2: ['deflate', 'gzip', 'br'] };

/**
 * How an urlencoded body is parsed, by version: `querystring` (Node's, with `maxKeys`: 1.x
 * without `extended`), or `qs` with these options (the parameter count decides `arrayLimit`).
 * - 1.x `extended` before 1.20.3: `depth: Infinity` (1.20.3 added the `depth` option, 32 by default,
 *   and `strictDepth`, whose RangeError becomes 400 `querystring.parse.rangeError`);
 * - 2.x: always qs, `depth: 0` and `arrayLimit` the parameter count without `extended`, and the
 *   request's charset handed to qs.
 */
export type UrlencodedParse =
  | { parser: 'querystring' }
  | { parser: 'qs'; depth: number | 'Infinity'; strictDepth: boolean; arrayLimit: 'at-least-100' | 'count'; charset: boolean };

/**
 * The urlencoded parse of body-parser `version` (an installed version) for `extended` and `depth`
 * as the app passed them (undefined when absent), or null when the version is not catalogued.
 */
export function urlencodedParse(version: string, extended: boolean | undefined, depth: number | undefined): UrlencodedParse | null {
  const major = bodyParserMajor(version);
  if (major === 1) {
    if (extended === false) return { parser: 'querystring' };
    if (semver.lt(version, '1.20.3')) return { parser: 'qs', depth: 'Infinity', strictDepth: false, arrayLimit: 'at-least-100', charset: false };
    return { parser: 'qs', depth: depth ?? 32, strictDepth: true, arrayLimit: 'at-least-100', charset: false };
  }
  if (major === 2) return extended ? { parser: 'qs', depth: depth ?? 32, strictDepth: true, arrayLimit: 'at-least-100', charset: true } : { parser: 'qs', depth: 0, strictDepth: true, arrayLimit: 'count', charset: true };
  return null;
}

/** The catalogued major of an installed body-parser version (1.15 and later, or 2.x), else null. */
export function bodyParserMajor(version: string | null): BodyParserMajor | null {
  if (!version || !semver.valid(version)) return null;
  if (semver.satisfies(version, '>=1.15.0 <2')) return 1;
  return semver.major(version) === 2 ? 2 : null;
}
