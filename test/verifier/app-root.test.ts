/** withoutAppRoot(): an answer naming its app's folder compares equal across checkouts (verifier/app-root.ts). */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_ROOT, APP_ROOT_ETAG, APP_ROOT_EXPRESS_ETAG, withoutAppRoot } from '../../verifier/app-root.js';
import { explainDifferences } from '../../verifier/deltas.js';
import { diffResponses } from '../../verifier/diff.js';
import type { CanonicalResponse } from '../../verifier/model.js';

const json = (body: unknown, etag = 'W/"86-lIS6KsiDVePKbkGAENJgLCGtt9I"'): CanonicalResponse => ({
  status: 500,
  mediaType: 'application/json',
  charset: 'utf-8',
  headers: { etag },
  cookies: {},
  body,
  bodyKind: 'json',
});

/** Each side's app folder: made-up folders under the machine's temporary directory (never read). */
const BASELINE_ROOT = path.join(tmpdir(), 'migrate-baseline-x', 'shop');
const CANDIDATE_ROOT = path.join(tmpdir(), 'working-tree', 'shop');

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('withoutAppRoot', () => {
  it('makes an error message naming each side\'s checkout equal, ETag included', () => {
    const baseline = withoutAppRoot(json({ message: `ENOENT: no such file or directory, stat '${BASELINE_ROOT}/frontend/build/index.html'`, stack: [`at ${BASELINE_ROOT}/a.js:1`] }), BASELINE_ROOT);
    const candidate = withoutAppRoot(json({ message: `ENOENT: no such file or directory, stat '${CANDIDATE_ROOT}/frontend/build/index.html'`, stack: [`at ${CANDIDATE_ROOT}/a.js:1`] }, 'W/"76-rgBLUvVPqBu20xav64Iv7S9gHcw"'), CANDIDATE_ROOT);
    expect(baseline.body).toEqual({ message: `ENOENT: no such file or directory, stat '${APP_ROOT}/frontend/build/index.html'`, stack: [`at ${APP_ROOT}/a.js:1`] });
    expect(baseline.headers.etag).toBe(APP_ROOT_EXPRESS_ETAG);
    expect(diffResponses(baseline, candidate)).toEqual([]);
  });

  it("keeps whether the tag was Express's automatic one, so a candidate without an ETag is still the etag framework delta (proshop-v2 GET *)", () => {
    const message = (root: string) => ({ message: `ENOENT: no such file or directory, stat '${root}/frontend/build/index.html'` });
    const explain = (baselineEtag: string) => {
      const baseline = withoutAppRoot(json(message(BASELINE_ROOT), baselineEtag), BASELINE_ROOT);
      const { etag: _none, ...headers } = json(null).headers;
      const candidate = withoutAppRoot({ ...json(message(CANDIDATE_ROOT)), headers }, CANDIDATE_ROOT);
      const out = explainDifferences({ request: { id: 'e64', session: 'default', method: 'GET', path: '/any/thing', headers: [] }, baseline, candidate, differences: diffResponses(baseline, candidate), expressMajor: 4 });
      return { explained: out.explained.map((e) => e.id), unexplained: out.unexplained.map((d) => `${d.pointer} ${String(d.baseline)}`) };
    };
    expect(explain('W/"86-lIS6KsiDVePKbkGAENJgLCGtt9I"')).toEqual({ explained: ['etag'], unexplained: [] });
    // The app's own tag over such a body, lost: still a regression.
    expect(explain('"build-42"')).toEqual({ explained: [], unexplained: [`/headers/etag ${APP_ROOT_ETAG}`] });
  });

  it('leaves an answer that does not name the folder as it is (its ETag is compared)', () => {
    const answer = json({ message: 'not found' });
    expect(withoutAppRoot(answer, CANDIDATE_ROOT)).toBe(answer);
  });

  it('still reports a body that differs elsewhere', () => {
    const baseline = withoutAppRoot(json({ message: 'stat /a/shop/x', code: 1 }), '/a/shop');
    const candidate = withoutAppRoot(json({ message: 'stat /b/shop/x', code: 2 }), '/b/shop');
    expect(diffResponses(baseline, candidate).map((d) => d.pointer)).toEqual(['/body/code']);
  });

  it('recognises the folder through a symbolic link (the real path the app reports)', () => {
    const real = mkdtempSync(path.join(tmpdir(), 'app-root-'));
    const link = `${real}-link`;
    made.push(real, link);
    symlinkSync(real, link);
    const text: CanonicalResponse = { ...json(null), mediaType: 'text/html', body: `<pre>Error at ${real}/app.js</pre>`, bodyKind: 'text' };
    expect(withoutAppRoot(text, link).body).toBe(`<pre>Error at ${APP_ROOT}/app.js</pre>`);
  });
});
