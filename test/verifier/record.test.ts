/**
 * verifier/record.ts + runtime/record-hook.mjs end to end: example apps run in a lane with the
 * recorder, traffic scripts under test/verifier/fixtures/record/ drive them, the HAR is checked.
 * Also `migrate record` (cli/record.ts) in-process.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import yargs from 'yargs';
import { recordCommand } from '../../cli/record.js';
import { readHar, recordedResponse, toReplayRequests } from '../../verifier/har.js';
import { LaneError } from '../../verifier/lane.js';
import type { Har, HarEntry } from '../../verifier/model.js';
import { harFromExchanges, record, type RecordResult } from '../../verifier/record.js';
import { project } from '../helpers/tmp.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const APPS = path.join(ROOT, 'fixtures/apps');
const FIXTURES = path.join(import.meta.dirname, 'fixtures/record');
const traffic = (name: string) => `"${process.execPath}" "${path.join(FIXTURES, name)}"`;
const header = (headers: Array<{ name: string; value: string }>, name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;
const quiet = () => {};

describe('record (modern-e5, Express 5)', () => {
  const out = path.join(project({}), 'rec.har');
  let result: RecordResult;
  let har: Har;
  let create: HarEntry, show: HarEntry, other: HarEntry, feedback: HarEntry, admin: HarEntry, notFound: HarEntry, head: HarEntry, missing: HarEntry;
  beforeAll(async () => {
    result = await record({ dir: path.join(APPS, 'modern-e5'), entry: 'src/app.js', out, run: traffic('traffic-modern-e5.mjs'), runOutput: quiet });
    har = readHar(out);
    [create, show, other, feedback, admin, notFound, head, missing] = har.log.entries;
  });

  it('records every exchange in order, with statuses and the route that answered', () => {
    expect(result).toMatchObject({ out, entries: 8, runExitCode: 0, warnings: [] });
    expect(har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status} ${e._routeTemplate}`)).toEqual([
      'POST /api/notes 201 /api/notes',
      'GET /api/notes/3 200 /api/notes/:id',
      'GET /api/notes/1 200 /api/notes/:id',
      'POST /feedback 303 /feedback',
      'GET /admin/stats 200 /admin/stats',
      'GET /no/such/page 404 /{*splat}',
      'HEAD /health 200 /health',
      // Answered by the app's error handler, after the router restored req.baseUrl: still the route that threw.
      'GET /api/notes/999 404 /api/notes/:id',
    ]);
    expect(har.log.entries.map((e) => e._seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(JSON.parse(missing.response.content.text!)).toEqual({ error: 'note not found' });
    expect(har.log.creator.name).toBe('migrate record');
    expect(har.log._verifierVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('captures a request body that arrived in pieces while the app still parsed it', () => {
    const sent = { title: 'Recorded note', body: 'sent in two pieces', tags: ['rec'] };
    expect(JSON.parse(create.request.postData!.text!)).toEqual(sent);
    expect(create.request.postData!.mimeType).toBe('application/json');
    expect(header(create.request.headers, 'transfer-encoding')).toBe('chunked');
    expect(create.request.bodySize).toBe(JSON.stringify(sent).length);
    // The app parsed the same bytes: it echoes them in the note it created.
    expect(JSON.parse(create.response.content.text!)).toEqual({ id: 3, ...sent, revision: 1 });
    expect(header(create.response.headers, 'location')).toBe('/api/notes/3');
    expect(JSON.parse(show.response.content.text!).title).toBe('Recorded note');
  });

  it('keeps the request as sent (Host, URL, query) and the response head as written', () => {
    expect(create.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/notes$/);
    expect(header(create.request.headers, 'host')).toBe(new URL(create.request.url).host);
    expect(show.request.queryString).toEqual([{ name: 'fields', value: 'all' }]);
    expect(show.request.url.endsWith('/api/notes/3?fields=all')).toBe(true);
    expect(create.response.headers.map((h) => h.name).slice(0, 4)).toEqual(['X-Request-Id', 'Location', 'Content-Type', 'Content-Length']);
    expect(header(create.response.headers, 'date')).toBeDefined();
    expect(create.response.statusText).toBe('Created');
    expect(feedback.response.redirectURL).toBe('/thanks');
    expect(admin.response.content.text).toBe('{\n  "notes": 3\n}');
    expect(JSON.parse(notFound.response.content.text!)).toEqual({ error: 'no route for GET /no/such/page' });
    expect(head.response.content).toEqual({ size: 0, mimeType: 'application/json; charset=utf-8' });
    expect(header(head.response.headers, 'content-length')).toBe('15');
  });

  it('redacts credentials with one placeholder per identity', () => {
    expect(header(create.request.headers, 'authorization')).toBe('Bearer <redacted:authorization:1>');
    expect(header(show.request.headers, 'authorization')).toBe('Bearer <redacted:authorization:1>');
    expect(header(other.request.headers, 'authorization')).toBe('Bearer <redacted:authorization:2>');
    expect(feedback.request.postData!.text).toBe('message=great+app&password=<redacted:password:1>');
    expect(header(admin.request.headers, 'x-admin-token')).toBe('<redacted:x-admin-token:1>');
    expect(result.redactions).toBe(5);
    expect(readFileSync(out, 'utf8')).not.toMatch(/token-of-|hunter2|letmein/);
  });

  it('replays as recorded', () => {
    const requests = toReplayRequests(har);
    expect(requests[0]).toMatchObject({ id: 'e1', method: 'POST', path: '/api/notes', routeTemplate: '/api/notes' });
    expect(JSON.parse(requests[0].body!.toString()).title).toBe('Recorded note');
    expect(recordedResponse(notFound).status).toBe(404);
  });
});

describe('record (url-shortener, compressed answers)', () => {
  const out = path.join(project({}), 'rec.har');
  let result: RecordResult;
  let gzip: HarEntry, br: HarEntry, shorten: HarEntry, favicon: HarEntry;
  beforeAll(async () => {
    result = await record({ dir: path.join(APPS, 'url-shortener'), entry: 'src/app.js', out, run: traffic('traffic-url-shortener.mjs'), runOutput: quiet });
    [gzip, br, shorten, favicon] = readHar(out).log.entries;
  });

  it('stores gzip and brotli bodies decoded, with the bytes saved', () => {
    expect(result.entries).toBe(4);
    for (const [e, coding] of [[gzip, 'gzip'], [br, 'br']] as Array<[HarEntry, string]>) {
      expect(header(e.response.headers, 'content-encoding')).toBe(coding);
      expect(e.response.content.text).toMatch(/^<!DOCTYPE html><html lang="en">/);
      expect(e.response.content.text).toContain('<title>URL Shortener</title>');
      expect(e.response.content.size).toBe(Buffer.byteLength(e.response.content.text!));
      expect(e.response.content.compression).toBe(e.response.content.size - e.response.bodySize);
      expect(e.response.bodySize).toBeGreaterThan(100);
      expect(e.response.bodySize).toBeLessThan(e.response.content.size);
      expect(e._routeTemplate).toBe('/');
    }
    expect(gzip.response.content.text).toBe(br.response.content.text);
  });

  it('records JSON answers and binary static files', () => {
    expect(shorten._routeTemplate).toBe('/shorten');
    expect(JSON.parse(shorten.response.content.text!)).toMatchObject({ destination: 'https://example.com/a/long/path' });
    expect(favicon.response.content.encoding).toBe('base64');
    expect(recordedResponse(favicon).body.length).toBe(91);
    expect(favicon._routeTemplate).toBeUndefined();
  });
});

describe('record (shop-api: TypeScript, multer uploads, sessions, error handlers)', () => {
  it('records the fixture recording again, exchange for exchange', async () => {
    const recorded = path.join(APPS, 'shop-api/recording.har');
    const out = path.join(project({}), 'again.har');
    const run = `${traffic('replay-har.mjs')} "${recorded}"`;
    const result = await record({ dir: path.join(APPS, 'shop-api'), entry: 'src/app.ts', out, run, redact: { enabled: false }, runOutput: quiet });
    const before = readHar(recorded).log.entries;
    const after = readHar(out).log.entries;
    expect(result.entries).toBe(before.length);
    const view = (e: HarEntry) => [e.request.method, e.request.url, e.request.postData?.text ?? '', e.response.status, e.response.content.text ?? ''];
    expect(after.map(view)).toEqual(before.map(view));
    const upload = after[46];
    expect(upload._routeTemplate).toBe('/api/v1/uploads/images');
    expect(upload.request.postData).toMatchObject({ _encoding: 'base64' });
    expect(Buffer.from(upload.request.postData!.text!, 'base64').length).toBe(363);
    // Rejected by validation in the router, answered by the app's error handler.
    expect(`${after[8].response.status} ${after[8]._routeTemplate}`).toBe('400 /api/v1/products');
    expect(after[63]._routeTemplate).toBeUndefined(); // a 404 no route matched
  });
});

describe('record: stopping and failing', () => {
  it('records until the signal aborts', async () => {
    const dir = project({});
    const controller = new AbortController();
    const out = path.join(dir, 'manual.har');
    const done = record({
      dir: path.join(APPS, 'modern-e5'),
      entry: 'src/app.js',
      out,
      signal: controller.signal,
      redact: { enabled: false },
      log: (line) => {
        const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
        // Stop as soon as the answer is in: the exchange must survive the SIGTERM that follows.
        if (url) void fetch(`${url}/health`, { headers: { 'X-Api-Key': 'visible' } }).then(() => controller.abort());
      },
    });
    const result = await done;
    expect(result.entries).toBe(1);
    const [e] = readHar(out).log.entries;
    expect(e.response.content.text).toBe('{"status":"ok"}');
    expect(header(e.request.headers, 'x-api-key')).toBe('visible');
  });

  it('keeps what an app answered before it exited, stops the command, and says so', async () => {
    const app = project({
      'package.json': '{"type":"module"}',
      'server.js': "import http from 'node:http';\nexport default http.createServer((req, res) => {\n  res.end('bye');\n  setTimeout(() => process.exit(3), 20);\n});\n",
    });
    const run = `"${process.execPath}" -e "fetch(process.env.MIGRATE_RECORD_URL + '/last').then(() => setTimeout(() => {}, 20000))"`;
    const started = Date.now();
    const result = await record({ dir: app, entry: 'server.js', run, out: path.join(app, 'x.har'), runOutput: quiet });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.entries).toBe(1);
    expect(result.runExitCode).toBeNull();
    expect(result.warnings[0]).toBe('The command exited with a signal: ' + run);
    expect(result.warnings[1]).toMatch(/^The app exited during the recording; what it answered until then is kept\./);
    const [e] = readHar(result.out).log.entries;
    // No Content-Type: not known to be text, so stored base64.
    expect(e.response.content).toEqual({ size: 3, mimeType: '', text: 'Ynll', encoding: 'base64' });
    expect(recordedResponse(e).body.toString()).toBe('bye');
    expect(e._routeTemplate).toBeUndefined();
  });

  it('fails with a LaneError when the app cannot start', async () => {
    const app = project({ 'package.json': '{"type":"module"}', 'app.js': "throw new Error('no database');\n" });
    const failure = record({ dir: app, entry: 'app.js', run: 'true', out: path.join(app, 'x.har') });
    await expect(failure).rejects.toBeInstanceOf(LaneError);
    await expect(record({ dir: app, entry: 'app.js', run: 'true' })).rejects.toThrow(/no database/);
  });

  it('turns recorder lines into entries and skips a line cut short', () => {
    const line = {
      v: 1,
      pid: 1,
      seq: 2,
      start: 2,
      startedDateTime: '2026-11-30T10:00:00.000Z',
      time: 3,
      timings: { send: 1, wait: 1, receive: 1 },
      route: '/x',
      request: { method: 'POST', url: '/x?a=1', scheme: 'http', httpVersion: 'HTTP/1.1', headers: [['Host', 'h:1'], ['Cookie', 'a=1; b=2'], ['Content-Type', 'application/octet-stream']], body: Buffer.from([0xff, 0]).toString('base64') },
      response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [['Set-Cookie', 'a=2; Path=/; HttpOnly']], body: '', encodedSize: 0, truncated: true },
    };
    const { har, warnings } = harFromExchanges(`${JSON.stringify({ ...line, seq: 3, start: 3 })}\n${JSON.stringify(line)}\n{"v":1,"se`, { app: 'demo', entry: 'app.js' });
    expect(har.log.entries).toHaveLength(2);
    const [e] = har.log.entries;
    expect(e.request.url).toBe('http://h:1/x?a=1');
    expect(e.request.cookies).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ]);
    expect(e.request.postData).toEqual({ mimeType: 'application/octet-stream', text: '/wA=', _encoding: 'base64' });
    expect(e.response.cookies).toEqual([{ name: 'a', value: '2', path: '/', httpOnly: true }]);
    expect(e.comment).toBe('response body truncated');
    expect(warnings).toEqual(['Recorder line 3 is not JSON (the app was stopped while writing?); skipped.', '2 exchanges have a body cut at the recorder\'s limit (MIGRATE_RECORD_MAX_BODY).']);
  });
});

describe('migrate record (CLI)', () => {
  afterEach(() => vi.restoreAllMocks());

  async function cli(...argv: string[]): Promise<{ code: number | undefined; stderr: string }> {
    let code: number | undefined;
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
    try {
      await yargs(argv)
        .command(recordCommand((c) => (code = c)))
        .strict()
        .exitProcess(false)
        .fail((msg, err) => {
          throw err ?? new Error(msg);
        })
        .parseAsync();
    } catch (e) {
      stderr.push(`usage: ${(e as Error).message}`);
      code = 2;
    } finally {
      vi.restoreAllMocks();
    }
    return { code, stderr: stderr.join('') };
  }

  it('imports a browser HAR with --from-har and prints a summary', async () => {
    const out = path.join(project({}), 'imported.har');
    const r = await cli('record', '--from-har', path.join(FIXTURES, 'chrome.har'), '--out', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: Kept 3 exchanges with https://shop.example.com');
    expect(r.stderr).toContain(`Imported 3 exchanges with https://shop.example.com, 3 redactions → ${out}`);
    expect(readHar(out).log.creator.name).toBe('migrate record --from-har');
  });

  it('records with --run, extra redaction options, and reports the command failing with exit 1', async () => {
    const out = path.join(project({}), 'cli.har');
    const r = await cli('record', path.join(APPS, 'modern-e5'), '--entry', 'src/app.js', '--out', out, '--run', `${traffic('traffic-modern-e5.mjs')} && exit 3`, '--redact-header', 'accept');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Recording http:\/\/127\.0\.0\.1:\d+: running /);
    expect(r.stderr).toContain('warning: The command exited with code 3');
    expect(r.stderr).toContain(`Recorded 8 exchanges, 6 redactions → ${out}`);
    expect(header(readHar(out).log.entries[1].request.headers, 'accept')).toBe('<redacted:accept:1>');
  });

  it('exits 2 for a bad HAR, an app that cannot start, or missing options', async () => {
    const dir = project({ 'bad.har': '{"log":{"version":"2.0"}}' });
    const bad = await cli('record', '--from-har', path.join(dir, 'bad.har'));
    expect(bad).toEqual({ code: 2, stderr: `migrate record: ${path.join(dir, 'bad.har')} is not HAR 1.x (log.version is "2.0")\n` });
    const missing = await cli('record', dir, '--entry', 'nope.js', '--run', 'true');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`migrate record: record lane: entry ${path.join(dir, 'nope.js')} does not exist\n`);
    const usage = await cli('record', dir);
    // No --entry and nothing to detect it from (no package.json start script, no conventional file).
    expect(usage).toEqual({ code: 2, stderr: `migrate record: no entry found in ${dir}: pass --entry <file> (the module that starts the server or exports the app)\n` });
  });
});

describe('record: bodies the app never reads', () => {
  it('keeps the request body of an answer sent before the body arrived', async () => {
    const app = project({
      'package.json': '{"type":"module"}',
      // Answers at once and never reads the body, as an Express route without a body parser does.
      'server.js': "import http from 'node:http';\nexport default http.createServer((req, res) => res.setHeader('content-type', 'text/plain').end('ignored'));\n",
      'send.mjs':
        "import http from 'node:http';\nconst body = 'hello unread body';\nhttp.request(process.env.MIGRATE_RECORD_URL + '/upload', { method: 'POST', headers: { 'content-type': 'text/plain', 'content-length': body.length } }, (res) => res.resume()).end(body);\n",
    });
    const out = path.join(app, 'rec.har');
    const result = await record({ dir: app, entry: 'server.js', out, run: `"${process.execPath}" "${path.join(app, 'send.mjs')}"`, runOutput: quiet });
    expect(result.entries).toBe(1);
    const [entry] = readHar(out).log.entries;
    expect(entry.response.content.text).toBe('ignored');
    expect(entry.request.postData).toEqual({ mimeType: 'text/plain', text: 'hello unread body' });
  });
});
