/**
 * helmet's options as @fastify/helmet 13 takes them: it runs helmet 8, so an app on an older major
 * gets the options under which helmet 8 answers as that major did (catalogue `olderMajors`).
 */
import semver from 'semver';
import { forVersion, type OlderMajor } from '../../rules/catalogue/middleware.js';
import { isObject, optionsObject, type Translator } from './factory-options.js';

/**
 * helmet's options as @fastify/helmet 13 takes them: the same object, given to helmet 8 (its
 * dependency). An app on helmet 8 keeps its options as they are. One on an older major (4 to 7) gets
 * that major's defaults where helmet 8's differ (catalogue `olderMajors`): the options it did not
 * set, its CSP directives (merged or not as that major merged them), and its `Expect-CT` header,
 * which helmet 8 has no option for, sent from a hook after the plugin's. A CSP keyword left unquoted
 * stays on Express (helmet 7 warned, older majors accepted it, helmet 8 throws); so does a major
 * before 4.
 */
export const helmetTranslator: Translator = ({ args, version, entry }) => {
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
  // Options that major did not read (helmet 8's names for its headers, before 6): it ignored them, helmet 8 would not.
  const options: Record<string, unknown> = Object.fromEntries(Object.entries(given).filter(([key]) => !older.ignores?.includes(key)));
  for (const [key, value] of Object.entries(older.defaults)) {
    const set = [key, HELMET_ALIASES[key]].find((name) => name !== undefined && name in options);
    if (set === undefined) options[key] = value;
    // `true` asks for that major's defaults (on, for a header it left off by default); an object gives some of them.
    else if (options[set] === true && value !== false) options[set] = value;
    else if (isObject(options[set]) && isObject(value)) options[set] = { ...value, ...options[set] };
  }
  const csp = options.contentSecurityPolicy;
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
