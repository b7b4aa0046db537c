/**
 * `verify`: replays a recording into the baseline lane, the candidate lane and (for noise) a
 * second baseline lane, in recorded order, and judges every exchange (verifier-design.md §7).
 * Per exchange: rewrite the request per lane (cookies, bound values, credentials) → send to every
 * lane at once → canonicalise → map bound values back → diff baseline/candidate (A/B) and
 * baseline/noise (A/A) → drop what rules ignore → noise (A/A, Diffy thresholds, cache validators
 * of equal bodies) → accepted → framework deltas → outcome.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Inventory } from '../analyzer/model.js';
import { FRAMEWORK_DEFAULTS, fixFor, type FrameworkDefaultId } from '../rules/catalogue/framework-defaults.js';
import { toolVersion } from '../analyzer/version.js';
import { AcceptedDifferences } from './accepted.js';
import { LaneBindings } from './correlate.js';
import { RouteCoverage } from './coverage.js';
import { explainDifferences } from './deltas.js';
import { diffResponses } from './diff.js';
import { recordedResponse, toReplayRequest } from './har.js';
import { startLane, type Lane, type LaneSpec } from './lane.js';
import type { CanonicalResponse, Difference, Har, RawResponse, ReplayRequest } from './model.js';
import { NoiseModel } from './noise.js';
import { canonicalize } from './normalize.js';
import { LaneConnection } from './send.js';
import { emptyCounts, NO_ROUTE, outcomeOf, type DeltaSummary, type ExchangeResult, type Outcome, type OutcomeCounts, type Regression, type Verdict } from './verdict.js';
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
  /** Module whose default export gives credentials per lane (see `loadCredentials`). */
  credentials?: string;
  /** Stored non-passing exchanges; more are counted but not kept (default 500). */
  keep?: number;
  /** The candidate's installed Fastify version, for fixes that differ between versions (null: none or unknown). */
  fastifyVersion?: string | null;
  /** Facts about the set-up (baseline checkout, dependencies, coverage) carried into the verdict. */
  notes?: string[];
  onProgress?: (message: string) => void;
}

/** The verifier could not do its job (a lane failed, the baseline stopped answering). Exit code 2. */
export class VerifyError extends Error {}

interface Side {
  name: 'baseline' | 'candidate' | 'noise';
  lane: Lane;
  connection: LaneConnection;
  bindings: LaneBindings;
}

/**
 * Replays `options.har` and returns the verdict. Lanes are always stopped, also on errors.
 * @throws LaneError when a lane cannot boot; VerifyError when the baseline does not answer a request
 */
export async function verify(options: VerifyOptions): Promise<Verdict> {
  const started = Date.now();
  const entries = options.har.log.entries;
  const coverage = options.inventory ? new RouteCoverage(options.inventory) : null;
  const expressMajor = options.inventory?.project.expressVersion.major ?? null;
  const noise = new NoiseModel();
  const findings: RunFindings = { baselineDrift: { count: 0, examples: [] }, validators: 0, candidateExit: null };
  const sides = await startSides(options);
  const results: ExchangeResult[] = [];
  const routes = new Map<string, OutcomeCounts>();
  const totals = emptyCounts();
  const deltaSeen = new Map<string, DeltaSummary>();
  const keep = options.keep ?? 500;
  let truncated = false;
  try {
    // One request at a time: memory follows the recording, not the recording twice over.
    for (const [i, entry] of entries.entries()) {
      const request = toReplayRequest(entry, i);
      options.onProgress?.(`replaying ${i + 1}/${entries.length}: ${request.method} ${request.path}`);
      const route = coverage?.routeFor(request.method, request.path) ?? request.routeTemplate ?? null;
      const result = findings.candidateExit
        ? notReplayed(request, route, `not replayed: the candidate exited (${findings.candidateExit.how}) at ${findings.candidateExit.at}`)
        : await replayOne(request, route, recordedResponse(entry), sides, { options, noise, expressMajor, findings });
      count(totals, result.outcome);
      const perRoute = routes.get(route ?? NO_ROUTE) ?? emptyCounts();
      count(perRoute, result.outcome);
      routes.set(route ?? NO_ROUTE, perRoute);
      if (result.outcome === 'pass') continue;
      if (results.length < keep) results.push(result);
      else truncated = true;
    }
  } finally {
    await Promise.all(sides.map(async (s) => (await s.connection.close().catch(() => undefined), await s.lane.stop())));
  }
  reclassifyNoise(results, noise, totals, routes);
  const causes = new Map<FrameworkDefaultId, number>();
  for (const r of results) for (const id of new Set(r.regressions.map((d) => d.cause))) if (id) causes.set(id, (causes.get(id) ?? 0) + 1);
  for (const r of results) {
    for (const d of r.deltas) {
      const known = FRAMEWORK_DEFAULTS[d.id];
      const entry = deltaSeen.get(d.id) ?? { id: known.id, title: known.title, visibility: known.visibility, fix: fixFor(known, options.fastifyVersion ?? null), express: known.express, fastify: known.fastify, count: 0, examples: [] };
      entry.count++;
      if (entry.examples.length < 20) entry.examples.push(r.id);
      deltaSeen.set(d.id, entry);
    }
  }
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

/** What the run noticed beyond single verdicts; see the fields of {@link Verdict}. */
interface RunFindings {
  baselineDrift: Verdict['baselineDrift'];
  /** Exchanges whose only header changes were cache validators of equal bodies. */
  validators: number;
  candidateExit: Verdict['candidateExit'];
}

function notesOf(f: RunFindings): string[] {
  return f.validators
    ? [`${f.validators} request${f.validators === 1 ? '' : 's'}: ETag or Last-Modified differ while the bodies are equal (file times of another checkout, or JSON written in another key order); counted as noise.`]
    : [];
}

/** An exchange that was not sent (a redacted credential without a value, a candidate that has exited). */
function notReplayed(request: ReplayRequest, route: string | null, note: string): ExchangeResult {
  const result = emptyResult(request, route);
  result.note = note;
  result.outcome = outcomeOf(result);
  return result;
}

function emptyResult(request: ReplayRequest, route: string | null): ExchangeResult {
  return {
    id: request.id,
    method: request.method,
    path: request.path,
    comment: request.comment,
    session: request.session,
    route,
    outcome: 'pass',
    status: { baseline: null, candidate: null },
    regressions: [],
    deltas: [],
    noise: [],
    accepted: [],
    ignored: 0,
  };
}

interface ReplayContext {
  options: VerifyOptions;
  noise: NoiseModel;
  expressMajor: number | null;
  /** What the run noticed beyond the verdicts of single exchanges. */
  findings: RunFindings;
}

/** Replays one request into every lane and judges the answers. */
async function replayOne(request: ReplayRequest, route: string | null, recorded: RawResponse, sides: Side[], ctx: ReplayContext): Promise<ExchangeResult> {
  const prepared = sides.map((s) => s.bindings.rewrite(request));
  const missing = [...new Set(prepared.flatMap((p) => p.missing))];
  if (missing.length) return notReplayed(request, route, `no credential for ${missing.join(', ')} (give them with --credentials); not replayed`);
  const result = emptyResult(request, route);
  const send = (i: number) => sides[i].connection.send(prepared[i].request).then((r) => ({ ok: true as const, r }), (e: Error) => ({ ok: false as const, e }));
  // Baseline and candidate at once; the noise lane after both (Diffy's order: primary, candidate,
  // secondary), so a clock in an answer moves at least as much A/A as A/B.
  type Answer = Awaited<ReturnType<typeof send>>;
  const answers: Answer[] = await Promise.all([send(0), send(1)]);
  if (sides[2]) answers.push(await send(2));
  const [base, cand, twin] = answers;
  if (!base.ok) throw new VerifyError(`the baseline did not answer ${request.id} ${request.method} ${request.path}: ${base.e.message}\n${sides[0].lane.output().slice(-2000)}`);
  result.status.baseline = base.r.status;
  if (base.r.status !== recorded.status) {
    // The replay did not reproduce the recorded state (expired credentials, missing data): passes here prove less.
    const drift = ctx.findings.baselineDrift;
    drift.count++;
    if (drift.examples.length < 10) drift.examples.push({ id: request.id, request: `${request.method} ${request.path}`, recorded: recorded.status, baseline: base.r.status });
  }
  const scope = ctx.options.rules.forRequest({ requestId: request.id, routeKey: route });
  const routeKey = route ?? NO_ROUTE;
  const canonical = (i: number, raw: RawResponse): CanonicalResponse => sides[i].bindings.restore(canonicalize(raw));
  const b = canonical(0, base.r);
  let ab: Difference[];
  let candidateCanonical: CanonicalResponse | null = null;
  if (cand.ok) {
    result.status.candidate = cand.r.status;
    candidateCanonical = canonical(1, cand.r);
    const filtered = scope.filter(diffResponses(b, candidateCanonical, scope.diffOptions), b, candidateCanonical);
    ab = filtered.kept;
    result.ignored = filtered.suppressed.length;
  } else {
    const how = await exitOf(sides[1].lane);
    if (how) ctx.findings.candidateExit = { at: request.id, how, output: sides[1].lane.output().slice(-2000) };
    ab = [{ pointer: '/status', kind: 'status', baseline: base.r.status, candidate: how ? `no response: the candidate exited (${how})` : `no response (${(cand.e as NodeJS.ErrnoException).code ?? cand.e.message})` }];
  }
  let aa: Difference[] = [];
  if (twin?.ok) {
    const n = canonical(2, twin.r);
    aa = scope.filter(diffResponses(b, n, scope.diffOptions), b, n).kept;
    ctx.noise.observeAA(routeKey, aa);
  }
  ctx.noise.observeAB(routeKey, ab);
  // Cache validators that changed while the body did not (static files from another checkout
  // carry other file times; JSON written in another key order hashes to another ETag).
  // (Only for answers with a body: a HEAD or a 304 shows nothing the validator could be checked against.)
  const sameBody = b.bodyKind !== 'empty' && !ab.some((d) => /^\/(body|bodyKind)(\/|$)/.test(d.pointer));
  const validators = new Set(ab.filter((d) => sameBody && /^\/headers\/(etag|last-modified)$/.test(d.pointer) && d.baseline !== undefined && d.candidate !== undefined));
  if (validators.size) ctx.findings.validators++;
  const sameAA = new Set(aa.map((d) => `${d.pointer}\u0000${d.kind}`));
  const isNoise = (d: Difference) => validators.has(d) || sameAA.has(`${d.pointer}\u0000${d.kind}`) || ctx.noise.isNoise(routeKey, d);
  result.noise = ab.filter(isNoise);
  const requestLabel = `${request.method} ${request.path}`;
  const signal = ab.filter((d) => !isNoise(d));
  result.accepted = signal.filter((d) => ctx.options.accepted?.has(requestLabel, d));
  const open = signal.filter((d) => !result.accepted.includes(d));
  if (candidateCanonical && open.length) {
    const { explained, unexplained } = explainDifferences({ request, baseline: b, candidate: candidateCanonical, differences: open, expressMajor: ctx.expressMajor });
    result.deltas = explained.filter((e) => FRAMEWORK_DEFAULTS[e.id].visibility === 'delta');
    const caused: Regression[] = explained.filter((e) => FRAMEWORK_DEFAULTS[e.id].visibility === 'regression').flatMap((e) => e.differences.map((d) => ({ ...d, cause: e.id })));
    result.regressions = [...caused, ...unexplained];
  } else result.regressions = open;
  if (candidateCanonical && result.regressions.some((d) => d.pointer === '/bodyKind')) result.bodies = { baseline: bodyText(b), candidate: bodyText(candidateCanonical) };
  result.outcome = outcomeOf(result);
  answers.forEach((a, i) => a.ok && sides[i].bindings.learn(request.session, request.method, recorded, a.r));
  return result.outcome === 'pass' ? result : clipResult(result);
}

/** Starts the lanes (baseline, candidate, noise) in parallel; stops the started ones if one fails. */
async function startSides(options: VerifyOptions): Promise<Side[]> {
  const specs: Array<[Side['name'], LaneSpec]> = [
    ['baseline', options.baseline],
    ['candidate', options.candidate],
  ];
  if (options.noise !== false) specs.push(['noise', { ...options.baseline, name: 'noise' }]);
  options.onProgress?.(`starting ${specs.map(([n]) => n).join(', ')}`);
  const settled = await Promise.allSettled(specs.map(([, spec]) => startLane(spec)));
  // The candidate's failure first: it is the side the user just changed (and named with --entry).
  const failed = [settled[1], settled[0], settled[2]].find((s): s is PromiseRejectedResult => s?.status === 'rejected');
  if (failed) {
    await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    throw failed.reason;
  }
  const lanes = settled.map((s) => (s as PromiseFulfilledResult<Lane>).value);
  const sides: Side[] = [];
  try {
    for (const [i, lane] of lanes.entries()) {
      const credentials = options.credentials ? await loadCredentials(options.credentials, specs[i][0], lane.origin) : new Map<string, string>();
      sides.push({ name: specs[i][0], lane, connection: new LaneConnection(lane.origin), bindings: new LaneBindings(credentials) });
    }
  } catch (e) {
    await Promise.all(lanes.map((l) => l.stop()));
    throw e;
  }
  return sides;
}

/**
 * Loads credentials for one lane from a module whose default export is
 * `({ lane, origin }) => Record<placeholder, value> | Promise<…>` — e.g. it logs in against
 * `origin` and returns `{ '<redacted:authorization:1>': token }`. Called once per lane.
 * @throws Error naming the module when it has no default function or it fails
 */
export async function loadCredentials(file: string, lane: string, origin: string): Promise<Map<string, string>> {
  if (!existsSync(file)) throw new VerifyError(`the credentials module ${file} does not exist`);
  const mod = await import(pathToFileURL(file).href).catch((e: Error) => {
    throw new VerifyError(`the credentials module ${file} cannot be loaded: ${e.message}`);
  });
  if (typeof mod.default !== 'function') throw new VerifyError(`${file}: the credentials module must export a default function ({ lane, origin }) => ({ placeholder: value })`);
  try {
    return new Map(Object.entries((await mod.default({ lane, origin })) ?? {}).map(([k, v]) => [k, String(v)]));
  } catch (e) {
    throw new VerifyError(`${file}: credentials for the ${lane} lane failed: ${(e as Error).message}`);
  }
}

/**
 * Diffy's thresholds judged on the whole run: differences stored as regressions on fields that
 * turned out noisy later in the run become noise, and the counts follow.
 */
function reclassifyNoise(results: ExchangeResult[], noise: NoiseModel, totals: OutcomeCounts, routes: Map<string, OutcomeCounts>): void {
  for (const r of results) {
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

/** Keeps stored results small: long values clipped, at most 50 differences per category. */
function clipResult(r: ExchangeResult): ExchangeResult {
  const clipValue = (v: unknown) => {
    if (v === undefined) return v;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > 300 ? (typeof v === 'string' ? s.slice(0, 300) + '…' : `${s.slice(0, 300)}… (${s.length} chars)`) : v;
  };
  const clip = <T extends Difference>(ds: T[]) => ds.slice(0, 50).map((d) => ({ ...d, baseline: clipValue(d.baseline), candidate: clipValue(d.candidate) }));
  return { ...r, regressions: clip(r.regressions), noise: clip(r.noise), accepted: clip(r.accepted), deltas: r.deltas.map((d) => ({ ...d, differences: clip(d.differences) })) };
}

/** A canonical body as short text for a report (bodies of different kinds are not diffed field by field). */
function bodyText(c: CanonicalResponse): string {
  const text = c.bodyKind === 'text' ? String(c.body) : c.bodyKind === 'empty' ? '' : JSON.stringify(c.body);
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
}

/** How a lane's process ended, waiting up to `ms` for the exit to be seen (a reset connection arrives first); null if it runs on. */
async function exitOf(lane: Lane, ms = 1000): Promise<string | null> {
  for (let waited = 0; waited < ms && !lane.exited(); waited += 50) await new Promise((r) => setTimeout(r, 50));
  return lane.exited();
}
