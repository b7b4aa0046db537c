/** verifier/har.ts: reading with clear errors, stable writing, replay requests, recorded responses. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarError, parseHar, readHar, recordedResponse, stringifyHar, toReplayRequests, writeHar } from '../../verifier/har.js';
import type { Har, HarEntry } from '../../verifier/model.js';
import { project } from '../helpers/tmp.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SHOP = path.join(ROOT, 'fixtures/apps/shop-api/recording.har');
const SHORTENER = path.join(ROOT, 'fixtures/apps/url-shortener/recording.har');
const FIREFOX = path.join(import.meta.dirname, 'fixtures/record/firefox.har');

function entry(over: Partial<HarEntry['request']> = {}, extra: Partial<HarEntry> = {}): HarEntry {
  return {
    startedDateTime: '2026-11-30T10:00:00.000Z',
    time: 1,
    request: { method: 'GET', url: 'http://127.0.0.1:3000/', httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0, ...over },
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [], content: { size: 0, mimeType: '' }, redirectURL: '', headersSize: -1, bodySize: 0 },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
    ...extra,
  };
}

function harOf(...entries: HarEntry[]): Har {
  return { log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } };
}

describe('writeHar / readHar', () => {
  it('round-trips byte for byte: write → read → write', () => {
    const dir = project({});
    const a = path.join(dir, 'a.har');
    const b = path.join(dir, 'nested/b.har');
    writeHar(a, readHar(SHOP));
    writeHar(b, readHar(a));
    const first = readFileSync(a, 'utf8');
    expect(readFileSync(b, 'utf8')).toBe(first);
    expect(first.endsWith('}\n')).toBe(true);
    expect(first.split('\n')[1]).toBe('  "log": {');
    const har = JSON.parse(first) as Har;
    expect(har.log.entries).toHaveLength(65);
    expect(har.log.entries.map((e) => e._seq)).toEqual(Array.from({ length: 65 }, (_, i) => i + 1));
  });

  it('writes keys in a fixed order whatever order they came in, extensions after the HAR fields', () => {
    const shuffled = {
      log: {
        entries: [
          {
            _routeTemplate: '/users/:id',
            timings: { receive: 1, wait: 2, send: 3 },
            response: { content: { text: 'x', mimeType: 'text/plain', size: 1 }, status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ value: 'text/plain', name: 'Content-Type' }], redirectURL: '', headersSize: -1, bodySize: 1 },
            request: { url: 'http://h/users/1', method: 'GET', httpVersion: 'HTTP/1.1', cookies: [], headers: [], queryString: [], headersSize: -1, bodySize: 0 },
            cache: {},
            time: 6,
            startedDateTime: '2026-11-30T10:00:00.000Z',
            _zeta: true,
          },
        ],
        creator: { version: '1', name: 'x' },
        version: '1.2',
      },
    } as unknown as Har;
    const text = stringifyHar(shuffled);
    const e = JSON.parse(text).log.entries[0];
    expect(Object.keys(JSON.parse(text).log)).toEqual(['version', 'creator', 'entries']);
    expect(Object.keys(e)).toEqual(['startedDateTime', 'time', 'request', 'response', 'cache', 'timings', '_seq', '_routeTemplate', '_zeta']);
    expect(Object.keys(e.request)).toEqual(['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize']);
    expect(Object.keys(e.response.content)).toEqual(['size', 'mimeType', 'text']);
    expect(Object.keys(e.response.headers[0])).toEqual(['name', 'value']);
    expect(Object.keys(e.timings)).toEqual(['send', 'wait', 'receive']);
    expect(shuffled.log.entries[0]._seq).toBeUndefined(); // the input is not modified
  });

  it('says which file and which entry is wrong', () => {
    const dir = project({
      'text.har': 'hello',
      'v2.har': JSON.stringify({ log: { version: '2.0', entries: [] } }),
      'nolog.har': '{"entries":[]}',
      'nourl.har': JSON.stringify(harOf(entry(), entry({ url: undefined as unknown as string }))),
      'relative.har': JSON.stringify(harOf(entry({ url: '/users' }))),
      'nostatus.har': JSON.stringify({ log: { version: '1.2', entries: [{ request: { method: 'GET', url: 'http://h/' }, response: {} }] } }),
    });
    const error = (name: string) => {
      try {
        readHar(path.join(dir, name));
      } catch (e) {
        expect(e).toBeInstanceOf(HarError);
        expect((e as HarError).file).toBe(path.join(dir, name));
        return (e as Error).message.replace(dir + '/', '');
      }
      throw new Error('no error');
    };
    expect(error('text.har')).toMatch(/^text\.har is not JSON: /);
    expect(error('v2.har')).toBe('v2.har is not HAR 1.x (log.version is "2.0")');
    expect(error('nolog.har')).toBe('nolog.har is not a HAR file: it has no "log" object');
    expect(error('nourl.har')).toBe('nourl.har: entry 2 lacks request.url');
    expect(error('relative.har')).toBe('relative.har: entry 1 has a request.url that is not absolute: "/users"');
    expect(error('nostatus.har')).toBe('nostatus.har: entry 1 lacks response.status');
    expect(error('missing.har')).toMatch(/^cannot read missing\.har: ENOENT/);
  });

  it('fills the fields a browser may leave out', () => {
    const har = parseHar(JSON.stringify({ log: { version: '1.1', entries: [{ request: { method: 'GET', url: 'http://h/' }, response: { status: 204 } }] } }), 'mem');
    const [e] = har.log.entries;
    expect(e.request.headers).toEqual([]);
    expect(e.request.queryString).toEqual([]);
    expect(e.response.content).toEqual({ size: 0, mimeType: '' });
    expect(e.timings).toEqual({ send: 0, wait: 0, receive: 0 });
  });
});

describe('toReplayRequests', () => {
  const requests = toReplayRequests(readHar(SHOP));

  it('numbers requests e1… in recorded order, keeps path and query as written', () => {
    expect(requests).toHaveLength(65);
    expect(requests.map((r) => r.id).slice(0, 3)).toEqual(['e1', 'e2', 'e3']);
    expect(requests[64].id).toBe('e65');
    expect(requests.every((r) => r.session === 'default')).toBe(true);
    expect(requests[14]).toMatchObject({ method: 'GET', path: '/API/V1/Categories/books' });
    expect(requests[16].path).toBe('/api/v1/categories/books/products?page[size]=1&page[number]=2');
    expect(requests[0].comment).toBe('root redirects to the product list');
  });

  it('gives the multipart upload as bytes of the recorded length, headers in order', () => {
    const upload = requests[46];
    expect(upload.method).toBe('POST');
    expect(upload.path).toBe('/api/v1/uploads/images');
    expect(Buffer.isBuffer(upload.body)).toBe(true);
    expect(upload.body!.length).toBe(363);
    expect(upload.headers.map(([n]) => n)).toEqual(['Host', 'Accept', 'User-Agent', 'Authorization', 'Content-Type', 'Content-Length', 'Connection']);
    expect(upload.headers.find(([n]) => n === 'Content-Length')![1]).toBe('363');
    expect(upload.body!.subarray(0, 36).toString('latin1')).toBe('------fixtureboundary7MA4YWxkTrZu0gW');
    expect(requests[17].body!.toString()).toBe('{"username":"grace"}');
    expect(requests[0].body).toBeUndefined();
  });

  it('drops pseudo-headers, takes _session and _routeTemplate, fixes Content-Length to the body', () => {
    const [r] = toReplayRequests(
      harOf(
        entry(
          {
            method: 'POST',
            url: 'https://shop.example.com/cart?x=1#frag',
            headers: [
              { name: ':authority', value: 'shop.example.com' },
              { name: 'Host', value: 'shop.example.com' },
              { name: 'Content-Length', value: '99' },
            ],
            postData: { mimeType: 'application/json', text: '{"a":"é"}' },
          },
          { _session: 'alice', _routeTemplate: '/cart' },
        ),
      ),
    );
    expect(r).toMatchObject({ id: 'e1', session: 'alice', path: '/cart?x=1', routeTemplate: '/cart' });
    expect(r.headers).toEqual([
      ['Host', 'shop.example.com'],
      ['Content-Length', '10'],
    ]);
    expect(r.body!.toString('utf8')).toBe('{"a":"é"}');
  });

  it('rebuilds bodies from params when a browser gave no text', () => {
    const [login] = toReplayRequests(readHar(FIREFOX));
    expect(login.body!.toString()).toBe('user=ada&password=correct+horse');
    const [multi] = toReplayRequests(
      harOf(entry({ method: 'POST', postData: { mimeType: 'multipart/form-data; boundary=XyZ', params: [{ name: 'a', value: '1' }] } })),
    );
    expect(multi.body!.toString()).toBe('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XyZ--\r\n');
  });

  it('decodes base64 request bodies', () => {
    const bytes = Buffer.from([0, 255, 1, 254]);
    const [r] = toReplayRequests(harOf(entry({ method: 'PUT', postData: { mimeType: 'application/octet-stream', text: bytes.toString('base64'), _encoding: 'base64' } })));
    expect(r.body).toEqual(bytes);
  });
});

describe('recordedResponse', () => {
  it('gives status, headers in order and the body as bytes (text or base64)', () => {
    const har = readHar(SHORTENER);
    const favicon = har.log.entries.find((e) => e.request.url.endsWith('/static/favicon.png'))!;
    const res = recordedResponse(favicon);
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(91);
    expect(res.body.subarray(1, 4).toString()).toBe('PNG');
    const gzipped = recordedResponse(har.log.entries[1]);
    expect(gzipped.headers.find(([n]) => n.toLowerCase() === 'content-encoding')?.[1]).toBe('gzip');
    expect(gzipped.body.toString('utf8')).toMatch(/^<!DOCTYPE html>/);
    expect(gzipped.body.length).toBe(1452);
    const head = recordedResponse(har.log.entries[2]);
    expect(head.body.length).toBe(0);
  });
});

describe('stable file on disk', () => {
  it('is what stringifyHar returns', () => {
    const dir = project({});
    const file = path.join(dir, 'x.har');
    const har = readHar(FIREFOX);
    writeHar(file, har);
    expect(readFileSync(file, 'utf8')).toBe(stringifyHar(har));
    writeFileSync(path.join(dir, 'bom.har'), '\uFEFF' + stringifyHar(har));
    expect(readHar(path.join(dir, 'bom.har')).log.entries).toHaveLength(2);
  });
});
