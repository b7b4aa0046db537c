/**
 * Cache validators of another checkout. The baseline runs from a fresh checkout, the candidate from
 * the working tree, so one static file has another mtime on each side: another `ETag`
 * (`W/"size-mtime"`, verifier/etags.ts) and `Last-Modified`; and a conditional request recorded
 * against the working tree's files carries the working tree's validators, so the candidate answers
 * 304 where the baseline's checkout answers 200. Each case is recognised only on evidence that
 * both sides served the same thing and each was right for its own files:
 *
 * - `equal-bodies`: the bodies compare equal (not empty): ETag and Last-Modified may differ (file
 *   times; JSON written in another key order hashes to another ETag) — unless the request is
 *   conditional and the candidate answered in full although its own validators satisfy it where
 *   the baseline's do not (it should have answered 304).
 * - `head`: a HEAD (no body to compare) answered with the same status and Content-Length, both
 *   tags of the static-file form naming the same size, each tag's mtime in the second its own
 *   Last-Modified names: ETag and Last-Modified may differ.
 * - `conditional`: a GET or HEAD with `If-None-Match`/`If-Modified-Since` answered 304 on one side
 *   and 200 on the other, both tags of the static-file form naming the same size, the 304's
 *   validators satisfying the request and the 200's not (jshttp/fresh): the status, the body, the
 *   content type, the validators, the `Content-*` headers the 304 leaves out (`send` removes them;
 *   RFC 9110 §15.4.5) and `Accept-Encoding` missing from the 304's `Vary` (`compression` adds it
 *   only to a compressible body) may differ. Everything else the answers send is still compared.
 *   A 304 whose validators do not match the request, or a 200 that should have been a 304 (the
 *   `etag` framework delta when the candidate sends no tag), is not this case.
 */
import { isConditional, isFresh, staticFileTag } from './etags.js';
import type { CanonicalResponse, Difference, ReplayRequest } from './model.js';

/** Which evidence recognised the differences; see the module docs. */
export type CheckoutValidatorCase = 'equal-bodies' | 'head' | 'conditional';

/** What {@link checkoutValidators} needs: the request, both canonical answers, their A/B differences, and each side's Content-Length as sent (the canonical form drops it). */
export interface ValidatorContext {
  request: ReplayRequest;
  baseline: CanonicalResponse;
  candidate: CanonicalResponse;
  differences: Difference[];
  contentLength: { baseline?: string; candidate?: string };
}

const VALIDATOR = /^\/headers\/(etag|last-modified)$/;

/**
 * The differences of one exchange that the two checkouts' file times explain, and the case that
 * explains them; null when none does (see the module docs for the evidence each case needs).
 */
export function checkoutValidators(ctx: ValidatorContext): { case: CheckoutValidatorCase; differences: Set<Difference> } | null {
  const { request, baseline: b, candidate: c, differences } = ctx;
  const validators = differences.filter((d) => VALIDATOR.test(d.pointer) && d.baseline !== undefined && d.candidate !== undefined);
  const sameBody = b.bodyKind !== 'empty' && !differences.some((d) => /^\/(body|bodyKind)(\/|$)/.test(d.pointer));
  if (sameBody) {
    const missed304 = /^(GET|HEAD)$/i.test(request.method) && c.status !== 304 && isFresh(request, c) && !isFresh(request, b);
    return validators.length && !missed304 ? { case: 'equal-bodies', differences: new Set(validators) } : null;
  }
  const [tb, tc] = [staticFileTag(b), staticFileTag(c)];
  if (!tb || !tc || tb.size !== tc.size) return null;
  const method = request.method.toUpperCase();
  if (method === 'HEAD' && b.status === c.status && b.bodyKind === 'empty' && c.bodyKind === 'empty' && ctx.contentLength.baseline === ctx.contentLength.candidate) {
    return validators.length ? { case: 'head', differences: new Set(validators) } : null;
  }
  const statuses = [b.status, c.status].sort().join();
  if ((method !== 'GET' && method !== 'HEAD') || statuses !== '200,304' || !isConditional(request)) return null;
  const [notModified, full] = b.status === 304 ? [b, c] : [c, b];
  if (!isFresh(request, notModified) || isFresh(request, full)) return null;
  const side304 = (d: Difference) => (notModified === b ? d.baseline : d.candidate);
  const side200 = (d: Difference) => (notModified === b ? d.candidate : d.baseline);
  const explained = differences.filter(
    (d) =>
      validators.includes(d) ||
      /^\/(status|bodyKind|body)(\/|$)/.test(d.pointer) ||
      (/^\/(mediaType|charset)$|^\/headers\/content-(?!location$)/.test(d.pointer) && side304(d) === undefined) ||
      (d.pointer === '/headers/vary' && withoutAcceptEncoding(side200(d)) === side304(d)),
  );
  return { case: 'conditional', differences: new Set(explained) };
}

/** A canonical `Vary` value without `Accept-Encoding`; undefined when that leaves nothing, or when it had no `Accept-Encoding` to lose. */
function withoutAcceptEncoding(vary: unknown): string | undefined | null {
  if (typeof vary !== 'string') return null;
  const tokens = vary.split(',').map((t) => t.trim());
  const rest = tokens.filter((t) => t.toLowerCase() !== 'accept-encoding');
  if (rest.length === tokens.length) return null;
  return rest.length ? rest.join(', ') : undefined;
}
