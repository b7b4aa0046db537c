/**
 * Clocks in answers (verifier/clocks.ts): rate-limit reset times and a cookie's Expires that moved by
 * a second between lanes are noise; a changed limit, remaining count, window or cookie lifetime is not.
 * Values from node-express-boilerplate (express-rate-limit 5), hackathon-starter and express-typescript.
 */
import { describe, expect, it } from 'vitest';
import { isClockDrift } from '../../verifier/clocks.js';
import { diffResponses } from '../../verifier/diff.js';
import type { RawResponse, ReplayRequest } from '../../verifier/model.js';
import { canonicalize } from '../../verifier/normalize.js';
import { replayFixed } from '../helpers/replay.js';

const request: ReplayRequest = { id: 'e1', session: 'default', method: 'POST', path: '/v1/auth/login', headers: [['Host', '127.0.0.1:3000']] };
const answer = (headers: Array<[string, string]>): RawResponse => ({ status: 401, headers: [['Content-Type', 'application/json; charset=utf-8'], ...headers], body: Buffer.from('{"code":401}') });
/** express-rate-limit 5's headers. */
const legacy = (reset: string, remaining = '19', limit = '20') => answer([['X-RateLimit-Limit', limit], ['X-RateLimit-Remaining', remaining], ['X-RateLimit-Reset', reset]]);
/** Where each difference of `baseline` → `candidate` lands (no noise lane). */
const landed = async (baseline: RawResponse, candidate: RawResponse, twin?: RawResponse) => (await replayFixed(request, twin ? [baseline, candidate, twin] : [baseline, candidate], 'POST /v1/auth/login')).where;
/** isClockDrift of the single difference between two answers. */
const drift = (a: RawResponse, b: RawResponse) => {
  const [x, y] = [canonicalize(a), canonicalize(b)];
  const ds = diffResponses(x, y);
  expect(ds).toHaveLength(1);
  return isClockDrift(ds[0], x, y);
};

describe('rate-limit reset times', () => {
  it("express-rate-limit 5's epoch second, one second apart, is noise; the limit and the remaining count are still compared", async () => {
    expect(await landed(legacy('1796618379'), legacy('1796618378'))).toEqual(['/headers/x-ratelimit-reset noise']);
    expect(await landed(legacy('1796618379'), legacy('1796618378', '18'))).toEqual(['/headers/x-ratelimit-remaining regression', '/headers/x-ratelimit-reset noise']);
    expect(await landed(legacy('1796618379'), legacy('1796618379', '99', '100'))).toEqual(['/headers/x-ratelimit-limit regression', '/headers/x-ratelimit-remaining regression']);
  });

  it('a reset that moved by more than the tolerance (another window) is a regression', async () => {
    expect(await landed(legacy('1796618379'), legacy('1796617539'))).toEqual(['/headers/x-ratelimit-reset regression']);
    expect(await landed(answer([['RateLimit-Reset', '900']]), answer([['RateLimit-Reset', '60']]))).toEqual(['/headers/ratelimit-reset regression']);
  });

  it('a clock that moved within the tolerance between the two baselines does not make a larger move noise', async () => {
    expect(await landed(legacy('1796618379'), legacy('1796617539'), legacy('1796618378'))).toEqual(['/headers/x-ratelimit-reset regression']);
  });

  it('seconds left (RateLimit-Reset), the draft RateLimit header, Retry-After in seconds or as a date', () => {
    expect(drift(answer([['RateLimit-Reset', '885']]), answer([['RateLimit-Reset', '886']]))).toBe(true);
    expect(drift(answer([['RateLimit', 'limit=100, remaining=99, reset=900']]), answer([['RateLimit', 'limit=100, remaining=99, reset=899']]))).toBe(true);
    expect(drift(answer([['RateLimit', '"100-in-15min"; r=99; t=900']]), answer([['RateLimit', '"100-in-15min"; r=99; t=899']]))).toBe(true);
    expect(drift(answer([['Retry-After', '120']]), answer([['Retry-After', '119']]))).toBe(true);
    expect(drift(answer([['Retry-After', 'Mon, 07 Dec 2026 05:21:05 GMT']]), answer([['Retry-After', 'Mon, 07 Dec 2026 05:21:04 GMT']]))).toBe(true);
  });

  it('the draft RateLimit header with another limit or remaining count, or another form, is not a clock', () => {
    expect(drift(answer([['RateLimit', 'limit=100, remaining=99, reset=900']]), answer([['RateLimit', 'limit=50, remaining=49, reset=900']]))).toBe(false);
    expect(drift(answer([['RateLimit', '"100-in-15min"; r=99; t=900']]), answer([['RateLimit', '"100-in-15min"; r=98; t=900']]))).toBe(false);
    expect(drift(answer([['Retry-After', '120']]), answer([['Retry-After', 'Mon, 07 Dec 2026 05:21:04 GMT']]))).toBe(false);
  });

  it('other headers are not clocks, however close their values', () => {
    expect(drift(answer([['X-Response-Time', '12']]), answer([['X-Response-Time', '13']]))).toBe(false);
    expect(drift(answer([['X-RateLimit-Remaining', '12']]), answer([['X-RateLimit-Remaining', '13']]))).toBe(false);
  });
});

describe("a cookie's Expires", () => {
  const cookie = (line: string) => answer([['Set-Cookie', line]]);

  it('computed from the answer time, a second apart, is noise (hackathon-starter startercookie)', async () => {
    expect(await landed(cookie('startercookie=x; Path=/; Expires=Mon, 21 Dec 2026 05:21:05 GMT'), cookie('startercookie=x; Path=/; Expires=Mon, 21 Dec 2026 05:21:04 GMT'))).toEqual(['/cookies/startercookie/expires noise']);
  });

  it('with another lifetime is a regression', async () => {
    expect(await landed(cookie('startercookie=x; Path=/; Expires=Mon, 21 Dec 2026 05:21:05 GMT'), cookie('startercookie=x; Path=/; Expires=Sun, 20 Dec 2026 05:21:05 GMT'))).toEqual(['/cookies/startercookie/expires regression']);
  });

  it('where Max-Age differs, neither is noise', async () => {
    expect(await landed(cookie('sid=x; Max-Age=60; Expires=Mon, 21 Dec 2026 05:21:05 GMT'), cookie('sid=x; Max-Age=61; Expires=Mon, 21 Dec 2026 05:21:06 GMT'))).toEqual([
      '/cookies/sid/expires regression',
      '/cookies/sid/maxAge regression',
    ]);
  });
});
