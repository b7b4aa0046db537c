/**
 * The `plugins` stage's step `plugins-bodies` (transforms/plugins-bodies/,
 * server-module/fastify-bodies.ts, parse-bodies.ts, bodies-template.ts): Fastify parses the bodies
 * of the moved routes that run no Express code with content-type parsers translated from the app's
 * body parsers. Fixture pairs (fixtures/transforms/plugins-bodies/): output byte for byte, a second
 * run changes nothing, a parser that does not translate leaves the module to the app's parsers. On
 * real HTTP, with requests sent byte for byte (charsets, encodings, chunked bodies, declared
 * lengths), each case's `express/` app (before any stage), its `input/` (after routes) and the
 * output answer alike — bodies, body-parser's errors with their `type`, `status`, `expose`, `body`,
 * `limit` …, and the connection kept open — and no request reaches Express's application.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { copyOf, rawAnswers, withDeclaredExpress, type RawRequest } from '../helpers/app-answers.js';
import { expectFixture, fixtureCases, runFixture, TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

const STEP = 'plugins-bodies';
const PROBE = path.resolve(import.meta.dirname, '../helpers/express-entries.cjs');

/** Per case: the body parsers moved `[done, of]`, and why the others stay (the summary's group). */
const MOVED: Record<string, { moved: [number, number]; kept?: string }> = {
  express4: { moved: [4, 4] },
  express5: { moved: [4, 4] },
  verify: { moved: [3, 3] },
  'wildcard-type': { moved: [0, 2], kept: "still read by body-parser in the Express hook: express.json (app.js:6)'s type \"application/*+json\" is not a list of exact media types (Fastify matches wildcards and shorthands otherwise)" },
};

const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const big = JSON.stringify({ text: 'x'.repeat(1100) });

/** Requests for both Express majors' cases: every reading and parsing rule the translation claims. */
const REQUESTS: RawRequest[] = [
  { method: 'POST', path: '/echo', headers: json, body: '{"a":1,"b":[true,null]}' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"a":"é"}' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'Application/JSON' }, body: '{"upper":1}' },
  { method: 'POST', path: '/echo', headers: { ...json, 'content-length': '0' } },
  { method: 'POST', path: '/echo', headers: json, body: '{"a":' },
  { method: 'POST', path: '/echo', headers: json, body: 'true' },
  { method: 'POST', path: '/echo', headers: json, body: '  "text"' },
  { method: 'POST', path: '/echo', headers: json, body: '\ufeff{"bom":1}' },
  { method: 'POST', path: '/echo', headers: json, body: big },
  { method: 'POST', path: '/echo', headers: json, body: big, chunked: true },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json; charset=latin1' }, body: '{"a":1}' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json; charset=utf-16le' }, body: Buffer.from('{"a":"ü"}', 'utf16le') },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json; charset=utf-foo' }, body: '{"a":1}' },
  { method: 'POST', path: '/echo', headers: { ...json, 'content-encoding': 'gzip' }, body: zlib.gzipSync('{"zipped":true}') },
  { method: 'POST', path: '/echo', headers: { ...json, 'content-encoding': 'deflate' }, body: zlib.deflateSync('{"deflated":true}') },
  { method: 'POST', path: '/echo', headers: { ...json, 'content-encoding': 'gzip' }, body: 'not gzip' },
  { method: 'POST', path: '/echo', headers: { ...json, 'content-encoding': 'compress' }, body: '{"a":1}' },
  { method: 'POST', path: '/echo', headers: form, body: 'a[b]=1&a[c]=2&d=3' },
  { method: 'POST', path: '/echo', headers: form, body: 'a=1&a=2&b=' },
  { method: 'POST', path: '/echo', headers: form, body: 'a=1&b=2&c=3&d=4&e=5&f=6' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16' }, body: 'a=1' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'text/plain' }, body: 'hello' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'text/plain; charset=x-unknown' }, body: 'hello' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'text/plain' }, body: 'y'.repeat(80) },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 255]) },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(120) },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/xml' }, body: '<a/>' },
  { method: 'POST', path: '/echo', headers: {}, body: 'no type' },
  { method: 'POST', path: '/echo', headers: {} },
  { method: 'GET', path: '/echo', headers: {} },
  { method: 'GET', path: '/echo', headers: json, body: '{"get":1}' },
  { method: 'PUT', path: '/echo/7', headers: json, body: '{"put":1}' },
  { method: 'POST', path: '/json-only', headers: json, body: '{"j":1}' },
  { method: 'POST', path: '/json-only', headers: form, body: 'f=1' },
  { method: 'POST', path: '/webhook', headers: json, body: big },
  { method: 'POST', path: '/webhook', headers: json, body: '{"a":' },
];

/** Requests for the `verify` case: the app's verify runs on the bytes first, its throw is body-parser's 403 (or the error's own status), before any parse error. */
const VERIFY_REQUESTS: RawRequest[] = [
  { method: 'POST', path: '/echo', headers: json, body: '{"a":1}' },
  { method: 'POST', path: '/echo', headers: { ...json, 'x-signature': 'good' }, body: '{"a":2}' },
  { method: 'POST', path: '/echo', headers: { ...json, 'x-signature': 'bad' }, body: '{"a":3}' },
  { method: 'POST', path: '/echo', headers: { ...json, 'x-signature': 'bad' }, body: '{"a":' },
  { method: 'POST', path: '/echo', headers: { ...json, 'x-signature': 'text' }, body: '{"a":4}' },
  { method: 'POST', path: '/echo', headers: { ...json, 'x-signature': 'object' }, body: '{"a":5}' },
  { method: 'POST', path: '/echo', headers: json, body: '{"a":' },
  { method: 'POST', path: '/echo', headers: { ...json, 'x-signature': 'bad', 'content-length': '0' } },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json; charset=utf-16le', 'x-signature': 'good' }, body: Buffer.from('{"a":"ü"}', 'utf16le') },
  { method: 'POST', path: '/echo', headers: { ...json, 'content-encoding': 'gzip', 'x-signature': 'bad' }, body: zlib.gzipSync('{"zipped":true}') },
  { method: 'POST', path: '/echo', headers: form, body: 'a=1&b=2' },
  { method: 'POST', path: '/echo', headers: form, body: 'word=forbidden' },
  { method: 'POST', path: '/echo', headers: { 'content-type': 'text/plain' }, body: 'plain' },
  { method: 'POST', path: '/signed', headers: { ...json, 'x-signature': 'good' }, body: '{"kept":true}' },
  { method: 'POST', path: '/signed', headers: { ...json, 'x-signature': 'bad' }, body: '{"kept":false}' },
];

/**
 * The case after the stage: its answers to `requests`, and the requests Express's application
 * handled (instrumented; the helper's start-up probe, GET /, has no route: Express answers it, as it should).
 */
async function afterPlugins(name: string, requests: RawRequest[]): Promise<{ answers: string[]; reached: string[] }> {
  const run = await runFixture(STEP, name, 'plugins');
  const log = path.join(mkdtempSync(path.join(os.tmpdir(), 'express-entries-')), 'entries.log');
  const answers = await rawAnswers(withDeclaredExpress(run.root), requests, { args: ['--require', PROBE], env: { EXPRESS_ENTRIES: log } });
  return { answers, reached: (existsSync(log) ? readFileSync(log, 'utf8') : '').split('\n').filter((l) => l && l !== 'GET /') };
}

describe('plugins-bodies fixtures', () => {
  for (const name of fixtureCases(STEP)) {
    it(name, async () => {
      const run = await expectFixture(STEP, name, 'plugins');
      const moved = run.result.moved.find((m) => m.step === STEP);
      expect(MOVED[name], 'the case is in MOVED').toBeDefined();
      expect(moved && [moved.done, moved.of], 'moved').toEqual(MOVED[name].moved);
      expect(moved?.groups?.map((g) => g.name)[0]).toBe(MOVED[name].kept);
    }, 60_000);
  }
});

describe("Fastify's parsers answer as the app's body parsers did, and no request reaches Express (real HTTP)", () => {
  for (const name of ['express4', 'express5']) {
    it(`${name}, on real HTTP`, async () => {
      const dir = path.join(TRANSFORM_FIXTURES, STEP, name);
      const express = await rawAnswers(withDeclaredExpress(copyOf(path.join(dir, 'express'))), REQUESTS);
      // The requests really exercise the rules: parsed bodies, and each of body-parser's error types.
      for (const type of ['entity.parse.failed', 'entity.too.large', 'charset.unsupported', 'encoding.unsupported', 'parameters.too.many']) expect(express.join('\n'), type).toContain(`"type":"${type}"`);
      expect(express.join('\n')).toContain('"zipped":true');
      expect(await rawAnswers(withDeclaredExpress(copyOf(path.join(dir, 'input'))), REQUESTS), 'after routes').toEqual(express);
      const after = await afterPlugins(name, REQUESTS);
      expect(after.answers, 'after plugins').toEqual(express);
      expect(after.reached, "requests Express's application handled").toEqual([]);
    }, 60_000);
  }

  it("verify: the app's function runs on the bytes as body-parser ran it, on Fastify's parsers for the listed route and on Express's for the route that reads what it kept", async () => {
    const dir = path.join(TRANSFORM_FIXTURES, STEP, 'verify');
    const express = await rawAnswers(withDeclaredExpress(copyOf(path.join(dir, 'express'))), VERIFY_REQUESTS);
    const all = express.join('\n');
    for (const type of ['entity.verify.failed', 'form.refused', 'entity.parse.failed', 'signature.object']) expect(all, type).toContain(`"type":"${type}"`);
    // A thrown string is the message; a thrown object that is no Error gives body-parser's own 403.
    expect(all).toContain('"message":"signature missing"');
    expect(all).toMatch(/"name":"ForbiddenError","type":"signature.object","message":"Forbidden"/);
    expect(all).toContain('"raw":"{\\"kept\\":true}"');
    expect(await rawAnswers(withDeclaredExpress(copyOf(path.join(dir, 'input'))), VERIFY_REQUESTS), 'after routes').toEqual(express);
    const after = await afterPlugins('verify', VERIFY_REQUESTS);
    expect(after.answers, 'after plugins').toEqual(express);
    expect(after.reached, "requests Express's application handled: only the route that reads req.rawBody").toEqual(['POST /signed', 'POST /signed']);
  }, 60_000);
});
