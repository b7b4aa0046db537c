// Each example app's recording.har is a HAR 1.2 log and exercises every route key
// of the app's expected-routes.json at least once.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appNames, appsRoot, readExpected } from './support/apps.js';

function escapeRe(s: string): string {
  return s.replace(/[.+?^$|()[\]\\]/g, '\\$&');
}

/** Compiles the path of a route key into a RegExp over URL pathnames, following
 *  Express's default matching (case-insensitive, optional trailing slash).
 *  Handles Express 4 (`:id`, `:id?`, `:id(\d+)`, `*`) and Express 5 (`:id`,
 *  `*splat`, `{...}` optional groups) syntax and `RegExp(/.../flags)` keys. */
function pathMatcher(keyPath: string, express: number): RegExp {
  const re = /^RegExp\(\/(.*)\/([a-z]*)\)$/.exec(keyPath);
  if (re) return new RegExp(re[1], re[2]);
  let out = '';
  let i = 0;
  while (i < keyPath.length) {
    const ch = keyPath[i];
    if (ch === ':') {
      const m = /^:([A-Za-z0-9_$]+)(\((?:\\.|[^)])*\))?(\?)?/.exec(keyPath.slice(i))!;
      const body = m[2] ? m[2].slice(1, -1) : '[^/]+?';
      if (m[3] && out.endsWith('/')) out = `${out.slice(0, -1)}(?:/(${body}))?`;
      else out += `(${body})${m[3] ?? ''}`;
      i += m[0].length;
    } else if (ch === '*') {
      const m = /^\*([A-Za-z0-9_$]*)/.exec(keyPath.slice(i))!;
      out += express >= 5 && m[1] ? '(.+)' : '(.*)';
      i += m[0].length;
    } else if (ch === '{' && express >= 5) {
      out += '(?:';
      i++;
    } else if (ch === '}' && express >= 5) {
      out += ')?';
      i++;
    } else {
      out += escapeRe(ch);
      i++;
    }
  }
  if (out === '/') return /^\/?$/i;
  return new RegExp(`^${out}\\/?$`, 'i');
}

function routeCovered(key: string, express: number, entries: { method: string; path: string }[]): boolean {
  const sp = key.indexOf(' ');
  const method = key.slice(0, sp);
  const matcher = pathMatcher(key.slice(sp + 1), express);
  return entries.some((e) => (method === 'ALL' || e.method === method) && matcher.test(e.path));
}

describe('pathMatcher', () => {
  it('compiles Express 4 and 5 paths', () => {
    expect(pathMatcher('/users/:id', 4).test('/Users/42/')).toBe(true);
    expect(pathMatcher('/users/:id', 4).test('/users/42/x')).toBe(false);
    expect(pathMatcher('/files/:name(\\d+)', 4).test('/files/12')).toBe(true);
    expect(pathMatcher('/files/:name(\\d+)', 4).test('/files/ab')).toBe(false);
    expect(pathMatcher('/posts/:page?', 4).test('/posts')).toBe(true);
    expect(pathMatcher('/assets/*splat', 5).test('/assets/a/b.css')).toBe(true);
    expect(pathMatcher('/assets/*splat', 5).test('/assets/')).toBe(false);
    expect(pathMatcher('/docs{/*splat}', 5).test('/docs')).toBe(true);
    expect(pathMatcher('/docs{/*splat}', 5).test('/docs/a/b')).toBe(true);
    expect(pathMatcher('/archive{/:year}', 5).test('/archive/2024')).toBe(true);
    expect(pathMatcher('RegExp(/^\\/v\\d+$/i)', 4).test('/V2')).toBe(true);
  });
});

const apps = appNames();

describe.each(apps)('recording of %s', (app) => {
  const file = path.join(appsRoot, app, 'recording.har');
  const expected = readExpected(app);

  it('exists', () => {
    expect(existsSync(file)).toBe(true);
  });

  const har = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { log: { entries: [] } };
  const entries = har.log.entries as any[];

  it('is a HAR 1.2 log', () => {
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual(expect.objectContaining({ name: expect.any(String), version: expect.any(String) }));
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(typeof e.startedDateTime).toBe('string');
      expect(Number.isNaN(Date.parse(e.startedDateTime))).toBe(false);
      expect(typeof e.time).toBe('number');
      expect(e.request).toEqual(
        expect.objectContaining({
          method: expect.any(String),
          url: expect.stringMatching(/^http:\/\/127\.0\.0\.1(:\d+)?\//),
          httpVersion: expect.any(String),
          cookies: expect.any(Array),
          headers: expect.any(Array),
          queryString: expect.any(Array),
          headersSize: expect.any(Number),
          bodySize: expect.any(Number),
        }),
      );
      expect(e.response).toEqual(
        expect.objectContaining({
          status: expect.any(Number),
          statusText: expect.any(String),
          httpVersion: expect.any(String),
          cookies: expect.any(Array),
          headers: expect.any(Array),
          content: expect.objectContaining({ size: expect.any(Number), mimeType: expect.any(String) }),
          redirectURL: expect.any(String),
          headersSize: expect.any(Number),
          bodySize: expect.any(Number),
        }),
      );
      expect(e.cache).toEqual(expect.any(Object));
      expect(e.timings).toEqual(expect.objectContaining({ send: expect.any(Number), wait: expect.any(Number), receive: expect.any(Number) }));
      for (const h of [...e.request.headers, ...e.response.headers]) expect(h).toEqual({ name: expect.any(String), value: expect.any(String) });
      if (e.response.content.encoding !== undefined) expect(e.response.content.encoding).toBe('base64');
      if (e.request.postData) expect(e.request.postData).toEqual(expect.objectContaining({ mimeType: expect.any(String), text: expect.any(String) }));
    }
  });

  it('covers every route key of expected-routes.json', () => {
    const seen = entries.map((e) => ({ method: e.request.method, path: new URL(e.request.url).pathname }));
    const major = Number(JSON.parse(readFileSync(path.join(appsRoot, app, 'package.json'), 'utf8')).dependencies.express.replace(/^\D*/, '').split('.')[0]);
    const missing = expected.routes.map((r) => r.key).filter((k) => !routeCovered(k, major, seen));
    expect(missing).toEqual([]);
  });

  it('exercises the error and edge cases', () => {
    const statuses = new Set(entries.map((e) => e.response.status));
    expect(statuses.has(404)).toBe(true);
    expect(statuses.has(400)).toBe(true);
    expect(statuses.has(500)).toBe(true);
    const methods = new Set(entries.map((e) => e.request.method));
    expect(methods.has('HEAD')).toBe(true);
    expect(methods.has('OPTIONS')).toBe(true);
    const paths = entries.map((e) => new URL(e.request.url).pathname);
    expect(paths.some((p) => p.length > 1 && p.endsWith('/'))).toBe(true);
    expect(paths.some((p) => /[A-Z]/.test(p))).toBe(true);
    expect(entries.some((e) => e.response.status >= 300 && e.response.status < 400 && e.response.redirectURL)).toBe(true);
  });
});

it('found recordings', () => {
  expect(apps.length).toBeGreaterThan(0);
});
