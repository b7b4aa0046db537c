// The expected inventories of the example apps are facts: each app is loaded in a
// child process with Express's registration API instrumented before the app
// loads, and the route keys and effective chains computed from what it really
// registered must equal fixtures/apps/<app>/expected-routes.json.
import { describe, expect, it } from 'vitest';
import { appNames, probe, providedBy, readExpected } from './support/apps.js';
import { computeRoutes, joinPath, mountMatches, type Described } from './support/routes-from-record.js';

/** How one runtime chain entry reads against the expected name at the same position:
 *  the expected name itself when the facts agree, otherwise a description of the facts. */
function view(app: string, actual: Described | undefined, expected: string | undefined): string {
  if (!actual) return '<missing>';
  const facts = actual.pkg ? `${actual.name} from package ${actual.pkg}` : `local ${actual.name} (${actual.file}:${actual.line})`;
  if (expected === undefined) return facts;
  const m = /^(.*?)(?: \[([^\]]+)\])?$/.exec(expected)!;
  const [, name, pkg] = m;
  if (pkg) return actual.pkg && providedBy(app, pkg, actual.pkg) ? expected : facts;
  if (actual.pkg) return facts;
  const last = name === '<anonymous>' ? name : name.split('.').pop();
  return actual.name === last ? expected : facts;
}

describe('route listing helpers', () => {
  it('joins mount paths like route keys are written', () => {
    expect(joinPath('/', '/')).toBe('/');
    expect(joinPath('/users', '/')).toBe('/users');
    expect(joinPath('/api', '/v1/')).toBe('/api/v1');
    expect(joinPath('/', 'RegExp(/^\\/x/)')).toBe('RegExp(/^\\/x/)');
  });
  it('matches middleware mount paths segment-wise', () => {
    expect(mountMatches('/', '/anything')).toBe(true);
    expect(mountMatches('/static', '/:shortID')).toBe(false);
    expect(mountMatches('/api', '/API/users')).toBe(true);
    expect(mountMatches('/api/:v', '/api/2/users')).toBe(true);
    expect(mountMatches('/apix', '/api/users')).toBe(false);
  });
});

const apps = appNames();

describe.each(apps)('runtime routes of %s', (app) => {
  const expected = readExpected(app);
  const record = probe(app);
  const runtime = computeRoutes(record);

  it('registers exactly the expected route keys', () => {
    expect(runtime.map((r) => r.key).sort()).toEqual(expected.routes.map((r) => r.key).sort());
  });

  // A key can occur more than once (e.g. a route reached through next('route')):
  // the n-th expected occurrence is compared with the n-th registered one.
  const cases = expected.routes.map((r, i) => {
    const occurrence = expected.routes.slice(0, i).filter((o) => o.key === r.key).length;
    return [occurrence ? `${r.key} (#${occurrence + 1})` : r.key, r.key, occurrence, r.chain] as const;
  });

  it.each(cases)('%s has the expected chain', (_label, key, occurrence, chain) => {
    const route = runtime.filter((r) => r.key === key)[occurrence];
    expect(route, `runtime has no ${key} #${occurrence + 1}`).toBeDefined();
    const n = Math.max(chain.length, route!.chain.length);
    const actual = Array.from({ length: n }, (_, i) => view(app, route!.chain[i], chain[i]));
    expect(actual).toEqual(chain);
  });
});

it('found the example apps', () => {
  expect(apps).toEqual(expect.arrayContaining(['url-shortener']));
});
