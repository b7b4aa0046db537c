/**
 * The verify rules file (`.migrate/verify.json`, schema: `verify-rules.schema.json`) and how its
 * rules waive differences (verifier-design §7.9). A rule has an optional `id` and `reason`, an
 * optional `scope` (`route`: the route key such as `GET /users/:id`; `request`: the replay
 * request id such as `e12`; both must hold when both are given; no scope = every request), and
 * one or more actions, each listing pointer patterns (verifier/pointer.ts):
 *
 * - `ignore`: every difference at or below the pattern is suppressed.
 * - `ignoreValue`: at or below the pattern, differences of value are suppressed (`value`, `type`,
 *   `order`, `status`, and `header` when both sides have the header), while `missing`, `extra`,
 *   `size` and a header present on one side only still count: presence is required, as for
 *   Keploy's volatile headers (§1.4). For a cookie (`cookie:sid`, `/cookies/*`) the value is the
 *   cookie's value only: its attributes (HttpOnly, SameSite, …) are still compared.
 * - `match` (pattern → regex): a value difference exactly at the pattern is suppressed when both
 *   values, as strings (non-strings as JSON), match the regex (JavaScript syntax, no flags).
 * - `tolerance` (pattern → number or duration): a value difference exactly at the pattern is
 *   suppressed when both values are numbers (or numeric strings) at most that far apart
 *   (absolute), or, for a duration (`500ms`, `2s`, `1m`, `1h`), when both are dates (ISO 8601 or
 *   HTTP-date strings) at most that far apart (GOV.UK's 2 s `updated_at` window, §7.9).
 * - `unordered`, `keyBy` (pattern → key): handed to the diff as DiffOptions (verifier/diff.ts).
 * - `subset`: at or below the pattern, what the candidate has in addition is suppressed: `extra`,
 *   a header only the candidate sends, and an array `size` difference where the candidate keeps
 *   every baseline element (Diferencia's Subset mode, §1.2).
 *
 * The first rule (file order, then the action order above) that suppresses a difference is
 * credited with it. Each (rule, action, pattern) whose pattern never addressed a difference (nor,
 * for `unordered`/`keyBy`, met an array) over a run is a *dead rule* (Keploy's unmatchable-noise
 * warning, §1.4): usually a typo, a scope that never applies, or noise that has gone away. A
 * `match`/`tolerance` entry that addressed a difference is alive even when the values failed it.
 *
 * Note that `/bodyKind` is not under `/body`: ignoring a body whose kind may change takes both.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import type { DiffOptions, SizeBaseline, SizeCandidate } from './diff.js';
import type { CanonicalResponse, Difference } from './model.js';
import { compilePattern, matches, matchesOrBelow, parsePointer, type Pattern, type PatternSegment } from './pointer.js';
import schema from './verify-rules.schema.json' with { type: 'json' };

/** One rule as written in the file (see the module docs for the semantics). */
export interface VerifyRule {
  id?: string;
  reason?: string;
  scope?: { route?: string; request?: string };
  ignore?: string[];
  ignoreValue?: string[];
  /** pattern → regular expression source */
  match?: Record<string, string>;
  /** pattern → absolute number, or a duration `<n>ms|s|m|h` */
  tolerance?: Record<string, number | string>;
  unordered?: string[];
  /** array pattern → identifying key */
  keyBy?: Record<string, string>;
  subset?: string[];
}

/** The whole file. */
export interface VerifyRulesFile {
  $schema?: string;
  rules: VerifyRule[];
}

/** The action names, in the order they are tried within a rule. */
export type RuleAction = 'ignore' | 'ignoreValue' | 'match' | 'tolerance' | 'subset' | 'unordered' | 'keyBy';

/** Which request the rules are applied to. `routeKey` is absent or null when the request matched no known route. */
export interface RequestContext {
  requestId: string;
  routeKey?: string | null;
}

/** One (rule, action, pattern); `rule` is the rule's id, or `rules[<index>]` when it has none. */
export interface RuleUse {
  rule: string;
  action: RuleAction;
  pattern: string;
}

/** A difference a rule waived, and which (rule, action, pattern) waived it. */
export interface Suppression extends RuleUse {
  difference: Difference;
}

/** The outcome of filtering one request's differences. */
export interface FilterResult {
  kept: Difference[];
  suppressed: Suppression[];
}

/** The rules that apply to one request. */
export interface RequestRules {
  /** What to pass to diffResponses for this request. */
  diffOptions: DiffOptions;
  /**
   * Splits the differences into kept and suppressed. `baseline`/`candidate` are accepted for
   * callers' convenience and are not consulted: every action decides from the difference itself.
   */
  filter(diffs: Difference[], baseline?: CanonicalResponse, candidate?: CanonicalResponse): FilterResult;
}

interface Entry extends RuleUse {
  compiled: Pattern;
  used: boolean;
  regex?: RegExp;
  /** Absolute numeric tolerance, or a window in milliseconds. */
  tolerance?: { number: number } | { ms: number };
  key?: string;
}

interface CompiledRule {
  scope: VerifyRule['scope'];
  entries: Entry[];
}

const ACTIONS: RuleAction[] = ['ignore', 'ignoreValue', 'match', 'tolerance', 'subset', 'unordered', 'keyBy'];

/** Loaded, validated and compiled rules; remembers which rules matched anything over its lifetime. */
export interface VerifyRules {
  /** Where the rules came from (a file path, or the label given to parseVerifyRules). */
  readonly source: string;
  /** The rules as written. */
  readonly rules: readonly VerifyRule[];
  /** The rules in scope for one request: the diff options to use and the filter. Usage is recorded across calls. */
  forRequest(context: RequestContext): RequestRules;
  /** Every (rule, action, pattern) that has not matched anything so far, by rule then action. */
  deadRules(): RuleUse[];
}

class RuleSet implements VerifyRules {
  private readonly compiled: CompiledRule[];

  constructor(
    readonly source: string,
    readonly rules: readonly VerifyRule[],
  ) {
    const problems: string[] = [];
    this.compiled = rules.map((rule, index) => compileRule(rule, index, problems));
    const ids = rules.flatMap((r, i) => (r.id === undefined ? [] : [[r.id, i] as const]));
    for (const [id, i] of ids) if (ids.find(([other]) => other === id)![1] !== i) problems.push(`$.rules[${i}].id: duplicate rule id "${id}"`);
    if (problems.length) throw rulesError(source, problems);
  }

  forRequest(context: RequestContext): RequestRules {
    const active = this.compiled.filter(({ scope }) => (!scope?.route || scope.route === context.routeKey) && (!scope?.request || scope.request === context.requestId));
    const entries = active.flatMap((r) => r.entries);
    const unordered = entries.filter((e) => e.action === 'unordered');
    const keyBy = entries.filter((e) => e.action === 'keyBy');
    const diffOptions: DiffOptions = {
      unordered: unordered.map((e) => e.pattern),
      keyBy: keyBy.map((e) => ({ pattern: e.pattern, key: e.key! })),
      onArrayOption: ({ option, index }) => {
        (option === 'unordered' ? unordered : keyBy)[index].used = true;
      },
    };
    const waivers = entries.filter((e) => e.action !== 'unordered' && e.action !== 'keyBy');
    return {
      diffOptions,
      filter: (diffs) => {
        const result: FilterResult = { kept: [], suppressed: [] };
        for (const difference of diffs) {
          const segments = parsePointer(difference.pointer);
          let by: Entry | undefined;
          for (const entry of waivers) {
            if (!addresses(entry, segments)) continue;
            entry.used = true;
            if (!by && waives(entry, difference)) by = entry;
          }
          if (by) result.suppressed.push({ difference, rule: by.rule, action: by.action, pattern: by.pattern });
          else result.kept.push(difference);
        }
        return result;
      },
    };
  }

  deadRules(): RuleUse[] {
    return this.compiled.flatMap((r) => r.entries.filter((e) => !e.used).map(({ rule, action, pattern }) => ({ rule, action, pattern })));
  }
}

/** Validates and compiles rules already read as JSON. Throws an Error naming `source` and the JSON path of each problem. */
export function parseVerifyRules(json: unknown, source: string): VerifyRules {
  if (!validate(json)) throw rulesError(source, formatAjvErrors(validate.errors ?? []));
  return new RuleSet(source, json.rules);
}

/**
 * Reads a rules file (normally `.migrate/verify.json`). A missing file gives empty rules;
 * unreadable files, invalid JSON and schema violations throw an Error naming the file.
 */
export function loadVerifyRules(file: string): VerifyRules {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new RuleSet(file, []);
    throw new Error(`${file}: cannot read verify rules: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: invalid JSON: ${(e as Error).message}`);
  }
  return parseVerifyRules(json, file);
}

/** Compiles one rule's patterns, regexes and tolerances; adds a line to `problems` for each error. */
function compileRule(rule: VerifyRule, index: number, problems: string[]): CompiledRule {
  const label = rule.id ?? `rules[${index}]`;
  const at = `$.rules[${index}]`;
  if (!ACTIONS.some((a) => rule[a] !== undefined)) problems.push(`${at} (rule "${label}"): no action (one of ${ACTIONS.join(', ')})`);
  const entries: Entry[] = [];
  /** `where` is the JSON path suffix after the action: `[2]` for a list item, `["/body/id"]` for a map key. */
  const add = (action: RuleAction, pattern: string, where: string, extra: () => Partial<Entry> = () => ({})) => {
    try {
      const compiled = action === 'ignoreValue' ? cookieValue(compilePattern(pattern)) : compilePattern(pattern);
      entries.push({ rule: label, action, pattern, compiled, used: false, ...extra() });
    } catch (e) {
      problems.push(`${at}.${action}${where} (rule "${label}"): ${(e as Error).message}`);
    }
  };
  for (const action of ['ignore', 'ignoreValue', 'subset', 'unordered'] as const) (rule[action] ?? []).forEach((p, i) => add(action, p, `[${i}]`));
  for (const [p, source] of Object.entries(rule.match ?? {})) add('match', p, jsonPathKey(p), () => ({ regex: new RegExp(source) }));
  for (const [p, t] of Object.entries(rule.tolerance ?? {})) add('tolerance', p, jsonPathKey(p), () => ({ tolerance: typeof t === 'number' ? { number: t } : { ms: durationMs(t) } }));
  for (const [p, key] of Object.entries(rule.keyBy ?? {})) add('keyBy', p, jsonPathKey(p), () => ({ key }));
  entries.sort((a, b) => ACTIONS.indexOf(a.action) - ACTIONS.indexOf(b.action));
  return { scope: rule.scope, entries };
}

const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile<VerifyRulesFile>(schema);

function rulesError(source: string, problems: string[]): Error {
  return new Error(`${source}: invalid verify rules:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

/** `$.rules[0].match["/body/id"]`-style paths from ajv's JSON Pointer instance paths, one line per problem. */
function formatAjvErrors(errors: ErrorObject[]): string[] {
  const lines = errors.flatMap((e) => {
    const path = `$${parsePointer(e.instancePath).map(jsonPathKey).join('')}`;
    if (e.keyword === 'additionalProperties') return [`${path}${jsonPathKey(String(e.params.additionalProperty))}: unknown property`];
    if (e.keyword === 'propertyNames') return [];
    if (e.propertyName !== undefined) return [`${path}${jsonPathKey(e.propertyName)}: ${NOT_A_PATTERN}`];
    if (e.schemaPath === '#/definitions/pattern/pattern') return [`${path}: ${NOT_A_PATTERN}`];
    if (e.schemaPath.endsWith('/tolerance/additionalProperties/pattern')) return [`${path}: a duration is written like "500ms", "2s", "1m" or "1h"`];
    return [`${path}: ${e.message}`];
  });
  return [...new Set(lines)];
}

const NOT_A_PATTERN = 'not a pointer pattern (must start with "/", "header:" or "cookie:")';

function jsonPathKey(key: string): string {
  if (/^\d+$/.test(key)) return `[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return `.${key}`;
  return `[${JSON.stringify(key)}]`;
}

/** `500ms`, `2s`, `1.5m`, `1h` → milliseconds (the schema has checked the form). */
function durationMs(text: string): number {
  const [, n, unit] = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text)!;
  return Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
}

/** For ignoreValue, a pattern naming a cookie (`/cookies/<name>`) stands for the cookie's `value`. */
function cookieValue(p: Pattern): Pattern {
  const isCookie = (alt: PatternSegment[]) => alt.length === 2 && alt[0].kind === 'literal' && alt[0].value === 'cookies' && alt[1].kind !== 'any';
  return { ...p, alternatives: p.alternatives.map((alt) => (isCookie(alt) ? [...alt, { kind: 'literal', value: 'value' }] : alt)) };
}

/** Whether the entry's pattern reaches the difference's pointer (at or below for the covering actions, exactly for value checks). */
function addresses(entry: Entry, segments: string[]): boolean {
  return entry.action === 'match' || entry.action === 'tolerance' ? matches(entry.compiled, segments) : matchesOrBelow(entry.compiled, segments);
}

const present = (v: unknown) => v !== undefined && v !== null;

/** A difference in value only: both sides exist. */
function isValueDifference(d: Difference): boolean {
  if (d.kind === 'header') return present(d.baseline) && present(d.candidate);
  return d.kind === 'value' || d.kind === 'type' || d.kind === 'order' || d.kind === 'status';
}

/** Whether an entry that addresses the difference waives it. */
function waives(entry: Entry, d: Difference): boolean {
  switch (entry.action) {
    case 'ignore':
      return true;
    case 'ignoreValue':
      return isValueDifference(d);
    case 'match':
      return (d.kind === 'value' || d.kind === 'status' || d.kind === 'header') && isValueDifference(d) && [d.baseline, d.candidate].every((v) => entry.regex!.test(asString(v)));
    case 'tolerance':
      return (d.kind === 'value' || d.kind === 'header') && isValueDifference(d) && withinTolerance(entry.tolerance!, d.baseline, d.candidate);
    case 'subset':
      if (d.kind === 'extra') return true;
      if (d.kind === 'header') return !present(d.baseline);
      if (d.kind === 'size' && typeof d.baseline === 'object') return (d.baseline as SizeBaseline).missing.length === 0 && (d.candidate as SizeCandidate).length > (d.baseline as SizeBaseline).length;
      return false;
    default:
      return false;
  }
}

function asString(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function withinTolerance(t: { number: number } | { ms: number }, a: unknown, b: unknown): boolean {
  const [x, y] = 'number' in t ? [asNumber(a), asNumber(b)] : [asTime(a), asTime(b)];
  if (x === undefined || y === undefined) return false;
  const limit = 'number' in t ? t.number : t.ms;
  // Floating-point slack: 1.1 vs 1.11 is within 0.01 although 1.11 - 1.1 > 0.01 in binary.
  return Math.abs(x - y) <= limit + 4 * Number.EPSILON * Math.max(1, Math.abs(x), Math.abs(y));
}

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function asTime(v: unknown): number | undefined {
  if (typeof v !== 'string' || !(ISO_DATE.test(v) || HTTP_DATE.test(v))) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}
