/**
 * Replays one recorded request into every side and judges the answers (verifier-design.md §7):
 * rewrite the request per lane (cookies, bound values, credentials) → baseline and candidate at
 * once, then the noise lane → canonicalise → map bound values back → each side's app folder written
 * `<app root>` (app-root.ts) → diff baseline/candidate
 * (A/B) and baseline/noise (A/A) → drop what rules ignore → noise (cache validators of another
 * checkout (validators.ts), clocks within a tolerance (clocks.ts), A/A, Diffy thresholds) →
 * accepted → framework deltas → outcome.
 */
import { FRAMEWORK_DEFAULTS } from '../rules/catalogue/framework-defaults.js';
import { explainDifferences, explainUnanswered, type Explanation } from './deltas.js';
import { fingerprintOf } from './accepted.js';
import { withoutAppRoot } from './app-root.js';
import { isClockDrift } from './clocks.js';
import { diffResponses } from './diff.js';
import type { CanonicalResponse, Difference, RawResponse, ReplayRequest } from './model.js';
import { confirmNoise, type NoiseModel } from './noise.js';
import { canonicalize } from './normalize.js';
import { exitOf, VerifyError, type Side } from './sides.js';
import { checkoutValidators } from './validators.js';
import { NO_ROUTE, outcomeOf, type ExchangeResult, type Regression, type Verdict } from './verdict.js';
import type { VerifyOptions } from './verify.js';

/** What the run noticed beyond single verdicts; see the fields of {@link Verdict}. */
export interface RunFindings {
  baselineDrift: Verdict['baselineDrift'];
  /** Exchanges with cache validators of another checkout: equal bodies or a HEAD of the same file (verifier/validators.ts). */
  validators: number;
  /** Conditional requests answered 304 on one side and 200 on the other, each right for its own copy of the file (verifier/validators.ts). */
  conditional: number;
  candidateExit: Verdict['candidateExit'];
  /** The noise lane stopped answering: from then on nothing is measured as noise by it. */
  noiseLaneLost?: { at: string; why: string };
}

/** What judging one exchange needs from the run: options (rules, accepted), the noise model, the Express major, and where to note run-level facts. */
export interface ReplayContext {
  options: VerifyOptions;
  noise: NoiseModel;
  expressMajor: number | null;
  /** What the run noticed beyond the verdicts of single exchanges. */
  findings: RunFindings;
}

/** Replays one request into every lane and judges the answers. */
export async function replayOne(request: ReplayRequest, route: string | null, recorded: RawResponse, sides: Side[], ctx: ReplayContext): Promise<ExchangeResult> {
  const prepared = sides.map((s) => s.bindings.rewrite(request));
  const missing = [...new Set(prepared.flatMap((p) => p.missing))];
  if (missing.length) return notReplayed(request, route, `no credential for ${missing.join(', ')} (give them with --credentials); not replayed`);
  const result = emptyResult(request, route);
  const send = (i: number) => sides[i].connection.send(prepared[i].request).then((r) => ({ ok: true as const, r }), (e: Error) => ({ ok: false as const, e }));
  // Baseline and candidate at once; the noise lane after both (Diffy's order: primary, candidate,
  // secondary), so a clock in an answer moves at least as much A/A as A/B.
  type Answer = Awaited<ReturnType<typeof send>>;
  const answers: Answer[] = await Promise.all([send(0), send(1)]);
  // A baseline that did not answer gives the noise lane nothing to compare with.
  if (sides[2] && !ctx.findings.noiseLaneLost && answers[0].ok) answers.push(await send(2));
  const [base, cand, twin] = answers;
  // undici refuses what no server saw (a malformed header in the recording): the entry is bad, the lanes are fine.
  if (!base.ok && /^UND_ERR_(INVALID_ARG|NOT_SUPPORTED)$/.test(String((base.e as NodeJS.ErrnoException).code))) return notReplayed(request, route, `the recorded request cannot be sent: ${base.e.message}`);
  if (!base.ok && cand.ok) {
    // Express 4 left a rejected handler promise unanswered; the candidate's error handler answered it (a framework delta).
    const unanswered = explainUnanswered({ error: base.e, candidateStatus: cand.r.status, expressMajor: ctx.expressMajor });
    if (unanswered) return withDelta(result, unanswered, cand.r.status);
  }
  if (!base.ok) throw new VerifyError(`the baseline did not answer ${request.id} ${request.method} ${request.path}: ${base.e.message}\n${sides[0].lane.output().slice(-2000)}`);
  result.status.baseline = base.r.status;
  // A 304 that became a 200 is no drift: the validators of another checkout (file times) differ.
  const conditional = recorded.status === 304 && base.r.status === 200 && request.headers.some(([k]) => /^if-(none-match|modified-since)$/i.test(k));
  if (base.r.status !== recorded.status && !conditional) {
    // The replay did not reproduce the recorded state (expired credentials, missing data): passes here prove less.
    const drift = ctx.findings.baselineDrift;
    drift.count++;
    if (drift.examples.length < 10) drift.examples.push({ id: request.id, request: `${request.method} ${request.path}`, recorded: recorded.status, baseline: base.r.status });
  }
  const scope = ctx.options.rules.forRequest({ requestId: request.id, routeKey: route });
  const routeKey = route ?? NO_ROUTE;
  const canonical = (i: number, raw: RawResponse): CanonicalResponse => withoutAppRoot(sides[i].bindings.restore(canonicalize(raw)), sides[i].root);
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
  let n: CanonicalResponse | null = null;
  if (twin && !twin.ok) ctx.findings.noiseLaneLost = { at: request.id, why: (await exitOf(sides[2].lane)) ?? twin.e.message };
  if (twin?.ok) {
    n = canonical(2, twin.r);
    // A clock within the tolerance is no sample of noise: the field stays compared beyond it.
    aa = scope.filter(diffResponses(b, n, scope.diffOptions), b, n).kept.filter((d) => !isClockDrift(d, b, n!));
    ctx.noise.observeAA(routeKey, aa);
  }
  ctx.noise.observeAB(routeKey, ab);
  // Cache validators of another checkout (static files carry other file times there; JSON written
  // in another key order hashes to another ETag), and clocks that moved within the tolerance.
  const contentLength = (r: RawResponse) => r.headers.find(([k]) => k.toLowerCase() === 'content-length')?.[1];
  const fileTimes = candidateCanonical && cand.ok ? checkoutValidators({ request, baseline: b, candidate: candidateCanonical, differences: ab, contentLength: { baseline: contentLength(base.r), candidate: contentLength(cand.r) } }) : null;
  if (fileTimes) ctx.findings[fileTimes.case === 'conditional' ? 'conditional' : 'validators']++;
  const clocks = new Set(candidateCanonical ? ab.filter((d) => isClockDrift(d, b, candidateCanonical!)) : []);
  const sameAA = new Set(aa.map((d) => `${d.pointer}\u0000${d.kind}`));
  const sameRequestNoise = (d: Difference) => n !== null && candidateCanonical !== null && sameAA.has(`${d.pointer}\u0000${d.kind}`) && confirmNoise(d, b, n, candidateCanonical);
  const isNoise = (d: Difference) => !!fileTimes?.differences.has(d) || clocks.has(d) || sameRequestNoise(d) || ctx.noise.isNoise(routeKey, d);
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
  if (candidateCanonical && result.regressions.some((d) => d.pointer === '/bodyKind')) result.bodies = { baseline: shortBody(b), candidate: shortBody(candidateCanonical) };
  result.outcome = outcomeOf(result);
  // The candidate learns nothing where its answer was a regression (a wrong id or redirect would be followed).
  const regressed = result.regressions.map((d) => d.pointer);
  const trusted = (i: number) => (pointer: string) =>
    i !== 1 || (!regressed.includes('/status') && !regressed.some((r) => r === pointer || pointer.startsWith(`${r}/`) || r.startsWith(`${pointer}/`)));
  answers.forEach((a, i) => a.ok && sides[i].bindings.learn(request.session, request.method, recorded, a.r, trusted(i)));
  return result.outcome === 'pass' ? result : clipResult(result);
}

/** The exchange judged by one delta alone: the baseline gave no answer to compare with the candidate's. */
function withDelta(result: ExchangeResult, delta: Explanation, candidateStatus: number): ExchangeResult {
  result.status.candidate = candidateStatus;
  result.deltas = [delta];
  result.outcome = outcomeOf(result);
  return result;
}

/** An exchange that was not sent (a redacted credential without a value, a candidate that has exited). */
export function notReplayed(request: ReplayRequest, route: string | null, note: string): ExchangeResult {
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

/** Keeps stored results small: long values clipped (the fingerprint keeps the full values' identity), at most 50 differences per category. */
function clipResult(r: ExchangeResult): ExchangeResult {
  const clipValue = (v: unknown) => {
    if (v === undefined) return v;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > 300 ? (typeof v === 'string' ? s.slice(0, 300) + '…' : `${s.slice(0, 300)}… (${s.length} chars)`) : v;
  };
  let clipped = 0;
  const clip = <T extends Difference>(ds: T[]) => {
    clipped += Math.max(0, ds.length - 50);
    return ds.slice(0, 50).map((d) => ({ ...d, fingerprint: fingerprintOf(d), baseline: clipValue(d.baseline), candidate: clipValue(d.candidate) }));
  };
  const out = { ...r, regressions: clip(r.regressions), noise: clip(r.noise), accepted: clip(r.accepted), deltas: r.deltas.map((d) => ({ ...d, differences: clip(d.differences) })) };
  return clipped ? { ...out, clipped } : out;
}

/** A canonical body as short text for a report (bodies of different kinds are not diffed field by field). */
function shortBody(c: CanonicalResponse): string {
  const text = c.bodyKind === 'text' ? String(c.body) : c.bodyKind === 'empty' ? '' : JSON.stringify(c.body);
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
}
