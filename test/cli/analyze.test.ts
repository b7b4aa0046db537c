/** `migrate analyze` as a user runs it: the built bin, real exit codes, stdout and stderr. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { project } from '../helpers/tmp.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/migrate.js');
const APP = path.join(ROOT, 'fixtures/apps/url-shortener');

function migrate(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('migrate analyze', () => {
  it('prints the headline first, then routes grouped by router with chain and location', () => {
    const r = migrate('analyze', APP);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Inventory complete: 3 routes in 1 app, all resolved exactly.');
    expect(r.stdout).toMatch(/POST\s+\/shorten\s+urlController\.shorten\s+src\/routes\/routes\.js:\d+/);
    expect(r.stdout).toContain('chain: requestLogger [morgan] → helmet [helmet] → cors [cors]');
    expect(r.stdout).toContain('Not resolved: nothing, every registration was resolved');
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('writes JSON and Markdown', () => {
    const json = JSON.parse(migrate('analyze', APP, '--format', 'json').stdout);
    expect(json.schemaVersion).toBe('1.0.0');
    expect(json.routes.map((r: { key: string }) => r.key)).toEqual(['GET /', 'POST /shorten', 'GET /:shortID']);
    const md = migrate('analyze', APP, '--format', 'markdown').stdout;
    expect(md.split('\n')[0]).toBe('# Express inventory: @fixtures/url-shortener');
    expect(md).toContain('| POST | `/shorten` |');
  });

  it('writes the report to --out and says so on stderr', () => {
    const dir = project({});
    const out = path.join(dir, 'inv.json');
    const r = migrate('analyze', APP, '--format', 'json', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`Wrote json report to ${out}`);
    expect(JSON.parse(readFileSync(out, 'utf8')).summary.routes).toBe(3);
  });

  it('exits 2 with one line for a missing folder or a bad option', () => {
    const missing = migrate('analyze', '/no/such/dir');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('migrate analyze: /no/such/dir is not a folder\n');
    const bad = migrate('analyze', APP, '--format', 'yaml');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid values');
  });

  it('exits 0 and says so plainly for a folder without Express', () => {
    const dir = project({ 'package.json': '{"name":"x"}', 'index.js': 'module.exports = 1;\n' });
    const r = migrate('analyze', dir);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('No Express app found.');
  });

  it('exits 1 with --fail-on incomplete when something is not resolved', () => {
    const dir = project({
      'package.json': '{"name":"x","main":"app.js","dependencies":{"express":"^4"}}',
      'app.js': "const express = require('express');\nconst app = express();\napp.get(process.env.HEALTH_PATH, (req, res) => res.end());\n",
    });
    const r = migrate('analyze', dir, '--fail-on', 'incomplete');
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toMatch(/^Inventory INCOMPLETE: 1 of 1 routes is not resolved exactly/);
    expect(r.stdout).toMatch(/dynamic-path .*app\.js:3/);
    expect(migrate('analyze', dir).code).toBe(0);
  });
});
