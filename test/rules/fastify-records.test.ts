/**
 * The rules on mixed and Fastify apps (fixtures/analyzer/K, docs/analyzer.md "Fastify"): no finding
 * about a Fastify record, readiness counting only the Express routes still to move, and a stage
 * plan that plans neither `shim` for an app Fastify already serves nor `errors` for handlers already
 * registered with `setErrorHandler`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeWithReadiness } from '../../runner/readiness.js';
import type { Inventory } from '../../analyzer/model.js';
import { renderMarkdown } from '../../report/markdown.js';
import { renderText } from '../../report/text.js';

const K = (name: string) => path.resolve(import.meta.dirname, '../../fixtures/analyzer/K', name);

const FIXTURES = [
  ['K1-cjs-js', 'app.js'],
  ['K2-esm-js', 'server.js'],
  ['K3-esm-js', 'src/server.js'],
  ['K3-ts-esm', 'src/index.ts'],
  ['K4-cjs-js', 'server.js'],
  ['K5-esm-js', 'src/server.js'],
  ['K6-ts-esm', 'src/server.ts'],
  ['K7-cjs-js', 'server.js'],
] as const;

const inventories = new Map<string, Promise<Inventory>>();
/** The K fixture `name` analysed (once per file) and run through the rules. */
function rulesOn(name: string): Promise<Inventory> {
  const entry = FIXTURES.find(([n]) => n === name)![1];
  if (!inventories.has(name)) inventories.set(name, analyzeWithReadiness({ dir: K(name), entry }));
  return inventories.get(name)!;
}

/** Ids of every Fastify record of the inventory (apps, plugin contexts, routes, hooks, handlers). */
function fastifyIds(inv: Inventory): Set<string> {
  return new Set(
    [...inv.apps, ...inv.routers, ...inv.routes, ...inv.middleware, ...inv.errorHandlers, ...inv.notFoundHandlers].filter((r) => r.framework === 'fastify').map((r) => r.id),
  );
}

describe('no finding about a Fastify record', () => {
  it.each(FIXTURES.map(([name]) => name))('%s', async (name) => {
    const inv = await rulesOn(name);
    const ids = fastifyIds(inv);
    expect((inv.findings ?? []).filter((f) => ids.has(f.subject)).map((f) => `${f.rule} ${f.location.file}:${f.location.line}`)).toEqual([]);
  });

  it("listen-host and default-pages leave a Fastify app's fastify.listen({ port }) and Fastify's own 404/error answers alone (K1, K7)", async () => {
    for (const name of ['K1-cjs-js', 'K7-cjs-js']) {
      const inv = await rulesOn(name);
      const fastifyApp = inv.apps.find((a) => a.framework === 'fastify')!;
      expect(inv.findings!.filter((f) => f.subject === fastifyApp.id && (f.rule === 'listen-host' || f.rule === 'default-pages'))).toEqual([]);
    }
  });

  it('a Fastify HEAD route after its GET is no duplicate (Fastify replaces the HEAD it added): K6', async () => {
    expect((await rulesOn('K6-ts-esm')).findings!.filter((f) => f.rule === 'duplicate-route')).toEqual([]);
  });
});

describe('default-pages on an Express app served by Fastify', () => {
  it("none when its errors and unknown routes reach Fastify's setErrorHandler / setNotFoundHandler (K5)", async () => {
    const inv = await rulesOn('K5-esm-js');
    expect(inv.findings!.filter((f) => f.rule === 'default-pages')).toEqual([]);
  });

  it('without Fastify handlers: reported as what Fastify now answers, for a human (manual), not planned for the shim again (K7: /legacy)', async () => {
    const inv = await rulesOn('K7-cjs-js');
    const legacy = inv.apps.find((a) => a.name === 'legacy')!;
    expect(legacy.servedBy).toBeDefined();
    expect(inv.findings!.filter((f) => f.rule === 'default-pages').map((f) => [f.subject, f.stage, f.autoFixable, f.message.slice(0, f.message.indexOf(' Express:'))])).toEqual([
      [legacy.id, 'manual', false, "legacy has no not-found handler, nor has the Fastify server in front of it: Fastify's own answers them."],
      [legacy.id, 'manual', false, "legacy has no error handler, nor has the Fastify server in front of it: Fastify's own answers them."],
    ]);
  });
});

describe('readiness counts only the Express routes still to move', () => {
  it('a plain Fastify app has nothing to move (K1)', async () => {
    const inv = await rulesOn('K1-cjs-js');
    expect(inv.routes.length).toBe(7);
    expect(inv.readiness!.routes).toEqual([]);
    expect(inv.readiness!.overall).toEqual({ auto: 0, assisted: 0, later: 0, manual: 0 });
    expect(inv.readiness!.totals).toEqual([]);
  });

  it("a mixed app: the Express app's routes only, per router and overall (K5)", async () => {
    const inv = await rulesOn('K5-esm-js');
    expect(inv.readiness!.routes.map((r) => r.key)).toEqual(['GET /', 'GET /boom']);
    expect(inv.readiness!.overall).toEqual({ auto: 2, assisted: 0, later: 0, manual: 0 });
    expect(inv.readiness!.totals.map((t) => t.name)).toEqual(['app']);
  });

  it('the text and Markdown reports count the Fastify routes apart', async () => {
    const inv = await rulesOn('K5-esm-js');
    expect(renderText(inv)).toContain('Fastify readiness  2 auto · 0 assisted · 0 later · 0 manual · 1 already on Fastify');
    expect(renderMarkdown(inv)).toContain('1 route already on Fastify, not counted above.');
  });
});

describe('the stage plan', () => {
  it.each(['K3-esm-js', 'K3-ts-esm', 'K4-cjs-js', 'K5-esm-js', 'K7-cjs-js'])('plans no shim for an app Fastify already serves (%s)', async (name) => {
    const inv = await rulesOn(name);
    expect(inv.apps.some((a) => a.servedBy)).toBe(true);
    expect(inv.findings!.filter((f) => f.stage === 'shim').map((f) => f.rule)).toEqual([]);
    expect(inv.readiness!.plan.find((p) => p.stage === 'shim')).toEqual({ stage: 'shim', findings: 0, changes: [] });
  });

  it('plans no errors stage when the error and not-found handlers are already Fastify’s (K5)', async () => {
    const inv = await rulesOn('K5-esm-js');
    expect(inv.readiness!.plan.find((p) => p.stage === 'errors')).toEqual({ stage: 'errors', findings: 0, changes: [] });
  });

  it("still plans errors for Express error middleware behind the shim (K3: err.status)", async () => {
    const inv = await rulesOn('K3-esm-js');
    expect(inv.findings!.filter((f) => f.stage === 'errors').map((f) => `${f.rule} ${f.message}`)).toEqual(['err-status Error handler errorHandler reads err.status.']);
  });
});
