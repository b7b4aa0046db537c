/** verifier/redact.ts: stable placeholders, what is redacted by default, options, idempotence. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHar, stringifyHar } from '../../verifier/har.js';
import type { Har, HarEntry, HarNameValue } from '../../verifier/model.js';
import { parsePlaceholder, placeholder, REDACTED, redactHar } from '../../verifier/redact.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Spec {
  url?: string;
  headers?: Array<[string, string]>;
  body?: { mimeType: string; text?: string; params?: HarNameValue[] };
  resHeaders?: Array<[string, string]>;
  resBody?: { mimeType: string; text: string };
}

function entry(s: Spec): HarEntry {
  const nv = (pairs: Array<[string, string]> = []) => pairs.map(([name, value]) => ({ name, value }));
  const url = s.url ?? 'http://127.0.0.1:3000/';
  return {
    startedDateTime: '2026-11-30T10:00:00.000Z',
    time: 1,
    request: {
      method: s.body ? 'POST' : 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      cookies: (s.headers ?? []).filter(([n]) => n === 'Cookie').flatMap(([, v]) => v.split('; ').map((p) => ({ name: p.split('=')[0], value: p.split('=')[1] }))),
      headers: nv(s.headers),
      queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
      ...(s.body ? { postData: s.body } : {}),
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: (s.resHeaders ?? []).filter(([n]) => n === 'Set-Cookie').map(([, v]) => ({ name: v.split('=')[0], value: v.split('=')[1].split(';')[0], path: '/' })),
      headers: nv(s.resHeaders),
      content: s.resBody ? { size: s.resBody.text.length, ...s.resBody } : { size: 0, mimeType: '' },
      redirectURL: '',
      headersSize: -1,
      bodySize: 0,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

const harOf = (...specs: Spec[]): Har => ({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: specs.map(entry) } });
const header = (e: HarEntry, name: string) => e.request.headers.find((h) => h.name === name)?.value;

describe('placeholders', () => {
  it('have one grammar: a regex for all of them and a parser for one', () => {
    expect(placeholder('Authorization', 1)).toBe('<redacted:authorization:1>');
    expect(placeholder('cookie', 2, 'shop.sid')).toBe('<redacted:cookie:shop.sid:2>');
    expect(parsePlaceholder('<redacted:cookie:shop.sid:2>')).toEqual({ text: '<redacted:cookie:shop.sid:2>', kind: 'cookie', name: 'shop.sid', n: 2 });
    expect(parsePlaceholder('<redacted:x-api-key:12>')).toEqual({ text: '<redacted:x-api-key:12>', kind: 'x-api-key', n: 12 });
    expect(parsePlaceholder('Bearer <redacted:authorization:1>')).toBeNull();
    expect(parsePlaceholder('<redacted:Password:1>')).toBeNull();
    const text = 'Bearer <redacted:authorization:1>; sid=<redacted:cookie:sid:3>';
    expect([...text.matchAll(REDACTED)].map((m) => m[0])).toEqual(['<redacted:authorization:1>', '<redacted:cookie:sid:3>']);
    expect(text.replace(REDACTED, (p) => (p.includes('sid') ? 'S' : 'T'))).toBe('Bearer T; sid=S');
  });
});

describe('redactHar', () => {
  it('keeps the scheme of Authorization; the same token gets the same placeholder, another token the next number', () => {
    const { har, redactions } = redactHar(
      harOf(
        { headers: [['Authorization', 'Bearer tok-ada']] },
        { headers: [['Authorization', 'Bearer tok-grace'], ['Proxy-Authorization', 'Basic cHJveHk6cHc=']] },
        { headers: [['authorization', 'Bearer tok-ada']] },
        { headers: [['Authorization', 'opaque-token-without-scheme']] },
      ),
    );
    const [a, b, c, d] = har.log.entries;
    expect(header(a, 'Authorization')).toBe('Bearer <redacted:authorization:1>');
    expect(header(b, 'Authorization')).toBe('Bearer <redacted:authorization:2>');
    expect(header(b, 'Proxy-Authorization')).toBe('Basic <redacted:proxy-authorization:1>');
    expect(header(c, 'authorization')).toBe('Bearer <redacted:authorization:1>');
    expect(header(d, 'Authorization')).toBe('<redacted:authorization:3>');
    expect(a._redactions).toEqual(['header:authorization']);
    expect(b._redactions).toEqual(['header:authorization', 'header:proxy-authorization']);
    expect(redactions).toBe(5);
  });

  it('redacts each cookie value (names kept), Set-Cookie values (attributes kept), and the parsed cookies alike', () => {
    const { har } = redactHar(
      harOf(
        { resHeaders: [['Set-Cookie', 'sid=abc123; Path=/; HttpOnly; SameSite=Lax'], ['Set-Cookie', 'theme=dark; Max-Age=60']] },
        { headers: [['Cookie', 'sid=abc123; theme=dark']] },
        { headers: [['Cookie', 'sid=zzz999;theme=dark']], resHeaders: [['Set-Cookie', 'sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']] },
      ),
    );
    const [login, next, other] = har.log.entries;
    expect(login.response.headers.map((h) => h.value)).toEqual(['sid=<redacted:cookie:sid:1>; Path=/; HttpOnly; SameSite=Lax', 'theme=<redacted:cookie:theme:1>; Max-Age=60']);
    expect(login.response.cookies.map((c) => [c.name, c.value, c.path])).toEqual([
      ['sid', '<redacted:cookie:sid:1>', '/'],
      ['theme', '<redacted:cookie:theme:1>', '/'],
    ]);
    expect(login._redactions).toEqual(['set-cookie:sid', 'set-cookie:theme']);
    expect(header(next, 'Cookie')).toBe('sid=<redacted:cookie:sid:1>; theme=<redacted:cookie:theme:1>');
    expect(next.request.cookies.map((c) => c.value)).toEqual(['<redacted:cookie:sid:1>', '<redacted:cookie:theme:1>']);
    expect(header(other, 'Cookie')).toBe('sid=<redacted:cookie:sid:2>;theme=<redacted:cookie:theme:1>');
    // Clearing a cookie (empty value) hides nothing and stays as it is.
    expect(other.response.headers[0].value).toBe('sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(other._redactions).toEqual(['cookie:sid', 'cookie:theme']);
  });

  it('redacts API-key-like headers whole, in requests and responses, and leaves ordinary headers alone', () => {
    const { har } = redactHar(
      harOf({
        headers: [['X-Api-Key', 'k1'], ['api-key', 'k2'], ['X-Auth-Token', 'k3'], ['X-CSRF-Token', 'k4'], ['X-Client-Secret', 'k5'], ['Accept', 'application/json'], ['X-Request-Id', 'r1']],
        resHeaders: [['X-Auth-Token', 'k3'], ['Content-Type', 'text/plain']],
      }),
    );
    const [e] = har.log.entries;
    expect(e.request.headers.map((h) => `${h.name}: ${h.value}`)).toEqual([
      'X-Api-Key: <redacted:x-api-key:1>',
      'api-key: <redacted:api-key:1>',
      'X-Auth-Token: <redacted:x-auth-token:1>',
      'X-CSRF-Token: <redacted:x-csrf-token:1>',
      'X-Client-Secret: <redacted:x-client-secret:1>',
      'Accept: application/json',
      'X-Request-Id: r1',
    ]);
    expect(e.response.headers[0].value).toBe('<redacted:x-auth-token:1>');
    expect(e._redactions).toEqual(['header:x-api-key', 'header:api-key', 'header:x-auth-token', 'header:x-csrf-token', 'header:x-client-secret', 'response.header:x-auth-token']);
  });

  it('redacts password-like fields at any depth of JSON bodies, keeping the layout', () => {
    const body = { user: { name: 'ada', Password: 'pw-1', profile: { apiKey: 'ak-1' } }, items: [{ refresh_token: 'rt-1' }, { note: 'keep' }], pin: { secret: 1234 } };
    const response = { access_token: 'at-1', token_type: 'Bearer', expires_in: 3600 };
    const { har } = redactHar(
      harOf({
        body: { mimeType: 'application/json', text: JSON.stringify(body) },
        resBody: { mimeType: 'application/json; charset=utf-8', text: JSON.stringify(response, null, 2) + '\n' },
      }),
    );
    const [e] = har.log.entries;
    expect(JSON.parse(e.request.postData!.text!)).toEqual({
      user: { name: 'ada', Password: '<redacted:password:1>', profile: { apiKey: '<redacted:apikey:1>' } },
      items: [{ refresh_token: '<redacted:refresh_token:1>' }, { note: 'keep' }],
      pin: { secret: '<redacted:secret:1>' },
    });
    expect(e.request.postData!.text).not.toContain('\n');
    expect(e.response.content.text).toBe('{\n  "access_token": "<redacted:access_token:1>",\n  "token_type": "Bearer",\n  "expires_in": 3600\n}\n');
    expect(e._redactions).toEqual(['body:/user/Password', 'body:/user/profile/apiKey', 'body:/items/0/refresh_token', 'body:/pin/secret', 'response.body:/access_token']);
  });

  it('uses the same placeholder for a secret wherever it appears: issued in a body, sent as a header, echoed under another name', () => {
    const { har } = redactHar(
      harOf(
        { resBody: { mimeType: 'application/json', text: '{"session":{"jwt":"eyJ.secret.sig"},"owner":"ada"}' } },
        { body: { mimeType: 'application/json', text: '{"username":"ada","password":"s3cret"}' }, resBody: { mimeType: 'application/json', text: '{"token":"eyJ.secret.sig"}' } },
        { headers: [['Authorization', 'Bearer eyJ.secret.sig']] },
      ),
    );
    const [echo, login, call] = har.log.entries;
    expect(login.response.content.text).toBe('{"token":"<redacted:token:1>"}');
    expect(header(call, 'Authorization')).toBe('Bearer <redacted:token:1>');
    // Found by the second pass: the value was known only after the login.
    expect(echo.response.content.text).toBe('{"session":{"jwt":"<redacted:token:1>"},"owner":"ada"}');
    expect(echo._redactions).toEqual(['response.body:/session/jwt']);
  });

  it('redacts urlencoded bodies, their params and query strings, placeholders written unencoded', () => {
    const { har } = redactHar(
      harOf({
        url: 'http://127.0.0.1:3000/search?q=shoes&api_key=K%2B1#top',
        body: {
          mimeType: 'application/x-www-form-urlencoded',
          text: 'user=ada&password=correct+horse&user%5Bpasswd%5D=x&empty_token=',
          params: [
            { name: 'user', value: 'ada' },
            { name: 'password', value: 'correct horse' },
          ],
        },
      }),
    );
    const [e] = har.log.entries;
    expect(e.request.postData!.text).toBe('user=ada&password=<redacted:password:1>&user%5Bpasswd%5D=<redacted:passwd:1>&empty_token=');
    expect(e.request.postData!.params).toEqual([
      { name: 'user', value: 'ada' },
      { name: 'password', value: '<redacted:password:1>' },
    ]);
    expect(e.request.url).toBe('http://127.0.0.1:3000/search?q=shoes&api_key=<redacted:api_key:1>#top');
    expect(e.request.queryString).toEqual([
      { name: 'q', value: 'shoes' },
      { name: 'api_key', value: '<redacted:api_key:1>' },
    ]);
    expect(e._redactions).toEqual(['query:api_key', 'body:/password', 'body:/user[passwd]']);
  });

  it('takes more headers and fields, or none at all with --no-redact', () => {
    const input = harOf({ headers: [['X-Tenant', 'acme'], ['Authorization', 'Bearer t']], body: { mimeType: 'application/json', text: '{"ssn":"123-45","Card-Number":"4111"}' } });
    const { har } = redactHar(input, { headers: ['x-tenant'], fields: ['ssn', 'card_number'] });
    const [e] = har.log.entries;
    expect(header(e, 'X-Tenant')).toBe('<redacted:x-tenant:1>');
    expect(e.request.postData!.text).toBe('{"ssn":"<redacted:ssn:1>","Card-Number":"<redacted:card-number:1>"}');
    const off = redactHar(input, { enabled: false });
    expect(off.har).toBe(input);
    expect(off.redactions).toBe(0);
    expect(header(input.log.entries[0], 'Authorization')).toBe('Bearer t'); // the input is never modified
  });

  it('is idempotent, and numbers new placeholders after those already in the file', () => {
    const shop = readHar(path.join(ROOT, 'fixtures/apps/shop-api/recording.har'));
    const once = redactHar(shop);
    expect(once.redactions).toBeGreaterThan(40);
    const twice = redactHar(once.har);
    expect(twice.redactions).toBe(0);
    expect(stringifyHar(twice.har)).toBe(stringifyHar(once.har));
    expect(stringifyHar(once.har)).not.toMatch(/eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\.eyJ/);
    // grace and ada log in: two identities, two placeholders, reused by later requests.
    const [grace, ada] = [once.har.log.entries[18], once.har.log.entries[19]];
    expect(JSON.parse(grace.request.postData!.text!).password).toBe('<redacted:password:1>');
    expect(JSON.parse(ada.request.postData!.text!).password).toBe('<redacted:password:2>');
    expect(grace.response.headers.find((h) => h.name === 'Set-Cookie')!.value).toMatch(/^token=<redacted:cookie:token:1>; Path=\/api; HttpOnly/);
    expect(header(once.har.log.entries[36], 'Authorization')).toBe('Bearer <redacted:cookie:token:1>');
    const more = redactHar(harOf({ headers: [['Authorization', 'Bearer new']] }));
    const merged: Har = { log: { ...once.har.log, entries: [...once.har.log.entries, ...more.har.log.entries.map((e) => ({ ...e, _redactions: undefined, request: { ...e.request, headers: [{ name: 'Authorization', value: 'Bearer new-token' }] } }))] } };
    const next = redactHar(merged);
    expect(header(next.har.log.entries.at(-1)!, 'Authorization')).toBe('Bearer <redacted:authorization:2>');
  });
});
