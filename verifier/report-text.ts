/**
 * The terminal report of `migrate verify`: totals, a table per route, then regressions with
 * their differences (and the default that caused them, with its fix), framework deltas with
 * fixes, noise with suggested rules, routes the recording never exercised, dead rules, and the
 * verdict line. Colour only when asked (the CLI decides: TTY and no NO_COLOR).
 */
import pc from 'picocolors';
import type { Difference } from './model.js';
import type { Gate } from './gate.js';
import { OUTCOMES, type ExchangeResult, type Verdict } from './verdict.js';

const WORDS: Record<string, [string, string]> = {
  regression: ['regression', 'regressions'],
  unverified: ['not verified', 'not verified'],
  delta: ['with framework deltas only', 'with framework deltas only'],
  noise: ['noise', 'noise'],
  accepted: ['accepted', 'accepted'],
  pass: ['pass', 'pass'],
};
const LABEL: Record<string, string> = { regression: 'regr', unverified: 'unver', delta: 'delta', noise: 'noise', accepted: 'acc', pass: 'pass' };

/** Renders `verdict` as text; `gate` gives the final line (see verifier/gate.ts). */
export function renderVerifyText(verdict: Verdict, gate: Gate, color = false): string {
  const c = color ? pc : pc.createColors(false);
  const out: string[] = [];
  const t = verdict.totals;
  out.push(c.bold(`migrate verify: ${verdict.candidate} (candidate) against ${verdict.baseline} (baseline)`));
  out.push(`recording ${verdict.recording} · ${t.requests} requests · noise lane ${verdict.noiseLane ? 'on' : 'off'} · ${(verdict.durationMs / 1000).toFixed(1)} s`);
  out.push(OUTCOMES.map((o) => `${t[o]} ${WORDS[o][t[o] === 1 ? 0 : 1]}`).join(' · '));
  out.push('', c.bold('Routes'));
  const width = Math.min(60, Math.max(5, ...verdict.routes.map((r) => r.route.length)));
  out.push(`  ${'route'.padEnd(width)}  ${['req', ...OUTCOMES.map((o) => LABEL[o])].map((h) => h.padStart(5)).join(' ')}`);
  for (const r of verdict.routes) {
    const cells = [r.requests, ...OUTCOMES.map((o) => r[o])].map((n) => String(n).padStart(5)).join(' ');
    const line = `  ${r.route.padEnd(width)}  ${cells}`;
    out.push(r.regression ? c.red(line) : r.unverified ? c.yellow(line) : line);
  }
  if (verdict.candidateExit) {
    const e = verdict.candidateExit;
    out.push('', c.bold(c.red(`The candidate exited (${e.how}) at ${e.at}; later requests were not replayed. Its last output:`)));
    out.push(...e.output.trimEnd().split('\n').slice(-15).map((l) => `  | ${l}`));
  }
  if (verdict.baselineDrift.count) {
    const d = verdict.baselineDrift;
    out.push('', c.yellow(`The baseline answered ${d.count} request${d.count === 1 ? '' : 's'} with another status than the recording (expired credentials? missing data?); passes there prove less:`));
    for (const x of d.examples) out.push(`  ${x.id} ${clipPath(x.request)}: recorded ${x.recorded}, baseline ${x.baseline}`);
  }
  const regressions = verdict.exchanges.filter((x) => x.outcome === 'regression');
  if (regressions.length) {
    out.push('', c.bold(c.red(`Regressions (${verdict.totals.regression})`)));
    for (const x of regressions) out.push(...exchangeLines(x, c));
  }
  const unverified = verdict.exchanges.filter((x) => x.outcome === 'unverified');
  if (unverified.length) {
    out.push('', c.bold(c.yellow(`Not verified (${verdict.totals.unverified})`)));
    for (const x of unverified) out.push(`  ${x.id} ${x.method} ${clipPath(x.path)}: ${x.note}`);
  }
  if (verdict.deltas.length) {
    out.push('', c.bold('Framework deltas (Express vs Fastify defaults clients rarely depend on; not counted as regressions)'));
    for (const d of verdict.deltas) {
      out.push(`  ${d.id} in ${d.count} request${d.count === 1 ? '' : 's'}: ${d.title}. Express: ${d.express} Fastify: ${d.fastify}`, `    fix: ${d.fix}`, `    e.g. ${d.examples.slice(0, 5).join(', ')}`);
    }
  }
  if (verdict.causes.length) {
    out.push('', c.bold('Regressions caused by Fastify defaults (client-visible, so they count)'));
    for (const k of verdict.causes) out.push(`  ${k.id} (${k.requests} request${k.requests === 1 ? '' : 's'}): ${k.fix}`);
  }
  if (verdict.noise.length) {
    out.push('', c.bold('Noise (differs between two baseline runs; never counted as a regression)'), '  Suggested rules for .migrate/verify.json:');
    for (const n of verdict.noise.slice(0, 20)) out.push(`  ${JSON.stringify(n.rule)}  (A/A ${pct(n.aaRate)}, A/B ${pct(n.abRate)})`);
  }
  if (verdict.coverage) {
    const cov = verdict.coverage;
    out.push('', c.bold(`Coverage: ${cov.exercised} of ${cov.routes} routes exercised by the recording`));
    for (const r of cov.notExercised) out.push(`  not exercised: ${r.key}  ${c.dim(`${r.file}:${r.line}`)}`);
    for (const r of cov.unmatchable) out.push(`  cannot be matched: ${r.key}  ${c.dim(`${r.file}:${r.line}`)} (${r.reason})`);
  }
  if (verdict.deadRules.length) {
    out.push('', c.bold('Rules that matched nothing (remove or fix them)'));
    for (const r of verdict.deadRules) out.push(`  ${r.rule}: ${r.action} ${r.pattern}`);
  }
  if (verdict.truncated) out.push('', c.yellow(`Only the first ${verdict.exchanges.length} non-passing exchanges are shown; counts include all.`));
  for (const n of verdict.notes) out.push(c.dim(n));
  out.push('', gate.failed ? c.red(c.bold(`FAIL: ${gate.reasons.join('; ')}`)) : c.green(c.bold(`PASS: ${gate.summary}`)));
  return out.join('\n') + '\n';
}

function exchangeLines(x: ExchangeResult, c: ReturnType<typeof pc.createColors>): string[] {
  const head = `  ${x.id} ${x.method} ${clipPath(x.path)}${x.route ? c.dim(`  (${x.route})`) : ''}  ${x.status.baseline} → ${x.status.candidate ?? 'no answer'}`;
  const lines = [head];
  if (x.comment) lines.push(c.dim(`    “${x.comment}”`));
  // A default that changed the status explains the whole answer: show the status, count the rest.
  const status = x.regressions.find((d) => d.pointer === '/status' && d.cause);
  const shown = status ? [status] : x.regressions.slice(0, 12);
  for (const d of shown) lines.push(`    ${d.pointer}  ${d.kind}  ${show(d)}${d.cause ? c.dim(`  [${d.cause}]`) : ''}`);
  if (x.bodies) lines.push(c.dim(`    baseline body: ${JSON.stringify(x.bodies.baseline)}`), c.dim(`    candidate body: ${JSON.stringify(x.bodies.candidate)}`));
  if (x.regressions.length > shown.length) lines.push(`    … ${x.regressions.length - shown.length} more difference${x.regressions.length - shown.length === 1 ? '' : 's'}${status ? ' from the same cause' : ''}`);
  return lines;
}

/** `baseline → candidate`, with absent sides spelled out. */
export function show(d: Difference): string {
  const v = (x: unknown) => (x === undefined ? '(absent)' : JSON.stringify(x));
  return `${v(d.baseline)} → ${v(d.candidate)}`;
}

const pct = (r: number) => `${Math.round(r * 100)}%`;

/** Paths over 120 characters are shortened in the middle (a long token in a path floods the report). */
export function clipPath(p: string): string {
  return p.length > 120 ? `${p.slice(0, 80)}…${p.slice(-30)}` : p;
}
