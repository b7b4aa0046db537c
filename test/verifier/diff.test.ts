/** diffResponses(): every difference kind at its exact JSON Pointer (verifier/diff.ts; verifier-design §1.1, §7.8). */
import { describe, expect, it } from 'vitest';
import { diffResponses, type DiffOptions } from '../../verifier/diff.js';
import type { CanonicalResponse, RawResponse } from '../../verifier/model.js';
import { canonicalize } from '../../verifier/normalize.js';

const raw = (status: number, headers: Array<[string, string]>, body: string | Buffer = ''): RawResponse => ({
  status,
  headers,
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});
const canon = (status: number, headers: Array<[string, string]>, body?: string | Buffer) => canonicalize(raw(status, headers, body));
const JSON_UTF8: [string, string] = ['content-type', 'application/json; charset=utf-8'];
const json = (value: unknown, headers: Array<[string, string]> = [], status = 200): CanonicalResponse => canon(status, [JSON_UTF8, ...headers], JSON.stringify(value));

describe('diffResponses: response envelope', () => {
  it('finds nothing between identical responses', () => {
    const body = { users: [{ id: 1, tags: ['a', 'b'] }], total: 1 };
    expect(diffResponses(json(body, [['set-cookie', 'sid=1; HttpOnly']]), json(body, [['set-cookie', 'sid=1; HttpOnly']]))).toEqual([]);
    expect(diffResponses(canon(204, []), canon(204, []))).toEqual([]);
  });

  it('Express 404 HTML vs Fastify 404 JSON: same status, media type and body kind differ (mapping §2.1)', () => {
    const express = canon(
      404,
      [
        ['X-Powered-By', 'Express'],
        ['Content-Security-Policy', "default-src 'none'"],
        ['X-Content-Type-Options', 'nosniff'],
        ['Content-Type', 'text/html; charset=utf-8'],
        ['Date', 'Tue, 04 Mar 2025 10:00:00 GMT'],
      ],
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /missing</pre>\n</body>\n</html>\n',
    );
    const fastify = canon(404, [JSON_UTF8, ['date', 'Tue, 04 Mar 2025 10:00:01 GMT']], '{"message":"Route GET:/missing not found","error":"Not Found","statusCode":404}');
    expect(diffResponses(express, fastify)).toEqual([
      { pointer: '/bodyKind', kind: 'type', baseline: 'text', candidate: 'json' },
      { pointer: '/headers/content-security-policy', kind: 'header', baseline: "default-src 'none'" },
      { pointer: '/headers/x-content-type-options', kind: 'header', baseline: 'nosniff' },
      { pointer: '/headers/x-powered-by', kind: 'header', baseline: 'Express' },
      { pointer: '/mediaType', kind: 'header', baseline: 'text/html', candidate: 'application/json' },
    ]);
  });

  it('reports status, media type and a lost charset (res.type("html") vs reply.type("text/html"), mapping §2.4)', () => {
    const express = canon(200, [['Content-Type', 'text/html; charset=utf-8']], '<p>é</p>');
    const fastify = canon(201, [['content-type', 'text/html']], '<p>é</p>');
    expect(diffResponses(express, fastify)).toEqual([
      { pointer: '/charset', kind: 'header', baseline: 'utf-8' },
      { pointer: '/status', kind: 'status', baseline: 200, candidate: 201 },
    ]);
    expect(diffResponses(fastify, express)).toEqual([
      { pointer: '/charset', kind: 'header', candidate: 'utf-8' },
      { pointer: '/status', kind: 'status', baseline: 201, candidate: 200 },
    ]);
  });

  it('treats `res.send("hello")` text/html vs `return "hello"` text/plain as a media type difference only (mapping §2.5)', () => {
    const express = canon(200, [['Content-Type', 'text/html; charset=utf-8']], 'hello');
    const fastify = canon(200, [['content-type', 'text/plain; charset=utf-8']], 'hello');
    expect(diffResponses(express, fastify)).toEqual([{ pointer: '/mediaType', kind: 'header', baseline: 'text/html', candidate: 'text/plain' }]);
  });

  it('compares header names case-insensitively and values exactly; escapes "~" and "/" in header names', () => {
    const a = canon(200, [['Cache-Control', 'no-store'], ['X-A~B', '1'], ['ETag', 'W/"5-abc"']]);
    const b = canon(200, [['cache-control', 'no-store'], ['x-a~b', '2'], ['etag', '"abc"']]);
    expect(diffResponses(a, b)).toEqual([
      { pointer: '/headers/etag', kind: 'header', baseline: 'W/"5-abc"', candidate: '"abc"' },
      { pointer: '/headers/x-a~0b', kind: 'header', baseline: '1', candidate: '2' },
    ]);
  });
});

describe('diffResponses: cookies', () => {
  const express = canon(200, [['Set-Cookie', 'sid=s%3A1; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict'], ['Set-Cookie', 'seen=1; Path=/']]);

  it('reports a lost HttpOnly and a Max-Age in milliseconds as attribute value differences', () => {
    // Express res.cookie maxAge is in ms and emits seconds; a Fastify port that passes the ms
    // number straight to @fastify/cookie (seconds) emits 3600000.
    const fastify = canon(200, [['set-cookie', 'sid=s%3A1; Max-Age=3600000; Path=/; SameSite=Strict'], ['set-cookie', 'seen=1; Path=/']]);
    expect(diffResponses(express, fastify)).toEqual([
      { pointer: '/cookies/sid/httpOnly', kind: 'value', baseline: true, candidate: false },
      { pointer: '/cookies/sid/maxAge', kind: 'value', baseline: 3600, candidate: 3600000 },
    ]);
  });

  it('reports missing and extra cookies, and attributes absent on one side', () => {
    const fastify = canon(200, [['set-cookie', 'sid=s%3A1; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict; Domain=example.com'], ['set-cookie', 'lang=en']]);
    expect(diffResponses(express, fastify)).toEqual([
      { pointer: '/cookies/lang', kind: 'extra', candidate: { value: 'en', httpOnly: false, secure: false } },
      { pointer: '/cookies/seen', kind: 'missing', baseline: { value: '1', path: '/', httpOnly: false, secure: false } },
      { pointer: '/cookies/sid/domain', kind: 'value', candidate: 'example.com' },
    ]);
  });
});

describe('diffResponses: JSON bodies', () => {
  it('ignores key order (Fastify error body vs the same keys reordered, mapping §2.2)', () => {
    const a = json({ statusCode: 500, code: 'E_BOOM', error: 'Internal Server Error', message: 'boom' }, [], 500);
    const b = canon(500, [JSON_UTF8], '{"message":"boom","error":"Internal Server Error","code":"E_BOOM","statusCode":500}');
    expect(diffResponses(a, b)).toEqual([]);
  });

  it('reports missing, extra, type and value at exact pointers, escaping "/" and "~" in keys', () => {
    const a = json({ user: { id: 1, name: 'Ada', email: 'ada@example.com', n: '5', 'a/b': 1, 'm~n': true } });
    const b = json({ user: { id: 1, name: 'Ada L', n: 5, 'a/b': 2, 'm~n': true, role: 'admin' } });
    expect(diffResponses(a, b)).toEqual([
      { pointer: '/body/user/a~1b', kind: 'value', baseline: 1, candidate: 2 },
      { pointer: '/body/user/email', kind: 'missing', baseline: 'ada@example.com' },
      { pointer: '/body/user/n', kind: 'type', baseline: '5', candidate: 5 },
      { pointer: '/body/user/name', kind: 'value', baseline: 'Ada', candidate: 'Ada L' },
      { pointer: '/body/user/role', kind: 'extra', candidate: 'admin' },
    ]);
    expect(diffResponses(json({ 'm~n': 1 }), json({ 'm~n': 2 }))).toEqual([{ pointer: '/body/m~0n', kind: 'value', baseline: 1, candidate: 2 }]);
  });

  it('reports null vs a value and object vs array as type differences (fast-json-stringify null coercion, mapping §2.8)', () => {
    expect(diffResponses(json({ name: null, tags: {} }), json({ name: '', tags: [] }))).toEqual([
      { pointer: '/body/name', kind: 'type', baseline: null, candidate: '' },
      { pointer: '/body/tags', kind: 'type', baseline: {}, candidate: [] },
    ]);
    expect(diffResponses(json(42), json('42'))).toEqual([{ pointer: '/body', kind: 'type', baseline: 42, candidate: '42' }]);
  });

  it('reports one order difference for the same elements in another order', () => {
    const a = json({ items: [{ id: 1, b: 2, a: 1 }, { id: 2 }, { id: 3 }] });
    const b = json({ items: [{ id: 3 }, { a: 1, id: 1, b: 2 }, { id: 2 }] });
    expect(diffResponses(a, b)).toEqual([{ pointer: '/body/items', kind: 'order', baseline: [{ id: 1, b: 2, a: 1 }, { id: 2 }, { id: 3 }], candidate: [{ id: 3 }, { a: 1, id: 1, b: 2 }, { id: 2 }] }]);
  });

  it('reports one size difference (with the missing and extra elements) and nothing per element', () => {
    const a = json({ items: [{ id: 1 }, { id: 2 }, { id: 3 }] });
    const b = json({ items: [{ id: 2 }, { id: 4 }] });
    expect(diffResponses(a, b)).toEqual([
      { pointer: '/body/items', kind: 'size', baseline: { length: 3, missing: [{ id: 1 }, { id: 3 }] }, candidate: { length: 2, extra: [{ id: 4 }] } },
    ]);
  });

  it('compares same-length arrays element by element, numeric indices in numeric order', () => {
    const a = json({ n: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] });
    const b = json({ n: [0, 1, 20, 3, 4, 5, 6, 7, 8, 9, 100, 11] });
    expect(diffResponses(a, b).map((d) => d.pointer)).toEqual(['/body/n/2', '/body/n/10']);
  });

  it('nests: an inner array in another order under an outer array compared by index; an inner size change', () => {
    const a = json({ groups: [{ name: 'x', tags: ['a', 'b'] }, { name: 'y', tags: ['c'] }] });
    const b = json({ groups: [{ name: 'x', tags: ['b', 'a'] }, { name: 'y', tags: ['c', 'd'] }] });
    expect(diffResponses(a, b)).toEqual([
      { pointer: '/body/groups/0/tags', kind: 'order', baseline: ['a', 'b'], candidate: ['b', 'a'] },
      { pointer: '/body/groups/1/tags', kind: 'size', baseline: { length: 1, missing: [] }, candidate: { length: 2, extra: ['d'] } },
    ]);
  });
});

describe('diffResponses: DiffOptions', () => {
  it('unordered: no order difference; unmatched elements paired in order, at the baseline index', () => {
    const options: DiffOptions = { unordered: ['/body/**/tags', '/body/items'] };
    expect(diffResponses(json({ a: { tags: ['x', 'y'] } }), json({ a: { tags: ['y', 'x'] } }), options)).toEqual([]);
    const a = json({ items: [{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { id: 3, v: 'c' }] });
    const b = json({ items: [{ id: 3, v: 'c' }, { id: 2, v: 'B' }, { id: 1, v: 'a' }] });
    expect(diffResponses(a, b, options)).toEqual([{ pointer: '/body/items/1/v', kind: 'value', baseline: 'b', candidate: 'B' }]);
    expect(diffResponses(json({ items: [1, 2] }), json({ items: [2, 1, 1] }), options)).toEqual([
      { pointer: '/body/items', kind: 'size', baseline: { length: 2, missing: [] }, candidate: { length: 3, extra: [1] } },
    ]);
  });

  it('keyBy: elements matched by key; pointers use the baseline index; extras at "-"', () => {
    const a = json({ users: [{ id: 'u1', name: 'Ada' }, { id: 'u2', name: 'Bob' }, { id: 'u3', name: 'Cy' }] });
    const b = json({ users: [{ id: 'u4', name: 'Di' }, { id: 'u2', name: 'Bobby' }, { id: 'u1', name: 'Ada' }] });
    const uses: unknown[] = [];
    const options: DiffOptions = { keyBy: [{ pattern: '/body/users', key: 'id' }], onArrayOption: (u) => uses.push(u) };
    expect(diffResponses(a, b, options)).toEqual([
      { pointer: '/body/users/1/name', kind: 'value', baseline: 'Bob', candidate: 'Bobby' },
      { pointer: '/body/users/2', kind: 'missing', baseline: { id: 'u3', name: 'Cy' } },
      { pointer: '/body/users/-', kind: 'extra', candidate: { id: 'u4', name: 'Di' } },
    ]);
    expect(uses).toEqual([{ option: 'keyBy', index: 0, pointer: '/body/users' }]);
  });

  it('keyBy falls back to the plain comparison when an element lacks the key or a key repeats', () => {
    const options: DiffOptions = { keyBy: [{ pattern: '/body/users', key: 'id' }] };
    const a = json({ users: [{ id: 1 }, { name: 'anon' }] });
    const b = json({ users: [{ name: 'anon' }, { id: 1 }] });
    expect(diffResponses(a, b, options)).toEqual([{ pointer: '/body/users', kind: 'order', baseline: [{ id: 1 }, { name: 'anon' }], candidate: [{ name: 'anon' }, { id: 1 }] }]);
    expect(diffResponses(json({ users: [{ id: 1, v: 1 }, { id: 1, v: 2 }] }), json({ users: [{ id: 1, v: 1 }, { id: 1, v: 3 }] }), options)).toEqual([
      { pointer: '/body/users/1/v', kind: 'value', baseline: 2, candidate: 3 },
    ]);
  });

  it('patterns match array pointers exactly: "*" one segment, "**" any; onArrayOption tells which entry met which array', () => {
    const uses: unknown[] = [];
    const options: DiffOptions = { unordered: ['/body/*/tags', '/body/nothing'], onArrayOption: (u) => uses.push(u) };
    expect(diffResponses(json({ p: { tags: [1, 2] }, q: { r: { tags: [1, 2] } } }), json({ p: { tags: [2, 1] }, q: { r: { tags: [2, 1] } } }), options)).toEqual([
      { pointer: '/body/q/r/tags', kind: 'order', baseline: [1, 2], candidate: [2, 1] },
    ]);
    expect(uses).toEqual([{ option: 'unordered', index: 0, pointer: '/body/p/tags' }]);
  });
});

describe('diffResponses: text, binary and empty bodies', () => {
  it('reports one value difference at /body for text', () => {
    const a = canon(500, [['Content-Type', 'text/html; charset=utf-8']], '<pre>Internal Server Error</pre>');
    const b = canon(500, [['content-type', 'text/html; charset=utf-8']], '<pre>boom</pre>');
    expect(diffResponses(a, b)).toEqual([{ pointer: '/body', kind: 'value', baseline: '<pre>Internal Server Error</pre>', candidate: '<pre>boom</pre>' }]);
  });

  it('reports size when binary sizes differ, else value when the hashes differ', () => {
    const png: [string, string] = ['content-type', 'image/png'];
    expect(diffResponses(canon(200, [png], Buffer.from([1, 2, 3])), canon(200, [png], Buffer.from([1, 2])))).toEqual([{ pointer: '/body', kind: 'size', baseline: 3, candidate: 2 }]);
    expect(diffResponses(canon(200, [png], Buffer.from('hello')), canon(200, [png], Buffer.from('jello')))).toEqual([
      { pointer: '/body', kind: 'value', baseline: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824', candidate: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(diffResponses(canon(200, [png], Buffer.from('hello')), canon(200, [png], Buffer.from('hello')))).toEqual([]);
  });

  it('reports an empty body vs JSON null as a body kind difference (Express send(null) vs Fastify, mapping §2.5)', () => {
    const express = canon(200, []);
    const fastify = canon(200, [JSON_UTF8], 'null');
    expect(diffResponses(express, fastify)).toEqual([
      { pointer: '/bodyKind', kind: 'type', baseline: 'empty', candidate: 'json' },
      { pointer: '/charset', kind: 'header', candidate: 'utf-8' },
      { pointer: '/mediaType', kind: 'header', candidate: 'application/json' },
    ]);
  });
});
