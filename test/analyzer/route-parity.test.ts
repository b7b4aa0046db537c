/**
 * The route parity check (analyzer/route-parity.ts): match keys compared as multisets, on
 * hand-made inventories and on real analyses of a mixed app before and after the shim and after a
 * route moves to Fastify.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Inventory, Route } from '../../analyzer/model.js';
import { matchKey } from '../../analyzer/path.js';
import { describeParity, parityKey, routeParity } from '../../analyzer/route-parity.js';
import { FIXTURES } from '../helpers/fixtures.js';

/** An inventory holding only routes `METHOD full` (what the parity check reads). */
function inventoryOf(...keys: string[]): Inventory {
  const routes = keys.map((k) => {
    const [method, full] = k.split(' ');
    return { method, key: k, matchKey: matchKey(method, full), path: { full } } as Route;
  });
  return { routes } as Inventory;
}

describe('routeParity on hand-made inventories', () => {
  it('finds nothing when the same routes are served', () => {
    expect(routeParity(inventoryOf('GET /', 'POST /users'), inventoryOf('POST /users', 'GET /'))).toEqual({ missing: [], duplicated: [] });
  });

  it('ignores parameter names and wildcard spellings (Express 5 /*splat is Fastify /*; Express 4 * is /*)', () => {
    const before = inventoryOf('GET /users/:id', 'GET /files/*splat', 'GET /docs/{*path}', 'ALL *', 'GET /a/:x(\\d+)');
    const after = inventoryOf('GET /users/:userId', 'GET /files/*', 'GET /docs/*', 'ALL /*', 'GET /a/:y');
    expect(routeParity(before, after)).toEqual({ missing: [], duplicated: [] });
  });

  it("counts an Express 4 route with optional parameters once per form (as Fastify serves it), like Express 5's groups", () => {
    const before = { routes: [{ method: 'GET', path: { full: '/users/:id?', syntax: 'express4' } }, { method: 'GET', path: { full: '/a/:x?/b', syntax: 'express4' } }] } as unknown as Inventory;
    expect(routeParity(before, inventoryOf('GET /users', 'GET /users/:id', 'GET /a/b', 'GET /a/:x/b'))).toEqual({ missing: [], duplicated: [] });
    expect(routeParity(before, inventoryOf('GET /users/:id', 'GET /a/b', 'GET /a/:x/b'))).toEqual({ missing: ['GET /users'], duplicated: [] });
  });

  it('lists a lost route as often as it was lost', () => {
    const before = inventoryOf('GET /health', 'GET /health', 'GET /users/:id', 'DELETE /users/:id');
    const after = inventoryOf('DELETE /users/:id');
    expect(routeParity(before, after)).toEqual({ missing: ['GET /health', 'GET /health', 'GET /users/:_'], duplicated: [] });
  });

  it('lists a key served twice after but once before, once', () => {
    const before = inventoryOf('GET /users/:id', 'GET /');
    const after = inventoryOf('GET /users/:id', 'GET /users/:userId', 'GET /users/:uid', 'GET /');
    expect(routeParity(before, after)).toEqual({ missing: [], duplicated: ['GET /users/:_'] });
  });

  it('does not blame a stage for a duplicate that was already there', () => {
    const twice = inventoryOf('GET /health', 'GET /health');
    expect(routeParity(twice, twice)).toEqual({ missing: [], duplicated: [] });
    expect(routeParity(twice, inventoryOf('GET /health', 'GET /health', 'GET /health')).duplicated).toEqual(['GET /health']);
  });

  it('keeps methods apart and describes each problem in one line', () => {
    const parity = routeParity(inventoryOf('GET /x', 'POST /x'), inventoryOf('GET /x', 'GET /x'));
    expect(parity).toEqual({ missing: ['POST /x'], duplicated: ['GET /x'] });
    expect(describeParity(parity)).toEqual(['route POST /x is no longer served', 'route GET /x is now served by more than one route']);
  });

  it('computes the match key from method and full path, whatever the record says', () => {
    expect(parityKey({ method: 'GET', path: { full: '/u/:id/*rest' } } as Route)).toBe('GET /u/:_/*');
    expect(parityKey({ method: 'ALL', path: { full: '/{*splat}' }, matchKey: 'ALL //*' } as Route)).toBe('ALL /*');
  });
});

describe('routeParity on analyses of a mixed app', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'route-parity-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const k3 = path.join(FIXTURES, 'K/K3-esm-js');

  /** A copy of fixture K3 with `edits` applied (file → [search, replacement]). */
  function variant(name: string, edits: Record<string, [string, string][]>): string {
    const dir = path.join(tmp, name);
    cpSync(k3, dir, { recursive: true });
    for (const [file, pairs] of Object.entries(edits)) {
      let text = readFileSync(path.join(dir, file), 'utf8');
      for (const [search, replacement] of pairs) {
        if (!text.includes(search)) throw new Error(`${file} has no ${search}`);
        text = text.replace(search, replacement);
      }
      writeFileSync(path.join(dir, file), text);
    }
    return dir;
  }

  it('keeps every route, once, with the same ids, across the shim', async () => {
    const before = await analyze({ dir: k3, entry: 'src/app.js' }); // the Express app alone: the app before the shim
    const after = await analyze({ dir: k3, entry: 'src/server.js' });
    expect(before.apps.map((a) => a.framework ?? 'express')).toEqual(['express']);
    expect(after.apps.map((a) => a.framework ?? 'express')).toEqual(['express', 'fastify']);
    expect(routeParity(before, after)).toEqual({ missing: [], duplicated: [] });
    expect(after.routes.map((r) => r.id).sort()).toEqual(before.routes.map((r) => r.id).sort());
  });

  it('reports a Fastify route that duplicates an Express route still served through the bridge', async () => {
    const dir = variant('duplicate', {
      'src/fastify-server.js': [["  return fastify;\n}", "  fastify.get('/users/:userId', async function showUser(request) {\n    return { id: request.params.userId };\n  });\n  return fastify;\n}"]],
    });
    const before = await analyze({ dir: k3, entry: 'src/server.js' });
    const after = await analyze({ dir, entry: 'src/server.js' });
    expect(after.routes.filter((r) => r.matchKey === 'GET /users/:_').map((r) => r.framework).sort()).toEqual(['express', 'fastify']);
    expect(routeParity(before, after)).toEqual({ missing: [], duplicated: ['GET /users/:_'] });
  });

  it('passes a route moved from Express to Fastify, which keeps its id; reports one dropped', async () => {
    const moved = variant('moved', {
      'src/routes/users.js': [["router.get('/:id', requireUser, function showUser(req, res) {\n  res.json({ id: req.params.id });\n});\n", '']],
      'src/fastify-server.js': [["  return fastify;\n}", "  fastify.get('/users/:id', async function showUser(request) {\n    return { id: request.params.id };\n  });\n  return fastify;\n}"]],
    });
    const before = await analyze({ dir: k3, entry: 'src/server.js' });
    const after = await analyze({ dir: moved, entry: 'src/server.js' });
    expect(routeParity(before, after)).toEqual({ missing: [], duplicated: [] });
    const id = (inv: Inventory) => inv.routes.find((r) => r.key === 'GET /users/:id')?.id;
    expect(after.routes.find((r) => r.key === 'GET /users/:id')?.framework).toBe('fastify');
    expect(id(after)).toBe(id(before));

    const dropped = variant('dropped', { 'src/routes/users.js': [["router.post('/', requireUser, function createUser(req, res) {\n  res.status(201).json(req.body);\n});\n", '']] });
    expect(routeParity(before, await analyze({ dir: dropped, entry: 'src/server.js' }))).toEqual({ missing: ['POST /users'], duplicated: [] });
  });
});
