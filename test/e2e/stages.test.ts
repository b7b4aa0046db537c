/**
 * End to end (issue 7 item 5, issue 8 item 6, issue 18 item 6): every example app goes through
 * `shim`, `errors`, `routes` and `plugins`, in a copy; after each stage the verifier replays the app's recording against the
 * original app, each side started from the file that listens (so the candidate really runs behind
 * Fastify), and there must be no regression. A second run of each stage must change nothing. After
 * `routes`, what moved per app is asserted, and every route left on Express has a reason; and the
 * readiness `migrate analyze` gave before any stage ran is exactly what the stages did (issue 15):
 * the routes rated to move at the routes stage are the ones it moved, those rated `later` the ones
 * it left for that stage, the rest manual.
 */
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Readiness } from '../../analyzer/model.js';
import { analyzeWithReadiness } from '../../runner/readiness.js';
import { runStage } from '../../runner/run.js';
import { readHar } from '../../verifier/har.js';
import { parseVerifyRules } from '../../verifier/verify-rules.js';
import { verify } from '../../verifier/verify.js';
import type { Verdict } from '../../verifier/verdict.js';
import type { StageName } from '../../transforms/model.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', `e2e-stages-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Each example app and the file its start script runs (the one that listens). */
const APPS: Array<[app: string, listens: string]> = [
  ['url-shortener', 'src/index.js'],
  ['legacy-cjs', 'server.js'],
  ['modern-e5', 'src/server.js'],
  ['shop-api', 'src/server.ts'],
];
const STAGES: StageName[] = ['shim', 'errors', 'routes', 'plugins'];

/**
 * What the routes stage moves in each example app (moved of movable, and the routes left for the
 * plugins stage), and the codes of the reasons the others stay. legacy-cjs's 404 and error pages
 * render views, so the errors stage registers @fastify/view and moves them; then its routes that
 * nothing else holds move too — those before its RegExp route (which stays) with a hand-over.
 */
const ROUTES: Record<string, { moved: [number, number]; deferred: number; reasons: string[] }> = {
  'url-shortener': { moved: [3, 3], deferred: 0, reasons: [] },
  'legacy-cjs': { moved: [9, 20], deferred: 3, reasons: ['route-finding', 'route-handler-api', 'route-param-elsewhere', 'route-path-syntax'] },
  'modern-e5': { moved: [15, 17], deferred: 0, reasons: ['route-handler-api'] },
  'shop-api': { moved: [30, 30], deferred: 0, reasons: [] },
};

/**
 * What the plugins stage does in each example app: the moved routes that run no Express code (of the
 * moved routes; the app's own middleware runs first for the others, until "plugins (II)" makes it
 * Fastify hooks), and whether the app's views registration went to the root (url-shortener renders
 * pug in moved routes; legacy-cjs registered its views at the root in the errors stage already),
 * and the static mounts moved of the app's.
 */
const PLUGINS: Record<string, { expressFree: [number, number]; views: boolean; static?: [number, number] }> = {
  // Their static mounts stay: the app's own middleware (a request logger, method-override) runs before them.
  'url-shortener': { expressFree: [0, 3], views: true, static: [0, 1] },
  'legacy-cjs': { expressFree: [0, 9], views: false, static: [0, 1] },
  'modern-e5': { expressFree: [0, 18], views: false },
  'shop-api': { expressFree: [0, 30], views: false },
};

async function replay(app: string, listens: string, candidate: string): Promise<Verdict> {
  const original = path.join(REPO, 'fixtures/apps', app);
  return verify({
    baseline: { name: 'baseline', dir: original, entry: listens },
    candidate: { name: 'candidate', dir: candidate, entry: listens },
    har: readHar(path.join(original, 'recording.har')),
    labels: { baseline: original, candidate, recording: `${app}/recording.har` },
    rules: parseVerifyRules({ rules: [] }, 'test'),
    inventory: await analyze({ dir: original }),
  });
}

/** `METHOD path: pointer baseline → candidate` per regression, for a readable failure. */
function regressionsOf(verdict: Verdict): string[] {
  return verdict.exchanges.flatMap((x) => x.regressions.map((d) => `${x.id} ${d.pointer}: ${JSON.stringify(d.baseline)} → ${JSON.stringify(d.candidate)}`));
}

describe.each(APPS)('%s through the stages', (app, listens) => {
  const dir = path.join(TMP, app);
  mkdirSync(TMP, { recursive: true });
  // Timestamps kept: static files' ETag and Last-Modified come from them.
  cpSync(path.join(REPO, 'fixtures/apps', app), dir, { recursive: true, preserveTimestamps: true, filter: (src) => !src.includes(`${path.sep}node_modules${path.sep}.cache`) });

  let rated: Readiness['routes'] = [];
  it('analyze rates the routes before any stage runs', async () => {
    rated = (await analyzeWithReadiness({ dir })).readiness!.routes;
    expect(rated.length).toBeGreaterThan(0);
  }, 120_000);

  for (const stage of STAGES) {
    it(`${stage}: changes the app, no regression against the original, a second run changes nothing`, async () => {
      const first = await runStage({ root: dir, stage, allowDirty: true, typecheck: true });
      expect(first.typecheck?.introduced ?? []).toEqual([]);
      expect(first.outcomes.filter((o) => o.status === 'failed' || o.status === 'skipped')).toEqual([]);
      expect(first.changes.length).toBeGreaterThan(0);
      expect(first.parity?.missing ?? []).toEqual([]);
      expect(first.parity?.duplicated ?? []).toEqual([]);
      const verdict = await replay(app, listens, dir);
      expect(verdict.candidateExit).toBeNull();
      expect(regressionsOf(verdict)).toEqual([]);
      expect(verdict.totals.requests).toBeGreaterThan(20);
      if (stage === 'routes') {
        const moved = first.moved.find((m) => m.step === 'routes-move')!;
        const expected = ROUTES[app];
        expect([moved.done, moved.of]).toEqual(expected.moved);
        expect(first.deferred.length).toBe(expected.deferred);
        expect([...new Set(first.manual.map((m) => m.code))].sort()).toEqual(expected.reasons);
        // Every route left on Express says why, at its registration.
        for (const item of [...first.manual, ...first.deferred]) expect(item.reason).toMatch(/^(GET|POST|PUT|PATCH|DELETE|ALL) \S+ stays on Express( until then)?: \S/);
        expect(first.manual.length + first.deferred.length + moved.done).toBe(moved.of + first.deferred.length);
        // The readiness of the untouched app is what the stages did.
        const ids = (test: (v: (typeof first.verdicts)[number]) => boolean) => first.verdicts.filter((v) => v.kind === 'route' && test(v)).map((v) => v.id).sort();
        const ratedIds = (test: (r: (typeof rated)[number]) => boolean) => rated.filter(test).map((r) => r.id).sort();
        expect(ratedIds((r) => r.stage === 'routes')).toEqual(ids((v) => v.moves));
        expect(ratedIds((r) => r.readiness === 'later').map((id) => [id, rated.find((r) => r.id === id)!.stage])).toEqual(ids((v) => !v.moves && !!v.waitsFor).map((id) => [id, first.verdicts.find((v) => v.id === id)!.waitsFor]));
        expect(ratedIds((r) => r.readiness === 'manual')).toEqual(ids((v) => !v.moves && !v.waitsFor));
      }
      if (stage === 'plugins') {
        const free = first.moved.find((m) => m.step === 'plugins-express-free')!;
        expect([free.done, free.of]).toEqual(PLUGINS[app].expressFree);
        expect(first.moved.some((m) => m.step === 'plugins-views')).toBe(PLUGINS[app].views);
        const mounts = first.moved.find((m) => m.step === 'plugins-static');
        expect(mounts && [mounts.done, mounts.of]).toEqual(PLUGINS[app].static);
      }
      const second = await runStage({ root: dir, stage, allowDirty: true });
      expect(second.changes.map((c) => c.file)).toEqual([]);
      // An earlier stage run again after this one takes nothing back.
      for (const earlier of STAGES.slice(0, STAGES.indexOf(stage))) {
        const again = await runStage({ root: dir, stage: earlier, check: true });
        expect(again.changes.map((c) => `${earlier}: ${c.file}`)).toEqual([]);
      }
    }, 240_000);
  }

  it('the shim really put Fastify in front (the listening file imports the generated module)', () => {
    expect(readFileSync(path.join(dir, listens), 'utf8')).toMatch(/buildFastify\(app\)/);
  });
});
