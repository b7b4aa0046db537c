/**
 * The analyzer against the catalogue fixtures (analyzer-patterns.md §3, sections A to J, and K:
 * Fastify and mixed apps): every
 * route key with its ordered chain, resolution and reasons, handler details and API usage; error
 * and not-found handlers, static mounts, settings, view engines, and the diagnostics each fixture
 * requires. The expected files were written from the catalogue text by
 * someone who had not seen the analyzer.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Route } from '../../analyzer/model.js';
import { analyzerFixtures, expectedRouteLines, routeLines, type ExpectedRoute } from '../helpers/fixtures.js';

/** The facts of a route's handler that `expected` names, in its notation (`file:line`, `name [package]`). */
function handlerFacts(route: Route | undefined, expected: NonNullable<ExpectedRoute['handler']>): Record<string, unknown> {
  const h = route?.handler;
  const facts: Record<string, unknown> = {
    name: h?.name,
    definition: h?.definition && `${h.definition.file}:${h.definition.line}`,
    wrappers: h?.wrappers,
    async: h?.async,
    origin: h?.origin,
    package: h?.package,
  };
  return Object.fromEntries(Object.keys(expected).map((k) => [k, facts[k]]));
}

const fixtures = analyzerFixtures();

describe('catalogue fixtures', () => {
  it('exist for every section of the foundation issue', () => {
    const sections = new Set(fixtures.map((f) => f.name.split('/')[0]));
    expect([...sections].sort()).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K']);
  });

  for (const { name, dir, expected } of fixtures) {
    describe(`${name} (${expected.pattern})`, () => {
      it('finds every route with its full path and ordered chain', async () => {
        const inv = await analyze({ dir, entry: expected.entry });
        expect(routeLines(inv)).toEqual(expectedRouteLines(expected, inv));
        for (const r of expected.routes.filter((x) => x.resolution)) {
          expect(inv.routes.find((a) => a.key === r.key)?.resolution, r.key).toBe(r.resolution);
        }
        for (const r of expected.routes.filter((x) => x.reasons)) {
          const codes = inv.routes.find((a) => a.key === r.key)?.reasons.map((x) => x.code) ?? [];
          expect(codes, r.key).toEqual(expect.arrayContaining(r.reasons!));
        }
      });

      it('gives a reason for every route it could not pin down exactly', async () => {
        const inv = await analyze({ dir, entry: expected.entry });
        const silent = inv.routes.filter((r) => r.resolution !== 'exact' && r.reasons.length === 0).map((r) => r.key);
        expect(silent).toEqual([]);
        const repeated = inv.routes.filter((r) => new Set(r.reasons.map((x) => JSON.stringify(x))).size !== r.reasons.length).map((r) => r.key);
        expect(repeated).toEqual([]);
      });

      it.runIf(expected.routes.some((r) => r.handler || r.usage))('describes each handler and the request/reply API it uses', async () => {
        const inv = await analyze({ dir, entry: expected.entry });
        for (const r of expected.routes) {
          const route = inv.routes.find((a) => a.key === r.key);
          if (r.handler) expect(handlerFacts(route, r.handler), r.key).toEqual(r.handler);
          if (r.usage) {
            const uses = route ? [...route.usage.req, ...route.usage.res, ...route.usage.next] : [];
            expect(uses.map((u) => u.api), r.key).toEqual(expect.arrayContaining(r.usage));
            const viaHelpers = [...new Set(uses.filter((u) => u.via && !uses.some((d) => d.api === u.api && !d.via)).map((u) => u.api))];
            expect(viaHelpers.filter((a) => r.usage!.includes(a)).sort(), `${r.key} via helpers`).toEqual([...(r.usageViaHelpers ?? [])].sort());
          }
        }
      });

      it('finds the handlers, static mounts and diagnostics it should', async () => {
        const inv = await analyze({ dir, entry: expected.entry });
        const named = (e: { name: string; package?: string }) => (e.package ? `${e.name} [${e.package}]` : e.name);
        if (expected.errorHandlers) expect(inv.errorHandlers.map((e) => ({ name: named(e), path: e.fullPath }))).toEqual(expected.errorHandlers);
        if (expected.notFoundHandlers) expect(inv.notFoundHandlers.map((e) => ({ name: e.name, path: e.fullPath }))).toEqual(expected.notFoundHandlers);
        if (expected.staticMounts) expect(inv.staticMounts.map((s) => ({ path: s.fullPath, package: s.package }))).toEqual(expected.staticMounts);
        const codes = new Set(inv.diagnostics.map((d) => d.code));
        const sites = new Set(inv.diagnostics.map((d) => `${d.code} ${d.location?.file}:${d.location?.line}`));
        for (const d of expected.diagnostics ?? []) {
          if (typeof d === 'string') expect(codes, `diagnostic ${d}`).toContain(d);
          else expect(sites, `diagnostic ${d.code} at ${d.at}`).toContain(`${d.code} ${d.at}`);
        }
        for (const s of expected.settings ?? []) {
          expect(inv.settings.map((x) => ({ key: x.key, kind: x.kind, ...('value' in s ? { value: x.value } : {}) })), s.key).toContainEqual({ key: s.key, kind: s.kind ?? expect.any(String), ...('value' in s ? { value: s.value } : {}) });
        }
        if (expected.viewEngines) expect(inv.viewEngines.map((v) => ({ ext: v.ext, engine: v.engine, views: v.views }))).toEqual(expected.viewEngines.map((v) => ({ engine: null, views: null, ...v })));
      });
    });
  }
});
