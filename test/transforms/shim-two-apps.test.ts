/**
 * Two apps started from one folder each get a Fastify built from their own settings (issue 16):
 * fixtures/transforms/shim-server/two-apps-one-folder run through the shim and the routes stage
 * (so the routes are Fastify's and its router options decide), then both apps started and asked
 * the same as plain Express: the admin app's case-sensitive routing and simple query parser apply
 * to its routes only, the public app keeps Express's defaults.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStage } from '../../runner/run.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const INPUT = path.join(REPO, 'fixtures/transforms/shim-server/two-apps-one-folder/input');
const children: ChildProcess[] = [];
const made: string[] = [];

/** Starts `node server.js` in `dir` on a free port pair; resolves with both ports once both apps listen. */
async function start(dir: string): Promise<{ pub: number; admin: number }> {
  // The app listens on PORT and PORT + 1; a port from the upper range, different per start.
  const port = 20_000 + Math.floor(Math.random() * 20_000) * 2;
  const child = spawn(process.execPath, ['server.js'], { cwd: dir, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += c;
      if (out.includes(`pub on ${port}`) && out.includes(`admin on ${port + 1}`)) resolve();
    });
    child.stderr!.on('data', (c) => (out += c));
    child.on('exit', (code) => reject(new Error(`server.js exited with ${code}: ${out}`)));
  });
  return { pub: port, admin: port + 1 };
}

async function get(port: number, url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, { signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  return { status: res.status, body: res.status === 200 ? JSON.parse(text) : null };
}

const REQUESTS: Array<['pub' | 'admin', string]> = [
  ['pub', '/Hello?a[b]=1'],
  ['pub', '/hello'],
  ['admin', '/Hello?a[b]=1'],
  ['admin', '/hello'],
];

describe('two apps started in one folder, each behind a Fastify with its own settings', () => {
  let express: { pub: number; admin: number };
  let migrated: { pub: number; admin: number };
  let modules: string[] = [];

  beforeAll(async () => {
    const tmp = path.join(REPO, '.tmp');
    mkdirSync(tmp, { recursive: true });
    const [plain, shimmed] = [mkdtempSync(path.join(tmp, 'two-apps-express-')), mkdtempSync(path.join(tmp, 'two-apps-fastify-'))];
    made.push(plain, shimmed);
    cpSync(INPUT, plain, { recursive: true });
    cpSync(INPUT, shimmed, { recursive: true });
    const shim = await runStage({ root: shimmed, stage: 'shim', allowDirty: true });
    modules = shim.changes.filter((c) => c.before === null).map((c) => c.file).sort();
    const routes = await runStage({ root: shimmed, stage: 'routes', allowDirty: true });
    expect(routes.moved.find((m) => m.step === 'routes-move')).toMatchObject({ done: 2, of: 2 });
    [express, migrated] = await Promise.all([start(plain), start(shimmed)]);
  }, 120_000);

  afterAll(() => {
    for (const c of children) c.kill();
    for (const d of made) rmSync(d, { recursive: true, force: true });
  });

  it('the shim wrote one module per app', () => {
    expect(modules).toEqual(['fastify-server-admin.js', 'fastify-server.js']);
  });

  for (const [app, url] of REQUESTS) {
    it(`${app} GET ${url}: the same status and body as Express`, async () => {
      const want = await get(express[app], url);
      const got = await get(migrated[app], url);
      expect(got).toEqual(want);
    });
  }

  it('the requests tell the settings apart (each app answers with its own)', async () => {
    expect(await get(migrated.pub, '/Hello?a[b]=1')).toEqual({ status: 200, body: { app: 'pub', query: { a: { b: '1' } } } });
    expect(await get(migrated.pub, '/hello')).toEqual({ status: 200, body: { app: 'pub', query: {} } });
    expect(await get(migrated.admin, '/Hello?a[b]=1')).toEqual({ status: 200, body: { app: 'admin', query: { 'a[b]': '1' } } });
    expect((await get(migrated.admin, '/hello')).status).toBe(404);
  });
});
