/**
 * The analyzer on the example apps against their expected-routes.json, whose route keys and
 * chains the runtime route-listing test (test/apps/runtime-routes.test.ts) proves by loading each
 * app with Express instrumented: the static inventory must equal what Express really registers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { routeLines } from '../helpers/fixtures.js';

const APPS = path.resolve(import.meta.dirname, '../../fixtures/apps');

describe.each(['url-shortener', 'modern-e5', 'legacy-cjs', 'shop-api'])('example app %s', (name) => {
  const dir = path.join(APPS, name);
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected-routes.json'), 'utf8')) as { routes: { key: string; chain: string[] }[] };

  it('inventories exactly the routes and chains Express registers', async () => {
    const inv = await analyze({ dir });
    expect(routeLines(inv)).toEqual(expected.routes.map((r) => `${r.key} | ${r.chain.join(', ')}`).sort());
    expect(inv.summary.complete).toBe(true);
  });
});

describe('url-shortener details', () => {
  it('records views, static files, settings and the error handler', async () => {
    const inv = await analyze({ dir: path.join(APPS, 'url-shortener') });
    expect(inv.viewEngines).toEqual([expect.objectContaining({ ext: 'pug', engine: 'pug', views: 'src/views' })]);
    expect(inv.staticMounts).toEqual([expect.objectContaining({ fullPath: '/static', dir: 'src/public', package: 'express' })]);
    expect(inv.errorHandlers.map((e) => [e.name, e.fullPath, e.covers.length])).toEqual([['errorHandler', '/', 3]]);
    expect(inv.project).toMatchObject({ moduleKind: 'esm', packageManager: 'npm', expressVersion: { major: 4 } });
  });
});
