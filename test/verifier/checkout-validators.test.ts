/**
 * Static files served from two checkouts (verifier/validators.ts, verifier/etags.ts): the same file
 * with another mtime on each side is noise for a HEAD and for a conditional GET whose validators
 * come from the working tree; a 304 that is wrong, a lost 304 and a file of another size are not.
 * Answers are shaped as Express's `send` writes them (express-locallibrary-tutorial e104–e108).
 */
import { describe, expect, it } from 'vitest';
import { explainDifferences } from '../../verifier/deltas.js';
import { diffResponses } from '../../verifier/diff.js';
import { isFresh, staticFileTag } from '../../verifier/etags.js';
import type { RawResponse, ReplayRequest } from '../../verifier/model.js';
import { canonicalize } from '../../verifier/normalize.js';
import { checkoutValidators } from '../../verifier/validators.js';
import { replayFixed } from '../helpers/replay.js';

/** The checkout's file time (baseline) and the working tree's (candidate), as `send` writes them. */
const CHECKOUT = { etag: 'W/"47-1a24ee03267"', lastModified: 'Mon, 07 Dec 2026 05:00:45 GMT' };
const WORKTREE = { etag: 'W/"47-1a24e7b06cd"', lastModified: 'Mon, 07 Dec 2026 03:10:15 GMT' };
const CSS = '.sidebar-nav {\n  margin-top: 20px;\n  padding: 0;\n  list-style: none;\n}\n';

const request = (method: string, headers: Array<[string, string]> = []): ReplayRequest => ({ id: 'e1', session: 'default', method, path: '/stylesheets/style.css', headers: [['Host', '127.0.0.1:3000'], ...headers] });
const common: Array<[string, string]> = [['X-Powered-By', 'Express'], ['Accept-Ranges', 'bytes'], ['Cache-Control', 'public, max-age=0']];
/** A 200 for the file (HEAD: no body). */
const full = (file: { etag: string; lastModified: string }, { head = false, size = CSS.length } = {}): RawResponse => ({
  status: 200,
  headers: [...common, ['Last-Modified', file.lastModified], ['ETag', file.etag], ['Content-Type', 'text/css; charset=UTF-8'], ['Content-Length', String(size)], ['Vary', 'Accept-Encoding']],
  body: Buffer.from(head ? '' : CSS),
});
/** A 304 as `send` writes it: Content-* removed, and so no Vary from `compression`. */
const notModified = (file: { etag: string; lastModified: string }, extra: Array<[string, string]> = common): RawResponse => ({ status: 304, headers: [...extra, ['Last-Modified', file.lastModified], ['ETag', file.etag]], body: Buffer.alloc(0) });

const replay = (req: ReplayRequest, answers: RawResponse[]) => replayFixed(req, answers, 'GET /stylesheets/style.css');

describe('a HEAD of a static file from another checkout', () => {
  it('is noise when the tags name the same size, each mtime agrees with its Last-Modified, and Content-Length is the same', async () => {
    const out = await replay(request('HEAD'), [full(CHECKOUT, { head: true }), full(WORKTREE, { head: true }), full(CHECKOUT, { head: true })]);
    expect(out.outcome).toBe('noise');
    expect(out.where).toEqual(['/headers/etag noise', '/headers/last-modified noise']);
    expect(out.findings.validators).toBe(1);
  });

  it('is a regression when the file has another size', async () => {
    const bigger = { ...WORKTREE, etag: 'W/"48-1a24e7b06cd"' };
    const out = await replay(request('HEAD'), [full(CHECKOUT, { head: true }), full(bigger, { head: true, size: 72 })]);
    expect(out.where).toEqual(['/headers/etag regression', '/headers/last-modified regression']);
  });

  it("is a regression when a tag is not the static-file form (the app's own) or contradicts its Last-Modified", async () => {
    const own = await replay(request('HEAD'), [full({ ...CHECKOUT, etag: '"v1"' }, { head: true }), full({ ...WORKTREE, etag: '"v2"' }, { head: true })]);
    expect(own.where).toEqual(['/headers/etag regression', '/headers/last-modified regression']);
    const contradicts = await replay(request('HEAD'), [full(CHECKOUT, { head: true }), full({ ...WORKTREE, lastModified: 'Tue, 08 Dec 2026 03:10:15 GMT' }, { head: true })]);
    expect(contradicts.outcome).toBe('regression');
  });

  it('is a regression when Content-Length differs, or the status', async () => {
    const length = await replay(request('HEAD'), [full(CHECKOUT, { head: true }), full(WORKTREE, { head: true, size: 70 })]);
    expect(length.outcome).toBe('regression');
    const status = await replay(request('HEAD'), [full(CHECKOUT, { head: true }), { ...full(WORKTREE, { head: true }), status: 203 }]);
    expect(status.where).toContain('/headers/etag regression');
  });
});

describe('a conditional GET carrying the validators of the working tree', () => {
  const conditional = (etag: string) => request('GET', [['If-None-Match', etag]]);

  it('is noise when the checkout answers 200 (its tag does not match) and the working tree 304 (its tag does)', async () => {
    const out = await replay(conditional(WORKTREE.etag), [full(CHECKOUT), notModified(WORKTREE), full(CHECKOUT)]);
    expect(out.outcome).toBe('noise');
    // Not charset-dropped: the 304 sends no content type at all.
    expect(out.where).toEqual(['/bodyKind noise', '/charset noise', '/headers/etag noise', '/headers/last-modified noise', '/headers/vary noise', '/mediaType noise', '/status noise']);
    expect(out.findings.conditional).toBe(1);
  });

  it('still reports what the 304 lost beyond its body, content type and validators', async () => {
    const out = await replay(conditional(WORKTREE.etag), [full(CHECKOUT), notModified(WORKTREE, [['X-Powered-By', 'Express'], ['Accept-Ranges', 'bytes']])]);
    expect(out.outcome).toBe('regression');
    expect(out.where.filter((w) => !w.endsWith(' noise'))).toEqual(['/headers/cache-control regression']);
  });

  it('is a regression when the candidate answers 304 to validators that are not its own', async () => {
    const out = await replay(conditional('W/"47-18c3f2b7e40"'), [full(CHECKOUT), notModified(WORKTREE)]);
    expect(out.outcome).toBe('regression');
    expect(out.where).toContain('/status regression');
    // The 304 lost its whole content type: not the charset-dropped cause.
    expect(out.where).toContain('/charset regression');
  });

  it('is a regression when the file has another size on the 304 side', async () => {
    const other = { ...WORKTREE, etag: 'W/"48-1a24e7b06cd"' };
    const out = await replay(conditional(other.etag), [full(CHECKOUT), notModified(other)]);
    expect(out.where).toContain('/status regression');
  });

  it('where the baseline answered 304 and the candidate sends no ETag, stays the etag framework delta', async () => {
    const fastify200: RawResponse = { status: 200, headers: [['content-type', 'text/css; charset=utf-8'], ['cache-control', 'public, max-age=0'], ['accept-ranges', 'bytes'], ['x-powered-by', 'Express']], body: Buffer.from(CSS) };
    const out = await replay(conditional(CHECKOUT.etag), [notModified(CHECKOUT), fastify200]);
    expect(out.outcome).toBe('delta');
    expect(out.where.every((w) => w.endsWith('delta:etag'))).toBe(true);
  });

  it('where the candidate answers 200 although its own tag matches, is a regression', async () => {
    const out = await replay(conditional(WORKTREE.etag), [full(CHECKOUT), full(WORKTREE)]);
    expect(out.where).toEqual(['/headers/etag regression', '/headers/last-modified regression']);
  });
});

describe('the pieces', () => {
  it('staticFileTag reads size and mtime, and refuses a Last-Modified of another second', () => {
    expect(staticFileTag(canonicalize(full(WORKTREE)))).toEqual({ size: 0x47, mtimeMs: 0x1a24e7b06cd });
    expect(staticFileTag(canonicalize(full({ ...WORKTREE, lastModified: CHECKOUT.lastModified })))).toBeNull();
    expect(staticFileTag(canonicalize(full({ ...WORKTREE, etag: 'W/"47-lIS6KsiDVePKbkGAENJgLCGtt9I"' })))).toBeNull();
  });

  it('isFresh decides as jshttp/fresh: weak comparison, lists, If-Modified-Since, no-cache', () => {
    const answer = canonicalize(notModified(WORKTREE));
    expect(isFresh(request('GET', [['If-None-Match', '"x", "47-1a24e7b06cd"']]), answer)).toBe(true);
    expect(isFresh(request('GET', [['If-None-Match', CHECKOUT.etag]]), answer)).toBe(false);
    expect(isFresh(request('GET', [['If-Modified-Since', WORKTREE.lastModified]]), answer)).toBe(true);
    expect(isFresh(request('GET', [['If-Modified-Since', 'Mon, 07 Dec 2026 03:10:14 GMT']]), answer)).toBe(false);
    expect(isFresh(request('GET', [['If-None-Match', WORKTREE.etag], ['Cache-Control', 'no-cache']]), answer)).toBe(false);
    expect(isFresh(request('GET'), answer)).toBe(false);
  });

  it('checkoutValidators takes only Accept-Encoding out of Vary on the 304 side', () => {
    const withOrigin = (r: RawResponse): RawResponse => ({ ...r, headers: r.headers.map(([k, v]): [string, string] => (k === 'Vary' ? [k, 'Accept-Encoding, Origin'] : [k, v])) });
    const b = canonicalize(withOrigin(full(CHECKOUT)));
    const explain = (c: ReturnType<typeof canonicalize>) => {
      const differences = diffResponses(b, c);
      const out = checkoutValidators({ request: request('GET', [['If-None-Match', WORKTREE.etag]]), baseline: b, candidate: c, differences, contentLength: {} });
      return differences.filter((d) => !out?.differences.has(d)).map((d) => d.pointer);
    };
    expect(explain(canonicalize(notModified(WORKTREE, [...common, ['Vary', 'Origin']])))).toEqual([]);
    expect(explain(canonicalize(notModified(WORKTREE)))).toEqual(['/headers/vary']);
  });

  it('charset-dropped is named where the candidate still sends a content type, not for an answer without one', () => {
    const x = canonicalize(full(CHECKOUT));
    const explain = (c: RawResponse) => {
      const y = canonicalize(c);
      return explainDifferences({ request: request('GET'), baseline: x, candidate: y, differences: diffResponses(x, y), expressMajor: 4 }).explained.map((e) => e.id);
    };
    expect(explain({ ...full(CHECKOUT), headers: full(CHECKOUT).headers.map(([k, v]): [string, string] => (k === 'Content-Type' ? [k, 'text/css'] : [k, v])) })).toEqual(['charset-dropped']);
    expect(explain(notModified(CHECKOUT))).not.toContain('charset-dropped');
  });
});
