/** canonicalize(): headers, content type, cookies and bodies (verifier/normalize.ts; mapping §2.15). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../../verifier/model.js';
import { canonicalize, parseContentType, parseSetCookie } from '../../verifier/normalize.js';

const raw = (status: number, headers: Array<[string, string]>, body: string | Buffer = ''): RawResponse => ({
  status,
  headers,
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

/** Express 5 finalhandler 404 (express-fastify-mapping §2.1), header casing as Express sends it. */
const EXPRESS_404_BODY = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /missing</pre>\n</body>\n</html>\n';
const express404 = raw(
  404,
  [
    ['X-Powered-By', 'Express'],
    ['Content-Security-Policy', "default-src 'none'"],
    ['X-Content-Type-Options', 'nosniff'],
    ['Content-Type', 'text/html; charset=utf-8'],
    ['Content-Length', String(Buffer.byteLength(EXPRESS_404_BODY))],
    ['Date', 'Tue, 04 Mar 2025 10:00:00 GMT'],
    ['Connection', 'keep-alive'],
    ['Keep-Alive', 'timeout=5'],
  ],
  EXPRESS_404_BODY,
);

describe('canonicalize: headers', () => {
  it('lower-cases names, drops hop-by-hop, date, content-length and content-encoding, keeps framework headers', () => {
    const c = canonicalize(
      raw(200, [
        ['Content-Type', 'application/json; charset=utf-8'],
        ['ETag', 'W/"d-bAgLXGGuSDVYf9JYjpjnRgbLLQs"'],
        ['X-Powered-By', 'Express'],
        ['Transfer-Encoding', 'chunked'],
        ['Content-Encoding', 'gzip'],
        ['TE', 'trailers'],
        ['Trailer', 'x-checksum'],
        ['Upgrade', 'h2c'],
        ['Proxy-Authenticate', 'Basic'],
        ['Proxy-Connection', 'keep-alive'],
        ['Connection', 'close'],
        ['Keep-Alive', 'timeout=72'],
        ['Date', 'Tue, 04 Mar 2025 10:00:00 GMT'],
        ['Content-Length', '13'],
        ['X-Request-Id', ' r-1 '],
      ], '{"id":1}'),
    );
    expect(c.headers).toEqual({ etag: 'W/"d-bAgLXGGuSDVYf9JYjpjnRgbLLQs"', 'x-powered-by': 'Express', 'x-request-id': 'r-1' });
    expect(Object.keys(c.headers)).toEqual(['etag', 'x-powered-by', 'x-request-id']);
  });

  it('joins a repeated header with ", " in received order, whatever the name casing', () => {
    const c = canonicalize(raw(200, [['Link', '</a>; rel=next'], ['link', '</b>; rel=prev'], ['X-Tag', 'b']]));
    expect(c.headers).toEqual({ link: '</a>; rel=next, </b>; rel=prev', 'x-tag': 'b' });
  });

  it('sorts the token lists whose order means nothing (Vary, Allow, CORS lists)', () => {
    const express4 = canonicalize(raw(200, [['Vary', 'Origin'], ['vary', 'Accept-Encoding'], ['Allow', 'GET,HEAD']]));
    const fastify = canonicalize(raw(200, [['vary', 'Accept-Encoding, Origin'], ['allow', 'HEAD, GET']]));
    expect(express4.headers).toEqual({ allow: 'GET, HEAD', vary: 'Accept-Encoding, Origin' });
    expect(fastify.headers).toEqual(express4.headers);
  });

  it("compares a Content Security Policy's directives as a set (helmet 8.3 orders them otherwise than helmet 4 to 8.1)", () => {
    const helmet4 = canonicalize(raw(200, [['Content-Security-Policy', "script-src 'self' code.jquery.com;default-src 'self';block-all-mixed-content"]]));
    const helmet8 = canonicalize(raw(200, [['content-security-policy', "default-src 'self'; Block-All-Mixed-Content;script-src 'self' code.jquery.com"]]));
    expect(helmet4.headers).toEqual({ 'content-security-policy': "block-all-mixed-content;default-src 'self';script-src 'self' code.jquery.com" });
    expect(helmet8.headers).toEqual(helmet4.headers);
    // The values of a directive keep their order; a repeated directive after its first means nothing.
    expect(canonicalize(raw(200, [['Content-Security-Policy', "img-src b a;img-src c"]])).headers).toEqual({ 'content-security-policy': 'img-src b a' });
  });

  it('treats header names case-insensitively (Express casing vs Fastify lower case)', () => {
    const express = canonicalize(raw(200, [['Content-Type', 'text/plain; charset=utf-8'], ['Cache-Control', 'no-store']], 'ok'));
    const fastify = canonicalize(raw(200, [['content-type', 'text/plain; charset=utf-8'], ['cache-control', 'no-store']], 'ok'));
    expect(fastify).toEqual(express);
  });
});

describe('canonicalize: content type', () => {
  it('splits media type and charset, lower-cased, and keeps content-type out of the headers', () => {
    const a = canonicalize(raw(200, [['Content-Type', 'text/html; charset=UTF-8']], '<p>hi</p>'));
    const b = canonicalize(raw(200, [['content-type', 'text/html;charset=utf-8']], '<p>hi</p>'));
    expect(a).toEqual(b);
    expect(a).toMatchObject({ mediaType: 'text/html', charset: 'utf-8', headers: {} });
  });

  it('gives charset null when absent (Fastify reply.type("text/html"), mapping §2.4)', () => {
    expect(parseContentType('text/html')).toEqual({ mediaType: 'text/html', charset: null });
    expect(parseContentType('Application/JSON; Charset="UTF-8"; boundary=x')).toEqual({ mediaType: 'application/json', charset: 'utf-8' });
    expect(parseContentType(undefined)).toEqual({ mediaType: null, charset: null });
    expect(canonicalize(raw(204, []))).toEqual({ status: 204, mediaType: null, charset: null, headers: {}, cookies: {}, body: null, bodyKind: 'empty' });
  });
});

describe('canonicalize: Set-Cookie', () => {
  it('parses every attribute into cookies[name]', () => {
    const c = canonicalize(
      raw(200, [
        ['Set-Cookie', 'sid=s%3Aabc.def; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Max-Age=3600; Domain=.Example.com; HttpOnly; Secure; SameSite=Lax'],
        ['Set-Cookie', 'theme=dark; Path=/'],
      ]),
    );
    expect(c.cookies).toEqual({
      sid: { value: 's%3Aabc.def', path: '/', expires: '2026-10-21T07:28:00.000Z', maxAge: 3600, domain: 'example.com', httpOnly: true, secure: true, sameSite: 'lax' },
      theme: { value: 'dark', path: '/', httpOnly: false, secure: false },
    });
    expect(c.headers).toEqual({});
  });

  it('lets the last cookie of a name win, keeps unparsable Expires as sent, skips lines without a name', () => {
    expect(parseSetCookie('a=1; Expires=someday; Max-Age=soon')).toEqual({ name: 'a', cookie: { value: '1', expires: 'someday', httpOnly: false, secure: false } });
    expect(parseSetCookie('novalue')).toBeNull();
    expect(parseSetCookie('=x')).toBeNull();
    const c = canonicalize(raw(200, [['set-cookie', 'sid=old'], ['set-cookie', 'sid=new; HttpOnly']]));
    expect(c.cookies).toEqual({ sid: { value: 'new', httpOnly: true, secure: false } });
  });

  it('keeps Express res.clearCookie as an expired cookie', () => {
    const c = canonicalize(raw(200, [['Set-Cookie', 'sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']]));
    expect(c.cookies.sid).toEqual({ value: '', path: '/', expires: '1970-01-01T00:00:00.000Z', httpOnly: false, secure: false });
  });
});

describe('canonicalize: body by media type', () => {
  it('parses JSON and +json bodies', () => {
    const fastify404 = canonicalize(raw(404, [['content-type', 'application/json; charset=utf-8']], '{"message":"Route GET:/missing?x=1 not found","error":"Not Found","statusCode":404}'));
    expect(fastify404).toEqual({
      status: 404,
      mediaType: 'application/json',
      charset: 'utf-8',
      headers: {},
      cookies: {},
      body: { message: 'Route GET:/missing?x=1 not found', error: 'Not Found', statusCode: 404 },
      bodyKind: 'json',
    });
    const problem = canonicalize(raw(400, [['Content-Type', 'application/problem+json']], '{"title":"Bad"}'));
    expect(problem).toMatchObject({ mediaType: 'application/problem+json', charset: null, body: { title: 'Bad' }, bodyKind: 'json' });
    expect(canonicalize(raw(200, [['content-type', 'application/json']], 'null'))).toMatchObject({ body: null, bodyKind: 'json' });
  });

  it('falls back to text for unparsable JSON', () => {
    expect(canonicalize(raw(200, [['content-type', 'application/json']], '{"a":'))).toMatchObject({ body: '{"a":', bodyKind: 'text' });
  });

  it('keeps textual types as strings, decoded with the declared charset', () => {
    expect(canonicalize(express404)).toEqual({
      status: 404,
      mediaType: 'text/html',
      charset: 'utf-8',
      headers: { 'content-security-policy': "default-src 'none'", 'x-content-type-options': 'nosniff', 'x-powered-by': 'Express' },
      cookies: {},
      body: EXPRESS_404_BODY,
      bodyKind: 'text',
    });
    for (const type of ['application/xml', 'image/svg+xml', 'text/javascript', 'application/javascript', 'application/x-www-form-urlencoded', 'text/csv']) {
      expect(canonicalize(raw(200, [['content-type', type]], 'a=1')), type).toMatchObject({ body: 'a=1', bodyKind: 'text' });
    }
    expect(canonicalize(raw(200, [['content-type', 'text/plain; charset=iso-8859-1']], Buffer.from([0x63, 0x61, 0x66, 0xe9]))).body).toBe('café');
    expect(canonicalize(raw(200, [['content-type', 'text/plain; charset=no-such-charset']], 'café')).body).toBe('café');
  });

  it('reports an empty body as empty whatever the type (Express json(undefined), mapping §2.5)', () => {
    expect(canonicalize(raw(200, [['Content-Type', 'application/json; charset=utf-8'], ['Content-Length', '0']]))).toMatchObject({ body: null, bodyKind: 'empty', mediaType: 'application/json' });
  });

  it('hashes anything else, and bodies without a content type', () => {
    const bytes = Buffer.from('hello');
    const expected = { sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824', size: 5 };
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(expected.sha256);
    expect(canonicalize(raw(200, [['Content-Type', 'application/octet-stream']], bytes))).toMatchObject({ body: expected, bodyKind: 'binary' });
    expect(canonicalize(raw(200, [['Content-Type', 'image/png']], bytes))).toMatchObject({ body: expected, bodyKind: 'binary' });
    expect(canonicalize(raw(200, [], bytes))).toMatchObject({ mediaType: null, body: expected, bodyKind: 'binary' });
  });
});

describe('canonicalize: nothing blurred', () => {
  it('bytes that are not valid in the charset are compared as bytes, not as U+FFFD', () => {
    const e = canonicalize(raw(200, [['Content-Type', 'text/plain']], Buffer.from([0x63, 0x61, 0x66, 0xe9])));
    const è = canonicalize(raw(200, [['Content-Type', 'text/plain']], Buffer.from([0x63, 0x61, 0x66, 0xe8])));
    expect(e.bodyKind).toBe('binary');
    expect(e.body).not.toEqual(è.body);
  });

  it('JSON with integers beyond 2^53 is compared as text, so 9007199254740993 ≠ 9007199254740992', () => {
    const a = canonicalize(raw(200, [['Content-Type', 'application/json']], '{"id":9007199254740993}'));
    const b = canonicalize(raw(200, [['Content-Type', 'application/json']], '{"id":9007199254740992}'));
    expect(a).toMatchObject({ bodyKind: 'text', body: '{"id":9007199254740993}' });
    expect(a.body).not.toEqual(b.body);
  });
});
