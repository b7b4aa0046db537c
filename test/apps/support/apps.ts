import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProbeRecord } from './routes-from-record.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const appsRoot = path.join(repoRoot, 'fixtures/apps');

export interface ExpectedRoutes {
  app: string;
  entry: string; // module exporting the Express app (does not listen)
  loader?: 'tsx';
  routes: { key: string; chain: string[] }[];
}

export function appNames(): string[] {
  return readdirSync(appsRoot)
    .filter((d) => existsSync(path.join(appsRoot, d, 'expected-routes.json')))
    .sort();
}

export function readExpected(app: string): ExpectedRoutes {
  return JSON.parse(readFileSync(path.join(appsRoot, app, 'expected-routes.json'), 'utf8'));
}

export function probe(app: string): ProbeRecord {
  const expected = readExpected(app);
  const dir = path.join(appsRoot, app);
  const args = [
    ...(expected.loader === 'tsx' ? ['--import', 'tsx'] : []),
    path.join(repoRoot, 'test/apps/support/probe-routes.mjs'),
    dir,
    expected.entry,
  ];
  const out = execFileSync(process.execPath, args, {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'test', PORT: '0' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(out);
}

/** Is a function defined in package `actual` a legitimate value of package `expected`
 *  (the package itself, or one of its own dependencies, e.g. express.json → body-parser)? */
export function providedBy(app: string, expected: string, actual: string): boolean {
  if (expected === actual) return true;
  const req = createRequire(path.join(appsRoot, app, 'package.json'));
  try {
    const pj = JSON.parse(readFileSync(req.resolve(`${expected}/package.json`), 'utf8'));
    return Object.keys(pj.dependencies ?? {}).includes(actual);
  } catch {
    return false;
  }
}
