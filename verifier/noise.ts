/**
 * Noise, measured Diffy-style (verifier-design.md §1.1, §7.6): a second baseline instance (the
 * noise lane) answers the same requests; whatever differs between the two baseline answers
 * (A/A) is noise. A candidate difference (A/B) is noise when the same field differed A/A for
 * the same request, or when, over the whole run, the field's A/B rate on that route is not
 * clearly above its A/A rate: `abRate - aaRate <= absolute` or `abRate <= aaRate * (1 + relative)`
 * (Diffy's relative and absolute thresholds). Noise is never counted as a regression; it is
 * suggested as a rule for a human to accept.
 */
import type { CanonicalResponse, Difference } from './model.js';
import { NO_ROUTE } from './verdict.js';

/** Diffy's thresholds, as shares of requests (0..1). */
export interface NoiseThresholds {
  relative: number;
  absolute: number;
}

/** A field that is noisy on a route, with the rule that would silence it. */
export interface NoiseSuggestion {
  route: string;
  pointer: string;
  kind: Difference['kind'];
  /** Share of A/A samples in which the field differed. */
  aaRate: number;
  /** Share of A/B comparisons in which the field differed. */
  abRate: number;
  rule: { scope: { route: string }; ignore?: string[]; ignoreValue?: string[]; unordered?: string[] };
}

/** A field: the pointer with array indexes written `*`, so `/body/items/3/at` counts with `/body/items/0/at`. */
export function fieldOf(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

const keyOf = (route: string, d: Difference) => `${route}\u0000${fieldOf(d.pointer)}\u0000${d.kind}`;

/** Streaming A/A and A/B counters per (route, field, kind); memory grows with fields, not requests. */
export class NoiseModel {
  private readonly aa = new Map<string, number>();
  private readonly ab = new Map<string, number>();
  private readonly aaSamples = new Map<string, number>();
  private readonly abSamples = new Map<string, number>();

  constructor(private readonly thresholds: NoiseThresholds = { relative: 0.2, absolute: 0.03 }) {}

  /** Records one A/A comparison (baseline vs noise lane) of a request on `route`. */
  observeAA(route: string, differences: Difference[]): void {
    this.aaSamples.set(route, (this.aaSamples.get(route) ?? 0) + 1);
    for (const key of new Set(differences.map((d) => keyOf(route, d)))) this.aa.set(key, (this.aa.get(key) ?? 0) + 1);
  }

  /** Records one A/B comparison (baseline vs candidate) of a request on `route`. */
  observeAB(route: string, differences: Difference[]): void {
    this.abSamples.set(route, (this.abSamples.get(route) ?? 0) + 1);
    for (const key of new Set(differences.map((d) => keyOf(route, d)))) this.ab.set(key, (this.ab.get(key) ?? 0) + 1);
  }

  /**
   * Whether an A/B difference on `route` is noise, judged on the counters so far. Never for a
   * status, an array size or a whole text body: that a field varies says nothing about how much
   * (a flaky 503 does not make a 404 noise; see {@link confirmNoise} for the same request).
   */
  isNoise(route: string, d: Difference): boolean {
    if (!aggregable(d)) return false;
    const aaRate = this.rate(this.aa, this.aaSamples, route, d);
    if (aaRate === 0) return false;
    const abRate = this.rate(this.ab, this.abSamples, route, d);
    return abRate - aaRate <= this.thresholds.absolute || abRate <= aaRate * (1 + this.thresholds.relative);
  }

  /**
   * Noisy fields with the narrowest rule that would silence them (sorted by route, pointer): only
   * fields the thresholds call noise on a known route (a rule cannot be scoped to "no route"), and
   * never statuses, sizes or whole text bodies. `unordered` for order, `ignoreValue` where presence
   * still matters, `ignore` only for fields that come and go.
   */
  suggestions(): NoiseSuggestion[] {
    const out: NoiseSuggestion[] = [];
    for (const [key, count] of this.aa) {
      const [route, pointer, kind] = key.split('\u0000') as [string, string, Difference['kind']];
      if (route === NO_ROUTE || !this.isNoise(route, { pointer, kind })) continue;
      const aaRate = count / (this.aaSamples.get(route) ?? 1);
      const abRate = (this.ab.get(key) ?? 0) / (this.abSamples.get(route) ?? 1);
      const action = kind === 'order' ? 'unordered' : kind === 'missing' || kind === 'extra' ? 'ignore' : 'ignoreValue';
      out.push({ route, pointer, kind, aaRate, abRate, rule: { scope: { route }, [action]: [pointer] } });
    }
    return out.sort((a, b) => a.route.localeCompare(b.route) || a.pointer.localeCompare(b.pointer) || a.kind.localeCompare(b.kind));
  }

  private rate(counts: Map<string, number>, samples: Map<string, number>, route: string, d: Difference): number {
    const n = samples.get(route) ?? 0;
    return n ? (counts.get(keyOf(route, d)) ?? 0) / n : 0;
  }
}

/** Differences the run-wide rates may call noise (not statuses, array sizes or whole text bodies). */
function aggregable(d: Difference): boolean {
  return d.kind !== 'status' && d.kind !== 'size' && d.pointer !== '/body';
}

/**
 * Whether a difference that also showed between the two baseline answers (A/A) of the same
 * request is noise in detail, not just in the same field:
 * - a status: only when the candidate answered what the second baseline answered;
 * - an array size: only when the candidate's length lies between the two baselines' lengths;
 * - a whole text body (`/body`): only when every token the candidate changed also differed between
 *   the two baselines (a timestamp or a nonce in a page, not the total beside it); bodies whose
 *   token counts differ are judged as one field.
 * Everything else: yes.
 */
export function confirmNoise(d: Difference, baseline: CanonicalResponse, twin: CanonicalResponse, candidate: CanonicalResponse): boolean {
  if (d.kind === 'status') return twin.status === candidate.status;
  if (d.kind === 'size') {
    const lengths = [d.baseline, d.candidate].map((v) => (v as { length?: number } | undefined)?.length);
    const twinLength = valueAt(twin.body, d.pointer);
    if (typeof lengths[0] !== 'number' || typeof lengths[1] !== 'number' || !Array.isArray(twinLength)) return false;
    const [lo, hi] = [Math.min(lengths[0], twinLength.length), Math.max(lengths[0], twinLength.length)];
    return lengths[1] >= lo && lengths[1] <= hi;
  }
  if (d.pointer === '/body' && typeof baseline.body === 'string' && typeof twin.body === 'string' && typeof candidate.body === 'string') {
    const [b, n, c] = [baseline.body, twin.body, candidate.body].map(tokens);
    if (b.length !== n.length || b.length !== c.length) return true;
    return b.every((t, i) => t === c[i] || t !== n[i]);
  }
  return true;
}

/** Words and the punctuation between them, so `Generated 12:01:07` and `Total: 100` are separate tokens. */
function tokens(text: string): string[] {
  return text.split(/(\s+|[<>"'=&;,:()[\]{}/])/);
}

/** The value at a body pointer (`/body/items`), or undefined. */
function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const segment of pointer.split('/').slice(2).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
