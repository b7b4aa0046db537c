/**
 * Which body parsers Fastify takes over, and with what (`plugins` stage, issue 18 item 2). The moved
 * routes that run no Express code (express-free.ts) had their bodies read by the app's body parsers,
 * run by the Express hook; Fastify reads them instead, with its own content-type parsers
 * (bodies-template.ts `parseBodiesLikeExpress`), when every app-level body parser of the app
 * translates exactly:
 * - its body-parser is a catalogued version (rules/catalogue/body-parsers.ts): the one Express
 *   re-exports for `express.json` …, the app's own `body-parser` package for `bodyParser.json` …;
 * - it has one options object whose options are all translated: `limit` (bytes's units, as
 *   body-parser parses it), `type` given as exact `type/subtype` media types (a wildcard, a
 *   shorthand such as `json` or a function matches otherwise in Fastify), `inflate`, `strict`,
 *   `extended`, `parameterLimit`, `depth`, `defaultCharset`, `charsetSentinel`,
 *   `interpretNumericEntities` as the parser and version take them; and `verify`, the app's
 *   function, called as body-parser called it (body-parsers.ts carriedAccess says when it can be).
 * All or none: a parser left on Express that comes before one Fastify takes over could have read
 * a body Fastify reads now. The translation is exact for the request shapes body-parser handles;
 * the charsets decoded differ only where iconv-lite and the WHATWG decoder differ (utf-7, or the
 * 0x80–0x9f bytes of latin1 text).
 */
import bytes from 'bytes';
import type { Inventory, Middleware } from '../../analyzer/model.js';
import { BODY_PARSERS, bodyParserMajor, DEFAULT_LIMIT, DEFAULT_PARAMETER_LIMIT, INFLATED, urlencodedParse, type BodyParserKind, type CharsetRule } from '../../rules/catalogue/body-parsers.js';
import type { BodyParserLiteral } from './bodies-template.js';
import { bodyParserOf } from './body-parsers.js';

/** What Fastify parses with, or why it leaves the module's bodies to the app's parsers. */
export type FastifyBodies =
  | {
      parsers: BodyParserLiteral[];
      /** The body-parser versions translated (`1.20.3`), for the comment above the call. */
      versions: string[];
      /** Which parse functions and modules the parsers' sources use, and whether one carries the app's `verify`. */
      uses: { json: boolean; form: boolean; qs: boolean; querystring: boolean; verify: boolean };
    }
  | { refuse: string };

/** Source of each charset rule's `(charset) => boolean` (none: the parser keeps bytes). */
const CHARSETS: Record<Exclude<CharsetRule, 'none'>, string> = {
  utf: "(charset) => charset.startsWith('utf-')",
  'utf-8': "(charset) => charset === 'utf-8'",
  'utf-8-latin1': "(charset) => charset === 'utf-8' || charset === 'iso-8859-1'",
  decodable: '() => true',
};

/**
 * The content-type parsers for `parsers` (the app-level body parsers of one app, in order, as
 * express-free.ts lists them), or the first reason one does not translate; `functions` gives, per
 * parser id, the sources of the app functions it carries (`{ verify: 'keepRaw' }`), or why not.
 */
export function fastifyBodiesOf(inventory: Pick<Inventory, 'project'>, parsers: Middleware[], typescript: boolean, functions: (m: Middleware) => Record<string, string> | { refuse: string }): FastifyBodies {
  const literals: BodyParserLiteral[] = [];
  const versions = new Set<string>();
  const uses = { json: false, form: false, qs: false, querystring: false, verify: false };
  for (const m of parsers) {
    const of = bodyParserOf(m);
    if (!of) return { refuse: `${m.name} (${m.registration.file}:${m.registration.line}) is not one of body-parser's parsers` };
    const version = of.package === 'express' ? inventory.project.expressBodyParser : (inventory.project.dependencies['body-parser']?.installed ?? null);
    const major = bodyParserMajor(version);
    if (!major) return { refuse: `the body-parser ${m.source.slice(0, 40)} runs is ${version ? `version ${version}, which is not catalogued` : 'not installed, so its version is unknown'}` };
    const literal = literalOf(of.kind, major, version!, m, typescript);
    if ('refuse' in literal) return literal;
    const carried = functions(m);
    if ('refuse' in carried) return { refuse: carried.refuse as string };
    literals.push({ ...literal, ...(carried.verify ? { verify: carried.verify } : {}) });
    uses.verify ||= !!carried.verify;
    versions.add(version!);
    uses.json ||= of.kind === 'json';
    uses.form ||= of.kind === 'urlencoded';
    uses.qs ||= literal.parse.includes('qs.parse');
    uses.querystring ||= literal.parse.includes('querystring.parse');
  }
  return { parsers: literals, versions: [...versions], uses };
}

/** One parser's literal, or why its options do not translate. */
function literalOf(kind: BodyParserKind, major: 1 | 2, version: string, m: Middleware, typescript: boolean): BodyParserLiteral | { refuse: string } {
  const facts = BODY_PARSERS[major][kind];
  const where = `${m.name} (${m.registration.file}:${m.registration.line})`;
  if (m.factory!.args.length > 1) return { refuse: `${where} takes more than one argument` };
  const options = (m.factory!.args[0]?.value ?? {}) as Record<string, unknown>;
  if (typeof options !== 'object' || Array.isArray(options)) return { refuse: `${where} takes options that are not an object` };
  const other = Object.keys(options).find((k) => !facts.options.includes(k));
  if (other) return { refuse: `${where}'s option ${other} is not translated` };
  const limit = options.limit === undefined ? DEFAULT_LIMIT : bytes.parse(options.limit as string | number);
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return { refuse: `${where}'s limit ${JSON.stringify(options.limit)} is not a size` };
  const types = options.type === undefined ? [facts.defaultType] : [options.type].flat();
  if (!types.every((t) => typeof t === 'string' && /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+$/.test(t))) return { refuse: `${where}'s type ${JSON.stringify(options.type)} is not a list of exact media types (Fastify matches wildcards and shorthands otherwise)` };
  const charset = facts.charsets === 'none' ? null : typeof options.defaultCharset === 'string' ? options.defaultCharset.toLowerCase() : 'utf-8';
  const parse = parseSource(kind, version, options, typescript);
  if (!parse) return { refuse: `${where}'s urlencoded parsing in body-parser ${version} is not catalogued` };
  return {
    types: (types as string[]).map((t) => t.toLowerCase()),
    limit,
    inflate: options.inflate === false ? false : INFLATED[major],
    charset,
    ...(facts.charsets === 'none' ? {} : { charsets: CHARSETS[facts.charsets] }),
    parse,
  };
}

/**
 * Source of a parser's parse function (bodies-template.ts), or null for an urlencoded parse the
 * catalogue does not know. In TypeScript the request's charset is cast to the two qs accepts (the
 * parser's charset rule let no other through).
 */
function parseSource(kind: BodyParserKind, version: string, options: Record<string, unknown>, typescript: boolean): string | null {
  if (kind === 'json') return `jsonLikeBodyParser(${options.strict !== false})`;
  if (kind === 'text') return '(text) => text';
  if (kind === 'raw') return '(bytes) => bytes';
  const how = urlencodedParse(version, options.extended as boolean | undefined, options.depth as number | undefined);
  if (!how) return null;
  const limit = (options.parameterLimit as number | undefined) ?? DEFAULT_PARAMETER_LIMIT;
  if (how.parser === 'querystring') return `formLikeBodyParser(${limit}, (body) => querystring.parse(body, undefined, undefined, { maxKeys: ${limit} }))`;
  const qsOptions = [
    'allowPrototypes: true',
    `arrayLimit: ${how.arrayLimit === 'count' ? 'count' : 'Math.max(100, count)'}`,
    `depth: ${how.depth}`,
    ...(how.charset ? [typescript ? "charset: charset as 'utf-8' | 'iso-8859-1'" : 'charset', ...['charsetSentinel', 'interpretNumericEntities'].flatMap((o) => (options[o] === undefined ? [] : [`${o}: ${String(options[o])}`]))] : []),
    `parameterLimit: ${limit}`,
    ...(how.strictDepth ? ['strictDepth: true'] : []),
  ];
  return `formLikeBodyParser(${limit}, (body, count${how.charset ? ', charset' : ''}) => qs.parse(body, { ${qsOptions.join(', ')} }))`;
}
