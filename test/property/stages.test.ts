/**
 * Property test over every stage that exists (issue 7, item 5): generated apps go through each stage
 * (stages.ts): no crash, no failed file, every output parses, a second run changes nothing.
 *
 * PROPERTY_APPS=N runs seeds 0..N-1 (default 25, the CI size); PROPERTY_SEED=S runs seed S alone;
 * PROPERTY_TYPECHECK=1 runs the stages with `typecheck` (TypeScript apps must still type-check).
 * The full run is `npx tsx scripts/property.ts` (1,000 apps). A failing app's folder is kept under
 * .tmp/property/test-<pid>-<seed> for inspection; passing ones are removed.
 */
import { describe, expect, it } from 'vitest';
import { removeAppFolder, writeAppFolder } from './folder.js';
import { generateApp } from './generate.js';
import { checkStages, formatFailure } from './stages.js';

/** The seeds of this run, from PROPERTY_SEED / PROPERTY_APPS. @throws Error on a value that is not a non-negative integer. */
function seedsOfRun(env: NodeJS.ProcessEnv): number[] {
  const int = (name: string, value: string) => {
    if (!/^\d+$/.test(value)) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
    return Number(value);
  };
  if (env.PROPERTY_SEED) return [int('PROPERTY_SEED', env.PROPERTY_SEED)];
  return Array.from({ length: env.PROPERTY_APPS ? int('PROPERTY_APPS', env.PROPERTY_APPS) : 25 }, (_, i) => i);
}

describe('every stage on generated Express apps: no crash, outputs parse, a second run changes nothing', () => {
  it.each(seedsOfRun(process.env))('seed %i', async (seed) => {
    const app = generateApp(seed);
    // The pid keeps two concurrent test runs in this shared checkout out of each other's folders.
    const dir = writeAppFolder(app, `test-${process.pid}-${seed}`);
    const verdict = await checkStages(dir, { typecheck: process.env.PROPERTY_TYPECHECK === '1' });
    const lines = verdict.failures.map((f) => formatFailure(seed, f));
    if (lines.length > 0) lines.push(`app: ${app.description}`, `kept in ${dir}; reproduce with PROPERTY_SEED=${seed} npx vitest run test/property/stages.test.ts`);
    else removeAppFolder(dir);
    expect(lines).toEqual([]);
    // At least one stage exists and ran.
    expect(verdict.stages.filter((s) => !s.skipped).length).toBeGreaterThan(0);
  });
});
