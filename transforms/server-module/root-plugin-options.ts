/**
 * The options of a middleware that moves to its official plugin at the root of the Fastify server
 * (root-plugins.ts), as that plugin takes them: the same headers on the same requests. One
 * translator per package the catalogue gives a `rootPlugin`; each refuses, with the reason, what
 * it cannot translate exactly, and the catalogue's `defaults` fill the options the app left unset.
 */
import semver from 'semver';
import type { FoldedValue } from '../../analyzer/model.js';
import { forVersion, type MiddlewareEntry, type OlderMajor } from '../../rules/catalogue/middleware.js';
import { jsLiteral } from './body-parsers.js';
import { clip } from '../lib/clip.js';

/**
 * The plugin's options as source (`{ methods: 'GET', strictPreflight: false }`), with the response
 * headers the middleware sent that the plugin has no option for (helmet 4's `Expect-CT`), set by a
 * hook after the plugin's; or why the middleware's options cannot be given.
 */
export type PluginOptions = { source: string; headers?: Record<string, string> } | { refuse: string };

/** What a translator reads: the factory's arguments as the analysis folded them, and the app's version of the package (installed, else declared; null when unknown). */
interface Given {
  args: FoldedValue[];
  version: string | null;
  entry: MiddlewareEntry;
}

type Translator = (given: Given) => { options: Record<string, unknown>; sources?: Record<string, string>; headers?: Record<string, string> } | { refuse: string };

/**
 * The options of `entry`'s plugin for a middleware made with `args` (module comment).
 * @throws Error when the catalogue names a root plugin no translator here knows (a catalogue edit without its translator)
 */
export function rootPluginOptions(entry: MiddlewareEntry, args: FoldedValue[], version: string | null): PluginOptions {
  const translate = TRANSLATORS[entry.package];
  if (!translate) throw new Error(`no option translator for the root plugin of ${entry.package}`);
  const out = translate({ args, version, entry });
  if ('refuse' in out) return out;
  const options = { ...out.options };
  for (const [key, value] of Object.entries(entry.rootPlugin!.defaults)) if (!(key in options) && !(key in (out.sources ?? {}))) options[key] = value;
  return { source: jsLiteral(options, out.sources), ...(out.headers ? { headers: out.headers } : {}) };
}

/** An environment variable read as it is (`process.env.CORS_ORIGIN`): analyzer/folded.ts gives the expression as the reason. */
const ENVIRONMENT = /^process\.env\.[A-Za-z_$][\w$]*$/;

/**
 * The one options object of a factory call, folded whole (`{}` for none) but for the top-level
 * options in `fromEnvironment` read from an environment variable, given as that expression
 * (`{ origin: 'process.env.CORS_ORIGIN' }`); else why not.
 */
function optionsObject(args: FoldedValue[], name: string, fromEnvironment: ReadonlySet<string> = new Set()): { value: Record<string, unknown>; environment: Record<string, string> } | { refuse: string } {
  const [first, ...rest] = args;
  if (rest.length) return { refuse: `${name} takes one options object; the call passes ${args.length} arguments` };
  if (!first) return { value: {}, environment: {} };
  const unresolved = first.unresolved ?? [];
  const environment = Object.fromEntries(unresolved.filter((u) => fromEnvironment.has(u.path) && ENVIRONMENT.test(u.reason)).map((u) => [u.path, u.reason]));
  if (first.resolution === 'unresolved' || unresolved.some((u) => !(u.path in environment))) return { refuse: `its options \`${clip(first.source)}\` are known only at run time (${unresolved.filter((u) => !(u.path in environment)).map((u) => `${u.path || 'the argument'}: ${u.reason}`).join('; ')})` };
  const value = first.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { refuse: `its argument \`${clip(first.source)}\` is not an options object` };
  return { value: value as Record<string, unknown>, environment };
}

/** A header list as cors writes it: an array joined with `,` (lib/index.js), a string as it is; null when cors sends none for it (empty). */
function headerList(value: unknown): string | null | undefined {
  if (Array.isArray(value)) return value.length && value.every((v) => typeof v === 'string') ? value.join(',') : value.length ? undefined : null;
  if (typeof value === 'string') return value.length ? value : null;
  return undefined;
}

/** cors 2.8 options (lib/index.js) as @fastify/cors 11 takes them (index.js): see each branch. */
const CORS_OPTIONS = new Set(['origin', 'methods', 'allowedHeaders', 'headers', 'exposedHeaders', 'credentials', 'maxAge', 'preflightContinue', 'optionsSuccessStatus']);

const corsTranslator: Translator = ({ args }) => {
  const folded = optionsObject(args, 'cors', new Set(['origin']));
  if ('refuse' in folded) return folded;
  const given = folded.value;
  const env = folded.environment.origin;
  const unknownKey = Object.keys(given).find((k) => !CORS_OPTIONS.has(k));
  if (unknownKey) return { refuse: `its option \`${unknownKey}\` is not one of cors's (cors ignores it; @fastify/cors may not)` };
  const options: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  // origin: cors skips a falsy origin altogether (no headers, OPTIONS not answered) as @fastify/cors does `false`;
  // cors adds `Vary: Origin` for any origin but '*', @fastify/cors only for one that is not a string, so
  // another string is given as a function returning it (the header the same, and Vary).
  // An origin from the environment, read when the plugin registers as cors read it when the app made it: the same three cases.
  if (env) sources.origin = `!${env} ? false : ${env} === '*' ? '*' : (_origin, callback) => callback(null, String(${env}))`;
  else if ('origin' in given) {
    const origin = given.origin;
    if (!origin) options.origin = false;
    else if (origin === '*' || origin === true) options.origin = origin;
    else if (typeof origin === 'string') sources.origin = `(_origin, callback) => callback(null, ${jsLiteral(origin)})`;
    else if (Array.isArray(origin) && origin.length && origin.every((o) => typeof o === 'string' && o !== '*')) options.origin = origin;
    else return { refuse: `its origin \`${clip(JSON.stringify(origin))}\` is not translated (an array holding '*' allows every origin in @fastify/cors, none in cors)` };
  }
  if ('methods' in given) {
    const methods = headerList(given.methods);
    if (!methods) return { refuse: `its methods \`${clip(JSON.stringify(given.methods))}\` are not a list of methods` };
    options.methods = methods;
  }
  // cors reads `allowedHeaders`, then `headers`; with neither (or an empty one) it reflects the request's.
  const allowed = headerList(given.allowedHeaders || given.headers);
  if (allowed === undefined && (given.allowedHeaders || given.headers)) return { refuse: 'its allowedHeaders are not a list of header names' };
  if (allowed) options.allowedHeaders = allowed;
  const exposed = headerList(given.exposedHeaders);
  if (exposed === undefined && given.exposedHeaders) return { refuse: 'its exposedHeaders are not a list of header names' };
  if (exposed) options.exposedHeaders = exposed;
  // cors sends the header for `credentials: true` only; @fastify/cors for any truthy value.
  if (given.credentials === true) options.credentials = true;
  if (typeof given.maxAge === 'number' || (typeof given.maxAge === 'string' && given.maxAge.length)) options.maxAge = given.maxAge;
  else if (given.maxAge) return { refuse: `its maxAge \`${clip(JSON.stringify(given.maxAge))}\` is not a number of seconds` };
  // preflightContinue hands the preflight to the app's routes: Express's automatic OPTIONS answer there, @fastify/cors's own route here.
  if (given.preflightContinue) return { refuse: "its preflightContinue hands preflights on to the app's routes, where @fastify/cors answers them itself" };
  if ('optionsSuccessStatus' in given) {
    if (typeof given.optionsSuccessStatus !== 'number') return { refuse: 'its optionsSuccessStatus is not a status code' };
    if (given.optionsSuccessStatus !== 204) options.optionsSuccessStatus = given.optionsSuccessStatus;
  }
  return { options, sources };
};

/**
 * helmet's options as @fastify/helmet 13 takes them: the same object, given to helmet 8 (its
 * dependency). An app on helmet 8 keeps its options as they are. One on an older major (4 to 7) gets
 * that major's defaults where helmet 8's differ (catalogue `olderMajors`): the options it did not
 * set, its CSP directives (merged or not as that major merged them), and its `Expect-CT` header,
 * which helmet 8 has no option for, sent from a hook after the plugin's. A CSP keyword left unquoted
 * stays on Express (helmet 7 warned, older majors accepted it, helmet 8 throws); so does a major
 * before 4.
 */
const helmetTranslator: Translator = ({ args, version, entry }) => {
  const folded = optionsObject(args, 'helmet');
  if ('refuse' in folded) return folded;
  const given = folded.value;
  if (version === null) return { refuse: "the app's helmet version is not known (neither installed nor declared), and @fastify/helmet runs helmet 8" };
  const range = semver.validRange(version) ?? version;
  if (semver.subset(range, '>=8.0.0 <9.0.0')) return { options: given };
  const older = entry.rootPlugin!.olderMajors?.find((o) => semver.subset(range, `>=${o.since} <${o.below}`));
  if (!older) return { refuse: `helmet ${version}: ${forVersion(entry.caveats, version).find((c) => c.versioned)?.text ?? 'its defaults are not helmet 8’s, which @fastify/helmet runs'}` };
  const unquoted = unquotedKeyword(given);
  if (unquoted) return { refuse: `its Content-Security-Policy has the unquoted keyword \`${unquoted}\`, which helmet ${version} accepted and helmet 8 (@fastify/helmet's) throws on` };
  return asHelmet8(given, older);
};

/** helmet 8's names for options an older major also read under another (helmet 8 reads both). */
const HELMET_ALIASES: Record<string, string> = { strictTransportSecurity: 'hsts' };

/** `given`, options of an older helmet major, as helmet 8 takes them to answer alike (helmetTranslator). */
function asHelmet8(given: Record<string, unknown>, older: OlderMajor): { options: Record<string, unknown>; headers?: Record<string, string> } {
  const options: Record<string, unknown> = { ...given };
  for (const [key, value] of Object.entries(older.defaults)) {
    const set = [key, HELMET_ALIASES[key]].find((name) => name !== undefined && name in given);
    if (set === undefined) options[key] = value;
    // `true` asks for that major's defaults; an object gives some of them.
    else if (given[set] === true) options[set] = value;
    else if (isObject(given[set]) && isObject(value)) options[set] = { ...value, ...given[set] };
  }
  const csp = given.contentSecurityPolicy;
  if (older.csp && csp !== false) {
    const own = isObject(csp) ? csp : {};
    const directives = isObject(own.directives) ? kebabKeys(own.directives) : null;
    const merged = typeof own.useDefaults === 'boolean' ? own.useDefaults : older.csp.mergedByDefault;
    const chosen = directives ? (merged ? { ...older.csp.directives, ...directives } : directives) : older.csp.directives;
    // A directive given as null leaves the defaults (helmet 5+ content-security-policy).
    options.contentSecurityPolicy = { ...own, useDefaults: false, directives: Object.fromEntries(Object.entries(chosen).filter(([, v]) => v !== null)) };
  }
  if (!older.expectCt) return { options };
  const { expectCt, ...rest } = options;
  if (expectCt === false || (expectCt === undefined && older.expectCt === 'when-given')) return { options: rest };
  const ct = isObject(expectCt) ? expectCt : {};
  // helmet 4–6 expect-ct: `max-age=<maxAge, 0>`, then `, enforce`, then `, report-uri="<uri>"`.
  const value = `max-age=${typeof ct.maxAge === 'number' ? ct.maxAge : 0}${ct.enforce ? ', enforce' : ''}${typeof ct.reportUri === 'string' ? `, report-uri="${ct.reportUri}"` : ''}`;
  return { options: rest, headers: { 'Expect-CT': value } };
}

/** Whether `value` is a plain object. */
function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** CSP directive names as helmet writes them (`scriptSrc` → `script-src`), values as they are. */
function kebabKeys(directives: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(directives).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v]));
}

/** The CSP keywords helmet 8 wants quoted (helmet 8 content-security-policy `dangerouslyDisableDefaultSrc` aside). */
const CSP_KEYWORDS = new Set(['self', 'none', 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes', 'strict-dynamic', 'report-sample', 'wasm-unsafe-eval', 'inline-speculation-rules']);

/** The first CSP directive value of `options` that is a keyword without its quotes, if any. */
function unquotedKeyword(options: Record<string, unknown>): string | undefined {
  const csp = options.contentSecurityPolicy;
  const directives = csp && typeof csp === 'object' ? (csp as { directives?: Record<string, unknown> }).directives : undefined;
  for (const value of Object.values(directives ?? {})) for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string' && CSP_KEYWORDS.has(v)) return v;
  return undefined;
}

/** The translators, by the catalogue's package key. */
const TRANSLATORS: Record<string, Translator> = { cors: corsTranslator, helmet: helmetTranslator };
