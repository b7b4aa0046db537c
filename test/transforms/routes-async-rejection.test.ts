/**
 * The routes stage reports the framework default `async-rejection` (rules/catalogue/framework-defaults.ts)
 * when an Express 4 app's moved route has a handler whose promise Express never read: an async
 * handler, a generator co.wrap runs, or an async route middleware that becomes a native hook. Not when a wrapper that went had handed the rejection to
 * next already, nor in an Express 5 app (its router hands a rejection to next, as Fastify does).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_DEFAULTS } from '../../rules/catalogue/framework-defaults.js';
import type { FrameworkDelta } from '../../transforms/model.js';
import { runFixture, TRANSFORM_FIXTURES, withRoutesApp } from '../helpers/transform-fixtures.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TITLE = FRAMEWORK_DEFAULTS['async-rejection'].title;
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The delta texts of the routes-move step of a run. */
function routeDeltas(deltas: Array<string | FrameworkDelta> | undefined): string[] {
  return (deltas ?? []).map((d) => (typeof d === 'string' ? d : d.text));
}

/** A fixtures folder holding `co-generators` as an Express 5 app (package.json and the installed Express 5 of fixtures/apps/modern-e5). */
function asExpress5(): string {
  mkdirSync(path.join(REPO, '.tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(REPO, '.tmp', 'co-e5-'));
  made.push(dir);
  const input = path.join(dir, 'routes-move', 'co-e5', 'input');
  cpSync(path.join(TRANSFORM_FIXTURES, 'routes-move', 'co-generators', 'input'), input, { recursive: true });
  const pkg = path.join(input, 'package.json');
  writeFileSync(pkg, readFileSync(pkg, 'utf8').replace('"express": "^4.21.2"', '"express": "^5.1.0"'));
  mkdirSync(path.join(input, 'node_modules'));
  symlinkSync(path.join(REPO, 'fixtures/apps/modern-e5/node_modules/express'), path.join(input, 'node_modules', 'express'), 'dir');
  return dir;
}


describe('routes: the async-rejection delta', () => {
  it('is reported for co.wrap generators moved in an Express 4 app, with the catalogue’s words', async () => {
    const run = await runFixture('routes-move', 'co-generators', 'routes');
    const texts = routeDeltas(run.result.deltas).filter((t) => t.startsWith(TITLE));
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(FRAMEWORK_DEFAULTS['async-rejection'].express);
    expect(texts[0]).toContain(FRAMEWORK_DEFAULTS['async-rejection'].fastify);
  }, 60_000);

  it('is not reported when every async handler was wrapped in a wrapper that forwarded rejections to next', async () => {
    const run = await runFixture('routes-move', 'wrapped-package-inline', 'routes');
    expect(run.result.moved.find((m) => m.step === 'routes-move')?.done).toBe(4);
    expect(routeDeltas(run.result.deltas).filter((t) => t.startsWith(TITLE))).toEqual([]);
  }, 60_000);

  it('is not reported in an Express 5 app, whose router hands a rejection to next', async () => {
    const run = await runFixture('routes-move', 'co-e5', 'routes', { fixturesDir: asExpress5() });
    expect(run.result.moved.find((m) => m.step === 'routes-move')?.done).toBe(8);
    expect(routeDeltas(run.result.deltas).some((t) => t.startsWith('Answers of the moved routes'))).toBe(true);
    expect(routeDeltas(run.result.deltas).filter((t) => t.startsWith(TITLE))).toEqual([]);
  }, 60_000);

  it('is reported for an async route middleware that becomes a native hook, not for a sync one', async () => {
    const hook = (fn: string) => `${fn} loadUser(req, res, next) {\n  req.user = await Promise.resolve({ name: 'Ada' });\n  next();\n}\napp.get('/me', loadUser, (req, res) => {\n  res.send(req.user.name);\n});\n`;
    const asyncRun = await runFixture('routes-move', 'async-hook', 'routes', { fixturesDir: withRoutesApp('async-hook', hook('async function')) });
    expect(asyncRun.files['app.js']).toContain('async function loadUser(request, reply) {');
    expect(routeDeltas(asyncRun.result.deltas).filter((t) => t.startsWith(TITLE))).toHaveLength(1);
    const sync = await runFixture('routes-move', 'sync-hook', 'routes', { fixturesDir: withRoutesApp('sync-hook', hook('function').replace('await ', '')) });
    expect(sync.files['app.js']).toContain('function loadUser(request, reply, next) {');
    expect(routeDeltas(sync.result.deltas).filter((t) => t.startsWith(TITLE))).toEqual([]);
  }, 60_000);
});
