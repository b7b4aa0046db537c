/**
 * One exchange judged by the verifier's own replayOne (verifier/exchange.ts) against lanes that
 * answer with fixed responses: baseline, candidate, and the noise lane when a third is given.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LaneBindings } from '../../verifier/correlate.js';
import { replayOne, type ReplayContext, type RunFindings } from '../../verifier/exchange.js';
import type { RawResponse, ReplayRequest } from '../../verifier/model.js';
import { NoiseModel } from '../../verifier/noise.js';
import type { Side } from '../../verifier/sides.js';
import { parseVerifyRules } from '../../verifier/verify-rules.js';
import type { VerifyOptions } from '../../verifier/verify.js';

/** Sides that answer every request with `answers[i]` — an Error is thrown by the send, as undici throws a timeout (each side's app folder `<tmpdir>/side-<i>`, made up: never read). */
function fixedSides(answers: Array<RawResponse | Error>): Side[] {
  return answers.map((answer, i) => ({
    name: (['baseline', 'candidate', 'noise'] as const)[i],
    lane: { name: 'fixed', origin: 'http://127.0.0.1:1', port: 1, pid: 1, output: () => '', exited: () => null, stop: async () => undefined },
    connection: {
      send: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
    } as unknown as Side['connection'],
    bindings: new LaneBindings(new Map()),
    root: path.join(tmpdir(), `side-${i}`),
  }));
}

/**
 * Replays `request` into lanes answering `answers` (the candidate's answer doubles as the recorded
 * one; the app's Express major `expressMajor`) and says where each difference landed: `<pointer> regression[:cause]`, `<pointer> delta:<id>`
 * or `<pointer> noise`, sorted.
 */
export async function replayFixed(request: ReplayRequest, answers: Array<RawResponse | Error>, route = 'GET /', expressMajor = 4) {
  const findings: RunFindings = { baselineDrift: { count: 0, examples: [] }, validators: 0, conditional: 0, candidateExit: null };
  const ctx: ReplayContext = { options: { rules: parseVerifyRules({ rules: [] }, 'test') } as VerifyOptions, noise: new NoiseModel(), expressMajor, findings };
  const result = await replayOne(request, route, answers[1] as RawResponse, fixedSides(answers), ctx);
  const where = [
    ...result.regressions.map((d) => `${d.pointer} regression${d.cause ? `:${d.cause}` : ''}`),
    ...result.deltas.flatMap((e) => e.differences.map((d) => `${d.pointer} delta:${e.id}`)),
    ...result.noise.map((d) => `${d.pointer} noise`),
  ].sort();
  return { outcome: result.outcome, where, findings };
}
