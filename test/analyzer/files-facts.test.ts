/**
 * Files and imports (Inventory.files, analyzer/file-facts.ts): every project source file with how
 * Node runs it, the syntax it is written in, and its imports resolved by the analyzer's own
 * resolver — on a TypeScript project with tsconfig paths and on a mixed CommonJS/ESM JavaScript one.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { project } from '../helpers/tmp.js';

describe('source file facts', () => {
  it('lists a TypeScript project compiled to CommonJS, imports resolved through paths, .js specifiers, index files', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'ts-paths', main: 'src/server.ts', dependencies: { express: '^4.21.2' } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'es2022', paths: { '@/*': ['src/*'] } } }),
      '.gitignore': 'scratch/\n',
      'src/server.ts': [
        "import express from 'express';",
        "import path from 'node:path';",
        "import users from '@/routes';",
        "import type { User } from './types';",
        "import legacy = require('./legacy');",
        "export { helper } from './util.js';",
        'const app = express();',
        "app.use('/users', users);",
        "app.get('/lazy', async (req, res) => res.send(await import('./lazy')));",
        'app.listen(3000);',
        '',
      ].join('\n'),
      'src/routes/index.ts': "import { Router } from 'express';\nconst users = Router();\nusers.get('/', (req, res) => res.json([]));\nexport default users;\n",
      'src/types.ts': 'export interface User { id: string }\n',
      'src/legacy.ts': 'const legacy = 1;\nexport = legacy;\n',
      'src/util.ts': 'export const helper = () => 1;\n',
      'src/lazy.ts': "export default 'lazy';\n",
      'src/worker.mts': "export const kind = 'esm';\n",
      'src/config.cts': "module.exports = { kind: 'cjs' };\n",
      'src/globals.d.ts': 'declare const VERSION: string;\n',
      'src/broken.ts': 'export const = ;\n',
      'test/broken.test.ts': 'import {;\n',
      'test/server.test.ts': "import { helper } from '@/util';\nhelper();\n",
      'scratch/notes.ts': "import x from './nowhere';\n",
      'dist/server.js': "require('express');\n",
    });
    const inv = await analyze({ dir });
    expect(inv.files).toEqual([
      { file: 'src/config.cts', moduleSystem: 'commonjs', syntax: 'commonjs', imports: [] },
      { file: 'src/lazy.ts', moduleSystem: 'commonjs', syntax: 'esm', imports: [] },
      { file: 'src/legacy.ts', moduleSystem: 'commonjs', syntax: 'commonjs', imports: [] },
      { file: 'src/routes/index.ts', moduleSystem: 'commonjs', syntax: 'esm', imports: [{ specifier: 'express', resolved: null, line: 1, kind: 'import' }] },
      {
        file: 'src/server.ts', moduleSystem: 'commonjs', syntax: 'esm',
        imports: [
          { specifier: 'express', resolved: null, line: 1, kind: 'import' },
          { specifier: 'node:path', resolved: null, line: 2, kind: 'import' },
          { specifier: '@/routes', resolved: 'src/routes/index.ts', line: 3, kind: 'import' },
          { specifier: './types', resolved: 'src/types.ts', line: 4, kind: 'import', typeOnly: true },
          { specifier: './legacy', resolved: 'src/legacy.ts', line: 5, kind: 'require' },
          { specifier: './util.js', resolved: 'src/util.ts', line: 6, kind: 'export-from' },
          { specifier: './lazy', resolved: 'src/lazy.ts', line: 9, kind: 'dynamic' },
        ],
      },
      { file: 'src/types.ts', moduleSystem: 'commonjs', syntax: 'esm', imports: [] },
      { file: 'src/util.ts', moduleSystem: 'commonjs', syntax: 'esm', imports: [] },
      { file: 'src/worker.mts', moduleSystem: 'esm', syntax: 'esm', imports: [] },
      // Not reached from the entry, listed all the same.
      { file: 'test/server.test.ts', moduleSystem: 'commonjs', syntax: 'esm', imports: [{ specifier: '@/util', resolved: 'src/util.ts', line: 1, kind: 'import' }] },
    ]);
    // Files that do not parse are left out: the one the analysis read has its diagnostic, the test file it never needed gets none.
    expect(inv.diagnostics.filter((d) => d.code === 'parse-error').map((d) => d.location?.file)).toEqual(['src/broken.ts']);
  });

  it('follows tsconfig module: nodenext takes the package type, no module means tsc\'s default by target', async () => {
    const files = { 'src/a.ts': "import fs from 'node:fs';\nexport const a = fs;\n" };
    const nodenext = await analyze({ dir: project({ 'package.json': JSON.stringify({ name: 'n', type: 'module' }), 'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext' } }), ...files }) });
    const es2022 = await analyze({ dir: project({ 'package.json': JSON.stringify({ name: 't' }), 'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'es2022' } }), ...files }) });
    const bare = await analyze({ dir: project({ 'package.json': JSON.stringify({ name: 'b', type: 'module' }), ...files }) });
    expect([nodenext, es2022, bare].map((inv) => inv.files.map((f) => f.moduleSystem))).toEqual([['esm'], ['esm'], ['commonjs']]);
  });

  it('lists a mixed CommonJS/ESM JavaScript project by extension, nearest package.json and syntax detection', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'mixed', main: 'server.js', dependencies: { express: '^4.21.2' } }),
      'server.js': "const express = require('express');\nconst routes = require('./routes');\nconst app = express();\napp.use(routes);\nmodule.exports = app;\n",
      'routes/index.js': "const { Router } = require('express');\nconst r = Router();\nr.get('/', (req, res) => res.end());\nexports.default = r;\nmodule.exports = r;\n",
      'esm.mjs': "import app from './server.js';\nexport default app;\n",
      'legacy.cjs': "exports.x = require('./esm.mjs');\n",
      'detected.js': "export const detected = true;\n",
      'plain.js': 'console.log(1);\n',
      'modern/package.json': JSON.stringify({ type: 'module' }),
      'modern/index.js': "export { detected } from '../detected.js';\nconst later = () => import('./later.js');\n",
      'modern/later.js': 'export default 1;\n',
      'strict/package.json': JSON.stringify({ type: 'commonjs' }),
      'strict/esm-syntax.js': "import os from 'node:os';\n",
    });
    const inv = await analyze({ dir });
    expect(inv.files).toEqual([
      { file: 'detected.js', moduleSystem: 'esm', syntax: 'esm', imports: [] },
      { file: 'esm.mjs', moduleSystem: 'esm', syntax: 'esm', imports: [{ specifier: './server.js', resolved: 'server.js', line: 1, kind: 'import' }] },
      { file: 'legacy.cjs', moduleSystem: 'commonjs', syntax: 'commonjs', imports: [{ specifier: './esm.mjs', resolved: 'esm.mjs', line: 1, kind: 'require' }] },
      { file: 'modern/index.js', moduleSystem: 'esm', syntax: 'esm', imports: [{ specifier: '../detected.js', resolved: 'detected.js', line: 1, kind: 'export-from' }, { specifier: './later.js', resolved: 'modern/later.js', line: 2, kind: 'dynamic' }] },
      { file: 'modern/later.js', moduleSystem: 'esm', syntax: 'esm', imports: [] },
      { file: 'plain.js', moduleSystem: 'commonjs', syntax: 'none', imports: [] },
      { file: 'routes/index.js', moduleSystem: 'commonjs', syntax: 'commonjs', imports: [{ specifier: 'express', resolved: null, line: 1, kind: 'require' }] },
      { file: 'server.js', moduleSystem: 'commonjs', syntax: 'commonjs', imports: [{ specifier: 'express', resolved: null, line: 1, kind: 'require' }, { specifier: './routes', resolved: 'routes/index.js', line: 2, kind: 'require' }] },
      // An explicit "type": "commonjs" turns Node's syntax detection off: the file fails there, as CommonJS.
      { file: 'strict/esm-syntax.js', moduleSystem: 'commonjs', syntax: 'esm', imports: [{ specifier: 'node:os', resolved: null, line: 1, kind: 'import' }] },
    ]);
  });

  it('marks the modules the stages write', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'gen', main: 'server.js' }),
      'server.js': "const { buildFastify } = require('./fastify-server');\n",
      'fastify-server.js': "// Fastify in front of the Express app: written by `migrate run --stage shim` (express-to-fastify migrate).\nmodule.exports = { buildFastify() {} };\n",
      'fastify-hooks.js': "// Fastify hooks for routes moved off Express: written by `migrate run --stage routes` (express-to-fastify migrate).\nmodule.exports = {};\n",
    });
    const inv = await analyze({ dir });
    expect(inv.files.map((f) => [f.file, f.generated])).toEqual([['fastify-hooks.js', 'hooks-module'], ['fastify-server.js', 'server-module'], ['server.js', undefined]]);
  });
});
