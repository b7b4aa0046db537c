/**
 * The `shim` stage on its fixture pairs (fixtures/transforms/shim-listen/, shim-server/): every
 * case's output byte for byte, untouched files unchanged, a second run changes nothing; plus the
 * manual items the stage must report.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStage } from '../../runner/run.js';
import { project } from '../helpers/tmp.js';
import { expectFixture, fixtureCases, runFixture } from '../helpers/transform-fixtures.js';

const REPO = path.resolve(import.meta.dirname, '../..');

for (const step of ['shim-listen', 'shim-server']) {
  describe(`${step} fixtures`, () => {
    for (const c of fixtureCases(step)) it(c, () => expectFixture(step, c, 'shim'), 60_000);
  });
}

describe('what the shim reports', () => {
  it('an app that nothing starts: the module is written and the run says where to start it', async () => {
    const { result } = await runFixture('shim-listen', 'no-listen', 'shim');
    expect(result.manual.map((m) => [m.code, `${m.file}:${m.line}`])).toEqual([['no-listen', 'app.js:3']]);
    expect(result.manual[0].reason).toContain('fastify-server.js');
    expect(result.exitCode).toBe(1);
  });

  it('a project without Express is refused (exit 2), naming the entry', async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'no-express', private: true, scripts: { start: 'node server.js' } }),
      'server.js': "const http = require('http');\n// A plain Node server: nothing for the shim to do.\nhttp.createServer((req, res) => res.end('ok')).listen(process.env.PORT || 3000);\n",
    });
    await expect(runStage({ root, stage: 'shim', dry: true })).rejects.toMatchObject({ code: 'no-app', message: expect.stringContaining('server.js') });
  });

  it("a TypeScript project whose TypeScript cannot read Fastify 5's types (before 5.0) gets an item at its line in package.json; 5.x does not", async () => {
    const app = (typescript: string) => project({
      'package.json': `{\n  "name": "ts-old",\n  "private": true,\n  "main": "src/server.ts",\n  "dependencies": { "express": "^4.21.2" },\n  "devDependencies": {\n    "typescript": "${typescript}"\n  }\n}\n`,
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', esModuleInterop: true } }),
      'src/server.ts': "import express from 'express';\nconst app = express();\napp.get('/', (req, res) => res.send('ok'));\napp.listen(3000);\n",
    });
    const old = await runStage({ root: app('4.1.3'), stage: 'shim', allowDirty: true });
    // Line 12 of package.json as the stage writes it (its dependencies gain @fastify/express, fastify, qs, one a line).
    expect(old.manual.map((m) => [m.code, `${m.file}:${m.line}`])).toEqual([['typescript-without-fastify-types', 'package.json:12']]);
    expect(old.manual[0].reason).toContain('typescript 4.1.3 lacks `const` type parameters');
    expect(old.exitCode).toBe(1);
    const current = await runStage({ root: app('^5.4.5'), stage: 'shim', dry: true });
    expect(current.manual).toEqual([]);
  });

  it('settings known only at run time are reported with file and line, the rest copied', async () => {
    const { result, files } = await runFixture('shim-server', 'unknown-settings', 'shim');
    expect(result.manual.map((m) => [m.code, `${m.file}:${m.line}`])).toEqual([['body-parser-options', 'server.js:8']]);
    expect(files['fastify-server.js']).toContain("trustProxy: 'loopback, 10.0.0.0/8',");
    expect(files['fastify-server.js']).toContain('parseBodyLikeExpress([])');
  });

  it('settings become Fastify options: hop counts as a function, strict and case-sensitive routing, the simple query parser', async () => {
    const { files, result } = await runFixture('shim-server', 'app-settings', 'shim');
    const text = files['fastify-server.js'];
    expect(text).toContain('trustProxy: (address, hop) => hop < 2,');
    expect(text).toContain('caseSensitive: true,');
    expect(text).toContain('ignoreTrailingSlash: false,');
    expect(text).toContain('querystringParser: (query) => querystring.parse(query),');
    expect(result.dependencies).toEqual({ '@fastify/express': '^4.0.7', fastify: '^5.12.8' });
  });

  it('body-parser options kept in a config module are copied as the analyzer folded them; a run-time option is reported with its path (at its line once the import is added)', async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'folded', private: true, main: 'server.js', dependencies: { express: '^4.21.2' } }),
      'config.js': "module.exports = { body: { limit: '1mb', type: ['application/json', 'application/*+json'] } };\n",
      'server.js': "const express = require('express');\nconst config = require('./config');\nconst app = express();\napp.use(express.json(config.body));\napp.use(express.urlencoded({ extended: true, limit: process.env.FORM_LIMIT }));\napp.post('/x', (req, res) => res.json(req.body));\napp.listen(3000);\n",
    });
    const result = await runStage({ root, stage: 'shim', dry: true });
    const server = result.changes.find((c) => c.file === 'fastify-server.js')!.after;
    expect(server).toContain("parseBodyLikeExpress([express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] })])");
    expect(result.manual.map((m) => [m.code, `${m.file}:${m.line}`, m.reason.includes('limit (process.env.FORM_LIMIT')])).toEqual([['body-parser-options', 'server.js:6', true]]);
  });

  it('two apps started in one folder get a module each, from their own settings, and each start site imports its own', async () => {
    const { files, result } = await runFixture('shim-server', 'two-apps-one-folder', 'shim');
    expect(result.manual).toEqual([]);
    expect(result.moved.find((m) => m.step === 'shim-server')).toMatchObject({ done: 2, of: 2 });
    expect(files['fastify-server.js']).toContain('caseSensitive: false,');
    expect(files['fastify-server.js']).toContain('querystringParser: (query) => qs.parse(query, { allowPrototypes: true }),');
    expect(files['fastify-server-admin.js']).toContain('caseSensitive: true,');
    expect(files['fastify-server-admin.js']).toContain('querystringParser: (query) => querystring.parse(query),');
    expect(files['server.js']).toContain("const { buildFastify, listen } = require('./fastify-server');");
    expect(files['server.js']).toContain("const { buildFastify: buildFastifyAdmin, listen: listenAdmin } = require('./fastify-server-admin');");
    expect(files['server.js']).toContain('listen(buildFastify(pub), port,');
    expect(files['server.js']).toMatch(/listenAdmin\(\s*buildFastifyAdmin\(admin\),\s*port \+ 1,/);
  });

  it('a module an earlier shim wrote for two apps whose settings differ is left as it is and reported (shared-server-settings)', async () => {
    const { result } = await runFixture('errors-handler', 'two-apps-one-module', 'shim');
    expect(result.changes).toEqual([]);
    expect(result.manual.map((m) => [m.code, `${m.file}:${m.line}`])).toEqual([['shared-server-settings', 'src/server.js:10']]);
    expect(result.manual[0].reason).toContain('admin runs behind src/fastify-server.js with pub');
    expect(result.exitCode).toBe(1);
  });

  it('--parity express restores Express pages with finalhandler and adds it to package.json', async () => {
    const { files, result } = await runFixture('shim-server', 'parity-express', 'shim');
    expect(files['fastify-server.js']).toMatch(/setNotFoundHandler[\s\S]*finalhandler\(request\.raw, reply\.raw/);
    expect(result.dependencies.finalhandler).toBe('^2.1.1');
    expect(result.deltas).toEqual([]);
  });
});

describe('a generated module whose app settings changed since the shim wrote it', () => {
  it('--check exits 1 naming the module and each setting that changed; nothing is written', async () => {
    const { result, files } = await runFixture('shim-server', 'settings-changed', 'shim', { check: true });
    expect(result.exitCode).toBe(1);
    expect(result.changes.map((c) => c.file)).toEqual(['src/fastify-server.js']);
    expect(result.notes).toEqual([
      "src/fastify-server.js: the app's settings changed since this module was written: 'case sensitive routing' (caseSensitive: was false, now true); 'query parser' (querystringParser: was (query) => qs.parse(query, { allowPrototypes: true }), now (query) => querystring.parse(query)); 'trust proxy' (trustProxy: was 'loopback', now absent); the app's body parsers (parseBodyLikeExpress: was [express.json()], now [express.json({ limit: '2mb' }), express.urlencoded({ extended: false })]) — only these are rewritten, the rest of the module is kept",
    ]);
    expect(files['src/fastify-server.js']).toContain("trustProxy: 'loopback',");
  });

  it('--check exits 0 when the module is up to date', async () => {
    const { result } = await runFixture('shim-server', 'settings-unchanged', 'shim', { check: true });
    expect(result.exitCode).toBe(0);
    expect(result.changes).toEqual([]);
    expect(result.notes.filter((n) => n.includes('settings changed'))).toEqual([]);
  });

  it('the rewrite keeps what the errors and routes stages registered, and the user\'s own options', async () => {
    const { result, files } = await runFixture('shim-server', 'settings-changed', 'shim');
    const text = files['src/fastify-server.js'];
    expect(result.exitCode).toBe(0);
    for (const kept of ['fastify.setErrorHandler(errorHandler);', 'fastify.setNotFoundHandler(notFound);', 'fastify.register(movedRoutes);', "import { itemsRoutes } from './items.js';", 'rewriteUrl: routableUrl,']) expect(text).toContain(kept);
    expect(text).toContain('caseSensitive: true,');
    expect(text).not.toContain('trustProxy');
    expect(text).not.toContain("import qs from 'qs';");
    expect(text).toContain("import querystring from 'node:querystring';");
  });

  it('a setting known only at run time is left as the user set it by hand, and not reported again', async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'by-hand', private: true, main: 'server.js', dependencies: { express: '^4.21.2' } }),
      'server.js': "const express = require('express');\nconst app = express();\napp.get('/', (req, res) => res.json({ ip: req.ip }));\napp.listen(3000);\n",
    });
    await runStage({ root, stage: 'shim', allowDirty: true });
    const module = path.join(root, 'fastify-server.js');
    // What the user does when told that 'trust proxy' is known only at run time: sets it in the module by hand.
    writeFileSync(module, readFileSync(module, 'utf8').replace('    rewriteUrl: routableUrl,', "    trustProxy: process.env.PROXIES,\n    rewriteUrl: routableUrl,"));
    writeFileSync(path.join(root, 'server.js'), readFileSync(path.join(root, 'server.js'), 'utf8').replace("const app = express();\n", "const app = express();\napp.set('trust proxy', process.env.PROXIES);\n"));
    const result = await runStage({ root, stage: 'shim', check: true });
    expect(result.changes).toEqual([]);
    expect(result.manual).toEqual([]);
    expect(result.exitCode).toBe(0);
  });
});

describe('--parity express in TypeScript compiled to CommonJS without esModuleInterop', () => {
  it("imports finalhandler with import = require: it type-checks, compiles, and unmatched requests get Express's 404 page (they hung when it was a namespace import)", async () => {
    const { root, result } = await runFixture('shim-listen', 'ts-commonjs-no-interop', 'shim', { parity: 'express' });
    expect(result.dependencies).toMatchObject({ finalhandler: '^2.1.1', '@types/finalhandler': '^1.2.4' });
    const out = path.join(root, 'out');
    execFileSync(path.join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', path.join(root, 'tsconfig.json'), '--noEmit', 'false', '--outDir', out], { encoding: 'utf8', stdio: 'pipe' });
    const child = spawn(process.execPath, [path.join(out, 'server.js')], { cwd: root, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout!.on('data', (chunk) => {
          const m = /port: (\d+)/.exec(String(chunk));
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
      });
      const res = await fetch(`http://127.0.0.1:${port}/nope`, { signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'");
      expect(await res.text()).toContain('<pre>Cannot GET /nope</pre>');
    } finally {
      child.kill();
    }
  }, 60_000);
});

describe('TypeScript output type-checks (strict; with and without esModuleInterop; a module whose settings were rewritten)', () => {
  for (const [step, name] of [['shim-listen', 'ts-nodenext'], ['shim-listen', 'ts-commonjs-no-interop'], ['shim-server', 'settings-changed-ts']]) {
    it(name, async () => {
      const { root } = await runFixture(step, name, 'shim');
      let output = '';
      try {
        execFileSync(path.join(REPO, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', path.join(root, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
      } catch (e) {
        output = String((e as { stdout?: string }).stdout ?? e);
      }
      expect(output).toBe('');
    }, 60_000);
  }
});
