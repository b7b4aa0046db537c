/**
 * An error handler the app registers late, in a start-up callback after it listens
 * (`db.connect().then(() => { app.use(errorHandler) })`, fixture errors-handler/runtime-late):
 * the errors stage registers it at build time (Fastify forbids setErrorHandler once ready) behind
 * the flag the app now sets in that callback. Run on 127.0.0.1 behind the shim and after the
 * stage: before the callback ran, an error gets the answer it got behind the shim (Fastify's
 * default, where Express's unhandled errors went); after it, the app's handler answers, as it does
 * in Express (errors-runtime.test.ts compares the shim with plain Express).
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStage } from '../../runner/run.js';
import { TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';
import { startListening, stopAll } from '../helpers/listening.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'errors-late-runtime');
const dirs: string[] = [];
afterAll(() => {
  stopAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function copyInput(): string {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(path.join(TMP, 'late-'));
  dirs.push(root);
  cpSync(path.join(TRANSFORM_FIXTURES, 'errors-handler', 'runtime-late', 'input'), root, { recursive: true });
  return root;
}

async function get(port: number, p: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${p}`);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/** Lets the app's database "connect" (SIGUSR2) and waits until the callback's route answers. */
async function connect(lane: { child: ChildProcess; port: number }): Promise<void> {
  lane.child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    if ((await get(lane.port, '/items')).status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the start-up callback never ran');
}

describe('an error handler registered in a start-up callback', () => {
  const before: Record<string, Awaited<ReturnType<typeof get>>> = {};
  const after: Record<string, Awaited<ReturnType<typeof get>>> = {};

  it('moves behind the flag, and each lane answers before and after the callback ran', async () => {
    const [shim, errors] = [copyInput(), copyInput()];
    const result = await runStage({ root: errors, stage: 'errors', allowDirty: true });
    expect(result.moved.map((m) => [m.what, m.done, m.of])).toEqual([['error handlers', 1, 1], ['not-found handlers', 0, 1]]);
    const lanes = {
      shim: await startListening(shim, ['server.js']),
      errors: await startListening(errors, ['server.js']),
    };
    for (const [name, lane] of Object.entries(lanes)) before[name] = await get(lane.port, '/boom');
    for (const [name, lane] of Object.entries(lanes)) {
      await connect(lane);
      after[name] = await get(lane.port, '/boom');
    }
  });

  it('before the callback: the answer the shim gave (Fastify default error answer)', () => {
    expect(before.errors).toEqual(before.shim);
    expect(before.errors.status).toBe(500);
    expect(JSON.parse(before.errors.body)).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'boom' });
  });

  it("after the callback: the app's own handler", () => {
    expect(after.errors).toEqual(after.shim);
    expect(after.errors).toEqual({ status: 500, type: 'application/json; charset=utf-8', body: JSON.stringify({ message: 'boom' }) });
  });
});
