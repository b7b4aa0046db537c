/** verifier/import-har.ts on hand-made browser exports (test/verifier/fixtures/record/*.har). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarError, readHar, toReplayRequests } from '../../verifier/har.js';
import { importBrowserHar, importHarFile } from '../../verifier/import-har.js';
import type { HarEntry } from '../../verifier/model.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures/record');
const CHROME = path.join(FIXTURES, 'chrome.har');
const FIREFOX = path.join(FIXTURES, 'firefox.har');

describe('importHarFile (Chrome export)', () => {
  const result = importHarFile(CHROME);
  const [page, logo, cart] = result.har.log.entries;

  it('keeps the most frequent origin, in time order, and counts what it left out', () => {
    expect(result.origin).toBe('https://shop.example.com');
    expect(result.har.log.entries.map((e) => e.request.url)).toEqual(['https://shop.example.com/', 'https://shop.example.com/logo.png', 'https://shop.example.com/api/cart?ref=home']);
    expect(result.warnings).toContain('Kept 3 exchanges with https://shop.example.com; left out 2 with 1 other origin (https://fonts.example.net 2).');
    expect(result.warnings).toContain('Left out 1 exchange that were blocked, failed or cancelled (status 0).');
    expect(result.warnings).toContain('Left out 1 exchange served from the browser cache.');
    expect(result.warnings).toContain('Left out 1 exchange with non-HTTP URLs (data:, blob:, extensions…).');
  });

  it('drops pseudo-headers and turns :authority into Host', () => {
    expect(cart.request.headers.map((h) => h.name)).toEqual(['Host', 'accept', 'authorization', 'content-type']);
    expect(cart.request.headers[0].value).toBe('shop.example.com');
    expect(cart.response.headers.map((h) => h.name)).toEqual(['content-type', 'content-length']);
    const [replay] = toReplayRequests({ log: { ...result.har.log, entries: [cart] } });
    expect(replay).toMatchObject({ method: 'POST', path: '/api/cart?ref=home' });
    expect(replay.body!.toString()).toBe('{"sku":"p-1","quantity":2}');
  });

  it('decodes base64 bodies that are text, keeps binary ones base64', () => {
    expect(page.response.content).toEqual({ size: 28, mimeType: 'text/html', text: '<!doctype html><p>Héllo</p>' });
    expect(cart.response.content.text).toBe('{"items":[{"sku":"p-1","quantity":2}]}  ');
    expect(cart.response.content.encoding).toBeUndefined();
    expect(logo.response.content.encoding).toBe('base64');
    expect(Buffer.from(logo.response.content.text!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('warns that the browser stripped cookies', () => {
    expect(result.warnings).toContain('1 request lists cookies but carries no Cookie header: the browser stripped it (a sanitized export); give credentials for the replay.');
    expect(result.warnings).toContain('1 response lists cookies but carries no Set-Cookie header: the browser stripped it; cookie attributes cannot be compared for it.');
  });

  it('drops browser-private fields, keeps _resourceType, and redacts', () => {
    expect(Object.keys(cart)).toEqual(['startedDateTime', 'time', 'request', 'response', 'cache', 'timings', '_resourceType', '_redactions']);
    expect((cart as HarEntry & { _resourceType?: string })._resourceType).toBe('fetch');
    expect(cart.timings).toEqual({ send: 0.1, wait: 18, receive: 1.2 });
    expect('_transferSize' in cart.response).toBe(false);
    expect(cart.request.headers[2].value).toBe('Bearer <redacted:authorization:1>');
    expect(cart.request.cookies[0].value).toBe('<redacted:cookie:sid:1>');
    expect(page.response.cookies[0].value).toBe('<redacted:cookie:sid:1>');
    expect(result.redactions).toBe(3);
    expect(result.har.log.comment).toBe('Imported from a HAR by WebInspector 537.36: https://shop.example.com, 3 exchanges.');
  });

  it('keeps another origin on request, and fails plainly when it has nothing', () => {
    const fonts = importHarFile(CHROME, { origin: 'https://fonts.example.net/some/page' });
    expect(fonts.har.log.entries.map((e) => e.request.url)).toEqual(['https://fonts.example.net/f1.woff2', 'https://fonts.example.net/f2.woff2']);
    expect(() => importHarFile(CHROME, { origin: 'http://localhost:9999' })).toThrow(HarError);
    expect(() => importHarFile(CHROME, { origin: 'http://localhost:9999' })).toThrow(
      `${CHROME} has no HTTP exchanges for http://localhost:9999 (origins present: https://shop.example.com, https://fonts.example.net)`,
    );
  });
});

describe('importBrowserHar (Firefox export)', () => {
  it('keeps Host, cookies and form params, and redacts them with shared placeholders', () => {
    const { har, warnings, redactions } = importHarFile(FIREFOX);
    expect(warnings).toEqual([]);
    const [login, account] = har.log.entries;
    expect(login.request.postData!.params).toEqual([
      { name: 'user', value: 'ada' },
      { name: 'password', value: '<redacted:password:1>' },
    ]);
    expect(login.response.headers[1].value).toBe('sid=<redacted:cookie:sid:1>; Path=/; HttpOnly; SameSite=Lax');
    expect(account.request.headers.find((h) => h.name === 'Cookie')!.value).toBe('sid=<redacted:cookie:sid:1>; theme=<redacted:cookie:theme:1>');
    expect(login._redactions).toEqual(['set-cookie:sid', 'body:/password']);
    expect(redactions).toBe(4);
    const [replay] = toReplayRequests(har);
    expect(replay.body!.toString()).toBe('user=ada&password=%3Credacted%3Apassword%3A1%3E');
  });

  it('warns when the HAR says it was sanitized, and can leave redaction off', () => {
    const source = readHar(FIREFOX);
    source.log.comment = 'Exported without sensitive data (sanitized)';
    const { har, warnings, redactions } = importBrowserHar(source, { redact: { enabled: false } });
    expect(warnings).toEqual(['The HAR says it was sanitized: browsers then leave out Cookie, Set-Cookie and Authorization, so give credentials for the replay.']);
    expect(redactions).toBe(0);
    expect(har.log.entries[1].request.headers[2].value).toBe('sid=firefox-session-42; theme=dark');
  });
});
