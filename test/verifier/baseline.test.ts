import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BaselineError, prepareBaseline, type Baseline } from '../../verifier/baseline.js';
import { startLane } from '../../verifier/lane.js';
import { project } from '../helpers/tmp.js';

// A tiny npm-workspaces repository with three commits:
//   v1  greeting "hello v1", app version 1, lockfile L1
//   v2  greeting "hello v2", app version 2, a new workspace package → lockfile L2
//   v3  greeting "hello v3", app version 3, lockfile L2 (HEAD, also the working tree)
let repo: string;
let cacheDir: string;

const server = (version: number) => `const http = require('node:http');
const greeting = require('greeting');
module.exports = http.createServer((req, res) => res.end(JSON.stringify({ version: ${version}, greeting })));
`;

function run(cwd: string, command: string, args: string[]): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
function git(...args: string[]): string {
  return run(repo, 'git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args]).trim();
}
function commit(version: number, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    writeFileSync(path.join(repo, rel), content);
  }
  run(repo, 'npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts']);
  git('add', '-A');
  git('commit', '-q', '-m', `v${version}`);
  git('tag', `v${version}`);
}

beforeAll(() => {
  repo = project({ '.gitignore': 'node_modules/\n' });
  cacheDir = path.join(project({}), '.migrate/cache');
  git('init', '-q', '-b', 'main');
  commit(1, {
    'package.json': JSON.stringify({ name: 'tiny', private: true, workspaces: ['app', 'packages/*'] }),
    'packages/greeting/package.json': JSON.stringify({ name: 'greeting', version: '1.0.0', main: 'index.js' }),
    'packages/greeting/index.js': "module.exports = 'hello v1';\n",
    'app/package.json': JSON.stringify({ name: 'tiny-app', version: '1.0.0', dependencies: { greeting: '*' } }),
    'app/server.cjs': server(1),
  });
  commit(2, {
    'packages/extra/package.json': JSON.stringify({ name: 'extra', version: '1.0.0' }),
    'packages/greeting/index.js': "module.exports = 'hello v2';\n",
    'app/server.cjs': server(2),
  });
  commit(3, { 'packages/greeting/index.js': "module.exports = 'hello v3';\n", 'app/server.cjs': server(3) });
  // Packages only the working tree has (as if installed from a registry), at the root and in the app.
  for (const rel of ['node_modules/external-lib', 'app/node_modules/app-only']) {
    mkdirSync(path.join(repo, rel), { recursive: true });
    writeFileSync(path.join(repo, rel, 'index.js'), 'module.exports = 1;\n');
  }
});

async function serve(baseline: Baseline): Promise<unknown> {
  const lane = await startLane({ name: 'baseline', dir: baseline.appDir, entry: 'server.cjs' });
  try {
    return await (await fetch(lane.origin)).json();
  } finally {
    await lane.stop();
  }
}

function worktrees(): string {
  return git('worktree', 'list', '--porcelain');
}

describe('prepareBaseline with a ref', () => {
  it('lockfiles agree: the worktree serves the old code with links to the working tree’s packages', async () => {
    const baseline = await prepareBaseline({ repoRoot: repo, appDir: path.join(repo, 'app'), ref: 'v2', cacheDir });
    const tree = path.dirname(baseline.appDir);
    expect(path.basename(baseline.appDir)).toBe('app');
    expect(baseline.notes).toEqual([
      `baseline: v2 (${git('rev-parse', 'v2').slice(0, 12)}) checked out at ${tree}`,
      'dependencies shared with the working tree: lockfiles agree (package-lock.json)',
    ]);
    expect(worktrees()).toContain(`worktree ${tree}`);

    expect(await serve(baseline)).toEqual({ version: 2, greeting: 'hello v2' }); // not v3 from the working tree

    // node_modules is a real folder of links: packages point at the working tree's, workspace
    // packages at the worktree's own copy; the app's own node_modules is mirrored too.
    expect(lstatSync(path.join(tree, 'node_modules')).isSymbolicLink()).toBe(false);
    expect(lstatSync(path.join(tree, 'node_modules/external-lib')).isSymbolicLink()).toBe(true);
    expect(realpathSync(path.join(tree, 'node_modules/external-lib'))).toBe(realpathSync(path.join(repo, 'node_modules/external-lib')));
    expect(realpathSync(path.join(tree, 'node_modules/greeting'))).toBe(realpathSync(path.join(tree, 'packages/greeting')));
    expect(realpathSync(path.join(tree, 'app/node_modules/app-only'))).toBe(realpathSync(path.join(repo, 'app/node_modules/app-only')));

    await baseline.cleanup();
    await baseline.cleanup(); // idempotent
    expect(existsSync(tree)).toBe(false);
    expect(worktrees()).not.toContain(tree);
    // The working tree's packages are untouched.
    expect(existsSync(path.join(repo, 'node_modules/external-lib/index.js'))).toBe(true);
    expect(existsSync(path.join(repo, 'app/node_modules/app-only/index.js'))).toBe(true);
    expect(realpathSync(path.join(repo, 'node_modules/greeting'))).toBe(realpathSync(path.join(repo, 'packages/greeting')));
  });

  it('lockfiles differ: installs once into the cache (keyed by the lockfile) and reuses it', async () => {
    const first = await prepareBaseline({ repoRoot: repo, appDir: path.join(repo, 'app'), ref: 'v1', cacheDir });
    const installs = readdirSync(path.join(cacheDir, 'deps'));
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/^[0-9a-f]{64}$/);
    const cached = path.join(cacheDir, 'deps', installs[0]);
    expect(first.notes[1]).toBe(`dependencies installed with npm ci --no-audit --no-fund because the baseline's package-lock.json differs from the working tree's (cached at ${cached})`);
    expect(existsSync(path.join(cached, 'node_modules/greeting'))).toBe(true);
    expect(await serve(first)).toEqual({ version: 1, greeting: 'hello v1' });

    const second = await prepareBaseline({ repoRoot: repo, appDir: path.join(repo, 'app'), ref: 'v1', cacheDir });
    expect(second.notes[1]).toContain(`dependencies reused from an earlier npm ci --no-audit --no-fund because`);
    expect(readdirSync(path.join(cacheDir, 'deps'))).toEqual(installs);
    expect(await serve(second)).toEqual({ version: 1, greeting: 'hello v1' });

    await Promise.all([first.cleanup(), second.cleanup()]);
    expect(existsSync(path.dirname(first.appDir))).toBe(false);
    expect(existsSync(path.join(cached, 'node_modules/greeting'))).toBe(true); // the cache stays
  });

  it('a ref that does not exist is named in the error', async () => {
    const err = await prepareBaseline({ repoRoot: repo, appDir: path.join(repo, 'app'), ref: 'release-0.9', cacheDir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BaselineError);
    expect((err as BaselineError).code).toBe('BASELINE_NO_REF');
    expect((err as BaselineError).message).toContain('baseline ref "release-0.9" does not exist');
  });

  it('an app folder that did not exist at the ref is refused, and the worktree removed', async () => {
    const before = worktrees();
    const err = await prepareBaseline({ repoRoot: repo, appDir: path.join(repo, 'packages/extra'), ref: 'v1', cacheDir }).catch((e: unknown) => e);
    expect((err as BaselineError).code).toBe('BASELINE_NO_DIR');
    expect((err as BaselineError).message).toBe('the app folder packages/extra does not exist at baseline ref "v1"');
    expect(worktrees()).toBe(before);
  });
});

describe('prepareBaseline with a folder', () => {
  it('uses an existing folder as is', async () => {
    const baseline = await prepareBaseline({ repoRoot: repo, appDir: path.join(repo, 'app'), dir: path.join(repo, 'app'), cacheDir });
    expect(baseline.appDir).toBe(path.join(repo, 'app'));
    await baseline.cleanup();
    expect(existsSync(path.join(repo, 'app/server.cjs'))).toBe(true);
  });

  const refusal = (opts: Parameters<typeof prepareBaseline>[0]) =>
    prepareBaseline(opts).then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: unknown) => e as BaselineError,
    );

  it('refuses a missing folder, and both or neither of ref and dir', async () => {
    const missing = await refusal({ repoRoot: repo, appDir: repo, dir: path.join(repo, 'nope'), cacheDir });
    expect(missing).toBeInstanceOf(BaselineError);
    expect(missing.code).toBe('BASELINE_NO_DIR');
    expect(missing.message).toBe(`baseline folder ${path.join(repo, 'nope')} does not exist`);
    const both = await refusal({ repoRoot: repo, appDir: repo, dir: repo, ref: 'v1', cacheDir });
    expect(both.code).toBe('BASELINE_BAD_OPTIONS');
    const neither = await refusal({ repoRoot: repo, appDir: repo, cacheDir });
    expect(neither.code).toBe('BASELINE_BAD_OPTIONS');
  });
});

describe('prepareBaseline without a lockfile', () => {
  // simonplend/express-to-fastify-migration has no lockfile: the baseline's package.json is all
  // there is to compare. Two commits depend on different versions of `ms` (from the registry).
  let bare: string;
  const commitBare = (version: string, tag: string) => {
    writeFileSync(path.join(bare, 'package.json'), JSON.stringify({ name: 'bare', private: true, dependencies: { ms: version } }));
    writeFileSync(path.join(bare, 'server.cjs'), "const http = require('node:http');\nmodule.exports = http.createServer((req, res) => res.end(JSON.stringify({ ms: require('ms/package.json').version })));\n");
    run(bare, 'npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--prefer-offline']);
    run(bare, 'git', ['-c', 'user.name=T', '-c', 'user.email=t@t', 'add', '-A']);
    run(bare, 'git', ['-c', 'user.name=T', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', 'commit', '-qm', tag]);
    run(bare, 'git', ['tag', tag]);
  };
  beforeAll(() => {
    bare = project({ '.gitignore': 'node_modules/\n' });
    run(bare, 'git', ['init', '-q', '-b', 'main']);
    commitBare('2.1.2', 'old');
    commitBare('2.1.3', 'new');
  });

  it('shares node_modules when package.json declares the same dependencies', async () => {
    const b = await prepareBaseline({ repoRoot: bare, appDir: bare, ref: 'new', cacheDir: path.join(bare, '.migrate/cache') });
    expect(b.notes[1]).toBe('dependencies shared with the working tree: no lockfile, and package.json declares the same dependencies');
    const lane = await startLane({ name: 'baseline', dir: b.appDir, entry: 'server.cjs' });
    expect(await (await fetch(lane.origin)).json()).toEqual({ ms: '2.1.3' });
    await lane.stop();
    await b.cleanup();
  });

  it('installs the baseline’s own dependencies when they differ', async () => {
    const b = await prepareBaseline({ repoRoot: bare, appDir: bare, ref: 'old', cacheDir: path.join(bare, '.migrate/cache') });
    expect(b.notes[1]).toMatch(/^dependencies installed with npm install because the baseline has no lockfile and its package\.json declares other dependencies than the working tree's \(cached at .*\)$/);
    const lane = await startLane({ name: 'baseline', dir: b.appDir, entry: 'server.cjs' });
    expect(await (await fetch(lane.origin)).json()).toEqual({ ms: '2.1.2' });
    await lane.stop();
    await b.cleanup();
  });
});
