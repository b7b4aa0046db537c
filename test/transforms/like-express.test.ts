/**
 * The generated `fastify-like-express.*` module (transforms/server-module/like-express-template.ts)
 * checked at run time against Express 4 (the repository's express 4.22) and Express 5 (the
 * modern-e5 example app's express 5.3): for generated values (test/property/random.ts, seeded), an
 * Express app answers with `res.send(value)` (after a status and a content type set one of the ways
 * a handler or the app's middleware sets one), and a Fastify server with the same app behind the
 * shim's bridge answers on a moved route with `sendLikeExpress(reply, value)` after the Fastify
 * forms of the same calls; status, headers (ETag too, and the 304 for If-None-Match) and body bytes
 * must be the same, for GET and HEAD. A call Express throws from throws the same error on both.
 * `res.json`, `res.sendStatus`, `res.append`, `res.vary`, `res.links`, `res.cookie`, `res.clearCookie` likewise, and a `res.send`
 * the app's middleware replaced (recording the body, wrapping JSON). The ES module loads; the
 * TypeScript forms type-check. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { IncomingMessage, request, ServerResponse, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyExpress from '@fastify/express';
import { expressContentType } from '../../transforms/handler-rewrite/content-type.js';
import { hasLikeExpressFunctions, LIKE_EXPRESS_FUNCTIONS, likeExpressModule } from '../../transforms/server-module/like-express-template.js';
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

/** Headers that are not the answer's: Node's, and Express's X-Powered-By (the bridge's Express runs with it off; a framework delta). */
const IGNORED = new Set(['date', 'connection', 'keep-alive', 'x-powered-by']);

/** One request with Node's http client (fetch would add Cache-Control: no-cache to a conditional request, and Express would not answer 304). */
function ask(port: number, i: number, c: Case, etag?: string): Promise<Omit<Answer, 'threw'>> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path: `/case/${i}`, method: c.method, headers: etag ? { 'if-none-match': etag } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers).sort()) if (!IGNORED.has(k) && v !== undefined) headers[k] = String(v);
        ok({ status: res.statusCode!, headers, body: Buffer.concat(chunks).toString('hex') });
      });
    });
    req.on('error', fail);
    req.end();
  });
}

type LikeExpress = Record<'sendLikeExpress' | 'jsonLikeExpress' | 'sendStatusLikeExpress' | 'appendLikeExpress' | 'varyLikeExpress' | 'linksLikeExpress' | 'cookieLikeExpress' | 'clearCookieLikeExpress' | 'sendFileLikeExpress' | 'redirectLikeExpress', (reply: FastifyReply, ...args: any[]) => FastifyReply>;

/** The module's functions (CommonJS JavaScript). */
function loadModule(): LikeExpress {
  mkdirSync(TMP, { recursive: true });
  const file = path.join(TMP, 'fastify-like-express.cjs');
  writeFileSync(file, likeExpressModule({ module: 'commonjs', typescript: false }));
  return require(file);
}

/** The shim's bridge (server-module/template.ts expressBridge): the app's own Express runs on the raw objects, then Fastify's route. */
function expressBridge(app: (req: unknown, res: unknown, next: () => void) => void) {
  return function expressApp(req: any, res: any, next: () => void) {
    Object.setPrototypeOf(req, IncomingMessage.prototype);
    Object.setPrototypeOf(res, ServerResponse.prototype);
    for (const own of ['hostname', 'ip', 'ips']) delete req[own];
    for (const own of ['send', 'headersSent']) delete res[own];
    req.url = req.originalUrl;
    app(req, res, next);
  };
}

/** What a pair's apps do around the call: the app's middleware (on both), the handler's calls before it. */
interface Act {
  /** The app's Express middleware, run by Express on one side and in the bridge on the other. */
  middleware?: (req: any, res: any, c: Case) => void;
  express: (res: any, c: Case) => void;
  fastify: (reply: FastifyReply, c: Case) => void;
}

/**
 * One Express app answering the cases, and one Fastify server answering them on a moved route with
 * the same app behind the shim's bridge (its middleware, settings and Express version); `act` does
 * the call under test on each.
 */
class Pair {
  private express!: Server;
  private fastify!: FastifyInstance;
  readonly thrown = new Map<string, string>();

  constructor(
    private readonly major: 4 | 5,
    private readonly all: Case[],
    private readonly act: Act,
    private readonly spaces?: number,
  ) {}

  /** An Express app of the major with the app's settings and middleware (and, for Express's side, the route). */
  private app(route: boolean) {
    const express = require(EXPRESS[this.major]);
    const app = express();
    if (this.spaces) app.set('json spaces', this.spaces);
    const middleware = this.act.middleware ?? ((_req: unknown, res: any, c: Case) => void (c.preset.kind === 'middleware' && res.setHeader('Content-Type', c.preset.value)));
    app.use((req: any, res: any, next: () => void) => {
      const c = this.all[Number(req.url.split('/')[2])];
      if (c) middleware(req, res, c);
      next();
    });
    if (route) {
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
    }
    return app;
  }

  async start(): Promise<void> {
    const app = this.app(true);
    this.express = await new Promise<Server>((ok) => {
      const s = app.listen(0, '127.0.0.1', () => ok(s));
    });
    this.fastify = Fastify();
    await this.fastify.register(fastifyExpress, { expressHook: 'preHandler' });
    this.fastify.use(expressBridge(this.app(false)));
    this.fastify.get('/case/:i', (request, reply) => {
      const i = (request.params as { i: string }).i;
      const c = this.all[Number(i)];
      try {
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

  /** Both answers to case `i`, with what each side's call threw; `etag` for If-None-Match. */
  async answers(i: number, etag?: string): Promise<{ express: Answer; fastify: Answer }> {
    const c = this.all[i];
    const express = await ask((this.express.address() as AddressInfo).port, i, c, etag);
    const fastify = await ask((this.fastify.server.address() as AddressInfo).port, i, c, etag);
    return { express: { ...express, threw: this.thrown.get(`express ${c.method} ${i}`) ?? null }, fastify: { ...fastify, threw: this.thrown.get(`fastify ${c.method} ${i}`) ?? null } };
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

/**
 * Runs every case through the pair and collects the differences (empty when all agree); each case
 * is asked again with the ETag Express gave, so Express's 304 is compared too.
 */
/** What the comparisons met, so a test can tell they reached Express's 304, its throws and its HEAD answers. */
const met = { notModified: 0, threw: 0, head: 0 };

async function differences(pair: Pair, all: Case[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const first = await pair.answers(i);
    const again = first.express.headers.etag ? await pair.answers(i, first.express.headers.etag) : null;
    for (const { express, fastify } of again ? [first, again] : [first]) {
      // Fastify's automatic HEAD route writes Content-Length: 0 for every answer without a body, 204 and
      // 304 too (fastify lib/head-route.js), where Express writes none: a framework difference of HEAD
      // requests to every moved route, not of Express's method.
      if (all[i].method === 'HEAD' && express.headers['content-length'] === undefined && fastify.headers['content-length'] === '0') delete fastify.headers['content-length'];
      if (express.status === 304) met.notModified++;
      if (express.threw) met.threw++;
      if (all[i].method === 'HEAD') met.head++;
      // When Express's call throws, the app's error handler answers: only the error must be the same.
      const same = express.threw || fastify.threw ? express.threw === fastify.threw : JSON.stringify(express) === JSON.stringify(fastify);
      if (!same) out.push(`${show(all[i])}${express === again?.express ? ' (If-None-Match)' : ''}\n  express ${JSON.stringify(express)}\n  fastify ${JSON.stringify(fastify)}`);
    }
  }
  return out;
}

afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const mod = loadModule();

for (const major of [4, 5] as const) {
  describe(`sendLikeExpress answers as Express ${major}'s res.send`, () => {
    for (const spaces of [undefined, 2]) {
      const all = cases(major * 100 + (spaces ?? 0), 300, major);
      const pair = new Pair(major, all, { express: (res, c) => res.send(c.value), fastify: (reply, c) => mod.sendLikeExpress(reply, c.value) }, spaces);
      beforeAll(() => pair.start());
      afterAll(() => pair.stop());
      it(`on ${all.length} generated values${spaces ? " with 'json spaces' 2" : ''}`, async () => {
        expect((await differences(pair, all)).slice(0, 5)).toEqual([]);
      });
    }
    it('covers each kind the generator makes (the comparison cannot pass empty)', () => {
      const all = cases(major * 100, 300, major);
      const kinds = new Set(all.map((c) => (c.value === null ? 'null' : ArrayBuffer.isView(c.value) ? 'view' : typeof c.value)));
      expect([...kinds].sort()).toEqual(['boolean', 'null', 'number', 'object', 'string', 'undefined', 'view']);
      expect(new Set(all.map((c) => c.preset.kind)).size).toBe(5);
    });
  });

  describe(`jsonLikeExpress and sendStatusLikeExpress answer as Express ${major}'s res.json and res.sendStatus`, () => {
    const all = cases(major * 1000, 150, major);
    const json = new Pair(major, all, { express: (res, c) => res.json(c.value), fastify: (reply, c) => mod.jsonLikeExpress(reply, c.value) }, 3);
    const codes = all.map((c, i) => ({ ...c, value: [200, 201, 204, 404, 418, 500, 299, 600][i % 8] }));
    const status = new Pair(major, codes, { express: (res, c) => res.sendStatus(c.value), fastify: (reply, c) => mod.sendStatusLikeExpress(reply, c.value) });
    beforeAll(() => Promise.all([json.start(), status.start()]));
    afterAll(() => Promise.all([json.stop(), status.stop()]));
    it('res.json on generated values', async () => {
      expect((await differences(json, all)).slice(0, 5)).toEqual([]);
    });
    it('res.sendStatus', async () => {
      expect((await differences(status, codes)).slice(0, 5)).toEqual([]);
    });
  });

  describe(`appendLikeExpress, varyLikeExpress, linksLikeExpress, cookieLikeExpress and clearCookieLikeExpress answer as Express ${major}`, () => {
    const calls: Array<{ express: (res: any) => void; fastify: (reply: FastifyReply) => void; label: string }> = [
      { label: "append('X-A', 'b') twice", express: (res) => res.append('X-A', 'b').append('X-A', ['c', 'd']), fastify: (r) => mod.appendLikeExpress(mod.appendLikeExpress(r, 'X-A', 'b'), 'X-A', ['c', 'd']) },
      { label: "append('Link', 2)", express: (res) => res.append('Link', 2), fastify: (r) => mod.appendLikeExpress(r, 'Link', 2) },
      { label: "append('Set-Cookie', …)", express: (res) => res.append('Set-Cookie', 'a=1').append('Set-Cookie', 'b=2'), fastify: (r) => mod.appendLikeExpress(mod.appendLikeExpress(r, 'Set-Cookie', 'a=1'), 'Set-Cookie', 'b=2') },
      { label: "append('Content-Type', …)", express: (res) => res.append('Content-Type', 'text/csv'), fastify: (r) => mod.appendLikeExpress(r, 'Content-Type', 'text/csv') },
      { label: "vary('Origin') twice", express: (res) => res.vary('Origin').vary('origin'), fastify: (r) => mod.varyLikeExpress(mod.varyLikeExpress(r, 'Origin'), 'origin') },
      { label: "vary(['Accept', 'X-Y'])", express: (res) => res.vary(['Accept', 'X-Y']), fastify: (r) => mod.varyLikeExpress(r, ['Accept', 'X-Y']) },
      { label: "vary('*')", express: (res) => res.vary('*').vary('Accept'), fastify: (r) => mod.varyLikeExpress(mod.varyLikeExpress(r, '*'), 'Accept') },
      { label: 'vary() without a field', express: (res) => res.vary(''), fastify: (r) => mod.varyLikeExpress(r, '') },
      { label: 'vary with a bad field', express: (res) => res.vary('a b'), fastify: (r) => mod.varyLikeExpress(r, 'a b') },
      { label: 'links twice', express: (res) => res.links({ next: '/p/2', last: '/p/9' }).links({ prev: '/p/1' }), fastify: (r) => mod.linksLikeExpress(mod.linksLikeExpress(r, { next: '/p/2', last: '/p/9' }), { prev: '/p/1' }) },
      { label: 'links with an array', express: (res: any) => res.links({ alt: ['/a', '/b'] }), fastify: (r: FastifyReply) => mod.linksLikeExpress(r, { alt: ['/a', '/b'] }) },
      // A fixed Expires: one Max-Age gives depends on the clock (routes fixture cookie-like-express compares it).
      { label: 'cookie twice, with options', express: (res) => res.cookie('a', 'b c', { httpOnly: true, secure: true, sameSite: 'strict', expires: new Date(Date.UTC(2030, 0, 1)) }).cookie('n', 5, { domain: 'x.test' }), fastify: (r) => mod.cookieLikeExpress(mod.cookieLikeExpress(r, 'a', 'b c', { httpOnly: true, secure: true, sameSite: 'strict', expires: new Date(Date.UTC(2030, 0, 1)) }), 'n', 5, { domain: 'x.test' }) },
      { label: 'cookie with an object', express: (res) => res.cookie('o', { a: [1] }, { path: '/x', sameSite: 'lax' }), fastify: (r) => mod.cookieLikeExpress(r, 'o', { a: [1] }, { path: '/x', sameSite: 'lax' }) },
      { label: 'cookie signed without a secret (throws)', express: (res) => res.cookie('s', 'v', { signed: true }), fastify: (r) => mod.cookieLikeExpress(r, 's', 'v', { signed: true }) },
      { label: 'clearCookie', express: (res) => res.clearCookie('a').clearCookie('b', { path: '/x', domain: 'x.test' }), fastify: (r) => mod.clearCookieLikeExpress(mod.clearCookieLikeExpress(r, 'a'), 'b', { path: '/x', domain: 'x.test' }) },
    ];
    // Each call alone, and after the app's middleware set the same headers on Express's response.
    const all: Case[] = calls.flatMap((_, i) => [false, true].map((middleware) => ({ preset: middleware ? ({ kind: 'middleware', value: 'headers' } as Preset) : { kind: 'none' }, status: null, value: i, method: 'GET' as const })));
    const pair = new Pair(major, all, {
      middleware: (_req, res, c) => {
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
      expect(await differences(pair, all)).toEqual([]);
    });
  });

  describe(`redirectLikeExpress answers as Express ${major}'s res.redirect`, () => {
    const calls: Array<{ express: (res: any) => void; fastify: (reply: FastifyReply) => void; label: string }> = [
      { label: "redirect('/a b?q=é')", express: (res) => res.redirect('/a b?q=é'), fastify: (r) => mod.redirectLikeExpress(r, '/a b?q=é') },
      { label: "redirect(301, '/x')", express: (res) => res.redirect(301, '/x'), fastify: (r) => mod.redirectLikeExpress(r, 301, '/x') },
      { label: "redirect('back')", express: (res) => res.redirect('back'), fastify: (r) => mod.redirectLikeExpress(r, 'back') },
      { label: "status(301).redirect('/z')", express: (res) => res.status(301).redirect('/z'), fastify: (r) => mod.redirectLikeExpress(r.code(301), '/z') },
      { label: "redirect('http://example.com/<p>')", express: (res) => res.redirect('http://example.com/<p>'), fastify: (r) => mod.redirectLikeExpress(r, 'http://example.com/<p>') },
    ];
    // Each call alone, and after the app's middleware set Vary on Express's response.
    const all: Case[] = calls.flatMap((_, i) => [false, true].map((middleware) => ({ preset: middleware ? ({ kind: 'middleware', value: 'headers' } as Preset) : { kind: 'none' }, status: null, value: i, method: 'GET' as const })));
    const pair = new Pair(major, all, {
      middleware: (_req, res, c) => {
        if (c.preset.kind === 'middleware') res.setHeader('Vary', 'Origin');
      },
      express: (res, c) => calls[c.value as number].express(res),
      fastify: (reply, c) => calls[c.value as number].fastify(reply),
    });
    beforeAll(() => pair.start());
    afterAll(() => pair.stop());
    it(`on ${calls.length} calls: Location, status, the 'Redirecting to' body by Accept, Vary`, async () => {
      expect(await differences(pair, all)).toEqual([]);
    });
  });

  describe(`a res.send the app's middleware replaced runs for sendLikeExpress and jsonLikeExpress as in Express ${major}`, () => {
    const all = cases(major * 7, 120, major);
    /** Records each body (the last wins, as in express-typescript's logger) in a header, and wraps JSON in an envelope. */
    const middleware = (_req: unknown, res: any) => {
      const originalSend = res.send;
      res.send = function (this: unknown, body: unknown) {
        res.locals.responseBody = body;
        res.setHeader('X-Recorded', `${typeof body}:${typeof body === 'string' ? body.length : ''}`);
        return originalSend.call(this, typeof body === 'string' && body.startsWith('{') ? `{"data":${body}}` : body);
      };
    };
    const send = new Pair(major, all, { middleware, express: (res, c) => res.send(c.value), fastify: (reply, c) => mod.sendLikeExpress(reply, c.value) });
    const json = new Pair(major, all, { middleware, express: (res, c) => res.json(c.value), fastify: (reply, c) => mod.jsonLikeExpress(reply, c.value) });
    beforeAll(() => Promise.all([send.start(), json.start()]));
    afterAll(() => Promise.all([send.stop(), json.stop()]));
    it('res.send', async () => {
      expect((await differences(send, all)).slice(0, 5)).toEqual([]);
    });
    it('res.json', async () => {
      expect((await differences(json, all)).slice(0, 5)).toEqual([]);
    });
  });
}

/** One sendFile request: the route's file and options, and the request's method and headers. */
interface FileCase {
  label: string;
  name: string;
  options?: Record<string, unknown>;
  method: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  /** The route is registered with GET only: HEAD goes to Express's GET route and to Fastify's automatic HEAD route. */
  getOnly?: true;
}

/** A request with Node's http client (fetch adds Cache-Control: no-cache to conditional requests). */
function askFile(port: number, i: number, c: FileCase, headers: Record<string, string>): Promise<Omit<Answer, 'threw'>> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path: `/${c.getOnly ? 'g' : 'f'}/${i}`, method: c.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers).sort()) if (!IGNORED.has(k) && v !== undefined) out[k] = String(v);
        ok({ status: res.statusCode!, headers: out, body: Buffer.concat(chunks).toString('hex') });
      });
    });
    req.on('error', fail);
    req.end();
  });
}

for (const major of [4, 5] as const) {
  describe(`sendFileLikeExpress answers as Express ${major}'s res.sendFile`, () => {
    // Outside the repository's .tmp: send answers 404 for a path with a dot-folder in it.
    const dir = mkdtempSync(path.join(tmpdir(), `send-file-${major}-`));
    // A file with a fixed modification time, so Last-Modified and the ETag are the same on both servers.
    const files: Record<string, string> = { 'lib.min.js': 'console.log("a library");\n'.repeat(40), 'font.woff2': '\u0000\u0001binary', '.hidden.js': 'secret' };
    const at = (name: string) => path.join(dir, name);
    const all: FileCase[] = [
      { label: 'GET', name: 'lib.min.js', options: { maxAge: '1y' }, method: 'GET' },
      { label: 'HEAD', name: 'lib.min.js', options: { maxAge: '1y' }, method: 'HEAD' },
      { label: 'no options', name: 'font.woff2', method: 'GET' },
      { label: 'a range', name: 'lib.min.js', options: { maxAge: '1y' }, method: 'GET', headers: { range: 'bytes=0-9' } },
      { label: 'an open range', name: 'lib.min.js', method: 'GET', headers: { range: 'bytes=990-' } },
      { label: 'a range past the end (416)', name: 'lib.min.js', method: 'GET', headers: { range: 'bytes=99999-' } },
      { label: 'several ranges', name: 'lib.min.js', method: 'GET', headers: { range: 'bytes=0-1,5-6' } },
      { label: 'ranges refused by option', name: 'lib.min.js', options: { acceptRanges: false }, method: 'GET', headers: { range: 'bytes=0-9' } },
      { label: 'immutable, no ETag, no Last-Modified', name: 'lib.min.js', options: { maxAge: 3600000, immutable: true, etag: false, lastModified: false }, method: 'GET' },
      { label: 'headers option', name: 'lib.min.js', options: { headers: { 'X-From-Option': 'yes' } }, method: 'GET' },
      { label: 'a relative name under root', name: 'lib.min.js', options: { root: dir }, method: 'GET' },
      { label: 'a missing file (the error handler)', name: 'missing.js', method: 'GET' },
      { label: 'a dotfile (ignored: 404)', name: '.hidden.js', method: 'GET' },
      { label: 'a dotfile allowed', name: '.hidden.js', options: { dotfiles: 'allow' }, method: 'GET' },
      { label: 'a relative path without root (throws)', name: 'relative.js', method: 'GET' },
      { label: 'HEAD on a GET-only route', name: 'lib.min.js', options: { maxAge: '1y' }, method: 'HEAD', getOnly: true },
      { label: 'GET on a GET-only route', name: 'font.woff2', method: 'GET', getOnly: true },
    ];
    const target = (c: FileCase) => (c.options?.root || c.name === 'relative.js' ? c.name : at(c.name));
    let express: Server;
    let fastify: FastifyInstance;
    const port = () => [(express.address() as AddressInfo).port, (fastify.server.address() as AddressInfo).port];
    /** The app's middleware (a header it sets), the same on both sides. */
    const app = (routes: boolean) => {
      const e = require(EXPRESS[major]);
      const a = e();
      a.use((_req: unknown, res: any, next: () => void) => (res.setHeader('X-Middleware', 'set'), next()));
      if (routes) {
        const h = (req: any, res: any) => {
          const c = all[Number(req.params.i)];
          res.set('X-Handler', 'before');
          if (c.options) res.sendFile(target(c), c.options);
          else res.sendFile(target(c));
        };
        a.head('/f/:i', h);
        a.get('/f/:i', h);
        a.get('/g/:i', h);
        a.use((err: any, _req: unknown, res: any, _next: unknown) => res.status(err.status || 500).set('Content-Type', 'text/plain; charset=utf-8').end(`error ${err.status} ${err.message}`));
      }
      return a;
    };
    beforeAll(async () => {
      for (const [name, text] of Object.entries(files)) {
        writeFileSync(at(name), text);
        utimesSync(at(name), new Date(Date.UTC(2024, 0, 2)), new Date(Date.UTC(2024, 0, 2)));
      }
      const a = app(true);
      express = await new Promise<Server>((ok) => {
        const s = a.listen(0, '127.0.0.1', () => ok(s));
      });
      fastify = Fastify();
      await fastify.register(fastifyExpress, { expressHook: 'preHandler' });
      fastify.use(expressBridge(app(false)));
      const h = (request: any, reply: FastifyReply) => {
        const c = all[Number(request.params.i)];
        reply.header('X-Handler', 'before');
        return c.options ? mod.sendFileLikeExpress(reply, target(c), c.options) : mod.sendFileLikeExpress(reply, target(c));
      };
      // HEAD before GET, as apps register both: Fastify makes no HEAD route of its own for the GET.
      fastify.head('/f/:i', h);
      fastify.get('/f/:i', h);
      fastify.get('/g/:i', h);
      fastify.setErrorHandler((err: any, _request, reply) => reply.code(err.status || 500).type('text/plain; charset=utf-8').send(`error ${err.status} ${err.message}`));
      await fastify.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await new Promise((ok) => express.close(ok));
      await fastify.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it(`on ${all.length} requests, and again with Express's ETag and Last-Modified (304)`, async () => {
      const out: string[] = [];
      let notModified = 0;
      const statuses = new Set<number>();
      for (const [i, c] of all.entries()) {
        const [ep, fp] = port();
        const first = await askFile(ep, i, c, c.headers ?? {});
        const conditional: Array<Record<string, string>> = [];
        if (first.headers.etag) conditional.push({ 'if-none-match': first.headers.etag });
        if (first.headers['last-modified']) conditional.push({ 'if-modified-since': first.headers['last-modified'] });
        for (const headers of [c.headers ?? {}, ...conditional]) {
          const e = await askFile(ep, i, c, headers);
          const f = await askFile(fp, i, c, headers);
          if (e.status === 304) notModified++;
          statuses.add(e.status);
          if (JSON.stringify(e) !== JSON.stringify(f)) out.push(`${c.label} ${JSON.stringify(headers)}\n  express ${JSON.stringify(e)}\n  fastify ${JSON.stringify(f)}`);
        }
      }
      expect(out).toEqual([]);
      expect(notModified).toBeGreaterThanOrEqual(4);
      // The comparison met the file, its ranges, the 416, the errors and Express's throw.
      expect([...statuses].sort()).toEqual([200, 206, 304, 404, 416, 500]);
    });

    it("a directory: Express goes on to its 404; the moved route's error handler gets a 404 error (a documented limit)", async () => {
      const [, fp] = port();
      const c: FileCase = { label: 'a directory', name: '', method: 'GET' };
      all.push({ ...c, name: 'sub' });
      mkdirSync(at('sub'), { recursive: true });
      const f = await askFile(fp, all.length - 1, all[all.length - 1], {});
      expect([f.status, Buffer.from(f.body, 'hex').toString()]).toEqual([404, 'error 404 Not Found']);
    });
  });
}

describe('the comparisons', () => {
  it("met Express's 304 for If-None-Match, calls Express throws from, and HEAD requests", () => {
    expect(met.notModified).toBeGreaterThan(10);
    expect(met.threw).toBeGreaterThan(10);
    expect(met.head).toBeGreaterThan(10);
  });
});

describe('the module in every form', () => {
  it('is written again where a module of an older version lacks a function (hasLikeExpressFunctions)', () => {
    for (const module of ['esm', 'commonjs'] as const) for (const typescript of [false, true]) expect(hasLikeExpressFunctions(likeExpressModule({ module, typescript }))).toBe(true);
    expect(hasLikeExpressFunctions(likeExpressModule({ module: 'esm', typescript: false }).replace('function wildcardLikeExpress(', 'function other('))).toBe(false);
  });

  it('ESM JavaScript loads and answers', async () => {
    const file = path.join(TMP, 'fastify-like-express.mjs');
    writeFileSync(file, likeExpressModule({ module: 'esm', typescript: false }));
    const esm = await import(pathToFileURL(file).href);
    expect(Object.keys(esm).sort()).toEqual([...LIKE_EXPRESS_FUNCTIONS]);
    expect(Object.keys(mod).sort()).toEqual([...LIKE_EXPRESS_FUNCTIONS]);
  });

  it('TypeScript type-checks (strict; ES module and CommonJS)', () => {
    const dir = path.join(TMP, 'tsc');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'fastify-like-express.mts'), likeExpressModule({ module: 'esm', typescript: true }));
    writeFileSync(path.join(dir, 'fastify-like-express.cts'), likeExpressModule({ module: 'commonjs', typescript: true }));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['*.mts', '*.cts'] }));
    let out = '';
    try {
      execFileSync(process.execPath, [path.join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(out).toBe('');
  }, 60_000);
});
