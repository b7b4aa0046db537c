/**
 * The plans of the `errors` steps, read on fixture inputs: which file gets which entry, what moved
 * out of what could move, the deltas, the missing-shim item (reported once for the stage), and the
 * route parity check accepting a catch-all route moved to a Fastify not-found handler.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Inventory, NotFoundHandler, Route } from '../../analyzer/model.js';
import { routeParity } from '../../analyzer/route-parity.js';
import { runRules } from '../../rules/index.js';
import { plan as planHandler } from '../../transforms/errors-handler/plan.js';
import { plan as planNotFound } from '../../transforms/errors-not-found/plan.js';
import type { PlanContext } from '../../transforms/model.js';
import { TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

async function contextOf(step: string, name: string): Promise<PlanContext> {
  const root = path.join(TRANSFORM_FIXTURES, step, name, 'input');
  const inventory = runRules(await analyze({ dir: root }));
  const readFile = (f: string) => (existsSync(path.join(root, f)) ? readFileSync(path.join(root, f), 'utf8') : null);
  return { root, inventory, findings: inventory.findings ?? [], parity: 'default', readFile };
}

const kinds = (p: ReturnType<typeof planHandler>) => Object.fromEntries(p.files.map((f) => [f.file, f.entries.map((e) => e.kind)]));

describe('errors plans', () => {
  it('moves an exported handler: rewrite where it is defined, unregister in the app, register in the generated module', async () => {
    const ctx = await contextOf('errors-handler', 'runtime-esm');
    const handler = planHandler(ctx);
    const notFound = planNotFound(ctx);
    expect(kinds(handler)).toEqual({ 'src/errors.js': ['rewrite'], 'src/app.js': ['unregister'], 'src/fastify-server.js': ['register'] });
    expect(kinds(notFound)).toEqual({ 'src/errors.js': ['rewrite'], 'src/app.js': ['unregister'], 'src/fastify-server.js': ['register'] });
    expect(handler.moved).toEqual({ what: 'error handlers', done: 1, of: 1 });
    expect(notFound.moved).toEqual({ what: 'not-found handlers', done: 1, of: 1 });
    const register = handler.files.find((f) => f.file === 'src/fastify-server.js')!.entries[0];
    expect(register).toMatchObject({ kind: 'register', method: 'setErrorHandler', specifier: './errors.js', form: { kind: 'named', name: 'errorHandler' }, module: 'esm' });
    expect(handler.dependencies).toBeUndefined();
  });

  it('hoists a handler written inside its registration and imports it from the app module', async () => {
    const ctx = await contextOf('errors-handler', 'cjs-inline');
    const handler = planHandler(ctx);
    expect(kinds(handler)).toEqual({ 'app.js': ['hoist'], 'fastify-server.js': ['register'] });
    expect(handler.files[1].entries[0]).toMatchObject({ specifier: './app', form: { kind: 'named', name: 'errorHandler' }, module: 'commonjs' });
  });

  it('reports the deltas of what moved: the ETag Express added, and OPTIONS when the app has routes of its own', async () => {
    const ctx = await contextOf('errors-not-found', 'all-star-express4');
    const deltas = planNotFound(ctx).deltas ?? [];
    expect(deltas).toHaveLength(2);
    expect(deltas[0]).toContain('no automatic weak ETag');
    expect(deltas[1]).toContain("OPTIONS requests to a path with routes registered on the app itself");
    expect(planHandler(ctx).deltas).toEqual([]);
  });

  it('without the shim, plans nothing and says so once for the stage', async () => {
    const ctx = await contextOf('errors-handler', 'no-shim');
    const handler = planHandler(ctx);
    expect(handler.files).toEqual([]);
    expect(handler.manual.map((m) => [m.code, m.file])).toEqual([['shim-missing', 'server.js']]);
    expect(handler.moved).toEqual({ what: 'error handlers', done: 0, of: 1 });
    expect(planNotFound(ctx).manual).toEqual([]);
  });

  it('names the place that blocks a move in the ManualItem, not in the TODO (which must read the same next run)', async () => {
    const ctx = await contextOf('errors-not-found', 'not-last');
    const plan = planNotFound(ctx);
    expect(plan.manual[0].reason).toMatch(/\(app\.js:11\)$/);
    const todo = plan.files[0].entries[0];
    expect(todo.kind === 'todo' && todo.reason).not.toMatch(/app\.js:11/);
  });
});

describe('route parity with a catch-all moved to setNotFoundHandler', () => {
  const catchAll = { method: 'ALL', path: { raw: '*', full: '*', syntax: 'express4', params: [] } } as unknown as Route;
  const inventory = (routes: Route[], notFoundHandlers: Partial<NotFoundHandler>[]) => ({ routes, notFoundHandlers }) as unknown as Inventory;

  it('is not a missing route when a Fastify not-found handler of that prefix answers it', () => {
    expect(routeParity(inventory([catchAll], []), inventory([], [{ framework: 'fastify', fullPath: '/' }]))).toEqual({ missing: [], duplicated: [] });
  });

  it('is missing when nothing answers it, or only an Express handler', () => {
    expect(routeParity(inventory([catchAll], []), inventory([], [])).missing).toEqual(['ALL /*']);
    expect(routeParity(inventory([catchAll], []), inventory([], [{ fullPath: '/' }])).missing).toEqual(['ALL /*']);
  });
});
