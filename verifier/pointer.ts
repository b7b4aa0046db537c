/**
 * JSON Pointers (RFC 6901) into a CanonicalResponse, and the pointer **patterns** that verify
 * rules and diff options are written in.
 *
 * A pattern is a JSON Pointer in which a whole segment may be `*` (exactly one segment) or `**`
 * (zero or more segments): `/body/items/*` is every element of `items`, and `/body/**` with
 * `/updatedAt` appended is `updatedAt` at any depth of the body. Two shorthands:
 * `header:<name>` is `/headers/<name>` and `cookie:<name>` is `/cookies/<name>`. Header names
 * are lower-cased (in the shorthand and after `/headers/`), as in the canonical form. Because
 * the canonical form splits `Content-Type` into `/mediaType` + `/charset` and moves `Set-Cookie`
 * to `/cookies`, `header:content-type` stands for both `/mediaType` and `/charset`, and
 * `header:set-cookie` for `/cookies`.
 *
 * Matching compares whole segments, never substrings: the pattern for `items/<any>/id` does not
 * touch `/body/items/0/idempotencyKey`. Keploy's dotted noise paths were matched with
 * `strings.Contains` and so over-suppressed (verifier-design §1.4, §7.8).
 *
 * Limit: a key literally named `*` or `**` cannot be singled out; the wildcard matches it along
 * with its siblings.
 */

/** A pattern as written in a rules file or in DiffOptions (see the module docs for the grammar). */
export type PointerPattern = string;

/** One segment of a compiled pattern. */
export type PatternSegment = { kind: 'literal'; value: string } | { kind: 'one' } | { kind: 'any' };

/** A compiled pattern: the source text and one or more alternative segment lists (any may match). */
export interface Pattern {
  source: PointerPattern;
  alternatives: PatternSegment[][];
}

/** Escapes one reference token: `~` → `~0`, `/` → `~1` (RFC 6901 §3). */
export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one reference token. Throws on a `~` not followed by `0` or `1`. */
export function unescapeSegment(token: string): string {
  if (/~(?![01])/.test(token)) throw new Error(`invalid JSON Pointer token "${token}": "~" must be followed by 0 or 1`);
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Formats segments as a JSON Pointer: `['body', 'a/b', 0]` → `/body/a~1b/0`; `[]` → `` (the root). */
export function formatPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${escapeSegment(s)}`).join('');
}

/** Parses a JSON Pointer into unescaped segments: `/body/a~1b/0` → `['body', 'a/b', '0']`. Throws when invalid. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`invalid JSON Pointer "${pointer}": must be empty or start with "/"`);
  return pointer.slice(1).split('/').map(unescapeSegment);
}

/** `header:` shorthands whose header does not live under `/headers` in the canonical form. */
const HEADER_ALIASES: Record<string, string[][]> = {
  'content-type': [['mediaType'], ['charset']],
  'set-cookie': [['cookies']],
};

function segmentsOf(pointerPattern: string): PatternSegment[] {
  return parsePointer(pointerPattern).map((s, i, all): PatternSegment => {
    if (s === '*') return { kind: 'one' };
    if (s === '**') return { kind: 'any' };
    // Header names are case-insensitive and stored lower-cased.
    if (i === 1 && all[0] === 'headers') return { kind: 'literal', value: s.toLowerCase() };
    return { kind: 'literal', value: s };
  });
}

/** Compiles a pattern. Throws (naming the pattern) on an invalid pointer or an empty shorthand name. */
export function compilePattern(source: PointerPattern): Pattern {
  const literal = (path: string[]) => path.map((value): PatternSegment => ({ kind: 'literal', value }));
  const shorthand = /^(header|cookie):(.*)$/s.exec(source);
  if (shorthand) {
    const [, ns, name] = shorthand;
    if (name === '') throw new Error(`invalid pattern "${source}": a ${ns} name is required`);
    if (ns === 'cookie') return { source, alternatives: [literal(['cookies', name])] };
    const lower = name.toLowerCase();
    return { source, alternatives: (HEADER_ALIASES[lower] ?? [['headers', lower]]).map(literal) };
  }
  try {
    return { source, alternatives: [segmentsOf(source)] };
  } catch (e) {
    throw new Error(`invalid pattern "${source}": ${(e as Error).message}`);
  }
}

/** Patterns given as strings are compiled once (rules files and options hold a handful). */
const cache = new Map<string, Pattern>();

function compiled(pattern: PointerPattern | Pattern): Pattern {
  if (typeof pattern !== 'string') return pattern;
  let p = cache.get(pattern);
  if (!p) cache.set(pattern, (p = compilePattern(pattern)));
  return p;
}

/**
 * Which lengths of `segments` the pattern matches: `reach[j]` is true when the pattern matches
 * exactly the first `j` segments. Dynamic programming, linear in pattern × pointer length.
 */
function reach(pattern: PatternSegment[], segments: readonly string[]): boolean[] {
  let reached = segments.map(() => false).concat(false);
  reached[0] = true;
  for (const p of pattern) {
    const next = reached.map(() => false);
    if (p.kind === 'any') {
      let on = false;
      for (let j = 0; j < next.length; j++) next[j] = on = on || reached[j];
    } else {
      for (let j = 1; j < next.length; j++) next[j] = reached[j - 1] && (p.kind === 'one' || p.value === segments[j - 1]);
    }
    reached = next;
  }
  return reached;
}

function segmentsOfPointer(pointer: string | readonly string[]): readonly string[] {
  return typeof pointer === 'string' ? parsePointer(pointer) : pointer;
}

/** True when the pattern addresses exactly this pointer (a string, or its parsed segments). */
export function matches(pattern: PointerPattern | Pattern, pointer: string | readonly string[]): boolean {
  const segments = segmentsOfPointer(pointer);
  return compiled(pattern).alternatives.some((alt) => reach(alt, segments)[segments.length]);
}

/** True when the pointer is the pattern's node or inside it (`/body/a` covers `/body/a/b/0`). */
export function matchesOrBelow(pattern: PointerPattern | Pattern, pointer: string | readonly string[]): boolean {
  const segments = segmentsOfPointer(pointer);
  return compiled(pattern).alternatives.some((alt) => reach(alt, segments).some(Boolean));
}
