/**
 * `migrate run` as a user runs it: the built bin (`npm run build` first), real exit codes, stdout
 * and stderr, and the worker-thread pool that only the compiled runner uses (20 files or more).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { project } from '../helpers/tmp.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/migrate.js');
const STEPS = path.join(ROOT, 'test/runner/steps');
const PKG = `{\n  "name": "demo",\n  "main": "app.js",\n  "dependencies": {\n    "express": "^4.21.2"\n  }\n}\n`;
/** The runner refuses a project without an Express app, so every test project has one (no step plans it). */
const APP = "const express = require('express');\nmodule.exports = express();\n";

function migrate(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'run', '--steps-dir', STEPS, ...args], { encoding: 'utf8', cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** An app with `n` files marked for the test steps, plus `extra` files. */
function marked(n: number, extra: Record<string, string> = {}): string {
  const files: Record<string, string> = { 'package.json': PKG, 'app.js': APP, ...extra };
  for (let i = 1; i <= n; i++) files[`src/f${String(i).padStart(2, '0')}.js`] = `// MARK:append\nconst a${i} = ${i};\n`;
  return project(files);
}

describe('migrate run (built CLI)', () => {
  it('transforms 25 files in worker threads, then --check says the stage is done', () => {
    const dir = marked(25);
    const r = migrate('--stage', 'shim', dir, '--workers', '2', '--format', 'json');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.threads).toBe(2);
    expect(result.outcomes.filter((o: { status: string }) => o.status === 'changed')).toHaveLength(25);
    expect(readFileSync(path.join(dir, 'src/f25.js'), 'utf8')).toBe(`// MARK:append\nconst a25 = 25;\nconsole.log('first');\nconsole.log('second');\n`);
    expect(migrate('--stage', 'shim', dir, '--check').code).toBe(0);
  });

  it('reports a failed file from a worker thread, writes nothing and exits 2', () => {
    const dir = marked(24, { 'src/broken.js': `// MARK:broken\nconst b = 1;\n` });
    const r = migrate('--stage', 'shim', dir, '--workers', '2');
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^Stage shim: 24 changed, 0 unchanged, 0 skipped, 1 failed\n/);
    expect(r.stdout).toContain('failed    src/broken.js — step mark-first produced code that does not parse');
    expect(readFileSync(path.join(dir, 'src/f01.js'), 'utf8')).toBe(`// MARK:append\nconst a1 = 1;\n`);
  });

  it('--dry prints only the diff on stdout and the summary on stderr (exit 0)', () => {
    const dir = marked(1);
    const r = migrate('--stage', 'shim', dir, '--dry');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`--- a/src/f01.js\n+++ b/src/f01.js\n@@ -1,2 +1,4 @@\n // MARK:append\n const a1 = 1;\n+console.log('first');\n+console.log('second');\n`);
    expect(r.stderr).toContain('Stage shim: 1 would change, 0 unchanged, 0 skipped, 0 failed');
  });

  it('exit codes: --check 1 with changes; 1 for manual items; 2 for a dirty tree, an unknown or empty stage', () => {
    expect(migrate('--stage', 'shim', marked(1), '--check').code).toBe(1);
    const manual = migrate('--stage', 'shim', marked(1, { 'm.js': '// MARK:manual\n' }));
    expect(manual.code).toBe(1);
    expect(manual.stdout).toContain('Left for a human (1)\n  m.js:1 a marked thing needs a human');

    const repo = marked(1);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo });
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--allow-empty', '-m', 'initial');
    writeFileSync(path.join(repo, 'extra.js'), 'x\n');
    const dirty = migrate('--stage', 'shim', repo);
    expect(dirty.code).toBe(2);
    expect(dirty.stderr).toMatch(/^migrate run: uncommitted changes in .* \(commit or stash them so the stage can be undone, or pass --allow-dirty\):\n {2}\?\? /);
    expect(migrate('--stage', 'shim', repo, '--allow-dirty').code).toBe(0);

    const unknown = migrate('--stage', 'nope', repo);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Invalid values');
    const workers = migrate('--stage', 'shim', repo, '--workers', '0');
    expect(workers.code).toBe(2);
    expect(workers.stderr).toContain('--workers must be a whole number of 1 or more');
    const empty = migrate('--stage', 'routes', repo);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe("migrate run: stage 'routes' has no steps yet; stages with steps: shim\n");
  });

  it("passes the stage's own options to its steps, refuses one they do not declare (2), and ends a work-left refusal with 1", () => {
    const dir = marked(0, { 'a.js': '// MARK:option\nconst a = 1;\n' });
    const given = migrate('--stage', 'shim', dir, '--shout', '--label', 'x', '--dry', '--format', 'json');
    expect(given.code).toBe(0);
    expect(JSON.parse(given.stdout).manual.map((m: { reason: string }) => m.reason)).toEqual(['shout=true label=x']);
    const unknown = migrate('--stage', 'shim', dir, '--whisper', '--dry');
    expect([unknown.code, unknown.stderr]).toEqual([2, 'migrate run: the shim stage has no option --whisper; its options: --shout, --label (`migrate run --help` lists the options of every stage, --dry among them)\n']);
    const left = migrate('--stage', 'shim', marked(0, { 'b.js': '// MARK:workleft\n' }), '--allow-dirty');
    expect(left.code).toBe(1);
    expect(left.stdout).toContain('Refused: 1 marked thing(s) still need a human');
    expect(left.stdout).toContain('b.js:1 a marked thing is left');
  });
});
