/**
 * The analyzer against the catalogue fixtures (analyzer-patterns.md §3, sections A, B, C, E, I):
 * every route key with its ordered chain, error and not-found handlers, static mounts, and the
 * diagnostics each fixture requires. The expected files were written from the catalogue text by
 * someone who had not seen the analyzer.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { analyzerFixtures, expectedRouteLines, routeLines } from '../helpers/fixtures.js';

const fixtures = analyzerFixtures();

describe('catalogue fixtures', () => {
  it('exist for every section of the foundation issue', () => {
    const sections = new Set(fixtures.map((f) => f.name.split('/')[0]));
    expect([...sections].sort()).toEqual(expect.arrayContaining(['A', 'B', 'C', 'E', 'I']));
  });

  for (const { name, dir, expected } of fixtures) {
    describe(`${name} (${expected.pattern})`, () => {
      it('finds every route with its full path and ordered chain', async () => {
        const inv = await analyze({ dir, entry: expected.entry });
        expect(routeLines(inv)).toEqual(expectedRouteLines(expected, inv));
        for (const r of expected.routes.filter((x) => x.resolution)) {
          expect(inv.routes.find((a) => a.key === r.key)?.resolution, r.key).toBe(r.resolution);
        }
      });

      it('finds the handlers, static mounts and diagnostics it should', async () => {
        const inv = await analyze({ dir, entry: expected.entry });
        const named = (e: { name: string; package?: string }) => (e.package ? `${e.name} [${e.package}]` : e.name);
        if (expected.errorHandlers) expect(inv.errorHandlers.map((e) => ({ name: named(e), path: e.fullPath }))).toEqual(expected.errorHandlers);
        if (expected.notFoundHandlers) expect(inv.notFoundHandlers.map((e) => ({ name: e.name, path: e.fullPath }))).toEqual(expected.notFoundHandlers);
        if (expected.staticMounts) expect(inv.staticMounts.map((s) => ({ path: s.fullPath, package: s.package }))).toEqual(expected.staticMounts);
        const codes = new Set(inv.diagnostics.map((d) => d.code));
        for (const code of expected.diagnostics ?? []) expect(codes, `diagnostic ${code}`).toContain(code);
      });
    });
  }
});
