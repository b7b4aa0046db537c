/**
 * End to end: the verifier replays the example apps' recordings into real lanes.
 * - the same app on both sides → no differences at all;
 * - deliberate changes (fixtures/verify/mutations.json) → each found with its pointer and kind;
 * - a nondeterministic field on both sides → noise, not a regression;
 * - Express vs a naive hand-written Fastify port → the framework defaults named per request
 *   (fixtures/verify/naive-fastify-e5/expected-deltas.json, established by running both apps).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { FRAMEWORK_DEFAULTS } from '../../rules/catalogue/framework-defaults.js';
import { readHar } from '../../verifier/har.js';
import { redactHar } from '../../verifier/redact.js';
import { parseVerifyRules } from '../../verifier/verify-rules.js';
import { verify, type VerifyOptions } from '../../verifier/verify.js';
import type { Verdict } from '../../verifier/verdict.js';
// @ts-expect-error plain JS fixture tool without types
import { applyMutation, copyApp, loadMutations } from '../../fixtures/verify/tools/apply-mutation.mjs';

const repo = path.resolve(import.meta.dirname, '../..');
const appDir = (app: string) => path.join(repo, 'fixtures/apps', app);
const expectedRoutes = (app: string) => JSON.parse(readFileSync(path.join(appDir(app), 'expected-routes.json'), 'utf8')) as { entry: string };
const tmp: string[] = [];
afterAll(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Mutation {
  id: string;
  app: string;
  sides?: 'both';
  expect?: Array<{ request: string; pointer: string; kind: string }>;
  noise?: Array<{ request: string; pointer: string; kind: string }>;
}

async function run(app: string, baselineDir: string, candidateDir: string, extra: Partial<VerifyOptions> = {}): Promise<Verdict> {
  const entry = expectedRoutes(app).entry;
  return verify({
    baseline: { name: 'baseline', dir: baselineDir, entry },
    candidate: { name: 'candidate', dir: candidateDir, entry },
    har: readHar(path.join(appDir(app), 'recording.har')),
    labels: { baseline: baselineDir, candidate: candidateDir, recording: `${app}/recording.har` },
    rules: parseVerifyRules({ rules: [] }, 'test'),
    inventory: await analyze({ dir: appDir(app), entry }),
    ...extra,
  });
}

/** Every difference of an exchange with where it landed: `regression`, `delta:<id>`, `noise`. */
function landed(verdict: Verdict, id: string): string[] {
  const x = verdict.exchanges.find((e) => e.id === id);
  if (!x) return [];
  return [
    ...x.regressions.map((d) => `${d.pointer} ${d.kind} regression${d.cause ? `:${d.cause}` : ''}`),
    ...x.deltas.flatMap((e) => e.differences.map((d) => `${d.pointer} ${d.kind} delta:${e.id}`)),
    ...x.noise.map((d) => `${d.pointer} ${d.kind} noise`),
  ].sort();
}

describe('the same app on both sides', () => {
  for (const app of ['url-shortener', 'modern-e5', 'legacy-cjs', 'shop-api']) {
    it(`${app}: no differences, every recorded request replayed`, async () => {
      const verdict = await run(app, appDir(app), appDir(app));
      const entries = readHar(path.join(appDir(app), 'recording.har')).log.entries.length;
      expect(verdict.totals.requests).toBe(entries);
      expect(verdict.exchanges.map((x) => `${x.id} ${x.outcome}`)).toEqual([]);
      expect(verdict.totals.pass).toBe(entries);
      expect(verdict.coverage!.notExercised).toEqual([]);
      // The replay reproduced the recording: the baseline answered every request with the recorded status.
      expect(verdict.baselineDrift).toEqual({ count: 0, examples: [] });
    });
  }
});

describe('deliberate changes are found with their pointer and kind', () => {
  const mutations = (loadMutations() as Mutation[]).filter((m) => m.sides !== 'both');
  it('covers the required kinds of change', () => {
    expect(mutations.map((m) => m.id).sort()).toEqual(['array-order', 'cookie-attribute', 'header', 'html-as-text-plain', 'json-field', 'status']);
  });
  for (const m of mutations) {
    it(m.id, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `verify-${m.id}-`));
      tmp.push(dir);
      applyMutation(m, path.join(dir, 'app'));
      const verdict = await run(m.app, appDir(m.app), path.join(dir, 'app'));
      const expected = new Map<string, string[]>();
      for (const e of m.expect ?? []) expected.set(e.request, [...(expected.get(e.request) ?? []), `${e.pointer} ${e.kind} regression`].sort());
      // The cause a detector names is a hint about Fastify defaults; here both sides are Express.
      const found = new Map(verdict.exchanges.map((x) => [x.id, landed(verdict, x.id).map((s) => s.replace(/ regression:\S+$/, ' regression'))]));
      expect(Object.fromEntries(found)).toEqual(Object.fromEntries(expected));
      expect(verdict.totals.regression).toBe(expected.size);
    });
  }
});

describe('redacted recordings', () => {
  // shop-api's recording with the redaction `migrate record` applies: logins carry
  // <redacted:password:N>, later requests the session and JWT cookies the logins set.
  const redacted = () => redactHar(readHar(path.join(appDir('shop-api'), 'recording.har'))).har;

  it('without credentials the logins and everything that depends on them are not verified (never a false pass)', async () => {
    const verdict = await run('shop-api', appDir('shop-api'), appDir('shop-api'), { har: redacted() });
    const unverified = verdict.exchanges.filter((x) => x.outcome === 'unverified');
    expect(unverified.map((x) => x.id)).toEqual(expect.arrayContaining(['e19', 'e20', 'e21', 'e23', 'e24']));
    expect(unverified.find((x) => x.id === 'e19')!.note).toBe('no credential for <redacted:password:1> (give them with --credentials); not replayed');
    expect(verdict.totals.regression).toBe(0);
  });

  it('with a credentials module every request replays: cookies the logins set are carried per lane', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'verify-creds-'));
    tmp.push(dir);
    const creds = path.join(dir, 'creds.mjs');
    writeFileSync(creds, "export default ({ lane }) => ({ '<redacted:password:1>': 'hopper', '<redacted:password:2>': 'lovelace', '<redacted:password:3>': 'wrong', '<redacted:authorization:1>': 'Bearer not.a.token' });\n");
    const verdict = await run('shop-api', appDir('shop-api'), appDir('shop-api'), { har: redacted(), credentials: creds });
    expect(verdict.exchanges.filter((x) => x.outcome !== 'noise').map((x) => `${x.id} ${x.outcome} ${x.note ?? ''}`)).toEqual([]);
    expect(verdict.baselineDrift).toEqual({ count: 0, examples: [] }); // the baseline answered every request as recorded: the logins worked
  });
});

describe('a refactor that changes no answer', () => {
  it('JSON written in another key order passes: the bodies are equal as trees, the ETags that differ are noise', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'verify-keyorder-'));
    tmp.push(dir);
    copyApp('modern-e5', path.join(dir, 'app'));
    const store = path.join(dir, 'app/src/lib/store.js');
    const source = readFileSync(store, 'utf8');
    writeFileSync(store, source.replace('const note = { id: nextId++, title, body, tags, revision: 1 };', 'const note = { revision: 1, tags, body, title, id: nextId++ };'));
    const verdict = await run('modern-e5', appDir('modern-e5'), path.join(dir, 'app'));
    expect(verdict.totals.regression).toBe(0);
    const etags = verdict.exchanges.filter((x) => x.noise.some((d) => d.pointer === '/headers/etag'));
    expect(etags.map((x) => x.id)).toContain('e10'); // the created note, written in the new order
    expect(verdict.notes.some((n) => /ETag or Last-Modified differ while the bodies are equal/.test(n))).toBe(true);
  });
});

describe('noise', () => {
  it('a timestamp and a random id on both sides are noise, never regressions', async () => {
    const m = (loadMutations() as Mutation[]).find((x) => x.id === 'noise')!;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'verify-noise-'));
    tmp.push(dir);
    applyMutation(m, path.join(dir, 'base'));
    applyMutation(m, path.join(dir, 'cand'));
    const verdict = await run(m.app, path.join(dir, 'base'), path.join(dir, 'cand'));
    expect(verdict.totals.regression).toBe(0);
    const noisy = new Set(verdict.exchanges.flatMap((x) => x.noise.map((d) => `${x.id} ${d.pointer}`)));
    expect(noisy.has('e2 /body/traceId')).toBe(true);
    expect(verdict.noise.map((n) => `${n.route} ${n.pointer}`)).toContain('GET /health /body/traceId');
    expect(verdict.noise.find((n) => n.pointer === '/body/traceId')!.rule).toEqual({ scope: { route: 'GET /health' }, ignoreValue: ['/body/traceId'] });
  });

  it('without the noise lane the same fields are regressions (so the lane is what tells them apart)', async () => {
    const m = (loadMutations() as Mutation[]).find((x) => x.id === 'noise')!;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'verify-nonoise-'));
    tmp.push(dir);
    applyMutation(m, path.join(dir, 'base'));
    applyMutation(m, path.join(dir, 'cand'));
    const verdict = await run(m.app, path.join(dir, 'base'), path.join(dir, 'cand'), { noise: false });
    expect(landed(verdict, 'e2')).toContain('/body/traceId value regression');
  });
});

describe('Express vs a naive Fastify port', () => {
  const expected = JSON.parse(readFileSync(path.join(repo, 'fixtures/verify/naive-fastify-e5/expected-deltas.json'), 'utf8')) as {
    requests: Array<{ request: string; deltas: Array<{ id: string; differences: Array<{ pointer: string; kind: string }> }> }>;
  };
  /** The fixture's names for what the catalogue calls otherwise. */
  const alias: Record<string, string> = { 'body-parse-error-body': 'body-parser-errors' };

  it('names every default difference where it happens, and nothing else differs', async () => {
    const dir = path.join(repo, 'fixtures/verify/naive-fastify-e5');
    const entry = expectedRoutes('modern-e5').entry;
    const verdict = await verify({
      baseline: { name: 'baseline', dir: appDir('modern-e5'), entry },
      candidate: { name: 'candidate', dir, entry: 'src/app.js' },
      har: readHar(path.join(appDir('modern-e5'), 'recording.har')),
      labels: { baseline: 'modern-e5', candidate: 'naive', recording: 'modern-e5/recording.har' },
      rules: parseVerifyRules({ rules: [] }, 'test'),
      inventory: await analyze({ dir: appDir('modern-e5'), entry }),
    });
    for (const r of expected.requests) {
      const want = r.deltas.flatMap((d) =>
        d.differences.map((x) => {
          const id = alias[d.id] ?? d.id;
          if (id === 'other') return `${x.pointer} ${x.kind} other`;
          const visibility = FRAMEWORK_DEFAULTS[id as keyof typeof FRAMEWORK_DEFAULTS].visibility;
          return `${x.pointer} ${x.kind} ${visibility === 'delta' ? `delta:${id}` : `regression:${id}`}`;
        }),
      );
      // "other" is what the fixture author did not attribute to a default of the brief's list: a
      // regression (charset-dropped is one with a cause) or the redirect-body delta, never noise.
      const got = landed(verdict, r.request).map((s) => (want.includes(s) ? s : /( regression(:\S+)?| delta:redirect-body)$/.test(s) && want.includes(s.replace(/ \S+$/, ' other')) ? s.replace(/ \S+$/, ' other') : s));
      expect({ request: r.request, differences: got.sort() }).toEqual({ request: r.request, differences: want.sort() });
    }
    // e32, a 303 whose body Express fills ("Redirecting to …") and Fastify leaves empty.
    expect(verdict.deltas.map((d) => d.id).sort()).toEqual(['auto-options', 'etag', 'redirect-body', 'x-powered-by']);
  });
});
