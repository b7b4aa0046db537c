import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LaneError, startLane, type Lane, type LaneSpec } from '../../verifier/lane.js';
import { project } from '../helpers/tmp.js';

const repo = path.resolve(import.meta.dirname, '../..');
const apps = path.join(repo, 'fixtures/apps');
const fixtures = path.join(import.meta.dirname, 'fixtures/lanes');

const running: Lane[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((l) => l.stop()));
});

async function start(spec: Omit<LaneSpec, 'name'> & { name?: string }): Promise<Lane> {
  const lane = await startLane({ name: 'candidate', ...spec });
  running.push(lane);
  return lane;
}

async function get(lane: Lane, url: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(lane.origin + url, { redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

async function failure(spec: Omit<LaneSpec, 'name'>): Promise<LaneError> {
  const err = await startLane({ name: 'baseline', ...spec }).then(
    (lane) => {
      running.push(lane);
      throw new Error(`expected the lane to fail, it listens on ${lane.origin}`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LaneError);
  return err as LaneError;
}

function entryOf(app: string): string {
  return (JSON.parse(readFileSync(path.join(apps, app, 'expected-routes.json'), 'utf8')) as { entry: string }).entry;
}

describe('lanes on the example apps (modules that export the app without listening)', () => {
  it('url-shortener (ESM, Express 4)', async () => {
    const lane = await start({ dir: path.join(apps, 'url-shortener'), entry: entryOf('url-shortener') });
    expect(lane.origin).toBe(`http://127.0.0.1:${lane.port}`);
    const res = await get(lane, '/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>URL Shortener</title>');
    expect(lane.output()).toContain('starting the Express app exported as default');
  });

  it('modern-e5 (ESM, Express 5 from its own node_modules)', async () => {
    const lane = await start({ dir: path.join(apps, 'modern-e5'), entry: entryOf('modern-e5') });
    const res = await get(lane, '/');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ name: 'modern-e5', express: 5 });
  });

  it('legacy-cjs (CommonJS, module.exports = app)', async () => {
    const lane = await start({ dir: path.join(apps, 'legacy-cjs'), entry: entryOf('legacy-cjs') });
    const res = await get(lane, '/archive/2023');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Archive 2023</h1>');
  });

  it('shop-api (TypeScript entry, run through our tsx)', async () => {
    const lane = await start({ dir: path.join(apps, 'shop-api'), entry: 'src/app.ts' });
    const res = await get(lane, '/version');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ name: 'shop-api', version: '1.0.0' });
    expect((await get(lane, '/')).status).toBe(302);
  });
});

describe('apps that listen by themselves', () => {
  it('url-shortener/src/index.js asks for port 3000 and gets a free loopback port', async () => {
    const lane = await start({ dir: path.join(apps, 'url-shortener'), entry: 'src/index.js', env: { PORT: '3000' } });
    expect(lane.port).not.toBe(3000);
    // The app logs server.address().port in its listen callback, which runs after we are told.
    await waitFor(() => lane.output().includes(`PORT ${lane.port}`));
    expect(lane.output()).toContain('running in production mode'); // NODE_ENV defaults to production
    expect((await get(lane, '/')).status).toBe(200);
  });

  it('modern-e5/src/server.js asks for 0.0.0.0:3000 and binds 127.0.0.1 on a free port', async () => {
    const lane = await start({ dir: path.join(apps, 'modern-e5'), entry: 'src/server.js', env: { PORT: '3000', HOST: '0.0.0.0' } });
    expect(lane.port).not.toBe(3000);
    // The app prints the host it asked for and the port it was given.
    await waitFor(() => lane.output().includes(`modern-e5 listening on http://0.0.0.0:${lane.port}`));
    expect(JSON.parse((await get(lane, '/health')).text)).toEqual({ status: 'ok' });
  });

  it('every server goes to 127.0.0.1; the first is reported, a second one on the same port gets another', async () => {
    const lane = await start({ dir: fixtures, entry: 'listens-everywhere.cjs' });
    await waitFor(() => lane.output().includes('"metrics"'));
    const { main, metrics } = JSON.parse(lane.output().trim().split('\n').at(-1)!) as Record<string, net.AddressInfo>;
    expect(main).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port: lane.port });
    expect(metrics.address).toBe('127.0.0.1');
    expect(metrics.port).not.toBe(lane.port);
    expect(JSON.parse((await get(lane, '/')).text)).toMatchObject({ server: 'main' });
  });

  it('fastify.listen({ port: 3000 }) on its default host ends up on 127.0.0.1 only', async () => {
    const lane = await start({ dir: fixtures, entry: 'fastify-listens.mjs' });
    expect(lane.port).not.toBe(3000);
    expect(JSON.parse((await get(lane, '/kind')).text)).toEqual({ kind: 'fastify-listens', address: { address: '127.0.0.1', family: 'IPv4', port: lane.port } });
  });

  it('a module that listens later (after connecting somewhere) is waited for', async () => {
    const lane = await start({ dir: fixtures, entry: 'listens-later.mjs' });
    expect((await get(lane, '/')).text).toBe('connected');
  });

  it('takes the port it is given', async () => {
    const port = await freePort();
    const lane = await start({ dir: fixtures, entry: 'fastify-export.mjs', port });
    expect(lane.port).toBe(port);
    expect(lane.origin).toBe(`http://127.0.0.1:${port}`);
  });
});

describe('apps started from their exports', () => {
  it('a Fastify instance', async () => {
    const lane = await start({ dir: fixtures, entry: 'fastify-export.mjs' });
    expect(JSON.parse((await get(lane, '/kind')).text)).toEqual({ kind: 'fastify-instance' });
    expect(lane.output()).toContain('starting the Fastify instance exported as default');
  });

  it('an async zero-argument factory (buildApp) of a Fastify instance', async () => {
    const lane = await start({ dir: fixtures, entry: 'factory.mjs' });
    expect(JSON.parse((await get(lane, '/kind')).text)).toEqual({ kind: 'factory' });
    expect(lane.output()).toContain('"buildApp"()');
  });

  it('a CommonJS factory (module.exports = { createApp }) of an http.Server', async () => {
    const lane = await start({ dir: fixtures, entry: 'factory-exports.cjs' });
    expect(JSON.parse((await get(lane, '/x?y=1')).text)).toEqual({ kind: 'cjs-factory', url: '/x?y=1' });
    expect(lane.output()).toContain('starting the http.Server exported as "createApp"()');
  });

  it('a TypeScript CommonJS entry (.cts, export = server)', async () => {
    const lane = await start({ dir: fixtures, entry: path.join(fixtures, 'typed.cts') });
    expect(JSON.parse((await get(lane, '/')).text)).toEqual({ kind: 'cts', typed: true });
  });
});

describe('lanes that cannot start', () => {
  it('a module that throws while loading: exit code and the error text', async () => {
    const err = await failure({ dir: fixtures, entry: 'throws.mjs' });
    expect(err.code).toBe('LANE_EXITED');
    expect(err.lane).toBe('baseline');
    expect(err.message).toMatch(/^baseline lane: exited with code 1 before listening/);
    expect(err.message).toContain('Error: DATABASE_URL is not set');
    expect(err.output).toContain('loading throws.mjs threw');
  });

  it('a module that neither listens nor exports an app: names what it exports', async () => {
    const err = await failure({ dir: fixtures, entry: 'nothing.mjs' });
    expect(err.code).toBe('LANE_EXITED');
    expect(err.message).toContain('nothing.mjs did not call listen and exports nothing a lane can start');
    expect(err.message).toContain('answer (number), connect (function with 2 parameter(s))');
  });

  it('a module that does not listen in time: killed, timeout in the message', async () => {
    const started = Date.now();
    const err = await failure({ dir: fixtures, entry: 'hangs.mjs', startTimeoutMs: 700 });
    expect(err.code).toBe('LANE_TIMEOUT');
    expect(err.message).toMatch(/^baseline lane: timed out after 700 ms without listening/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a missing entry or folder', async () => {
    expect((await failure({ dir: fixtures, entry: 'missing.mjs' })).message).toContain(`entry ${path.join(fixtures, 'missing.mjs')} does not exist`);
    expect((await failure({ dir: path.join(fixtures, 'nope'), entry: 'x.js' })).code).toBe('LANE_BAD_SPEC');
  });
});

describe('setup, environment, stop', () => {
  const appSource = `
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
const state = existsSync('state.txt') ? readFileSync('state.txt', 'utf8').trim() : null; // read at boot
export default http.createServer((req, res) => {
  res.end(JSON.stringify({ state, greeting: process.env.GREETING, secret: process.env.SECRET, nodeEnv: process.env.NODE_ENV }));
});
`;

  it('runs setup in the app folder before boot; envFile values reach the app, env wins over them', async () => {
    const dir = project({ 'server.mjs': appSource, '.env.lane': 'GREETING="hello from the $MIGRATE_LANE file"\nSECRET=from-file\n' });
    const lane = await start({
      dir,
      entry: 'server.mjs',
      setup: 'printf "seeded by $MIGRATE_LANE" > state.txt',
      envFile: '.env.lane',
      env: { SECRET: 'from-spec' },
    });
    expect(JSON.parse((await get(lane, '/')).text)).toEqual({
      state: 'seeded by candidate',
      greeting: 'hello from the candidate file', // $MIGRATE_LANE in an env file is the lane's name
      secret: 'from-spec',
      nodeEnv: 'production',
    });
  });

  it('setup may build the entry: it is looked for after setup (a checked-out baseline has no build yet)', async () => {
    const dir = project({ 'src.mjs': appSource });
    const lane = await start({ dir, entry: 'build/server.mjs', setup: 'mkdir -p build && cp src.mjs build/server.mjs && echo built > state.txt' });
    expect(JSON.parse((await get(lane, '/')).text).state).toBe('built');
    const err = await failure({ dir, entry: 'build/other.mjs', setup: 'true' });
    expect(err.code).toBe('LANE_BAD_SPEC');
    expect(err.message).toContain(`entry ${path.join(dir, 'build/other.mjs')} does not exist after the setup command`);
  });

  it('a failing setup is a LaneError with its output, and the app is not started', async () => {
    const dir = project({ 'server.mjs': appSource });
    const err = await failure({ dir, entry: 'server.mjs', setup: 'echo "resetting the database"; echo "no such table" >&2; exit 3' });
    expect(err.code).toBe('LANE_SETUP_FAILED');
    expect(err.message).toContain('setup failed (exited with code 3)');
    expect(err.output).toBe('resetting the database\nno such table\n');
  });

  it('stop() ends the process and is idempotent', async () => {
    const lane = await start({ dir: fixtures, entry: 'fastify-export.mjs' });
    expect(alive(lane.pid)).toBe(true);
    await Promise.all([lane.stop(), lane.stop()]);
    expect(alive(lane.pid)).toBe(false);
    await expect(fetch(lane.origin)).rejects.toThrow();
    await lane.stop();
  });

  it('stop() falls back to SIGKILL when SIGTERM is ignored', async () => {
    const lane = await start({ dir: fixtures, entry: 'ignores-sigterm.mjs' });
    const started = Date.now();
    await lane.stop();
    expect(alive(lane.pid)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(lane.output()).toContain('SIGTERM ignored');
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
