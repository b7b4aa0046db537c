/**
 * The verdict of a replay: per exchange an outcome, per route the counts, and what the run
 * learned (framework deltas with fixes, noise suggestions, dead rules, coverage). Saved as
 * `.migrate/verify/last.json` and rendered by the verify reports.
 */
import type { FrameworkDefault, FrameworkDefaultId } from '../rules/catalogue/framework-defaults.js';
import type { Coverage } from './coverage.js';
import type { Difference } from './model.js';
import type { NoiseSuggestion } from './noise.js';
import type { RuleUse } from './verify-rules.js';

/**
 * What happened to one exchange, worst first: `regression` (a client can notice a difference),
 * `unverified` (it could not be compared: a redacted credential had no value), `delta` (only
 * pure framework defaults differ), `noise`, `accepted` (only differences accepted before), `pass`.
 */
export type Outcome = 'regression' | 'unverified' | 'delta' | 'noise' | 'accepted' | 'pass';

/** Outcomes in report order, worst first. */
export const OUTCOMES: Outcome[] = ['regression', 'unverified', 'delta', 'noise', 'accepted', 'pass'];

/** A difference that counts as a regression; `cause` names a catalogued default when one explains it. */
export interface Regression extends Difference {
  cause?: FrameworkDefaultId;
}

/** One replayed exchange that did not simply pass (passes are only counted, to keep memory flat). */
export interface ExchangeResult {
  /** `e<N>`: the N-th entry of the recording (1-based). */
  id: string;
  method: string;
  path: string;
  comment?: string;
  session: string;
  /** The route that answered (inventory route key), or null. */
  route: string | null;
  outcome: Outcome;
  status: { baseline: number | null; candidate: number | null };
  regressions: Regression[];
  deltas: Array<{ id: FrameworkDefaultId; differences: Difference[] }>;
  noise: Difference[];
  accepted: Difference[];
  /** Differences left out of the lists above to keep the result small (more than 50 in one category). */
  clipped?: number;
  /** Differences silenced by `.migrate/verify.json` rules, with the rule. */
  ignored: number;
  /** Both bodies as short text, when they are of different kinds (JSON vs HTML) and so not diffed by field. */
  bodies?: { baseline: string; candidate: string };
  /** Why the exchange is `unverified`. */
  note?: string;
}

/** Counts of one route (or of the whole run). */
export type OutcomeCounts = Record<Outcome, number> & { requests: number };

/** A framework delta seen in the run, with the catalogue entry and where it appeared. */
export interface DeltaSummary extends Pick<FrameworkDefault, 'id' | 'title' | 'fix' | 'express' | 'fastify'> {
  count: number;
  /** Exchange ids, first 20. */
  examples: string[];
}

/** A catalogued default that caused regressions (client-visible, so they count), with its fix. */
export interface CauseSummary {
  id: FrameworkDefaultId;
  title: string;
  /** Requests with a regression it caused. */
  requests: number;
  fix: string;
}

/** The whole verdict. Paths are as given on the command line; times in ms. */
export interface Verdict {
  tool: { name: string; version: string };
  startedAt: string;
  durationMs: number;
  baseline: string;
  candidate: string;
  recording: string;
  noiseLane: boolean;
  /** The candidate's installed Fastify version (fixes are given for it), or null. */
  candidateFastify: string | null;
  totals: OutcomeCounts;
  routes: Array<{ route: string } & OutcomeCounts>;
  exchanges: ExchangeResult[];
  /** True when more non-passing exchanges happened than are stored (see `exchanges`). */
  truncated: boolean;
  deltas: DeltaSummary[];
  causes: CauseSummary[];
  noise: NoiseSuggestion[];
  /** Rule patterns of `.migrate/verify.json` that matched nothing in the run. */
  deadRules: RuleUse[];
  coverage: Coverage | null;
  notes: string[];
  /**
   * Requests the baseline answered with another status than the recording shows: the replay did
   * not reproduce the recorded state (expired credentials, missing data), so their passes prove less.
   */
  baselineDrift: { count: number; examples: Array<{ id: string; request: string; recorded: number; baseline: number }> };
  /** The candidate process exited during the replay: where, how, and the end of its output. */
  candidateExit: { at: string; how: string; output: string } | null;
}

/** Empty counters. */
export function emptyCounts(): OutcomeCounts {
  return { requests: 0, regression: 0, unverified: 0, delta: 0, noise: 0, accepted: 0, pass: 0 };
}

/** The outcome of an exchange from what is left in each category. */
export function outcomeOf(r: Pick<ExchangeResult, 'regressions' | 'deltas' | 'noise' | 'accepted' | 'note'>): Outcome {
  if (r.regressions.length) return 'regression';
  if (r.note) return 'unverified';
  if (r.deltas.length) return 'delta';
  if (r.noise.length) return 'noise';
  if (r.accepted.length) return 'accepted';
  return 'pass';
}

/** Label of requests that matched no inventory route (404s, static files, unknown paths). */
export const NO_ROUTE = '(no route)';
