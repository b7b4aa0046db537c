/**
 * Bad input gets a clear diagnostic and loses nothing else: unparsable, binary, non-UTF-8 and
 * oversized files, symlink loops, tsconfig errors, and folders without Express.
 */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, AnalyzeError } from '../../analyzer/analyze.js';
import { project } from '../helpers/tmp.js';

const PKG = JSON.stringify({ name: 'bad', main: 'app.js', dependencies: { express: '^4.21.2' } });
const APP = `const express = require('express');
const app = express();
app.get('/ok', (req, res) => res.send('ok'));
app.use('/broken', require('./broken'));
module.exports = app;
`;

describe('bad input', () => {
  it('reports a file that does not parse and analyses the rest', async () => {
    const dir = project({ 'package.json': PKG, 'app.js': APP, 'broken.js': "const r = require('express').Router();\nr.get('/x', (req, res) => {\n" });
    const inv = await analyze({ dir });
    expect(inv.routes.map((r) => r.key)).toEqual(['GET /ok']);
    const d = inv.diagnostics.find((x) => x.code === 'parse-error');
    expect(d?.location?.file).toBe('broken.js');
    expect(inv.summary.complete).toBe(false);
    expect(inv.summary.headline).toMatch(/^Inventory INCOMPLETE: .*1 file could not be analysed/);
  });

  it('skips binary, non-UTF-8 and oversized files with a diagnostic each', async () => {
    const dir = project({
      'package.json': PKG,
      'app.js': "const express = require('express');\nconst app = express();\napp.get('/ok', (req, res) => res.end());\n",
      'blob.js': Buffer.from([0x63, 0x00, 0x01, 0x02]),
      'latin1.js': Buffer.from([0x2f, 0x2f, 0x20, 0xe9, 0x0a]),
      'huge.js': '//' + 'x'.repeat(2 * 1024 * 1024 + 10),
    });
    const inv = await analyze({ dir });
    const skipped = inv.diagnostics.filter((d) => d.code === 'file-skipped').map((d) => [d.location?.file, d.message.split(': ')[1]]);
    expect(skipped).toEqual([
      ['blob.js', 'skipped'],
      ['huge.js', 'skipped'],
      ['latin1.js', 'skipped'],
    ]);
    expect(inv.diagnostics.find((d) => d.location?.file === 'blob.js')?.message).toContain('binary');
    expect(inv.diagnostics.find((d) => d.location?.file === 'latin1.js')?.message).toContain('UTF-8');
    expect(inv.diagnostics.find((d) => d.location?.file === 'huge.js')?.message).toContain('2 MB');
    expect(inv.routes.map((r) => r.key)).toEqual(['GET /ok']);
  });

  it('does not hang on symlink loops', async () => {
    const dir = project({ 'package.json': PKG, 'app.js': "const express = require('express');\nconst app = express();\napp.get('/ok', (req, res) => res.end());\n", 'sub/a.js': '' });
    symlinkSync(dir, path.join(dir, 'sub', 'loop'));
    const inv = await analyze({ dir });
    expect(inv.routes.map((r) => r.key)).toEqual(['GET /ok']);
  });

  it('keeps going when tsconfig.json has errors', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'ts', main: 'src/app.ts', dependencies: { express: '^4.21.2' } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES3', importsNotUsedAsValues: 'remove', moduleResolution: 'nonsense', baseUrl: '.', paths: { '@/*': ['src/*'] } } }),
      'src/app.ts': "import express from 'express';\nimport users from '@/users';\nconst app = express();\napp.use('/users', users);\nexport default app;\n",
      'src/users.ts': "import { Router } from 'express';\nconst r = Router();\nr.get('/:id', (req, res) => res.json({}));\nexport default r;\n",
    });
    const inv = await analyze({ dir });
    expect(inv.routes.map((r) => r.key)).toEqual(['GET /users/:id']);
    expect(inv.diagnostics.some((d) => d.code === 'tsconfig-problem')).toBe(true);
  });

  it('says plainly when a folder has no Express', async () => {
    const dir = project({ 'package.json': JSON.stringify({ name: 'lib', main: 'index.js' }), 'index.js': 'module.exports = 1;\n' });
    const inv = await analyze({ dir });
    expect(inv.summary.headline).toBe('No Express app found.');
    expect(inv.routes).toEqual([]);
  });

  it('refuses a missing folder with a one-line error', async () => {
    await expect(analyze({ dir: '/nonexistent/folder' })).rejects.toThrow(AnalyzeError);
    await expect(analyze({ dir: '/nonexistent/folder' })).rejects.toThrow(/^\/nonexistent\/folder is not a folder$/);
  });

  it('reports route-like calls it could not attribute instead of dropping them', async () => {
    const dir = project({
      'package.json': PKG,
      'app.js': "const express = require('express');\nconst app = express();\napp.get('/ok', (req, res) => res.end());\nmodule.exports = app;\n",
      'routes/never-called.js': "module.exports = function register(app) {\n  app.get('/orphan', (req, res) => res.end());\n};\n",
    });
    const inv = await analyze({ dir });
    expect(inv.routes.map((r) => r.key)).toEqual(['GET /ok']);
    expect(inv.diagnostics.filter((d) => d.code === 'unresolved-router').map((d) => d.location)).toEqual([{ file: 'routes/never-called.js', line: 2, column: 3 }]);
    expect(inv.summary.complete).toBe(false);
  });
});
