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
    // The middleware every route of a router runs is printed once; each route shows what it adds.
    expect(r.stdout).toContain('every route here runs first: requestLogger [morgan] → helmet [helmet] → cors [cors]');
    expect(r.stdout).toMatch(/POST\s+\/shorten\s+urlController\.shorten\s+src\/routes\/routes\.js:\d+\n\s+then: validate \[express-json-validator-middleware\]\n/);
    expect(r.stdout).toContain('Not resolved: nothing, every registration was resolved');
    expect(r.stdout).not.toMatch(/\x1b\[/);
  });

  it('writes JSON and Markdown', () => {
    const json = JSON.parse(migrate('analyze', APP, '--format', 'json').stdout);
    expect(json.schemaVersion).toBe('2.2.0');
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
    expect(r.stdout).toMatch(/environment .*app\.js:3/);
    expect(migrate('analyze', dir).code).toBe(0);
  });
});

describe('migrate analyze: findings and their reports', () => {
  const LEGACY = path.join(ROOT, 'fixtures/apps/legacy-cjs');

  it('prints readiness, the errors and warnings with their Fastify form, and the stage plan', () => {
    const r = migrate('analyze', LEGACY);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Fastify readiness {2}\d+ auto · \d+ assisted · \d+ later( \([a-z, ]+\))? · [1-9]\d* manual/);
    expect(r.stdout).toContain("error   next-route  GET /articles/:slug calls next('route').  routes/articles.js:22");
    expect(r.stdout).toContain('Fastify: One route whose handler branches on the condition (or a route constraint).  [manual]');
    // Body parsers are the plugins stage's (the shim keeps them in the app: docs/stages/shim.md "Bodies").
    expect(r.stdout).toMatch(/Stage plan\n {2}shim {5}Listen address changes: 1\n {2}errors {3}Error handler reads err\.status or err\.type: 1\n/);
  });

  it('--fail-on error exits 1 when an error finding exists, 0 when none does', () => {
    expect(migrate('analyze', LEGACY, '--fail-on', 'error').code).toBe(1);
    expect(migrate('analyze', APP, '--fail-on', 'error').code).toBe(0);
    expect(migrate('analyze', APP, '--fail-on', 'warning').code).toBe(1);
  });

  it('JSON carries findings with stable ids and readiness; SARIF and HTML are written', () => {
    const a = JSON.parse(migrate('analyze', LEGACY, '--format', 'json').stdout);
    const b = JSON.parse(migrate('analyze', LEGACY, '--format', 'json').stdout);
    expect(a.findings.map((f: { id: string }) => f.id)).toEqual(b.findings.map((f: { id: string }) => f.id));
    expect(a.findings.find((f: { rule: string }) => f.rule === 'regexp-path')).toMatchObject({ severity: 'error', stage: 'manual', location: { file: 'routes/pages.js', line: 11 } });
    expect(a.readiness.overall.manual).toBeGreaterThan(0);
    const sarif = JSON.parse(migrate('analyze', LEGACY, '--format', 'sarif').stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'regexp-path').locations[0].physicalLocation.artifactLocation.uri).toBe('fixtures/apps/legacy-cjs/routes/pages.js');
    const html = migrate('analyze', LEGACY, '--format', 'html').stdout;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('next-route');
  });
});
