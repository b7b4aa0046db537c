/**
 * Values that are clocks: computed from the time a lane started or answered, so two lanes that
 * start or answer in different seconds differ by a second or two for no reason a client could
 * notice. The noise lane catches this only when its second also differs, so the verdict would flip
 * between runs. Recognised here, with {@link CLOCK_TOLERANCE_SECONDS} (a `tolerance` rule of
 * `.migrate/verify.json` done for the known forms):
 *
 * - rate-limit reset times: `X-RateLimit-Reset`/`X-Rate-Limit-Reset` (express-rate-limit's legacy
 *   header: an epoch second, in version 5 computed when the app starts; elsewhere seconds left or an
 *   HTTP date), `RateLimit-Reset` (IETF draft 6: seconds left), the `reset=` (draft 7) or `t=`
 *   (draft 8) part of `RateLimit`, and `Retry-After` (seconds or an HTTP date, RFC 9110 §10.2.3);
 * - a cookie's `Expires` computed from the answer's time, when both sides set it and `Max-Age` is
 *   the same on both.
 *
 * Only the time moves: a changed limit, remaining count, policy, window or cookie lifetime is
 * beyond the tolerance or in another field, and is still compared.
 */
import type { CanonicalResponse, Difference } from './model.js';

/** How far apart two clock values may be (lanes start and answer within a few seconds of each other). */
export const CLOCK_TOLERANCE_SECONDS = 5;

/** Headers whose whole value is a reset time. */
const RESET_HEADERS = new Set(['x-ratelimit-reset', 'x-rate-limit-reset', 'ratelimit-reset', 'retry-after']);
/** The time parameters of the draft `RateLimit` header (`reset=900`, `t=900`). */
const RATELIMIT_TIME = /(^|[;,\s])(reset|t)=(\d+)(?=$|[;,\s])/g;

/**
 * Whether an A/B (or A/A) difference is a clock that moved within the tolerance: see the module
 * docs for the fields. `baseline`/`candidate` are the two canonical answers (for the cookie's
 * `Max-Age`).
 */
export function isClockDrift(d: Difference, baseline: CanonicalResponse, candidate: CanonicalResponse): boolean {
  if (typeof d.baseline !== 'string' || typeof d.candidate !== 'string') return false;
  const header = /^\/headers\/(.+)$/.exec(d.pointer)?.[1];
  if (header && RESET_HEADERS.has(header)) return closeTimes(d.baseline, d.candidate);
  if (header === 'ratelimit') return closeRateLimit(d.baseline, d.candidate);
  const cookie = /^\/cookies\/([^/]+)\/expires$/.exec(d.pointer)?.[1];
  if (cookie !== undefined) {
    const name = cookie.replace(/~1/g, '/').replace(/~0/g, '~');
    return baseline.cookies[name]?.maxAge === candidate.cookies[name]?.maxAge && closeDates(d.baseline, d.candidate);
  }
  return false;
}

/** Two values of the same form within the tolerance: whole seconds (epoch milliseconds beyond 10^11) or HTTP dates. */
function closeTimes(a: string, b: string): boolean {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) {
    const [x, y] = [Number(a), Number(b)];
    const unit = x >= 1e11 && y >= 1e11 ? 1000 : 1;
    return Math.abs(x - y) <= CLOCK_TOLERANCE_SECONDS * unit;
  }
  return !/^\d+$/.test(a) && !/^\d+$/.test(b) && closeDates(a, b);
}

function closeDates(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return !Number.isNaN(x) && !Number.isNaN(y) && Math.abs(x - y) <= CLOCK_TOLERANCE_SECONDS * 1000;
}

/** `RateLimit` values equal but for their time parameters, each pair within the tolerance. */
function closeRateLimit(a: string, b: string): boolean {
  const times = (v: string) => [...v.matchAll(RATELIMIT_TIME)].map((m) => Number(m[3]));
  const shape = (v: string) => v.replace(RATELIMIT_TIME, '$1$2=');
  const [ta, tb] = [times(a), times(b)];
  return ta.length > 0 && shape(a) === shape(b) && ta.length === tb.length && ta.every((t, i) => Math.abs(t - tb[i]) <= CLOCK_TOLERANCE_SECONDS);
}
