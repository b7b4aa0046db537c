/**
 * The CI gate of `migrate verify` (DESIGN.md "CLI conventions"; verifier-design.md §7.15):
 * regressions and requests that could not be verified always fail (both need a human: a pass
 * must never stand for a request that was not compared); `--fail-on` adds framework deltas and
 * routes the recording never exercised, and requests the baseline answered otherwise than the
 * recording (drift: the replay did not reproduce the recorded state); the `express` parity policy
 * adds deltas.
 * A failed gate is exit code 1; the verifier failing is 2 and never decided here.
 */
import { plural } from '../report/shared.js';
import type { Verdict } from './verdict.js';

/** What else, besides regressions, fails the gate. */
export type FailOn = 'deltas' | 'uncovered' | 'drift';

/** The gate's decision. `summary` is one line for a passing run. */
export interface Gate {
  failed: boolean;
  reasons: string[];
  summary: string;
  exitCode: 0 | 1;
}

/** Decides the gate for `verdict`. */
export function gateOf(verdict: Verdict, failOn: FailOn[] = [], parity: 'client' | 'express' = 'client'): Gate {
  const t = verdict.totals;
  const reasons: string[] = [];
  if (t.regression) reasons.push(plural(t.regression, 'request') + ' with regressions');
  if (!t.requests) reasons.push('nothing was replayed');
  if (t.delta && (failOn.includes('deltas') || parity === 'express')) reasons.push(`${plural(t.delta, 'request')} with framework deltas (${parity === 'express' ? 'parity policy "express"' : '--fail-on deltas'})`);
  const uncovered = verdict.coverage ? verdict.coverage.notExercised.length : 0;
  if (!verdict.coverage && failOn.includes('uncovered')) reasons.push('coverage unknown: the baseline could not be analysed (--fail-on uncovered)');
  if (uncovered && failOn.includes('uncovered')) reasons.push(`${plural(uncovered, 'route')} not exercised by the recording (--fail-on uncovered)`);
  if (verdict.baselineDrift.count && failOn.includes('drift')) reasons.push(`${plural(verdict.baselineDrift.count, 'request')} answered by the baseline otherwise than recorded (--fail-on drift)`);
  if (t.unverified) reasons.push(`${plural(t.unverified, 'request')} not verified`);
  const cov = verdict.coverage ? `; ${verdict.coverage.exercised} of ${verdict.coverage.routes} routes exercised` : '';
  const extra = [t.delta && plural(t.delta, 'framework delta'), t.noise && `${t.noise} noise`, t.accepted && `${t.accepted} accepted`].filter(Boolean).join(', ');
  const summary = `no regressions in ${plural(t.requests, 'request')}${extra ? ` (${extra})` : ''}${cov}`;
  return { failed: reasons.length > 0, reasons, summary, exitCode: reasons.length ? 1 : 0 };
}
