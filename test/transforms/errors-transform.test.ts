/**
 * The `errors` steps' transform (transforms/handler-move/transform.ts) on a file that no
 * longer matches its plan: a part of a move that cannot be done throws (so the runner fails the
 * file and writes nothing of the stage) instead of being skipped while the other files of the
 * move change; and through the runner, such a file fails the stage with exit 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { API } from 'jscodeshift';
import { describe, expect, it } from 'vitest';
import type { HandlerOptions } from '../../transforms/handler-rewrite/rewrite.js';
import type { MoveEntry } from '../../transforms/handler-move/model.js';
import transformMoves from '../../transforms/handler-move/transform.js';
import { runStage } from '../../runner/run.js';
import { copyOf } from '../helpers/tmp.js';
import { readTree, TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

const ERROR: HandlerOptions = { role: 'error', nextToDefault: true, jsonSettings: false, typescript: false };
const APP = `import express from 'express';\nimport { errorHandler } from './errors.js';\n\nconst app = express();\napp.use(errorHandler);\n\nexport default app;\n`;
const ERRORS = `export function errorHandler(err, req, res, next) {\n  res.status(500).json({ error: err.message });\n}\n`;

function run(file: string, source: string, entries: MoveEntry[]): string | null {
  return transformMoves({ path: file, source }, {} as API, { plan: { file, entries } });
}

describe('a move that cannot be completed throws', () => {
  it('unregister: the registration is not where the plan found it', () => {
    const entry: MoveEntry = { kind: 'unregister', statement: { text: 'app.use(otherHandler);', line: 5 }, argIndex: 0 };
    expect(() => run('app.js', APP, [entry])).toThrow('app.js:5: the registration to delete (`app.use(otherHandler);`) is not where the plan found it');
  });

  it('rewrite: the handler function is not there', () => {
    const entry: MoveEntry = { kind: 'rewrite', fn: { text: 'function gone(err, req, res, next) {}', line: 1 }, options: ERROR, module: 'esm' };
    expect(() => run('errors.js', ERRORS, [entry])).toThrow(/errors\.js:1: the handler function to rewrite .* is not where the plan found it/);
  });

  it('rewrite: the function is there but no longer converts', () => {
    const changed = `export function errorHandler(err, req, res, next) {\n  res.render('error');\n}\n`;
    const entry: MoveEntry = { kind: 'rewrite', fn: { text: changed.trimEnd(), line: 1 }, options: ERROR, module: 'esm' };
    expect(() => run('errors.js', changed, [entry])).toThrow(/the planned handler can no longer be rewritten \(.*res\.render/);
  });

  it('hoist: the registration holds no function at that argument', () => {
    const entry: MoveEntry = { kind: 'hoist', statement: { text: 'app.use(errorHandler);', line: 5 }, argIndex: 0, options: ERROR, name: 'errorHandler', module: 'esm' };
    expect(() => run('app.js', APP, [entry])).toThrow('app.js:5: the registration with the handler to hoist (`app.use(errorHandler);`) is not where the plan found it');
  });

  it('register: the generated module has no buildFastify', () => {
    const entry: MoveEntry = { kind: 'register', method: 'setErrorHandler', import: { specifier: './errors.js', form: { kind: 'named', name: 'errorHandler' }, local: 'errorHandler', module: 'esm' }, from: 'errors.js' };
    expect(() => run('fastify-server.js', `export function build(app) {\n  return app;\n}\n`, [entry])).toThrow("the generated module has no function buildFastify to register errors.js's handler in");
  });
});

describe('through the runner', () => {
  it('a generated module edited so that the handler cannot be registered fails the stage: exit 2, nothing written', async () => {
    const root = copyOf(path.join(TRANSFORM_FIXTURES, 'errors-handler', 'runtime-esm', 'input'));
    const generated = path.join(root, 'src/fastify-server.js');
    writeFileSync(generated, readFileSync(generated, 'utf8').replace('export function buildFastify(app) {', 'export const buildFastify = function (app) {'));
    const before = readTree(root);
    const result = await runStage({ root, stage: 'errors', allowDirty: true });
    expect(result.outcomes.find((o) => o.file === 'src/fastify-server.js')).toMatchObject({ status: 'failed', reason: expect.stringContaining('has no function buildFastify') });
    expect(result.exitCode).toBe(2);
    expect(result.written).toBe(false);
    expect(readTree(root)).toEqual(before);
  });
});
