/** Project facts: entry detection, Node engine, Express version, package manager, monorepos. */
import { describe, expect, it } from 'vitest';
import { analyze, AnalyzeError } from '../../analyzer/analyze.js';
import { project } from '../helpers/tmp.js';

const ROUTE = "const express = require('express');\nconst app = express();\napp.get('/', (req, res) => res.end());\nmodule.exports = app;\n";

describe('entry detection', () => {
  it('maps a main that points at built output back to its source', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'built', main: 'dist/index.js', dependencies: { express: '^4.21.2' } }),
      'src/index.ts': "import express from 'express';\nconst app = express();\napp.get('/built', (req, res) => res.end());\n",
    });
    const inv = await analyze({ dir });
    expect(inv.project.entry).toBe('src/index.ts');
    expect(inv.project.entrySource).toBe('package.json main (dist/index.js) mapped to its source');
    expect(inv.routes.map((r) => r.key)).toEqual(['GET /built']);
  });

  it('survives a main that points at a missing file', async () => {
    const dir = project({ 'package.json': JSON.stringify({ name: 'm', main: 'gone.js', dependencies: { express: '^4.21.2' } }), 'server.js': ROUTE });
    const inv = await analyze({ dir });
    expect(inv.project.entry).toBe('server.js');
    expect(inv.routes).toHaveLength(1);
  });

  it('prefers the start script and honours --entry', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 's', main: 'index.js', scripts: { start: 'node --enable-source-maps bin/start.cjs' }, dependencies: { express: '^4.21.2' } }),
      'bin/start.cjs': ROUTE,
      'index.js': 'module.exports = {};\n',
      'other.mjs': "import express from 'express';\nconst app = express();\napp.post('/other', (req, res) => res.end());\n",
    });
    expect((await analyze({ dir })).project.entry).toBe('bin/start.cjs');
    const explicit = await analyze({ dir, entry: 'other.mjs' });
    expect(explicit.project.entrySource).toBe('--entry');
    expect(explicit.routes.map((r) => r.key)).toEqual(['POST /other']);
    await expect(analyze({ dir, entry: 'missing.js' })).rejects.toThrow(/entry missing.js does not exist/);
  });
});

describe('versions and tools', () => {
  it('reads Express from the lockfile and warns about a Node engine Fastify 5 does not support', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'old', main: 'app.js', engines: { node: '>=14' }, dependencies: { express: '^4.17.1' } }),
      'package-lock.json': JSON.stringify({ lockfileVersion: 3, packages: { '': {}, 'node_modules/express': { version: '4.18.2' } } }),
      'app.js': ROUTE,
    });
    const inv = await analyze({ dir });
    expect(inv.project.expressVersion).toEqual({ declared: '^4.17.1', installed: '4.18.2', major: 4 });
    expect(inv.project.packageManager).toBe('npm');
    expect(inv.diagnostics.find((d) => d.code === 'node-engine-too-old')?.message).toContain('Fastify 5 needs Node >= 20');
  });

  it('recognises yarn and pnpm lockfiles', async () => {
    const yarn = project({ 'package.json': JSON.stringify({ name: 'y', main: 'app.js', dependencies: { express: '^5.1.0' } }), 'yarn.lock': 'express@^5.1.0:\n  version "5.1.0"\n', 'app.js': ROUTE });
    const inv = await analyze({ dir: yarn });
    expect(inv.project.packageManager).toBe('yarn');
    expect(inv.project.expressVersion).toEqual({ declared: '^5.1.0', installed: '5.1.0', major: 5 });
    const pnpm = project({ 'package.json': JSON.stringify({ name: 'p', main: 'app.js', dependencies: { express: '^4' } }), 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n", 'app.js': ROUTE });
    expect((await analyze({ dir: pnpm })).project.packageManager).toBe('pnpm');
  });
});

describe('dependency versions', () => {
  it('lists every dependency and devDependency with its declared range and the version in node_modules, null when not installed', async () => {
    const dir = project({
      'package.json': JSON.stringify({
        name: 'deps',
        main: 'app.js',
        dependencies: { express: '^4.21.2', helmet: '^4.1.0', 'left-pad': 'github:stevemao/left-pad', '@scope/mw': '^1.0.0' },
        devDependencies: { vitest: '^3.0.0', helmet: '^9.0.0' },
      }),
      'app.js': ROUTE,
      'node_modules/express/package.json': JSON.stringify({ name: 'express', version: '4.21.2' }),
      'node_modules/helmet/package.json': JSON.stringify({ name: 'helmet', version: '4.6.0' }),
      'node_modules/@scope/mw/package.json': JSON.stringify({ name: '@scope/mw', version: '1.2.3' }),
      // Installed but without a version field: null, and no search further up.
      'node_modules/vitest/package.json': JSON.stringify({ name: 'vitest' }),
    });
    expect((await analyze({ dir })).project.dependencies).toEqual({
      '@scope/mw': { declared: '^1.0.0', installed: '1.2.3' },
      express: { declared: '^4.21.2', installed: '4.21.2' },
      // A name in both lists takes its `dependencies` range.
      helmet: { declared: '^4.1.0', installed: '4.6.0' },
      'left-pad': { declared: 'github:stevemao/left-pad', installed: null },
      vitest: { declared: '^3.0.0', installed: null },
    });
  });

  it('finds packages hoisted to a parent node_modules, the nearest copy first, as Node resolves them', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['apps/*'] }),
      'node_modules/compression/package.json': JSON.stringify({ name: 'compression', version: '1.8.2' }),
      'node_modules/helmet/package.json': JSON.stringify({ name: 'helmet', version: '8.3.0' }),
      'apps/api/package.json': JSON.stringify({ name: '@mono/api', main: 'app.js', dependencies: { express: '^4.21.2', compression: '^1.7.4', helmet: '^7.0.0' } }),
      'apps/api/node_modules/helmet/package.json': JSON.stringify({ name: 'helmet', version: '7.2.0' }),
      'apps/api/app.js': ROUTE,
    });
    const deps = (await analyze({ dir, app: 'apps/api' })).project.dependencies;
    expect(deps.compression).toEqual({ declared: '^1.7.4', installed: '1.8.2' });
    expect(deps.helmet).toEqual({ declared: '^7.0.0', installed: '7.2.0' });
    expect(deps.express).toEqual({ declared: '^4.21.2', installed: null });
  });

  it('is empty without dependencies', async () => {
    const dir = project({ 'package.json': JSON.stringify({ name: 'bare', main: 'app.js' }), 'app.js': ROUTE });
    expect((await analyze({ dir })).project.dependencies).toEqual({});
  });
});

describe('monorepos', () => {
  const mono = () =>
    project({
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['apps/*', 'packages/*'] }),
      'apps/api/package.json': JSON.stringify({ name: '@mono/api', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'apps/api/app.js': ROUTE.replace("'/'", "'/api'"),
      'apps/admin/package.json': JSON.stringify({ name: '@mono/admin', main: 'app.js', dependencies: { express: '^5.1.0' } }),
      'apps/admin/app.js': ROUTE.replace("'/'", "'/admin'"),
      'packages/util/package.json': JSON.stringify({ name: '@mono/util' }),
      'packages/util/index.js': 'module.exports = {};\n',
    });

  it('asks which app when several workspaces hold Express apps', async () => {
    const dir = mono();
    const err = await analyze({ dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnalyzeError);
    expect((err as AnalyzeError).message).toContain('choose one with --app: apps/admin, apps/api');
  });

  it('analyses the app chosen by package name or folder', async () => {
    const dir = mono();
    expect((await analyze({ dir, app: '@mono/api' })).routes.map((r) => r.key)).toEqual(['GET /api']);
    expect((await analyze({ dir, app: 'apps/admin' })).routes.map((r) => r.key)).toEqual(['GET /admin']);
    await expect(analyze({ dir, app: 'nope' })).rejects.toThrow(/--app nope is not a workspace/);
  });
});

describe('entry detection: folders are not files', () => {
  it('skips a folder named like an entry (src/app next to src/main.ts) instead of reading it', async () => {
    const { detectEntry } = await import('../../analyzer/project.js');
    const { project } = await import('../helpers/tmp.js');
    const dir = project({ 'package.json': '{"name":"rw"}', 'src/app/app.module.ts': 'export {};\n', 'src/main.ts': "import express from 'express';\n" });
    expect(detectEntry(dir, { name: 'rw' })).toEqual({ entry: 'src/main.ts', source: expect.any(String) });
  });
});

describe('entry from a start script that runs the build', () => {
  it('maps node dist/server.js to src/server.ts when both exist (the codemods edit the source)', async () => {
    const { detectEntry } = await import('../../analyzer/project.js');
    const dir = project({ 'package.json': '{}', 'src/server.ts': 'export {};\n', 'dist/server.js': '"use strict";\n' });
    expect(detectEntry(dir, { scripts: { start: 'node dist/server.js' } })).toEqual({ entry: 'src/server.ts', source: 'start script (dist/server.js) mapped to its source' });
  });
});

describe('entry from start:* and dev:* scripts when there is no plain start', () => {
  it('takes start:dev of a boilerplate (node --import=tsx --watch src/index.ts) over a conventional src/server.ts', async () => {
    const { detectEntry } = await import('../../analyzer/project.js');
    const dir = project({ 'package.json': '{}', 'src/server.ts': 'export const app = 1;\n', 'src/index.ts': "import { app } from '@/server';\n" });
    const scripts = { build: 'tsc', 'start:dev': 'node --import=tsx --watch src/index.ts', 'start:prod': 'node dist/index.js' };
    expect(detectEntry(dir, { main: 'index.ts', scripts })).toEqual({ entry: 'src/index.ts', source: 'start:dev script' });
    // A plain start that runs another script falls through to the next one (serve: the build's source).
    expect(detectEntry(dir, { scripts: { start: 'npm run serve', serve: 'node dist/server.js' } })).toEqual({ entry: 'src/server.ts', source: 'serve script (dist/server.js) mapped to its source' });
  });
});
