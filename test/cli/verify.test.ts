/**
 * `migrate verify` and `migrate init` as a user runs them: the built bin, real exit codes, the
 * files they keep (`.migrate/verify/last.json`, `accepted.json`, `config.json`), every report
 * format, a git-ref baseline, and clear failures.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JS fixture tool without types
import { applyMutation, copyApp, loadMutations } from '../../fixtures/verify/tools/apply-mutation.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/migrate.js');
const APP = path.join(ROOT, 'fixtures/apps/modern-e5');
const HAR = path.join(APP, 'recording.har');
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tmpDir(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `cli-verify-${name}-`));
  made.push(dir);
  return dir;
}

function migrate(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A copy of modern-e5 with the `status` mutation (POST /api/notes answers 200, not 201). */
function mutated(): string {
  const dir = path.join(tmpDir('mutated'), 'app');
  applyMutation((loadMutations() as Array<{ id: string }>).find((m) => m.id === 'status'), dir);
  return dir;
}

describe('migrate verify', () => {
  it('passes (exit 0) when the candidate answers like the baseline, and says how much was covered', () => {
    const dir = path.join(tmpDir('same'), 'app');
    copyApp('modern-e5', dir);
    const r = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0 regressions · 0 not verified · 0 with framework deltas only · 0 noise · 0 accepted · 42 pass');
    expect(r.stdout).toContain('Coverage: 18 of 18 routes exercised by the recording');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('PASS: no regressions in 42 requests; 18 of 18 routes exercised');
    const last = JSON.parse(readFileSync(path.join(dir, '.migrate/verify/last.json'), 'utf8'));
    expect(last.gate.failed).toBe(false);
    expect(last.verdict.totals.pass).toBe(42);
  });

  it('fails (exit 1) on a regression, in every format, and --accept makes the next run pass', () => {
    const dir = mutated();
    const junit = path.join(dir, 'out/verify.xml');
    const text = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js', '--junit', junit);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/e10 POST \/api\/notes {2}\(POST \/api\/notes\) {2}201 → 200/);
    expect(text.stdout).toContain('/status  status  201 → 200');
    expect(text.stdout.trim().split('\n').at(-1)).toBe('FAIL: 1 request with regressions');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="POST /api/notes"');
    expect(xml).toMatch(/<testcase classname="POST \/api\/notes" name="e10 POST \/api\/notes — create a note \(201 with Location\)">\s*<failure message="201 → 200&#xA;\/status status: 201 → 200" type="regression"\/>/);

    const json = JSON.parse(migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js', '--format', 'json').stdout);
    expect(json.totals.regression).toBe(1);
    expect(json.exchanges[0]).toMatchObject({ id: 'e10', outcome: 'regression', regressions: [{ pointer: '/status', kind: 'status', baseline: 201, candidate: 200 }] });

    const md = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js', '--format', 'markdown');
    expect(md.code).toBe(1);
    expect(md.stdout.split('\n')[0]).toBe('## ❌ migrate verify: 1 request with regressions');
    expect(md.stdout).toContain('| `/status` | status | 201 → 200 |  |');

    const none = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js', '--accept', 'wrong request', '--accept-only', 'e11');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Nothing to accept for e11');
    const accept = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js', '--accept', 'clients ignore the status of note creation', '--accept-only', 'e10');
    expect(accept.code).toBe(0);
    expect(accept.stderr).toContain('Accepted 1 difference (e10) in .migrate/verify/accepted.json: "clients ignore the status of note creation".');
    expect(accept.stdout).toContain('0 regressions · 0 not verified · 0 with framework deltas only · 0 noise · 1 accepted · 41 pass');
    const accepted = JSON.parse(readFileSync(path.join(dir, '.migrate/verify/accepted.json'), 'utf8'));
    expect(accepted.accepted).toEqual([expect.objectContaining({ request: 'POST /api/notes', pointer: '/status', kind: 'status', reason: 'clients ignore the status of note creation' })]);
    const again = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('1 accepted');
  });

  it('--fail-on uncovered fails when the recording leaves routes out, and lists them', () => {
    const dir = path.join(tmpDir('uncovered'), 'app');
    copyApp('modern-e5', dir);
    const har = JSON.parse(readFileSync(HAR, 'utf8'));
    har.log.entries = har.log.entries.slice(0, 3);
    const short = path.join(dir, 'short.har');
    writeFileSync(short, JSON.stringify(har));
    const loose = migrate(dir, 'verify', '--baseline', APP, '--recording', short, '--entry', 'src/app.js');
    expect(loose.code).toBe(0);
    expect(loose.stdout).toContain('Coverage: 2 of 18 routes exercised by the recording');
    expect(loose.stdout).toMatch(/not exercised: POST \/api\/notes {2}src\/routes\/notes\.js:\d+/);
    const strict = migrate(dir, 'verify', '--baseline', APP, '--recording', short, '--entry', 'src/app.js', '--fail-on', 'uncovered');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('FAIL: 16 routes not exercised by the recording (--fail-on uncovered)');
  });

  it('checks out a git ref as the baseline, and reads its defaults from migrate init', () => {
    const repo = tmpDir('git');
    const dir = path.join(repo, 'app');
    copyApp('modern-e5', dir);
    writeFileSync(path.join(repo, '.gitignore'), 'node_modules\n.migrate/verify\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'express app');
    const source = path.join(dir, 'src/routes/notes.js');
    writeFileSync(source, readFileSync(source, 'utf8').replace('res.status(201).location(', 'res.status(200).location('));
    const init = migrate(dir, 'init', '--baseline', 'main', '--recording', HAR, '--entry', 'src/app.js', '--yes');
    expect(init.code).toBe(0);
    // A branch moves: init stores the commit it names now.
    const main = git('rev-parse', 'main').toString().trim();
    expect(init.stderr).toContain(`Baseline main pinned to commit ${main.slice(0, 12)}`);
    expect(JSON.parse(readFileSync(path.join(dir, '.migrate/config.json'), 'utf8'))).toEqual({ entry: 'src/app.js', baseline: { ref: main }, recordings: [HAR], parity: 'client' });
    expect(migrate(dir, 'init', '--yes').code).toBe(2);
    const r = migrate(dir, 'verify');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('/status  status  201 → 200');
    expect(r.stdout).toContain(`baseline: ${main} (${main.slice(0, 12)}) checked out at `);
    expect(execFileSync('git', ['worktree', 'list'], { cwd: repo, encoding: 'utf8' }).trim().split('\n')).toHaveLength(1);
  });

  it('gives a checked-out baseline the ignored .env and named ignored paths, and refuses a baseline that is the candidate itself', () => {
    const repo = tmpDir('ignored');
    const dir = path.join(repo, 'app');
    const files: Record<string, string> = {
      '.gitignore': 'node_modules\n.env*\n!.env.example\napp/docs/gen/\ndata.sqlite\n',
      'app/package.json': JSON.stringify({ name: 'env-app', version: '1.0.0', main: 'server.js' }),
      // Reads its settings and generated docs at start-up, as dotenv and swagger set-ups do.
      'app/server.js': `const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const env = Object.fromEntries(fs.readFileSync(path.join(__dirname, '.env'), 'utf8').trim().split('\\n').map((l) => l.split('=')));
const title = JSON.parse(fs.readFileSync(path.join(__dirname, 'docs/gen/openapi.json'), 'utf8')).title;
http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ greeting: env.GREETING, title })); }).listen(3000);
`,
      'app/.env.example': 'GREETING=\n',
      'app/.env': 'GREETING=hello\n',
      'app/docs/gen/openapi.json': JSON.stringify({ title: 'Env app' }),
      'app/data.sqlite': 'not copied unless named',
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
      writeFileSync(path.join(repo, rel), text);
    }
    const body = JSON.stringify({ greeting: 'hello', title: 'Env app' });
    const har = { log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [{ startedDateTime: '2026-01-01T00:00:00.000Z', time: 1, request: { method: 'GET', url: 'http://127.0.0.1:3000/', httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 }, response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [{ name: 'content-type', value: 'application/json' }], cookies: [], content: { size: body.length, mimeType: 'application/json', text: body }, redirectURL: '', headersSize: -1, bodySize: body.length }, cache: {}, timings: { send: 0, wait: 1, receive: 0 } }] } };
    writeFileSync(path.join(dir, 'recording.har'), JSON.stringify(har));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } }).trim();
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'app');
    const before = git('rev-parse', 'HEAD');
    writeFileSync(path.join(dir, 'server.js'), `${files['app/server.js']}// migrated\n`);
    git('commit', '-qam', 'migrate: stage shim');

    // The baseline is the migrated commit itself and nothing is uncommitted: refused, with the commit to use.
    const self = migrate(dir, 'verify', '--baseline', 'HEAD', '--recording', 'recording.har', '--entry', 'server.js');
    expect(self.code).toBe(2);
    expect(self.stderr).toContain(`the baseline HEAD is ${git('rev-parse', 'HEAD').slice(0, 12)}, the commit the working tree is at, and nothing is uncommitted`);
    expect(self.stderr).toContain(`--baseline ${before.slice(0, 12)} (the parent of the first "migrate: stage" commit)`);

    // Without copying, the baseline checkout could not start (no .env); with it, the run passes and says what was copied.
    mkdirSync(path.join(dir, '.migrate'), { recursive: true });
    writeFileSync(path.join(dir, '.migrate/config.json'), JSON.stringify({ baseline: { copyIgnored: ['docs/gen', 'no-such-dir'] } }));
    const r = migrate(dir, 'verify', '--baseline', 'HEAD~1', '--recording', 'recording.har', '--entry', 'server.js');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('copied into the baseline from the working tree (git ignores them, so the checkout lacks them): app/.env, app/docs/gen/openapi.json');
    expect(r.stdout).not.toContain('data.sqlite');
    expect(r.stdout).toContain('baseline.copyIgnored: "no-such-dir" matched no git-ignored file of the working tree');

    // A stage run without --commit leaves the change uncommitted: HEAD is then a real baseline.
    writeFileSync(path.join(dir, 'server.js'), `${files['app/server.js']}// migrated again\n`);
    const dirty = migrate(dir, 'verify', '--baseline', 'HEAD', '--recording', 'recording.har', '--entry', 'server.js');
    expect(dirty.code).toBe(0);
  });

  it('exits 2 with the reason when a lane cannot boot or an input is missing', () => {
    const dir = path.join(tmpDir('broken'), 'app');
    copyApp('modern-e5', dir);
    writeFileSync(path.join(dir, 'src/app.js'), "throw new Error('config missing: DATABASE_URL');\n");
    const boot = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js');
    expect(boot.code).toBe(2);
    expect(boot.stderr).toContain('candidate lane');
    expect(boot.stderr).toContain('config missing: DATABASE_URL');
    const empty = path.join(dir, 'empty.har');
    writeFileSync(empty, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } }));
    const nothing = migrate(dir, 'verify', '--baseline', APP, '--recording', empty, '--entry', 'src/app.js');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('has no requests: nothing to replay');
    const noRules = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js', '--rules', 'nope.json');
    expect(noRules.code).toBe(2);
    expect(noRules.stderr).toContain('the rules file nope.json does not exist');
    const noRecording = migrate(dir, 'verify', '--baseline', APP, '--entry', 'src/app.js');
    expect(noRecording.code).toBe(2);
    expect(noRecording.stderr).toContain('no recording: pass --recording <file.har>');
    const badRef = migrate(dir, 'verify', '--baseline', 'no-such-ref', '--recording', HAR, '--entry', 'src/app.js');
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('not inside a git repository');
  });
});

describe('migrate verify, when the replay itself goes wrong', () => {
  it('a credentials module that cannot load stops the lanes and exits 2', () => {
    const dir = path.join(tmpDir('creds'), 'app');
    copyApp('modern-e5', dir);
    const r = spawnSync(process.execPath, [BIN, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js', '--credentials', 'missing-creds.mjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`the credentials module ${path.join(dir, 'missing-creds.mjs')} does not exist`);
  });

  it('a candidate that exits mid-replay is a regression, named with its exit code and output, and the rest is not replayed', () => {
    const dir = path.join(tmpDir('crash'), 'app');
    copyApp('modern-e5', dir);
    const app = path.join(dir, 'src/app.js');
    // GET /health (e2) kills the process.
    writeFileSync(app, readFileSync(app, 'utf8').replace("res.json({ status: 'ok' });", "console.error('fatal: health probe crashed'); process.exit(3);"));
    const r = migrate(dir, 'verify', '--baseline', APP, '--recording', HAR, '--entry', 'src/app.js', '--format', 'json');
    expect(r.code).toBe(1);
    const verdict = JSON.parse(r.stdout);
    expect(verdict.candidateExit).toMatchObject({ at: 'e2', how: 'code 3' });
    expect(verdict.candidateExit.output).toContain('fatal: health probe crashed');
    expect(verdict.exchanges.find((x: { id: string }) => x.id === 'e2').regressions[0]).toMatchObject({ pointer: '/status', candidate: 'no response: the candidate exited (code 3)' });
    expect(verdict.exchanges.find((x: { id: string }) => x.id === 'e3')).toMatchObject({ outcome: 'unverified', note: 'not replayed: the candidate exited (code 3) at e2' });
    expect(verdict.totals.unverified).toBe(40);
  });

  it('says when the baseline answers otherwise than the recording (a stale recording or credential)', () => {
    const dir = path.join(tmpDir('drift'), 'app');
    copyApp('modern-e5', dir);
    const har = JSON.parse(readFileSync(HAR, 'utf8'));
    har.log.entries[1].response.status = 401; // as if the recorded health check had been refused
    const file = path.join(dir, 'drift.har');
    writeFileSync(file, JSON.stringify(har));
    const r = migrate(dir, 'verify', '--baseline', APP, '--recording', file, '--entry', 'src/app.js');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('The baseline answered 1 request with another status than the recording');
    expect(r.stdout).toContain('e2 GET /health: recorded 401, baseline 200');
  });
});
