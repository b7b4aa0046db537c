/**
 * Differences between two canonical responses, as a flat list of typed differences addressed by
 * JSON Pointers (RFC 6901) into the canonical object. This is Diffy's typed difference tree
 * (verifier-design §1.1: primitive, type, missing/extra field, ordering, sequence size, indexed)
 * flattened to "pointer + kind" keys (§7.8).
 *
 * | pointer | kind | baseline / candidate |
 * |---|---|---|
 * | `/status` | status | the status codes |
 * | `/mediaType`, `/charset`, `/headers/<name>` | header | the values; undefined on a side without it |
 * | `/cookies/<name>` | missing / extra | the whole cookie |
 * | `/cookies/<name>/<attribute>` | value | the attribute values; undefined when absent |
 * | `/bodyKind` | type | `json`, `text`, `binary` or `empty` (the body is then not compared further) |
 * | `/body…` (JSON) | missing / extra / type / value | the values at that pointer |
 * | array pointer | order | both arrays (same elements as a multiset, another order) |
 * | array pointer | size | {@link SizeBaseline} / {@link SizeCandidate}: lengths and the elements only one side has |
 * | `/body` (text) | value | both strings |
 * | `/body` (binary) | size (sizes differ) else value (hashes differ) | sizes in bytes / sha256 hex digests |
 *
 * JSON objects are compared key by key, so key order never matters (fast-json-stringify and
 * schemas reorder keys, express-fastify-mapping §2.8). Arrays: same length and the same multiset
 * in another order → one `order` difference; different lengths → one `size` difference and
 * nothing per element (Diffy's SeqSizeDifference; per-index diffs after an insertion are noise,
 * diffy#58); otherwise element by element. DiffOptions change this per array (see there).
 * Output is sorted by pointer (segment by segment, numeric segments numerically) then kind.
 */
import type { CanonicalResponse, Difference, DifferenceKind } from './model.js';
import { formatPointer, matches, type PointerPattern } from './pointer.js';

/** Per-array comparison options. Patterns are matched exactly against the array's pointer. */
export interface DiffOptions {
  /** Arrays compared as multisets: order is never reported. */
  unordered?: PointerPattern[];
  /**
   * Arrays of objects whose elements are matched by the value of `key` (compared as JSON, so `1`
   * and `"1"` differ). Order is never reported; a baseline element without a partner is `missing`
   * at its baseline index, a candidate element without one is `extra` at `<array>/-` (RFC 6901's
   * "past the end" token), and partners are compared at the baseline index. When an element is
   * not an object, lacks the key, or a key value repeats on one side, the array is compared as if
   * `keyBy` did not name it. The first matching entry wins.
   */
  keyBy?: Array<{ pattern: PointerPattern; key: string }>;
  /**
   * Told each time an `unordered` or `keyBy` entry (by its index in that list) meets an array,
   * so that rules which never meet one can be reported as dead.
   */
  onArrayOption?: (use: { option: 'unordered' | 'keyBy'; index: number; pointer: string }) => void;
}

/** `baseline` of an array `size` difference: its length and the elements the candidate lacks. */
export interface SizeBaseline {
  length: number;
  missing: unknown[];
}

/** `candidate` of an array `size` difference: its length and the elements the baseline lacks. */
export interface SizeCandidate {
  length: number;
  extra: unknown[];
}

const KIND_ORDER: DifferenceKind[] = ['status', 'header', 'missing', 'extra', 'type', 'value', 'order', 'size'];

/** Diffs two canonical responses; `[]` when they are equal. Deterministic. */
export function diffResponses(baseline: CanonicalResponse, candidate: CanonicalResponse, options: DiffOptions = {}): Difference[] {
  const out: Array<Difference & { segments: string[] }> = [];
  const emit = (segments: string[], kind: DifferenceKind, b: unknown, c: unknown) => {
    const d: Difference & { segments: string[] } = { segments, pointer: formatPointer(segments), kind };
    if (b !== undefined) d.baseline = b;
    if (c !== undefined) d.candidate = c;
    out.push(d);
  };

  if (baseline.status !== candidate.status) emit(['status'], 'status', baseline.status, candidate.status);
  for (const field of ['mediaType', 'charset'] as const) {
    if (baseline[field] !== candidate[field]) emit([field], 'header', baseline[field] ?? undefined, candidate[field] ?? undefined);
  }
  for (const name of unionKeys(baseline.headers, candidate.headers)) {
    const b = own(baseline.headers, name);
    const c = own(candidate.headers, name);
    if (b !== c) emit(['headers', name], 'header', b, c);
  }
  for (const name of unionKeys(baseline.cookies, candidate.cookies)) {
    const b = own(baseline.cookies, name);
    const c = own(candidate.cookies, name);
    if (b === undefined) emit(['cookies', name], 'extra', undefined, c);
    else if (c === undefined) emit(['cookies', name], 'missing', b, undefined);
    else {
      for (const attribute of unionKeys(b, c)) {
        const bv = own(b, attribute);
        const cv = own(c, attribute);
        if (bv !== cv) emit(['cookies', name, attribute], 'value', bv, cv);
      }
    }
  }
  if (baseline.bodyKind !== candidate.bodyKind) emit(['bodyKind'], 'type', baseline.bodyKind, candidate.bodyKind);
  else if (baseline.bodyKind === 'json') new JsonDiff(options, emit).compare(baseline.body, candidate.body, ['body']);
  else if (baseline.bodyKind === 'text' && baseline.body !== candidate.body) emit(['body'], 'value', baseline.body, candidate.body);
  else if (baseline.bodyKind === 'binary') {
    const b = baseline.body as { sha256: string; size: number };
    const c = candidate.body as { sha256: string; size: number };
    if (b.size !== c.size) emit(['body'], 'size', b.size, c.size);
    else if (b.sha256 !== c.sha256) emit(['body'], 'value', b.sha256, c.sha256);
  }

  const indexed = out.map((d, i) => ({ d, i }));
  indexed.sort((x, y) => comparePointers(x.d.segments, y.d.segments) || KIND_ORDER.indexOf(x.d.kind) - KIND_ORDER.indexOf(y.d.kind) || x.i - y.i);
  return indexed.map(({ d: { segments: _segments, ...d } }) => d);
}

type Emit = (segments: string[], kind: DifferenceKind, baseline: unknown, candidate: unknown) => void;

/** The structural comparison of two JSON values. */
class JsonDiff {
  constructor(
    private readonly options: DiffOptions,
    private readonly emit: Emit,
  ) {}

  compare(b: unknown, c: unknown, at: string[]): void {
    const bt = jsonType(b);
    const ct = jsonType(c);
    if (bt !== ct) return this.emit(at, 'type', b, c);
    if (bt === 'array') return this.compareArrays(b as unknown[], c as unknown[], at);
    if (bt === 'object') return this.compareObjects(b as Record<string, unknown>, c as Record<string, unknown>, at);
    if (b !== c) this.emit(at, 'value', b, c);
  }

  private compareObjects(b: Record<string, unknown>, c: Record<string, unknown>, at: string[]): void {
    for (const key of unionKeys(b, c)) {
      if (!Object.hasOwn(c, key)) this.emit([...at, key], 'missing', b[key], undefined);
      else if (!Object.hasOwn(b, key)) this.emit([...at, key], 'extra', undefined, c[key]);
      else this.compare(b[key], c[key], [...at, key]);
    }
  }

  private compareArrays(b: unknown[], c: unknown[], at: string[]): void {
    const pointer = formatPointer(at);
    let unordered = false;
    (this.options.unordered ?? []).forEach((pattern, index) => {
      if (!matches(pattern, at)) return;
      unordered = true;
      this.options.onArrayOption?.({ option: 'unordered', index, pointer });
    });
    let keyed: string | undefined;
    (this.options.keyBy ?? []).forEach(({ pattern, key }, index) => {
      if (!matches(pattern, at)) return;
      keyed ??= key;
      this.options.onArrayOption?.({ option: 'keyBy', index, pointer });
    });
    if (keyed !== undefined && this.compareKeyed(b, c, at, keyed)) return;

    const bKeys = b.map(canonicalJson);
    const cKeys = c.map(canonicalJson);
    const { missing, extra } = multisetDifference(bKeys, cKeys);
    if (b.length !== c.length) {
      const size: [SizeBaseline, SizeCandidate] = [
        { length: b.length, missing: missing.map((i) => b[i]) },
        { length: c.length, extra: extra.map((i) => c[i]) },
      ];
      return this.emit(at, 'size', size[0], size[1]);
    }
    if (missing.length === 0) {
      if (!unordered && bKeys.some((k, i) => k !== cKeys[i])) this.emit(at, 'order', b, c);
      return;
    }
    // Same length, different elements: unordered arrays pair the unmatched elements in order;
    // ordered arrays are compared index by index.
    const pairs = unordered ? missing.map((bi, n) => [bi, extra[n]]) : b.map((_, i) => [i, i]);
    for (const [bi, ci] of pairs) this.compare(b[bi], c[ci], [...at, String(bi)]);
  }

  /** keyBy comparison; false when the arrays cannot be keyed (the caller then compares them plainly). */
  private compareKeyed(b: unknown[], c: unknown[], at: string[], key: string): boolean {
    const bIndex = indexBy(b, key);
    const cIndex = indexBy(c, key);
    if (!bIndex || !cIndex) return false;
    for (const [k, bi] of bIndex) {
      const ci = cIndex.get(k);
      if (ci === undefined) this.emit([...at, String(bi)], 'missing', b[bi], undefined);
      else this.compare(b[bi], c[ci], [...at, String(bi)]);
    }
    for (const [k, ci] of cIndex) if (!bIndex.has(k)) this.emit([...at, '-'], 'extra', undefined, c[ci]);
    return true;
  }
}

/** Key value (as canonical JSON) → element index; null when some element cannot be keyed. */
function indexBy(items: unknown[], key: string): Map<string, number> | null {
  const index = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    if (jsonType(item) !== 'object' || !Object.hasOwn(item as object, key)) return null;
    const k = canonicalJson((item as Record<string, unknown>)[key]);
    if (index.has(k)) return null;
    index.set(k, i);
  }
  return index;
}

/** Indices of baseline elements with no equal candidate element and vice versa (multiset difference). */
function multisetDifference(bKeys: string[], cKeys: string[]): { missing: number[]; extra: number[] } {
  // Per key: the candidate indices, and how many of them baseline elements have taken (linear time).
  const pool = new Map<string, { indices: number[]; taken: number }>();
  cKeys.forEach((k, i) => {
    const entry = pool.get(k);
    if (entry) entry.indices.push(i);
    else pool.set(k, { indices: [i], taken: 0 });
  });
  const missing: number[] = [];
  for (const [i, k] of bKeys.entries()) {
    const left = pool.get(k);
    if (left && left.taken < left.indices.length) left.taken++;
    else missing.push(i);
  }
  const extra = [...pool.values()].flatMap((e) => e.indices.slice(e.taken)).sort((x, y) => x - y);
  return { missing, extra };
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v as JsonType;
}

/** JSON with object keys sorted, so that equal values (key order aside) give equal strings. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

function unionKeys(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

function own<T>(record: Record<string, T> | object, key: string): T | undefined {
  return Object.hasOwn(record, key) ? (record as Record<string, T>)[key] : undefined;
}

/** Segment-wise order: parents before children, numeric segments numerically, then by code unit. */
function comparePointers(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const na = /^\d+$/.test(a[i]);
    const nb = /^\d+$/.test(b[i]);
    if (na && nb) return Number(a[i]) - Number(b[i]) || (a[i] < b[i] ? -1 : 1);
    if (na !== nb) return na ? -1 : 1;
    return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}
