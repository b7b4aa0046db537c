/**
 * `verify`: replays a recording into the baseline lane, the candidate lane and (for noise) a
 * second baseline lane, in recorded order, and judges every exchange (verifier-design.md §7).
 * Lanes: verifier/sides.ts; one exchange: verifier/exchange.ts; here the run: order, counts,
 * noise judged on the whole run, the verdict.
 */
import type { Inventory } from '../analyzer/model.js';
import { toolVersion } from '../analyzer/version.js';
import { FRAMEWORK_DEFAULTS, fixFor, type FrameworkDefaultId } from '../rules/catalogue/framework-defaults.js';
import type { AcceptedDifferences } from './accepted.js';
import { RouteCoverage } from './coverage.js';
import { notReplayed, replayOne, type RunFindings } from './exchange.js';
import { recordedResponse, toReplayRequest } from './har.js';
import type { LaneSpec } from './lane.js';
import type { Har } from './model.js';
import { NoiseModel } from './noise.js';
import { startSides } from './sides.js';
import { emptyCounts, NO_ROUTE, outcomeOf, type DeltaSummary, type ExchangeResult, type Outcome, type OutcomeCounts, type Verdict } from './verdict.js';
import type { VerifyRules } from './verify-rules.js';

/** Everything a replay needs. Lane specs are complete (dir, entry, env); see verifier/lane.ts. */
export interface VerifyOptions {
  baseline: LaneSpec;
  candidate: LaneSpec;
  har: Har;
  /** Labels for the report: the baseline ref or folder, the candidate folder, the recording file. */
  labels: { baseline: string; candidate: string; recording: string };
  rules: VerifyRules;
  accepted?: AcceptedDifferences;
  /** Inventory of the baseline app, for route attribution and coverage. */
  inventory?: Inventory;
  /** Run a second baseline lane to measure noise (default true). */
  noise?: boolean;
  /** Module whose default export gives credentials per lane (see verifier/sides.ts). */
  credentials?: string;
  /** Stored non-passing exchanges; more are counted but not kept (default 500). */
  keep?: number;
  /** The candidate's installed Fastify version, for fixes that differ between versions (null: none or unknown). */
  fastifyVersion?: string | null;
  /** Facts about the set-up (baseline checkout, dependencies, coverage) carried into the verdict. */
  notes?: string[];
  onProgress?: (message: string) => void;
}

/**
 * Replays `options.har` and returns the verdict. Lanes are always stopped, also on errors.
 * @throws LaneError when a lane cannot boot; VerifyError (verifier/sides.ts) when a credentials
 *   module fails or the baseline does not answer a request
 */
export async function verify(options: VerifyOptions): Promise<Verdict> {
  const started = Date.now();
  const entries = options.har.log.entries;
  const coverage = options.inventory ? new RouteCoverage(options.inventory) : null;
  const expressMajor = options.inventory?.project.expressVersion.major ?? null;
  const noise = new NoiseModel();
  const findings: RunFindings = { baselineDrift: { count: 0, examples: [] }, validators: 0, conditional: 0, candidateExit: null };
  const sides = await startSides(options);
  const results: ExchangeResult[] = [];
  const routes = new Map<string, OutcomeCounts>();
  const totals = emptyCounts();
  const deltaSeen = new Map<string, DeltaSummary>();
  const causes = new Map<FrameworkDefaultId, number>();
  const keep = options.keep ?? 500;
  // Regressions and requests not verified are stored apart from the rest, so noise cannot crowd them out.
  const stored = { failing: 0, other: 0 };
  let truncated = false;
  try {
    // One request at a time: memory follows the recording, not the recording twice over.
    for (const [i, entry] of entries.entries()) {
      const request = toReplayRequest(entry, i);
      options.onProgress?.(`replaying ${i + 1}/${entries.length}: ${request.method} ${request.path}`);
      // Without an inventory, the route the recorder saw (`_routeTemplate` has no method: add it).
      const route = coverage?.routeFor(request.method, request.path) ?? (request.routeTemplate ? `${request.method} ${request.routeTemplate}` : null);
      const result = findings.candidateExit
        ? notReplayed(request, route, `not replayed: the candidate exited (${findings.candidateExit.how}) at ${findings.candidateExit.at}`)
        : await replayOne(request, route, recordedResponse(entry), sides, { options, noise, expressMajor, findings });
      count(totals, result.outcome);
      const perRoute = routes.get(route ?? NO_ROUTE) ?? emptyCounts();
      count(perRoute, result.outcome);
      routes.set(route ?? NO_ROUTE, perRoute);
      summarise(result, deltaSeen, causes, options.fastifyVersion ?? null);
      if (result.outcome === 'pass') continue;
      const kind = result.outcome === 'regression' || result.outcome === 'unverified' ? 'failing' : 'other';
      if (stored[kind] < keep) {
        stored[kind]++;
        results.push(result);
      } else truncated = true;
    }
  } finally {
    await Promise.all(sides.map(async (s) => (await s.connection.close().catch(() => undefined), await s.lane.stop())));
  }
  reclassifyNoise(results, noise, totals, routes);
  return {
    tool: { name: 'express-to-fastify-migrate', version: toolVersion() },
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    baseline: options.labels.baseline,
    candidate: options.labels.candidate,
    recording: options.labels.recording,
    noiseLane: options.noise !== false,
    candidateFastify: options.fastifyVersion ?? null,
    totals,
    routes: [...routes].map(([route, c]) => ({ route, ...c })).sort((a, b) => a.route.localeCompare(b.route)),
    exchanges: results,
    truncated,
    deltas: [...deltaSeen.values()],
    causes: [...causes].map(([id, requests]) => ({ id, title: FRAMEWORK_DEFAULTS[id].title, requests, fix: fixFor(FRAMEWORK_DEFAULTS[id], options.fastifyVersion ?? null) })),
    noise: noise.suggestions(),
    deadRules: options.rules.deadRules(),
    coverage: coverage?.result() ?? null,
    notes: [...(options.notes ?? []), ...notesOf(findings)],
    baselineDrift: findings.baselineDrift,
    candidateExit: findings.candidateExit,
  };
}

/** Counts the framework deltas and the defaults that caused regressions of one exchange (all exchanges, stored or not). */
function summarise(r: ExchangeResult, deltas: Map<string, DeltaSummary>, causes: Map<FrameworkDefaultId, number>, fastifyVersion: string | null): void {
  for (const id of new Set(r.regressions.map((d) => d.cause))) if (id) causes.set(id, (causes.get(id) ?? 0) + 1);
  for (const d of r.deltas) {
    const known = FRAMEWORK_DEFAULTS[d.id];
    const entry = deltas.get(d.id) ?? { id: known.id, title: known.title, fix: fixFor(known, fastifyVersion), express: known.express, fastify: known.fastify, count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < 20) entry.examples.push(r.id);
    deltas.set(d.id, entry);
  }
}

function notesOf(f: RunFindings): string[] {
  const notes: string[] = [];
  if (f.validators) notes.push(`${f.validators} request${f.validators === 1 ? '' : 's'}: ETag or Last-Modified differ while the bodies are equal or a HEAD names a file of the same size (file times of another checkout, or JSON written in another key order); those headers are ignored as noise (a request is counted by its other differences, if any).`);
  if (f.conditional) notes.push(`${f.conditional} conditional request${f.conditional === 1 ? '' : 's'}: answered 304 on one side and 200 on the other, each right for its own copy of the file (the request's validators are the file times of the checkout it was recorded in); that difference is ignored as noise (a request is counted by its other differences, if any).`);
  if (f.noiseLaneLost) notes.push(`The noise lane stopped answering at ${f.noiseLaneLost.at} (${f.noiseLaneLost.why}); from there on, differences were not checked against a second baseline.`);
  return notes;
}

/**
 * Diffy's thresholds judged on the whole run: differences stored as regressions on fields that
 * turned out noisy later in the run become noise, and the counts follow. An exchange whose stored
 * differences were clipped keeps its verdict: what was not stored cannot be judged again.
 */
function reclassifyNoise(results: ExchangeResult[], noise: NoiseModel, totals: OutcomeCounts, routes: Map<string, OutcomeCounts>): void {
  for (const r of results) {
    if (r.clipped) continue;
    const routeKey = r.route ?? NO_ROUTE;
    const late = r.regressions.filter((d) => !d.cause && noise.isNoise(routeKey, d));
    if (!late.length) continue;
    const before = r.outcome;
    r.noise.push(...late);
    r.regressions = r.regressions.filter((d) => !late.includes(d));
    r.outcome = outcomeOf(r);
    for (const c of [totals, routes.get(routeKey)!]) {
      c[before]--;
      c[r.outcome]++;
    }
  }
}

function count(c: OutcomeCounts, outcome: Outcome): void {
  c.requests++;
  c[outcome]++;
}

