/**
 * runStage with the test-only steps of test/runner/steps/ (see its README): dry and write give
 * the same changes, outcomes per file, refusals, git, check, package.json, the summary.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { runStage, RunError, type RunOptions } from '../../runner/run.js';
import { renderSummary } from '../../runner/summary.js';
import { readTree } from '../helpers/transform-fixtures.js';
import { project } from '../helpers/tmp.js';

const STEPS = path.resolve(import.meta.dirname, 'steps');
const APP = `const express = require('express');\nconst app = express();\napp.get('/', (req, res) => res.send('hi'));\napp.listen(3000);\n`;
const PKG = `{\n    "name": "demo",\n    "version": "1.0.0",\n    "dependencies": {\n        "express": "^4.21.2"\n    }\n}\n`;

/** A small app with marked files; `extra` adds or replaces files. */
function app(extra: Record<string, string> = {}): string {
  return project({ 'package.json': PKG, 'app.js': APP, ...extra });
}

function run(root: string, options: Partial<RunOptions> = {}) {
  return runStage({ root, stage: 'shim', stepsDir: STEPS, allowDirty: true, ...options });
}

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' });
}

function gitRepo(files: Record<string, string>): string {
  const root = app(files);
  git(root, 'init', '-q');
  git(root, 'config', 'user.email', 'test@example.com');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial');
  return root;
}

describe('runStage: changes and outcomes', () => {
  it('runs the steps of a file in order, each on the output of the one before', async () => {
    const root = app({ 'a.js': `// MARK:append\nconst a = 1;\n` });
    const result = await run(root);
    expect(readFileSync(path.join(root, 'a.js'), 'utf8')).toBe(`// MARK:append\nconst a = 1;\nconsole.log('first');\nconsole.log('second');\n`);
    expect(result.outcomes).toEqual([{ file: 'a.js', status: 'changed' }]);
    expect(result.moved).toEqual([{ step: 'mark-first', what: 'marked files', done: 1, of: 1 }]);
    expect(result.written).toBe(true);
    expect(result.threads).toBe(0);
    expect(result.exitCode).toBe(0);
  });

  it('--dry prints a diff that reproduces the write exactly, and writes nothing', async () => {
    const files = { 'a.js': `// MARK:append\nconst a = 1;\n`, 'src/b.js': `// MARK:create MARK:deps\nmodule.exports = 2;\n` };
    const dryRoot = app(files);
    const before = readTree(dryRoot);
    const dry = await run(dryRoot, { dry: true });
    expect(readTree(dryRoot)).toEqual(before);
    expect(dry.written).toBe(false);
    expect(dry.exitCode).toBe(0);
    expect(dry.changes.map((c) => c.file)).toEqual(['a.js', 'created.js', 'package.json']);
    expect(dry.diff).toContain('--- /dev/null\n+++ b/created.js\n');

    const writeRoot = app(files);
    const written = await run(writeRoot);
    expect(written.diff).toBe(dry.diff);
    const after = readTree(writeRoot);
    const patched = { ...before };
    for (const patch of parsePatch(dry.diff)) {
      const file = patch.newFileName!.replace(/^b\//, '');
      patched[file] = applyPatch(before[file] ?? '', patch) as string;
    }
    expect(patched).toEqual(after);
    expect(after['created.js']).toBe("module.exports = 'created';\n");
  });

  it('never reprints a file whose transforms return null or the same text (bytes and mtime kept)', async () => {
    const root = app({ 'same.js': `// MARK:same\nconst  a  =  1\n`, 'null.js': `// MARK:null\nconst b = {...x || {}}\n` });
    const old = new Date('2020-01-01T00:00:00Z');
    for (const f of ['same.js', 'null.js']) execFileSync('touch', ['-d', old.toISOString(), path.join(root, f)]);
    const result = await run(root);
    expect(result.outcomes).toEqual([
      { file: 'null.js', status: 'unchanged' },
      { file: 'same.js', status: 'unchanged' },
    ]);
    expect(result.changes).toEqual([]);
    expect(readFileSync(path.join(root, 'same.js'), 'utf8')).toBe(`// MARK:same\nconst  a  =  1\n`);
    for (const f of ['same.js', 'null.js']) expect(statSync(path.join(root, f)).mtime.getTime()).toBe(old.getTime());
  });

  it('skips a file whose input does not parse: planned work not done is left for a human (exit 1, --check 1)', async () => {
    const root = app({ 'bad.js': `// MARK:append\nconst = 1;\n`, 'good.js': `// MARK:append\nconst a = 1;\n` });
    expect((await run(root, { check: true })).exitCode).toBe(1);
    const result = await run(root);
    expect(result.outcomes).toEqual([
      { file: 'bad.js', status: 'skipped', reason: 'does not parse (2:7 Unexpected token); not transformed' },
      { file: 'good.js', status: 'changed' },
    ]);
    expect(readFileSync(path.join(root, 'bad.js'), 'utf8')).toBe(`// MARK:append\nconst = 1;\n`);
    expect(result.manual).toEqual([{ file: 'bad.js', line: 2, code: 'parse-error', reason: 'does not parse (2:7 Unexpected token), so the stage did not change it: fix the syntax and run the stage again' }]);
    expect(result.exitCode).toBe(1);
    expect(renderSummary(result)).toContain('Left for a human (1)\n  bad.js:2 does not parse (2:7 Unexpected token), so the stage did not change it');
    // Once the rest is written, the file that does not parse still needs a human: --check and a new run say so.
    expect((await run(root, { check: true })).exitCode).toBe(1);
    expect((await run(root)).exitCode).toBe(1);
  });

  it('a transform emitting code that does not parse fails its file; nothing of the stage is written (exit 2)', async () => {
    const root = app({ 'broken.js': `// MARK:broken\nconst a = 1;\n`, 'good.js': `// MARK:append\nconst a = 1;\n` });
    const before = readTree(root);
    const result = await run(root);
    expect(result.outcomes[0]).toEqual({ file: 'broken.js', status: 'failed', reason: 'step mark-first produced code that does not parse (4:7 Unexpected token); file left untouched' });
    expect(result.outcomes[1]).toEqual({ file: 'good.js', status: 'changed' });
    expect(result.exitCode).toBe(2);
    expect(result.written).toBe(false);
    expect(readTree(root)).toEqual(before);
    expect(renderSummary(result)).toContain('nothing was written');
  });

  it('a transform that throws fails its file with the message and the frame in the step', async () => {
    const root = app({ 'throws.ts': `// MARK:throw\nconst a: number = 1;\n` });
    const result = await run(root);
    expect(result.outcomes[0].status).toBe('failed');
    expect(result.outcomes[0].reason).toMatch(/^step mark-first threw: boom from a test transform \(at .*mark-first\/transform\.js:\d+:\d+\)$/);
    expect(result.exitCode).toBe(2);
  });

  it('TODO(migrate) lines in changed files and manual items are listed and exit 1', async () => {
    const root = app({ 'todo.js': `// MARK:todo\nconst a = 1;\n`, 'm.js': `// MARK:manual\n` });
    const result = await run(root);
    expect(result.todos).toEqual([{ file: 'todo.js', line: 3, text: 'check this by hand' }]);
    expect(result.manual).toEqual([{ file: 'm.js', line: 1, reason: 'a marked thing needs a human', code: 'test-manual' }]);
    expect(result.exitCode).toBe(1);
    const text = renderSummary(result);
    expect(text).toContain('todo.js:3 TODO(migrate) check this by hand');
    expect(text).toContain('m.js:1 a marked thing needs a human');
  });

  it('a second run changes nothing', async () => {
    const root = app({ 'a.js': `// MARK:append\nconst a = 1;\n`, 'c.js': `// MARK:create MARK:deps\n` });
    expect((await run(root)).changes.map((c) => c.file)).toEqual(['a.js', 'created.js', 'package.json']);
    const again = await run(root);
    expect(again.changes).toEqual([]);
    expect(again.outcomes).toEqual([
      { file: 'a.js', status: 'unchanged' },
      { file: 'created.js', status: 'unchanged' },
    ]);
    expect(again.exitCode).toBe(0);
    // What moved is the app's state, not this run's work: the summary says so (a step's counts are what the code has moved).
    const moved = [{ step: 'mark-append', what: 'marked lines', done: 1, of: 1 }];
    expect(renderSummary({ ...again, moved })).toContain('Moved (as the app is already: this run changed nothing)\n  mark-append: moved 1 of 1 marked lines');
    expect(renderSummary({ ...again, moved }, { check: true })).toContain('Moved (as the app is already: this run would change nothing)');
    expect(renderSummary({ ...again, moved, outcomes: [{ file: 'a.js', status: 'changed' }] })).toContain('\nMoved\n  mark-append: moved 1 of 1');
  });
});

describe('runStage: package.json', () => {
  it('adds the dependencies as one more change, keeping the file\'s indentation, order and final newline', async () => {
    const root = app({ 'a.js': `// MARK:deps MARK:append\n` });
    const result = await run(root);
    expect(result.dependencies).toEqual({ '@fastify/express': '^4.0.7', fastify: '^5.2.0' });
    expect(readFileSync(path.join(root, 'package.json'), 'utf8')).toBe(
      `{\n    "name": "demo",\n    "version": "1.0.0",\n    "dependencies": {\n        "@fastify/express": "^4.0.7",\n        "express": "^4.21.2",\n        "fastify": "^5.2.0"\n    }\n}\n`,
    );
    expect(result.installCommand).toBe('npm install');
    expect(renderSummary(result)).toContain('@fastify/express@^4.0.7, fastify@^5.2.0\n  install them: npm install');
  });

  it('uses the project\'s package manager in the install command', async () => {
    const root = app({ 'a.js': `// MARK:deps\n// MARK:append\n`, 'pnpm-lock.yaml': 'lockfileVersion: 9.0\n' });
    expect((await run(root, { dry: true })).installCommand).toBe('pnpm install');
  });
});

describe('runStage: git and refusals', () => {
  it('refuses a dirty tree, accepts it with allowDirty, --dry or --check, and ignores .migrate/', async () => {
    const root = gitRepo({ 'a.js': `// MARK:append\nconst a = 1;\n` });
    mkdirSync(path.join(root, '.migrate'), { recursive: true });
    writeFileSync(path.join(root, '.migrate/config.json'), '{}\n');
    // Only .migrate/ changed: not dirty.
    await expect(run(root, { allowDirty: false, dry: true })).resolves.toMatchObject({ exitCode: 0 });
    writeFileSync(path.join(root, 'app.js'), APP + '// edited\n');
    const refusal = await run(root, { allowDirty: false }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RunError);
    expect((refusal as RunError).code).toBe('dirty-tree');
    expect((refusal as RunError).message).toContain(' M app.js');
    expect((refusal as RunError).message).not.toContain('.migrate');
    expect((await run(root, { allowDirty: false, check: true })).exitCode).toBe(1);
    expect((await run(root, { allowDirty: true })).written).toBe(true);
  });

  it('--commit makes one commit with exactly the changed files', async () => {
    const root = gitRepo({ 'a.js': `// MARK:append\nconst a = 1;\n`, 'b.js': `// MARK:deps MARK:same\n` });
    const result = await run(root, { allowDirty: false, commit: true });
    expect(result.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(root, 'log', '--format=%s').trim().split('\n')).toEqual(['migrate: stage shim', 'initial']);
    expect(git(root, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['a.js', 'package.json']);
    expect(git(root, 'status', '--porcelain')).toBe('');
    const text = renderSummary(result);
    expect(text).toContain(`git revert ${result.commit!.slice(0, 12)}`);
    expect(text).toContain(`review the changes (\`git show ${result.commit!.slice(0, 12)}\`)`);
    expect(text).not.toContain('git diff');
    expect(result.verify).toEqual({ command: `migrate verify ${path.relative(process.cwd(), root)} --baseline HEAD~1 --recording <recording.har>`, configured: false, needsRecording: true });
  });

  it('outside a git repository: runs with a note, and refuses --commit', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'migrate-nogit-'));
    cpSync(app({ 'a.js': `// MARK:append\nconst a = 1;\n` }), root, { recursive: true });
    const result = await run(root, { allowDirty: false });
    expect(result.notes).toContain(`${root} is not in a git repository: keep a copy to undo the stage`);
    await expect(run(root, { commit: true })).rejects.toMatchObject({ code: 'not-a-repo' });
  });

  it('--check: exit 1 while the stage would change a file, 0 once it is done; nothing written', async () => {
    const root = app({ 'a.js': `// MARK:append\nconst a = 1;\n` });
    const check = await run(root, { check: true });
    expect(check.exitCode).toBe(1);
    expect(readFileSync(path.join(root, 'a.js'), 'utf8')).toBe(`// MARK:append\nconst a = 1;\n`);
    await run(root);
    expect((await run(root, { check: true })).exitCode).toBe(0);
  });

  it('refuses an unknown stage, a stage without steps (naming those with steps) and a missing folder', async () => {
    const root = app();
    await expect(runStage({ root, stage: 'nope' as never, stepsDir: STEPS })).rejects.toMatchObject({ code: 'unknown-stage' });
    await expect(runStage({ root, stage: 'routes', stepsDir: STEPS })).rejects.toMatchObject({ code: 'no-steps', message: "stage 'routes' has no steps yet; stages with steps: shim" });
    await expect(runStage({ root: path.join(root, 'missing'), stage: 'shim', stepsDir: STEPS })).rejects.toMatchObject({ code: 'not-a-project' });
  });
});

describe('runStage: refusals of what is not there to migrate', () => {
  it('a project without any app: RunError no-app, naming the entry and what to do', async () => {
    const root = project({ 'package.json': PKG.replace('"version": "1.0.0",', '"version": "1.0.0",\n    "main": "index.js",'), 'index.js': `require('http').createServer((q, s) => s.end('x')).listen(3000);\n// MARK:append\n` });
    await expect(run(root)).rejects.toMatchObject({ code: 'no-app', message: 'no Express app was found from the entry index.js, so there is nothing to migrate: if the app is created elsewhere, pass --entry <file that creates or starts it>' });
    expect(readFileSync(path.join(root, 'index.js'), 'utf8')).not.toContain("console.log('first')");
  });

  it('an entry that does not parse: RunError no-app naming the parse error', async () => {
    const root = app({ 'app.js': `const express = require('express');\nconst app = express(;\n` });
    await expect(run(root)).rejects.toMatchObject({ code: 'no-app', message: expect.stringMatching(/^no Express app was found from the entry app\.js, so there is nothing to migrate: fix the syntax error \(app\.js:2:\d+ .+\) and run the stage again$/) });
  });

  it('a file the analysis could not parse is left for a human (exit 1 when writing; --dry still exits 0)', async () => {
    const root = app({ 'a.js': `// MARK:append\nconst a = 1;\n`, 'app.js': `${APP}require('./routes');\n`, 'routes.js': `module.exports = (;\n` });
    const dry = await run(root, { dry: true });
    expect(dry.manual).toContainEqual(expect.objectContaining({ file: 'routes.js', line: 1, code: 'parse-error', reason: expect.stringMatching(/^routes\.js does not parse: .* the analysis skipped this file, so the stage planned nothing in it/) }));
    expect(dry.exitCode).toBe(0);
    const written = await run(root);
    expect(written.exitCode).toBe(1);
  });

  it('a step that refuses (StepRefusal): RunError refused with its message, nothing written', async () => {
    const root = app({ 'a.js': `// MARK:append MARK:refuse\nconst a = 1;\n` });
    await expect(run(root)).rejects.toMatchObject({ code: 'refused', message: 'run the marked stage first' });
    expect(readFileSync(path.join(root, 'a.js'), 'utf8')).toBe(`// MARK:append MARK:refuse\nconst a = 1;\n`);
  });
});

describe('runStage: the step contract (issue 15)', () => {
  it('a step that refuses because work is left (StepWorkLeft): exit 1, its message and items, nothing written', async () => {
    const root = app({ 'a.js': `// MARK:append MARK:workleft\nconst a = 1;\n` });
    const result = await run(root);
    expect([result.exitCode, result.refusal, result.written, result.changes]).toEqual([1, '1 marked thing(s) still need a human', false, []]);
    expect(result.manual.map((m) => [m.code, `${m.file}:${m.line}`, m.reason])).toEqual([['test-left', 'a.js:1', 'a marked thing is left']]);
    expect(readFileSync(path.join(root, 'a.js'), 'utf8')).toBe(`// MARK:append MARK:workleft\nconst a = 1;\n`);
    expect(renderSummary(result)).toContain('Refused: 1 marked thing(s) still need a human\n  nothing was written');
  });

  it("the stage's options reach its planners, defaults filled in; an option no step declares, or of the wrong type, is refused", async () => {
    const root = app({ 'a.js': `// MARK:option\nconst a = 1;\n` });
    expect((await run(root, { stageOptions: {} })).manual.map((m) => m.reason)).toEqual(['shout=false label=none']);
    expect((await run(root, { stageOptions: { shout: true, label: 'x' } })).manual.map((m) => m.reason)).toEqual(['shout=true label=x']);
    await expect(run(root, { stageOptions: { whisper: true } })).rejects.toMatchObject({ code: 'bad-option', message: 'the shim stage has no option --whisper; its options: --shout, --label (`migrate run --help` lists the options of every stage, --dry among them)' });
    await expect(run(root, { stageOptions: { shout: 'loud' } })).rejects.toMatchObject({ code: 'bad-option', message: '--shout takes a boolean' });
  });

  it('a step removes packages from package.json (dependencies and devDependencies, a section left empty with them), keeping the rest of the text', async () => {
    const root = app({ 'a.js': `// MARK:undeps\nconst a = 1;\n` });
    writeFileSync(path.join(root, 'package.json'), '{\n  "name": "x",\n  "dependencies": {\n    "express": "^4.21.2",\n    "left-pad": "^1.3.0"\n  },\n  "devDependencies": {\n    "left-pad": "^1.3.0"\n  }\n}\n');
    const result = await run(root);
    expect(result.removedDependencies).toEqual(['left-pad']);
    expect(readFileSync(path.join(root, 'package.json'), 'utf8')).toBe('{\n  "name": "x",\n  "dependencies": {\n    "express": "^4.21.2"\n  }\n}\n');
  });
});

describe('runStage: items deferred to a later stage', () => {
  it('are listed under their stage, with no exit 1', async () => {
    const result = await run(app({ 'a.js': `// MARK:append\nconst a = 1;\n`, 'd.js': `// MARK:deferred\n` }));
    expect(result.deferred).toEqual([{ file: 'd.js', line: 1, reason: 'a marked thing the routes stage takes', code: 'test-deferred', stage: 'routes' }]);
    expect(result.manual).toEqual([]);
    expect(result.exitCode).toBe(0);
    const text = renderSummary(result);
    expect(text).toContain('Left for the routes stage (1)\n  d.js:1 a marked thing the routes stage takes\n');
    expect(text).not.toContain('Left for a human');
  });
});

describe('renderSummary', () => {
  it('counts outcomes, lists files, moves, deltas and what to do next', async () => {
    const root = app({ 'a.js': `// MARK:append MARK:delta\n`, 'same.js': `// MARK:same\n`, 'bad.js': `// MARK:append\nconst = 1\n` });
    const text = renderSummary(await run(root));
    expect(text).toMatch(/^Stage shim: 1 changed, 1 unchanged, 1 skipped, 0 failed\n/);
    expect(text).toContain('  changed   a.js\n');
    expect(text).toContain('  skipped   bad.js — does not parse');
    expect(text).toContain('  mark-first: moved 2 of 2 marked files');
    expect(text).toContain(
      'Framework defaults that now differ (not restored)\n' +
        '  - X-Powered-By is no longer sent; --parity express restores it.\n' +
        '  - No automatic ETag; --parity express does not restore it either.\n',
    );
    expect(text).not.toContain('--parity express restores them');
    // Not a git repository: the baseline is the user's copy of the app.
    expect(text).toContain(`check behaviour against the recording: \`migrate verify ${path.relative(process.cwd(), root)} --baseline <copy-of-the-app-before-the-stage> --recording <recording.har>\``);
    expect(text).not.toMatch(/\x1b\[/);
    const dry = renderSummary(await run(app({ 'a.js': `// MARK:append\nconst a = 1;\n` }), { dry: true }), { dry: true });
    expect(dry).toMatch(/^Stage shim: 1 would change, 0 unchanged/);
    expect(dry).toContain('run again without --dry');
  });

  it('lists a file the stage creates as created, and counts it apart', async () => {
    const result = await run(app({ 'a.js': `// MARK:append\nconst a = 1;\n`, 'c.js': `// MARK:create\n` }));
    expect(result.outcomes).toEqual([
      { file: 'a.js', status: 'changed' },
      { file: 'created.js', status: 'changed', created: true },
    ]);
    const text = renderSummary(result);
    expect(text).toMatch(/^Stage shim: 1 changed, 1 created, 0 unchanged, 0 skipped, 0 failed\n  changed   a\.js\n  created   created\.js\n/);
  });

  it('says plain `migrate verify` once .migrate/config.json gives the baseline and a recording', async () => {
    const root = app({ 'a.js': `// MARK:append\nconst a = 1;\n`, '.migrate/config.json': '{ "baseline": { "ref": "main" }, "recordings": [".migrate/recordings/r.har"] }\n' });
    const result = await run(root);
    expect(result.verify).toEqual({ command: `migrate verify ${path.relative(process.cwd(), root)}`, configured: true, needsRecording: false });
  });
});

describe('runStage: --typecheck', () => {
  const TSCONFIG = `{ "compilerOptions": { "strict": true, "noEmit": true, "module": "commonjs", "target": "ES2022", "types": [] }, "include": ["*.ts"] }\n`;

  it('fails the stage (exit 2, files stay written) on errors it introduced, not on those that were there', async () => {
    const root = app({ 'tsconfig.json': TSCONFIG, 'a.ts': `// MARK:typeerror\nconst old: string = 1;\nexport {};\n` });
    const result = await run(root, { typecheck: true });
    expect(result.typecheck?.before).toEqual([`a.ts(2,7): error TS2322: Type 'number' is not assignable to type 'string'.`]);
    expect(result.typecheck?.introduced).toEqual([`a.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'.`]);
    expect(result.exitCode).toBe(2);
    expect(result.written).toBe(true);
    expect(result.notes.at(-1)).toBe('the files stay written; undo the stage from your copy of the files');
    expect(renderSummary(result)).toContain(`Type check: 1 new error\n  a.ts(4,7): error TS2322`);
  });

  it('passes when the stage adds no error, and says when there is no tsconfig.json', async () => {
    const ok = await run(app({ 'tsconfig.json': TSCONFIG, 'a.ts': `// MARK:append\nconst a: number = 1;\nexport {};\n` }), { typecheck: true });
    expect(ok.typecheck).toEqual({ before: [], after: [], introduced: [] });
    expect(ok.exitCode).toBe(0);
    const none = await run(app({ 'a.js': `// MARK:append\nconst a = 1;\n` }), { typecheck: true });
    expect(none.typecheck).toBeNull();
    expect(none.notes).toContain('--typecheck skipped: the project has no tsconfig.json');
  });
});

describe('runStage: route parity', () => {
  it('a route that disappears or is served twice fails the stage (exit 2); the files stay written', async () => {
    const dropped = await run(gitRepo({ 'app.js': `// MARK:droproute\n${APP}` }), { allowDirty: false });
    expect(dropped.parity).toEqual({ missing: ['GET /'], duplicated: [] });
    expect(dropped.exitCode).toBe(2);
    expect(dropped.written).toBe(true);
    expect(dropped.notes.at(-1)).toBe('the files stay written; undo the stage with `git restore -- app.js` (or `git checkout -- …`)');
    expect(renderSummary(dropped)).toContain('Route parity FAILED\n  route GET / is no longer served\n');
    const doubled = await run(app({ 'app.js': `// MARK:duproute\n${APP}` }));
    expect(doubled.parity).toEqual({ missing: [], duplicated: ['GET /'] });
    expect(doubled.exitCode).toBe(2);
  });

  it('a stage that keeps every route passes the check', async () => {
    const result = await run(app({ 'a.js': `// MARK:append\nconst a = 1;\n` }));
    expect(result.parity).toEqual({ missing: [], duplicated: [] });
    expect(renderSummary(result)).toContain('Route parity: ok');
  });
});
