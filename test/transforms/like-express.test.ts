/**
 * The generated `fastify-like-express.*` module (transforms/server-module/like-express-template.ts)
 * checked at run time against Express 4 (the repository's express 4.22) and Express 5 (the
 * modern-e5 example app's express 5.3): for generated values (test/property/random.ts, seeded), an
 * Express app answers with `res.send(value)` (after a content type set one of the ways a handler or
 * the app's middleware sets one, and a status), and a Fastify app answers with
 * `sendLikeExpress(reply, value)` after the Fastify forms of the same calls; status, headers and
 * body bytes must be the same, for GET and HEAD (Express's ETag aside: a framework delta of the
 * moved routes). A value Express cannot send throws the same error on both. `res.append`,
 * `res.vary` and `res.links` likewise. Every variant of the module (ESM/CommonJS, JavaScript/
 * TypeScript, both majors) loads or type-checks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Server, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { expressContentType } from '../../transforms/handler-rewrite/content-type.js';
import { likeExpressModule, type LikeExpressFacts } from '../../transforms/server-module/like-express-template.js';
import { Rng } from '../property/random.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'like-express');
const EXPRESS: Record<4 | 5, string> = { 4: path.join(REPO, 'node_modules/express'), 5: path.join(REPO, 'fixtures/apps/modern-e5/node_modules/express') };
const require = createRequire(import.meta.url);

/** How a content type is set before the send. */
type Preset =
  | { kind: 'none' }
  /** `res.type(ext)` → `reply.type(<full type>)` (reply-forms.ts setType). */
  | { kind: 'type'; value: string }
  /** `res.set('Content-Type', t)` → `reply.header('Content-Type', <t with Express's charset>)`. */
  | { kind: 'set'; value: string }
  /** `res.setHeader('Content-Type', t)` in the handler → `reply.header('content-type', t)`. */
  | { kind: 'setHeader'; value: string }
  /** The app's middleware set it on Express's response in the bridge: on `reply.raw` for Fastify. */
  | { kind: 'middleware'; value: string };

interface Case {
  preset: Preset;
  status: number | null;
  value: unknown;
  method: 'GET' | 'HEAD';
}

const TYPES = ['text/plain', 'application/json', 'text/html', 'text/plain; charset=iso-8859-1', 'application/vnd.api+json', 'text/csv; header=present', 'TEXT/HTML', 'image/png', 'application/x-thing; b=1; a=2', 'text/plain;format=flowed'];
const EXTENSIONS = ['html', 'json', 'txt', 'text', 'css', 'csv'];

/** A value of each kind `res.send` tells apart, at random. */
function value(rng: Rng, major: 4 | 5, depth = 0): unknown {
  const kinds = ['string', 'number', 'status', 'boolean', 'null', 'undefined', 'object', 'array', 'buffer', 'typed', 'date', 'tojson', 'empty'] as const;
  switch (rng.pick(kinds)) {
    case 'string':
      return rng.pick(['', 'hello', '<p>x</p>', '€ über ✓', 'a'.repeat(rng.int(900, 1100)), '{"a":1}', 'line\nbreak']);
    case 'number':
      return rng.pick([0, 1.5, -3, 42, 200.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY, -0]);
    case 'status':
      // Express 4 reads a number as a status: valid ones (with and without a text), and beyond Fastify's range.
      return rng.pick([200, 201, 204, 205, 299, 304, 404, 418, 500, 599, 600, 750, 999, 99, 1000]);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'object':
      return depth > 1 ? {} : { id: rng.int(0, 99), name: rng.pick(['a', 'ü', '<b>']), nested: value(rng, major, depth + 1), none: undefined };
    case 'array':
      return depth > 1 ? [] : [value(rng, major, depth + 1), rng.int(0, 9), null];
    case 'buffer':
      return rng.pick([Buffer.from('bytes'), Buffer.alloc(0), Buffer.from([0xff, 0xfe, 0x00, 0x41])]);
    case 'typed':
      // Express 5 sends any ArrayBuffer view as binary (as Buffer.from copies it); Express 4 as JSON.
      return rng.pick([new Uint8Array([65, 66, 67]), new Uint16Array([0x4142, 0x43]), new Float32Array([1.5]), new DataView(new ArrayBuffer(2)), new ArrayBuffer(3)]);
    case 'date':
      return new Date(Date.UTC(2024, 1, 29, 12));
    case 'tojson':
      return rng.pick([{ toJSON: () => undefined }, { toJSON: () => 'text' }, new Map([[1, 2]])]);
    case 'empty':
      return rng.pick([{}, []]);
  }
}

function preset(rng: Rng): Preset {
  return rng.weighted<Preset>([
    [{ kind: 'none' }, 4],
    [{ kind: 'type', value: rng.pick(EXTENSIONS) }, 1],
    [{ kind: 'set', value: rng.pick(TYPES.filter((t) => expressContentType(t) !== null)) }, 1],
    [{ kind: 'setHeader', value: rng.pick(TYPES) }, 1],
    [{ kind: 'middleware', value: rng.pick(TYPES) }, 1],
  ]);
}

function cases(seed: number, count: number, major: 4 | 5): Case[] {
  const rng = new Rng(seed);
  return Array.from({ length: count }, () => ({ preset: preset(rng), status: rng.pick([null, null, 201, 204, 205, 304, 404]), value: value(rng, major), method: rng.chance(0.2) ? 'HEAD' : 'GET' }));
}

/** What a server answered, or what its send threw. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  threw: string | null;
}

/** Headers that are not the send's: Node's and the servers' own (Express's ETag and X-Powered-By: framework deltas). */
const IGNORED = new Set(['date', 'connection', 'keep-alive', 'etag', 'x-powered-by']);

async function ask(port: number, i: number, method: string): Promise<Omit<Answer, 'threw'>> {
  const res = await fetch(`http://127.0.0.1:${port}/case/${i}`, { method });
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!IGNORED.has(k)) headers[k] = v;
  });
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('hex') };
}

/** The module's functions (CommonJS JavaScript), loaded with `express` resolving to the major's Express. */
function loadModule(major: 4 | 5): { sendLikeExpress: (reply: FastifyReply, body: unknown, spaces?: number) => FastifyReply; appendLikeExpress: (reply: FastifyReply, f: string, v: unknown) => FastifyReply; varyLikeExpress: (reply: FastifyReply, f: unknown) => FastifyReply; linksLikeExpress: (reply: FastifyReply, l: unknown) => FastifyReply } {
  const dir = path.join(TMP, `load-${major}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  symlinkSync(EXPRESS[major], path.join(dir, 'node_modules', 'express'));
  const file = path.join(dir, 'fastify-like-express.cjs');
  writeFileSync(file, likeExpressModule({ module: 'commonjs', typescript: false, expressMajor: major }));
  return require(file);
}

/** One Express app and one Fastify app answering the same cases; `act` does the call under test on each. */
class Pair {
  private express!: Server;
  private fastify!: FastifyInstance;
  readonly thrown = new Map<string, string>();

  constructor(
    private readonly major: 4 | 5,
    private readonly all: Case[],
    private readonly act: { express: (res: any, c: Case) => void; fastify: (reply: FastifyReply, c: Case) => void; middleware?: (res: ServerResponse, c: Case) => void },
    private readonly spaces?: number,
  ) {}

  async start(): Promise<void> {
    // What the app's middleware leaves on Express's response: on `reply.raw` once Fastify answers (the bridge ran it).
    const middleware = this.act.middleware ?? ((res: ServerResponse, c: Case) => void (c.preset.kind === 'middleware' && res.setHeader('Content-Type', c.preset.value)));
    const express = require(EXPRESS[this.major]);
    const app = express();
    if (this.spaces) app.set('json spaces', this.spaces);
    app.use((req: any, res: any, next: () => void) => {
      const c = this.all[Number(req.url.split('/')[2])];
      if (c) middleware(res, c);
      next();
    });
    app.get('/case/:i', (req: any, res: any) => {
      const c = this.all[Number(req.params.i)];
      try {
        if (c.preset.kind === 'type') res.type(c.preset.value);
        if (c.preset.kind === 'set') res.set('Content-Type', c.preset.value);
        if (c.preset.kind === 'setHeader') res.setHeader('Content-Type', c.preset.value);
        if (c.status !== null) res.status(c.status);
        this.act.express(res, c);
      } catch (e) {
        this.thrown.set(`express ${req.method} ${req.params.i}`, errorText(e));
        if (!res.headersSent) res.status(590).end();
      }
    });
    this.express = await new Promise<Server>((ok) => {
      const s = app.listen(0, '127.0.0.1', () => ok(s));
    });
    this.fastify = Fastify();
    this.fastify.get('/case/:i', (request, reply) => {
      const i = (request.params as { i: string }).i;
      const c = this.all[Number(i)];
      try {
        middleware(reply.raw, c);
        if (c.preset.kind === 'type' || c.preset.kind === 'set') reply.header('content-type', expressContentType(c.preset.value)!);
        if (c.preset.kind === 'setHeader') reply.header('content-type', c.preset.value);
        if (c.status !== null) reply.code(c.status);
        this.act.fastify(reply, c);
      } catch (e) {
        this.thrown.set(`fastify ${request.method} ${i}`, errorText(e));
        if (!reply.sent) reply.code(590).send();
      }
      return reply;
    });
    await this.fastify.listen({ port: 0, host: '127.0.0.1' });
  }

  /** Both answers to case `i`, with what each side's call threw. */
  async answers(i: number): Promise<{ express: Answer; fastify: Answer }> {
    const method = this.all[i].method;
    const express = await ask((this.express.address() as AddressInfo).port, i, method);
    const fastify = await ask((this.fastify.server.address() as AddressInfo).port, i, method);
    return { express: { ...express, threw: this.thrown.get(`express ${method} ${i}`) ?? null }, fastify: { ...fastify, threw: this.thrown.get(`fastify ${method} ${i}`) ?? null } };
  }

  async stop(): Promise<void> {
    await new Promise((ok) => this.express.close(ok));
    await this.fastify.close();
  }
}

function errorText(e: unknown): string {
  const err = e as { name?: string; message?: string; code?: string };
  return `${err.name}: ${err.message}${err.code ? ` (${err.code})` : ''}`;
}

/** A case as text, for a failure message. */
function show(c: Case): string {
  const v = c.value;
  const text = v instanceof DataView ? 'DataView' : ArrayBuffer.isView(v) || v instanceof ArrayBuffer ? `${v.constructor.name}` : typeof v === 'string' && v.length > 40 ? `'${v.slice(0, 10)}…' (${v.length})` : typeof v === 'object' && v !== null ? `${v.constructor?.name} ${JSON.stringify(v)}` : String(typeof v === 'string' ? `'${v}'` : v);
  return `${c.method} preset=${JSON.stringify(c.preset)} status=${c.status} value=${text}`;
}

/** Runs every case through the pair and collects the differences (empty when all agree). */
async function differences(pair: Pair, all: Case[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const { express, fastify } = await pair.answers(i);
    // Fastify's automatic HEAD route writes Content-Length: 0 for every answer without a body, 204 and
    // 304 too (fastify lib/head-route.js), where Express writes none: a framework difference of HEAD
    // requests to every moved route, not of the send.
    if (all[i].method === 'HEAD' && express.headers['content-length'] === undefined && fastify.headers['content-length'] === '0') delete fastify.headers['content-length'];
    // When Express's call throws, the app's error handler answers: only the error must be the same.
    const same = express.threw || fastify.threw ? express.threw === fastify.threw : JSON.stringify(express) === JSON.stringify(fastify);
    if (!same) out.push(`${show(all[i])}\n  express ${JSON.stringify(express)}\n  fastify ${JSON.stringify(fastify)}`);
  }
  return out;
}

afterAll(() => rmSync(TMP, { recursive: true, force: true }));

for (const major of [4, 5] as const) {
  describe(`sendLikeExpress answers as Express ${major}'s res.send`, () => {
    const mod = loadModule(major);
    for (const spaces of [undefined, 2]) {
      const all = cases(major * 100 + (spaces ?? 0), 400, major);
      const pair = new Pair(major, all, { express: (res, c) => res.send(c.value), fastify: (reply, c) => mod.sendLikeExpress(reply, c.value, spaces) }, spaces);
      beforeAll(() => pair.start());
      afterAll(() => pair.stop());
      it(`on ${all.length} generated values${spaces ? " with 'json spaces' 2" : ''}`, async () => {
        expect((await differences(pair, all)).slice(0, 5)).toEqual([]);
      });
    }
    it('covers each kind the generator makes (the comparison cannot pass empty)', () => {
      const all = cases(major * 100, 400, major);
      const kinds = new Set(all.map((c) => (c.value === null ? 'null' : ArrayBuffer.isView(c.value) ? 'view' : typeof c.value)));
      expect([...kinds].sort()).toEqual(['boolean', 'null', 'number', 'object', 'string', 'undefined', 'view']);
      expect(new Set(all.map((c) => c.preset.kind)).size).toBe(5);
    });
  });

  describe(`appendLikeExpress, varyLikeExpress and linksLikeExpress answer as Express ${major}`, () => {
    const mod = loadModule(major);
    const calls: Array<{ express: (res: any) => void; fastify: (reply: FastifyReply) => void; label: string }> = [
      { label: "append('X-A', 'b') twice", express: (res) => res.append('X-A', 'b').append('X-A', ['c', 'd']), fastify: (r) => mod.appendLikeExpress(mod.appendLikeExpress(r, 'X-A', 'b'), 'X-A', ['c', 'd']) },
      { label: "append('Link', …) after middleware's", express: (res) => res.append('Link', 2), fastify: (r) => mod.appendLikeExpress(r, 'Link', 2) },
      { label: "append('Set-Cookie', …)", express: (res) => res.append('Set-Cookie', 'a=1').append('Set-Cookie', 'b=2'), fastify: (r) => mod.appendLikeExpress(mod.appendLikeExpress(r, 'Set-Cookie', 'a=1'), 'Set-Cookie', 'b=2') },
      { label: "vary('Origin') twice", express: (res) => res.vary('Origin').vary('origin'), fastify: (r) => mod.varyLikeExpress(mod.varyLikeExpress(r, 'Origin'), 'origin') },
      { label: "vary(['Accept', 'X-Y'])", express: (res) => res.vary(['Accept', 'X-Y']), fastify: (r) => mod.varyLikeExpress(r, ['Accept', 'X-Y']) },
      { label: "vary('*')", express: (res) => res.vary('*').vary('Accept'), fastify: (r) => mod.varyLikeExpress(mod.varyLikeExpress(r, '*'), 'Accept') },
      { label: 'vary() without a field', express: (res) => res.vary(''), fastify: (r) => mod.varyLikeExpress(r, '') },
      { label: 'vary with a bad field', express: (res) => res.vary('a b'), fastify: (r) => mod.varyLikeExpress(r, 'a b') },
      { label: 'links twice', express: (res) => res.links({ next: '/p/2', last: '/p/9' }).links({ prev: '/p/1' }), fastify: (r) => mod.linksLikeExpress(mod.linksLikeExpress(r, { next: '/p/2', last: '/p/9' }), { prev: '/p/1' }) },
      ...(major === 5 ? [{ label: 'links with an array', express: (res: any) => res.links({ alt: ['/a', '/b'] }), fastify: (r: FastifyReply) => mod.linksLikeExpress(r, { alt: ['/a', '/b'] }) }] : []),
    ];
    // Each call alone, and after the app's middleware set the same header on Express's response.
    const all: Case[] = calls.flatMap((_, i) => [false, true].map((middleware) => ({ preset: middleware ? ({ kind: 'middleware', value: 'headers' } as Preset) : { kind: 'none' }, status: null, value: i, method: 'GET' as const })));
    const pair = new Pair(major, all, {
      middleware: (res, c) => {
        if (c.preset.kind === 'middleware') ['X-A', 'Link', 'Set-Cookie', 'Vary'].forEach((h) => res.setHeader(h, h === 'Set-Cookie' ? ['m=0'] : 'm'));
      },
      express: (res, c) => {
        calls[c.value as number].express(res);
        res.send('ok');
      },
      fastify: (reply, c) => {
        calls[c.value as number].fastify(reply);
        mod.sendLikeExpress(reply, 'ok');
      },
    });
    beforeAll(() => pair.start());
    afterAll(() => pair.stop());
    it(`on ${calls.length} calls, with and without headers set before`, async () => {
      const diffs = await differences(pair, all);
      expect(diffs.map((d, i) => `${calls[Math.floor(i / 2)]?.label}: ${d}`).slice(0, 5)).toEqual([]);
    });
  });
}

describe('the module in every form', () => {
  const forms: LikeExpressFacts[] = [4, 5].flatMap((expressMajor) => ['esm', 'commonjs'].flatMap((module) => [false, true].map((typescript) => ({ expressMajor: expressMajor as 4 | 5, module: module as 'esm' | 'commonjs', typescript }))));

  it('ESM JavaScript loads and answers', async () => {
    for (const major of [4, 5] as const) {
      const dir = path.join(TMP, `esm-${major}`);
      mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
      symlinkSync(EXPRESS[major], path.join(dir, 'node_modules', 'express'));
      const file = path.join(dir, 'fastify-like-express.mjs');
      writeFileSync(file, likeExpressModule({ module: 'esm', typescript: false, expressMajor: major }));
      const mod = await import(pathToFileURL(file).href);
      const fastify = Fastify();
      fastify.get('/', (_request, reply) => mod.sendLikeExpress(reply, major === 4 ? 404 : { a: 1 }));
      const res = await fastify.inject({ url: '/' });
      expect([res.statusCode, res.headers['content-type'], res.body]).toEqual(major === 4 ? [404, 'text/plain; charset=utf-8', 'Not Found'] : [200, 'application/json; charset=utf-8', '{"a":1}']);
    }
  });

  it('TypeScript type-checks (strict, NodeNext and CommonJS)', () => {
    const dir = path.join(TMP, 'tsc');
    mkdirSync(dir, { recursive: true });
    for (const f of forms.filter((x) => x.typescript)) {
      const sub = path.join(dir, `${f.module}-${f.expressMajor}`);
      mkdirSync(sub, { recursive: true });
      writeFileSync(path.join(sub, f.module === 'esm' ? 'fastify-like-express.mts' : 'fastify-like-express.cts'), likeExpressModule(f));
    }
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['**/*.mts', '**/*.cts'] }));
    let out = '';
    try {
      execFileSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(out).toBe('');
  }, 60_000);
});
