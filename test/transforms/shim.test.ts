/**
 * The `shim` stage on its fixture pairs (fixtures/transforms/shim-listen/, shim-server/): every
 * case's output byte for byte, untouched files unchanged, a second run changes nothing; plus the
 * manual items the stage must report.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it('a project without Express: nothing changes, and the run says so', async () => {
    const { result } = await runFixture('shim-listen', 'no-express', 'shim');
    expect(result.changes).toEqual([]);
    expect(result.manual.map((m) => m.code)).toEqual(['no-express-app']);
  });

  it('settings known only at run time are reported with file and line, the rest copied', async () => {
    const { result, files } = await runFixture('shim-server', 'unknown-settings', 'shim');
    expect(result.manual.map((m) => [m.code, `${m.file}:${m.line}`])).toEqual([['body-parser-options', 'server.js:7']]);
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

  it('--parity express restores Express pages with finalhandler and adds it to package.json', async () => {
    const { files, result } = await runFixture('shim-server', 'parity-express', 'shim');
    expect(files['fastify-server.js']).toMatch(/setNotFoundHandler[\s\S]*finalhandler\(request\.raw, reply\.raw/);
    expect(result.dependencies.finalhandler).toBe('^2.1.1');
    expect(result.deltas).toEqual([]);
  });
});

describe('TypeScript output type-checks (strict; with and without esModuleInterop)', () => {
  for (const name of ['ts-nodenext', 'ts-commonjs-no-interop']) {
    it(name, async () => {
      const { root } = await runFixture('shim-listen', name, 'shim');
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
