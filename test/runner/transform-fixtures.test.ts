/** The transform fixture helper (test/helpers/transform-fixtures.ts) on its own cases, with the test-only steps. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectFixture, fixtureCases, runFixture } from '../helpers/transform-fixtures.js';

const options = { stepsDir: path.resolve(import.meta.dirname, 'steps'), fixturesDir: path.resolve(import.meta.dirname, 'fixtures') };

describe('transform fixture helper', () => {
  it('lists the case folders of a step, sorted', () => {
    expect(fixtureCases('mark-first', options.fixturesDir)).toEqual(['append', 'create-deps', 'no-change', 'wrong-expected']);
    expect(fixtureCases('no-such-step', options.fixturesDir)).toEqual([]);
  });

  it('passes cases whose expected/ matches, no-change cases, and created files with package.json', async () => {
    for (const c of ['append', 'no-change', 'create-deps']) await expectFixture('mark-first', c, 'shim', options);
  });

  it('runs the copy under the repository so the app resolves packages from its node_modules', async () => {
    const run = await runFixture('mark-first', 'append', 'shim', options);
    expect(run.root.startsWith(path.resolve(import.meta.dirname, '../../.tmp/transform-fixtures/mark-first-append-'))).toBe(true);
    expect(run.files['a.js']).toBe(`// MARK:append\nconst a = 1;\nconsole.log('first');\nconsole.log('second');\n`);
    expect(run.result.exitCode).toBe(0);
  });

  it('fails a case whose output differs from expected/', async () => {
    await expect(expectFixture('mark-first', 'wrong-expected', 'shim', options)).rejects.toThrow(/a\.js as expected\//);
  });
});
