/**
 * Proves the shim's bridge setup (issue 7 item 3, docs/design/shim-bridge.md): an Express 4 app
 * run behind the generated Fastify module answers like plain Express on every behaviour a bridge
 * is known to lose — res.redirect(url, status), req.param/res.sendfile, nested query strings,
 * res.send(html) content type and ETag, a text/plain POST, trust proxy, the raw req.url, an
 * undecodable URL, 404/500, body-parser errors reaching the app's error handler — and a route added
 * on Fastify gets its JSON body from the app's own parser without hanging.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStage } from '../../runner/run.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const INPUT = path.join(REPO, 'fixtures/transforms/shim-server/bridge-proof/input');
const TMP = path.join(REPO, '.tmp', `bridge-proof-${process.pid}`);

interface Answer {
  status: number;
  type: string | undefined;
  body: string;
  etag: boolean;
  poweredBy: string | undefined;
  location: string | undefined;
}

/** One request over a raw socket path (no URL normalisation), with the answer's observable parts. */
function send(port: number, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'],
          body: text,
          etag: 'etag' in res.headers,
          poweredBy: res.headers['x-powered-by'] as string | undefined,
          location: res.headers.location,
        }),
      );
    });
    req.setTimeout(5000, () => req.destroy(new Error(`${method} ${rawPath} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const children: ChildProcess[] = [];

/** Starts `node <script>` in `dir` with PORT and resolves once the port accepts connections. */
async function start(dir: string, script: string, onStderr?: (text: string) => void): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [script], { cwd: dir, env: { ...process.env, PORT: String(port), NODE_ENV: 'test' }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (c) => {
    stderr += c;
    onStderr?.(String(c));
  });
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`${script} exited: ${stderr}`);
    const open = await new Promise<boolean>((r) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); r(true); }).once('error', () => r(false)));
    if (open) return port;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${script} did not listen: ${stderr}`);
}

const CHECKS: Array<[string, string, Record<string, string>?, string?]> = [
  ['GET', '/redirect'],
  ['GET', '/param/42'],
  ['GET', '/query?a[b]=1&list[]=x&list[]=y'],
  ['GET', '/html'],
  ['HEAD', '/html'],
  ['GET', '/html', { 'if-none-match': 'W/"9-Kc5ZbXnr6qDnd5yjX3XVQ8Kdkpw"' }],
  ['POST', '/text', { 'content-type': 'text/plain' }, 'hello'],
  ['POST', '/json', { 'content-type': 'application/json' }, '{"a":{"b":[1,2]}}'],
  ['POST', '/json', { 'content-type': 'application/json' }, ''],
  ['POST', '/json', { 'content-type': 'application/json' }, '{"broken"'],
  ['POST', '/json', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
  ['GET', '/proxy', { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example' }],
  ['GET', '/raw%20url/a%20b?x=%2F'],
  ['GET', '/%zz'],
  ['GET', '/boom'],
  ['GET', '/nowhere'],
  ['PUT', '/html'],
  ['GET', '/HTML/'],
  ['GET', '/locals'],
];

describe('the shim bridge answers like plain Express (Express 4 app, --parity express)', () => {
  let expressPort = 0;
  let shimPort = 0;
  let fastifyRoutePort = 0;
  let brokenPort = 0;
  let brokenStderr = '';

  beforeAll(async () => {
    mkdirSync(TMP, { recursive: true });
    cpSync(INPUT, path.join(TMP, 'express'), { recursive: true });
    cpSync(INPUT, path.join(TMP, 'shim'), { recursive: true });
    // --parity express: what the app leaves unanswered gets Express's own pages too (without it, Fastify's JSON 404 is a reported framework delta).
    const result = await runStage({ root: path.join(TMP, 'shim'), stage: 'shim', allowDirty: true, parity: 'express' });
    expect(result.outcomes.filter((o) => o.status === 'failed')).toEqual([]);
    // A route served by Fastify itself, next to the bridge (what the routes stage will produce).
    writeFileSync(
      path.join(TMP, 'shim', 'with-fastify-route.js'),
      [
        "const app = require('./app');",
        "const { buildFastify, listen } = require('./fastify-server');",
        'const fastify = buildFastify(app);',
        "fastify.post('/fastify/echo', async (request) => ({ body: request.body }));",
        'listen(fastify, process.env.PORT);',
      ].join('\n'),
    );
    // A plugin that fails at start-up (what a later stage's mistake would look like).
    writeFileSync(
      path.join(TMP, 'shim', 'with-broken-plugin.js'),
      [
        "const app = require('./app');",
        "const { buildFastify, listen } = require('./fastify-server');",
        'const fastify = buildFastify(app);',
        "fastify.register(async () => { throw new Error('plugin broke'); });",
        'listen(fastify, process.env.PORT);',
      ].join('\n'),
    );
    [expressPort, shimPort, fastifyRoutePort, brokenPort] = await Promise.all([
      start(path.join(TMP, 'express'), 'server.js'),
      start(path.join(TMP, 'shim'), 'server.js'),
      start(path.join(TMP, 'shim'), 'with-fastify-route.js'),
      start(path.join(TMP, 'shim'), 'with-broken-plugin.js', (text) => (brokenStderr += text)),
    ]);
  }, 120_000);

  afterAll(() => {
    for (const c of children) c.kill();
    rmSync(TMP, { recursive: true, force: true });
  });

  for (const [method, rawPath, headers, body] of CHECKS) {
    it(`${method} ${rawPath}${body !== undefined ? ` (${headers?.['content-type']} ${JSON.stringify(body)})` : ''}`, async () => {
      const expected = await send(expressPort, method, rawPath, headers, body);
      const actual = await send(shimPort, method, rawPath, headers, body);
      expect(actual).toEqual(expected);
    });
  }

  it('the checks exercise what they are about (plain Express answers)', async () => {
    expect(await send(expressPort, 'GET', '/redirect')).toMatchObject({ status: 301, location: '/target' });
    expect(JSON.parse((await send(expressPort, 'GET', '/param/42')).body)).toEqual({ id: '42', hasSendfile: true });
    expect(JSON.parse((await send(expressPort, 'GET', '/query?a[b]=1')).body)).toEqual({ a: { b: '1' } });
    expect(await send(expressPort, 'GET', '/html')).toMatchObject({ type: 'text/html; charset=utf-8', etag: true, poweredBy: 'Express' });
    const proxy = JSON.parse((await send(expressPort, 'GET', '/proxy', { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' })).body);
    expect(proxy).toMatchObject({ ip: '203.0.113.7', protocol: 'https', secure: true });
    expect(JSON.parse((await send(expressPort, 'POST', '/json', { 'content-type': 'application/json' }, '{"broken"')).body)).toMatchObject({ type: 'entity.parse.failed' });
  });

  it('a Fastify that cannot start is reported on stderr and answers 500, and the process stays up (no unhandled rejection)', async () => {
    expect(await send(brokenPort, 'GET', '/')).toMatchObject({ status: 500, body: '' });
    expect(brokenStderr).toContain('Fastify could not start: Error: plugin broke');
    expect(await send(brokenPort, 'GET', '/')).toMatchObject({ status: 500 });
  });

  it('a Fastify route next to the bridge gets the body the app parser gives, even with an app-wide express.json()', async () => {
    const answer = await send(fastifyRoutePort, 'POST', '/fastify/echo', { 'content-type': 'application/json' }, '{"a":1}');
    expect(answer).toMatchObject({ status: 200 });
    expect(JSON.parse(answer.body)).toEqual({ body: { a: 1 } });
    const express = await send(fastifyRoutePort, 'POST', '/json', { 'content-type': 'application/json' }, '{"b":2}');
    expect(JSON.parse(express.body)).toEqual({ body: { b: 2 } });
  });
});
