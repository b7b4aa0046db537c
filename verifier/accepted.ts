/**
 * Accepted differences (`.migrate/verify/accepted.json`): differences a human has looked at and
 * accepted, each with a reason, so the CI gate fails only on new ones (verifier-design.md §7.15).
 * An entry is keyed by the request as recorded (`METHOD /path?query`), the pointer, the kind and
 * the fingerprint of both values — not by the exchange id, which changes when a recording is regenerated. The values
 * are part of the key so that accepting `201 → 400` on one request does not also accept a later
 * `201 → 500` on it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Difference } from './model.js';
import { NO_ROUTE, outcomeOf, type ExchangeResult, type Verdict } from './verdict.js';
import { writeFileAtomic } from './files.js';

/** One accepted difference. `acceptedAt` is ISO 8601. */
export interface AcceptedDifference {
  request: string;
  pointer: string;
  kind: Difference['kind'];
  /** Both values as JSON text (absent side: omitted; shortened when long), for a human. */
  baseline?: string;
  candidate?: string;
  /** sha1 of both full values ({@link fingerprintOf}): what a later difference must match. */
  fingerprint: string;
  reason: string;
  acceptedAt: string;
}

/** The accepted-differences file, loaded; `has` answers whether a difference was accepted. */
export class AcceptedDifferences {
  private readonly keys: Set<string>;

  constructor(readonly entries: AcceptedDifference[] = []) {
    this.keys = new Set(entries.map((e) => key(e.request, e)));
  }

  /**
   * Reads `file`; a missing file is an empty list.
   * @throws Error naming the file when it is not JSON or lacks the `accepted` array
   */
  static load(file: string): AcceptedDifferences {
    if (!existsSync(file)) return new AcceptedDifferences();
    let json: { accepted?: AcceptedDifference[] };
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`${file}: not valid JSON (${(e as Error).message})`);
    }
    if (!Array.isArray(json.accepted)) throw new Error(`${file}: expected { "accepted": [ … ] }`);
    return new AcceptedDifferences(json.accepted);
  }

  /** Whether `d` on the request `METHOD path` was accepted. */
  has(request: string, d: Difference): boolean {
    return this.keys.has(key(request, valued(d)));
  }

  /**
   * Adds every regression and framework delta of `exchanges` with `reason`, and writes the file
   * atomically. Returns how many entries were new.
   */
  acceptAll(file: string, exchanges: ExchangeResult[], reason: string, now = new Date()): number {
    const added: AcceptedDifference[] = [];
    for (const x of exchanges) {
      const request = `${x.method} ${x.path}`;
      for (const d of [...x.regressions, ...x.deltas.flatMap((e) => e.differences)]) {
        const v = valued(d);
        const k = key(request, v);
        if (this.keys.has(k)) continue;
        this.keys.add(k);
        added.push({ request, ...v, reason, acceptedAt: now.toISOString() });
      }
    }
    this.entries.push(...added);
    writeFileAtomic(file, JSON.stringify({ accepted: this.entries }, null, 2) + '\n');
    return added.length;
  }
}

/**
 * sha1 of a difference's two full values: what an accepted difference matches on, since stored
 * values are shortened for reports.
 */
export function fingerprintOf(d: Difference): string {
  return d.fingerprint ?? createHash('sha1').update(JSON.stringify([d.baseline ?? null, d.candidate ?? null])).digest('hex');
}

/** A difference as stored in the file: the fingerprint, and the values as JSON text for a human. */
function valued(d: Difference): Pick<AcceptedDifference, 'pointer' | 'kind' | 'baseline' | 'candidate' | 'fingerprint'> {
  const text = (v: unknown) => (v === undefined ? undefined : JSON.stringify(v));
  return { pointer: d.pointer, kind: d.kind, baseline: text(d.baseline), candidate: text(d.candidate), fingerprint: fingerprintOf(d) };
}

const key = (request: string, d: Pick<AcceptedDifference, 'pointer' | 'kind' | 'fingerprint'>) => [request, d.pointer, d.kind, d.fingerprint].join('\u0000');

/**
 * Marks the regressions and deltas of `exchanges` (members of `verdict.exchanges`) as accepted in
 * the verdict itself, with the counts per route and in total, so the report and the gate of the
 * run that accepted them agree with the next run.
 */
export function markAccepted(verdict: Verdict, exchanges: ExchangeResult[]): void {
  for (const x of exchanges) {
    const before = x.outcome;
    x.accepted.push(...x.regressions, ...x.deltas.flatMap((d) => d.differences));
    x.regressions = [];
    x.deltas = [];
    x.outcome = outcomeOf(x);
    const route = verdict.routes.find((r) => r.route === (x.route ?? NO_ROUTE));
    for (const c of [verdict.totals, ...(route ? [route] : [])]) {
      c[before]--;
      c[x.outcome]++;
    }
  }
}
