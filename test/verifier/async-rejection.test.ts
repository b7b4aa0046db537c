/**
 * An Express 4 handler whose promise rejected never answered (Express 4 does not read it); the
 * moved route answers through the error handler. The verifier names that exchange the framework
 * delta `async-rejection` (verifier/deltas.ts explainUnanswered) instead of stopping the run.
 */
import { describe, expect, it } from 'vitest';
import type { RawResponse, ReplayRequest } from '../../verifier/model.js';
import { VerifyError } from '../../verifier/sides.js';
import { replayFixed } from '../helpers/replay.js';

const request: ReplayRequest = { id: 'e1', session: 'default', method: 'DELETE', path: '/notes/2', headers: [['Host', '127.0.0.1:3000']] };
const json = (status: number, body: string): RawResponse => ({ status, headers: [['Content-Type', 'application/json; charset=utf-8']], body: Buffer.from(body) });
/** What undici throws when a lane does not answer within the timeout (verifier/send.ts). */
const timeout = () => Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('a baseline that never answered', () => {
  it('against the error handler’s answer in an Express 4 app is the async-rejection delta, not a regression', async () => {
    const { outcome, where } = await replayFixed(request, [timeout(), json(500, '{"error":"note 2 is gone"}')], 'DELETE /notes/:id');
    expect(outcome).toBe('delta');
    expect(where).toEqual(['/status delta:async-rejection']);
  });

  it('also with a noise lane, which is not asked (it has nothing to compare with)', async () => {
    const { outcome, findings } = await replayFixed(request, [timeout(), json(422, '{"error":"invalid"}'), timeout()], 'DELETE /notes/:id');
    expect(outcome).toBe('delta');
    expect(findings.noiseLaneLost).toBeUndefined();
  });

  it('stops the run as before when the candidate answered a success, in an Express 5 app, or when the baseline refused the connection', async () => {
    await expect(replayFixed(request, [timeout(), json(200, '{}')])).rejects.toThrow(VerifyError);
    await expect(replayFixed(request, [timeout(), json(500, '{}')], 'GET /', 5)).rejects.toThrow(VerifyError);
    await expect(replayFixed(request, [refused(), json(500, '{}')])).rejects.toThrow(VerifyError);
  });
});
