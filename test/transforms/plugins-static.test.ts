/**
 * The `plugins` stage's step `plugins-static` (transforms/plugins-static/,
 * server-module/static-files.ts): the app's express.static / serve-static mounts move to
 * @fastify/static. Fixture pairs (fixtures/transforms/plugins-static/): output byte for byte, a
 * second run changes nothing; on real HTTP each case with requests answers as its Express app did
 * (status, type, Location, body and the static headers), the files' times fixed in every copy so
 * that ETag and Last-Modified can be compared; the summary says which mounts stay and why.
 */
import { readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answers, copyOf, withDeclaredExpress } from '../helpers/app-answers.js';
import { caseOptions, expectFixture, fixtureCases, runFixture, TRANSFORM_FIXTURES, tscOutput } from '../helpers/transform-fixtures.js';

const STEP = 'plugins-static';
const dirOf = (name: string) => path.join(TRANSFORM_FIXTURES, STEP, name);

/** Every file under `root` (node_modules aside) gets one modification time, so that copies answer with the same validators. */
function fixedTimes(root: string): string {
  const when = new Date('2024-01-02T03:04:05Z');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules') continue;
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else utimesSync(file, when, when);
    }
  };
  walk(root);
  return root;
}

/** send's weak ETag of a file (`W/"<size hex>-<mtime ms hex>"`, send 0.19 / @fastify/send alike), read from the file itself. */
function etagOf(file: string): string {
  const stat = statSync(file);
  return `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
}

/**
 * The answers as compared: charset names are case-insensitive (RFC 9110 §8.3.2), Express 4 writes
 * `UTF-8`, @fastify/send `utf-8` (a reported delta); Express's own weak ETag on `res.send` bodies
 * (`W/"<length>-<27 base64 chars>"`, framework delta `etag` of the routes stage) is not a static
 * file's (send's `W/"<size>-<mtime>"`, compared); a redirect's body, and so its Content-Type, is
 * the reported delta (serve-static's 'Redirecting to' page, @fastify/static's empty body).
 */
const comparable = (lines: string[]) =>
  lines
    .filter((l, i) => !/^ {2}etag: W\/"[0-9a-f]+-[A-Za-z0-9+/_-]{27}"$/.test(l) && !(l.startsWith('  content-type:') && lines.slice(0, i).reverse().find((p) => !p.startsWith('  '))?.includes('(redirect)')))
    .map((l) => l.replace(/charset=UTF-8/g, 'charset=utf-8'));

/** The case's answers: the Express app, the input (after routes) and the output (after plugins), each in a copy with fixed file times. */
async function answersOf(name: string, extra: string[] = []) {
  const { requests, headers } = caseOptions(STEP, name);
  const all = [...requests!, ...extra];
  const express = await answers(withDeclaredExpress(fixedTimes(copyOf(path.join(dirOf(name), 'express')))), all, headers);
  const input = await answers(withDeclaredExpress(fixedTimes(copyOf(path.join(dirOf(name), 'input')))), all, headers);
  const run = await runFixture(STEP, name, 'plugins');
  const output = await answers(withDeclaredExpress(fixedTimes(run.root)), all, headers);
  return { express, input, output, run };
}

describe('plugins-static fixtures', () => {
  for (const name of fixtureCases(STEP)) {
    it(name, async () => {
      await expectFixture(STEP, name, 'plugins');
    }, 60_000);
  }
});

describe('static files served by @fastify/static answer as express.static did (real HTTP)', () => {
  it('options: every translated option, several roots and prefixes', async () => {
    const copy = fixedTimes(copyOf(path.join(dirOf('options'), 'express')));
    const conditional = `GET /static/hello.txt if-none-match:${etagOf(path.join(copy, 'public/hello.txt'))} cache-control:max-age=0`;
    const { express, input, output, run } = await answersOf('options', [conditional]);
    // What Express answered, read from its answers (not written here): the cases the requests cover.
    const of = (request: string) => express[express.findIndex((l) => l.startsWith(`${request} →`))];
    expect(of('GET /static/hello.txt')).toMatch(/→ 200 text\/plain; charset=UTF-8 - hello/);
    expect(of('GET /static/docs')).toBe('GET /static/docs → 301 (redirect) /static/docs/');
    expect(of('GET /static')).toBe('GET /static → 301 (redirect) /static/');
    expect(of('GET /static/.env')).toMatch(/→ 404 .* Nothing here/);
    expect(of('GET /static/report')).toMatch(/→ 200 .* report from the app/);
    expect(of('GET /static/hello.txt range:bytes=0-2')).toMatch(/→ 206 .* hel$/);
    expect(of(conditional)).toMatch(/→ 304 /);
    expect(of('GET /img')).toMatch(/→ 404 /);
    expect(express.join('\n')).toContain('cache-control: public, max-age=86400, immutable');
    expect(comparable(input), 'after routes').toEqual(comparable(express));
    expect(comparable(output), 'after plugins').toEqual(comparable(express));
    expect(run.result.moved.find((m) => m.step === STEP)).toMatchObject({ done: 2, of: 2 });
    // The catalogue's static differences (rules/catalogue/framework-defaults.ts), which the verifier names too; a mount under a path adds the letter-case one.
    expect(run.result.deltas.map((d) => /\((static-[a-z-]+)\)$/.exec(d.text)?.[1]).filter(Boolean)).toEqual(['static-content-type', 'static-redirect-page', 'static-forbidden-path', 'static-range-unsatisfiable', 'static-mount-case']);
    // The moved routes the mounts no longer precede run no Express code (plugins-express-free, same run).
    expect(run.result.moved.find((m) => m.step === 'plugins-express-free')).toMatchObject({ done: 3, of: 3 });
  }, 60_000);

  it("set-headers: the app's setHeaders (a named function, an inline one lifted out) writes Fastify's reply as it wrote Express's response", async () => {
    const copy = fixedTimes(copyOf(path.join(dirOf('set-headers'), 'express')));
    const conditional = `GET /app.3f2a.js if-none-match:${etagOf(path.join(copy, 'public/app.3f2a.js'))} cache-control:max-age=0`;
    const { express, input, output, run } = await answersOf('set-headers', [conditional]);
    // An answer's line and its header lines after it.
    const of = (request: string) => {
      const at = express.findIndex((l) => l.startsWith(`${request} →`));
      const end = express.findIndex((l, i) => i > at && !l.startsWith('  '));
      return express.slice(at, end < 0 ? undefined : end).join('\n');
    };
    expect(of('GET /')).toMatch(/cache-control: no-store/);
    expect(of('GET /app.3f2a.js')).toMatch(/cache-control: public, max-age=31536000, immutable/);
    expect(of('GET /assets/logo.txt')).toMatch(/x-asset: logo.txt[\s\S]*x-size: 11/);
    expect(of('GET /docs/readme.md')).toMatch(/text\/markdown; charset=utf-8/);
    expect(of(conditional)).toMatch(/→ 304 /);
    expect(comparable(input), 'after routes').toEqual(comparable(express));
    expect(comparable(output), 'after plugins').toEqual(comparable(express));
    const moved = run.result.moved.find((m) => m.step === STEP)!;
    expect(moved).toMatchObject({ done: 2, of: 4 });
    expect(moved.groups!.map((g) => g.name)).toEqual([
      "stay on Express: its setHeaders (app.js:26) uses res.setHeader('ETag'), which has no exact form on Fastify's reply (app.js:26)",
      "stay on Express: its setHeaders (app.js:29) uses res.set('Content-Type'), which has no exact form on Fastify's reply (app.js:29)",
    ]);
    // The app's ETag answered If-None-Match in Express (send read it): that mount stays, and still does.
    expect(of('GET /reports/summary.txt if-none-match:"release-42" cache-control:max-age=0')).toMatch(/→ 304 /);
  }, 60_000);

  it('fall-through: a mount that catches what an earlier moving mount misses stays, and the missing file is still found', async () => {
    const { express, input, output, run } = await answersOf('fall-through');
    expect(express.find((l) => l.startsWith('GET /assets/legacy.txt →'))).toMatch(/→ 200 .* from public\/assets/);
    expect(comparable(input), 'after routes').toEqual(comparable(express));
    expect(comparable(output), 'after plugins').toEqual(comparable(express));
    const moved = run.result.moved.find((m) => m.step === STEP)!;
    expect(moved).toMatchObject({ done: 1, of: 2 });
    expect(moved.groups!.map((g) => g.name)).toEqual(["stay on Express: a file missing from the static mount at /assets/ (app.js:8) falls through to this one's public/assets in Express, which Fastify would not reach (app.js:9)"]);
  }, 60_000);

  it('kept: each mount that stays on Express says why, and still answers through the app', async () => {
    const { express, input, output, run } = await answersOf('kept');
    const of = (request: string) => express[express.findIndex((l) => l.startsWith(`${request} →`))];
    expect(of('GET /about')).toMatch(/about, from the file/);
    expect(of('GET /strict/missing.txt')).toMatch(/→ 404 .* error 404/);
    expect(of('GET /files/.well-known/security.txt')).toMatch(/→ 200 .* contact: me/);
    expect(express.join('\n')).toContain('x-media: yes');
    expect(comparable(input), 'after routes').toEqual(comparable(express));
    expect(comparable(output), 'after plugins').toEqual(comparable(express));
    const moved = run.result.moved.find((m) => m.step === STEP)!;
    expect(moved).toMatchObject({ done: 0, of: 5 });
    const reasons = moved.groups!.map((g) => g.name);
    expect(reasons.find((r) => r.includes('GET /about'))).toMatch(/public\/about both answer \/about/);
    expect(reasons.find((r) => r.includes('(app.js:18)'))).toMatch(/runs before it/);
    expect(reasons.find((r) => r.includes('setHeaders'))).toMatch(/app\.js:21/);
    expect(reasons.find((r) => r.includes('fallthrough'))).toMatch(/app\.js:28/);
    expect(reasons.find((r) => r.includes('.well-known'))).toMatch(/app\.js:31/);
    expect(run.result.deltas.map((d) => d.text).join('\n'), 'no mount moved, no delta').not.toContain('@fastify/static');
  }, 60_000);

  it('esm: an ES module app, a folder next to the module (fileURLToPath) and one from the working directory', async () => {
    const copy = fixedTimes(copyOf(path.join(dirOf('esm'), 'express')));
    const conditional = `GET /style.css if-none-match:${etagOf(path.join(copy, 'public/style.css'))} cache-control:max-age=0`;
    const { express, input, output, run } = await answersOf('esm', [conditional]);
    const of = (request: string) => express[express.findIndex((l) => l.startsWith(`${request} →`))];
    expect(of('GET /')).toMatch(/→ 200 text\/html; charset=UTF-8 - <!doctype html>/);
    expect(of('GET /style.css')).toMatch(/→ 200 text\/css; charset=UTF-8 - body \{/);
    expect(of('GET /missing.css')).toMatch(/→ 404 .*"path":"\/missing.css"/);
    expect(of('GET /assets')).toBe('GET /assets → 301 (redirect) /assets/');
    expect(of('GET /assets?v=2')).toBe('GET /assets?v=2 → 301 (redirect) /assets/?v=2');
    expect(of('GET /assets/')).toMatch(/→ 404 /);
    expect(of('GET /assets/guide')).toBe('GET /assets/guide → 301 (redirect) /assets/guide/');
    expect(of('GET /assets/guide/')).toMatch(/→ 200 .*How to read the board/s);
    expect(of('GET /assets/notes.txt range:bytes=0-6')).toMatch(/→ 206 .* release$/);
    expect(of('HEAD /assets/notes.txt')).toMatch(/→ 200 text\/plain; charset=UTF-8 - $/);
    expect(of('GET /api/status')).toMatch(/→ 200 .*"status":"up"/);
    expect(of('GET /api/fail')).toMatch(/→ 503 /);
    expect(of(conditional)).toMatch(/→ 304 /);
    expect(express.join('\n')).toContain('cache-control: public, max-age=86400');
    expect(comparable(input), 'after routes').toEqual(comparable(express));
    expect(comparable(output), 'after plugins').toEqual(comparable(express));
    expect(run.result.moved.find((m) => m.step === STEP)).toMatchObject({ done: 2, of: 2 });
    // The module's own folder as ESM names it, the other as serve-static resolved it (from the working directory).
    const server = run.files['fastify-server.js'];
    expect(server).toContain("root: fileURLToPath(new URL('./public/', import.meta.url)),");
    expect(server).toContain("root: path.resolve('assets'),");
    expect(run.result.deltas.map((d) => /\((static-[a-z-]+)\)$/.exec(d.text)?.[1]).filter(Boolean)).toEqual(['static-content-type', 'static-redirect-page', 'static-forbidden-path', 'static-range-unsatisfiable', 'static-mount-case']);
  }, 60_000);

  it('typescript: a TypeScript ES module app, a mount under a path with a folder redirect', async () => {
    const copy = fixedTimes(copyOf(path.join(dirOf('typescript'), 'express')));
    const conditional = `GET /handbook/setup/ if-none-match:${etagOf(path.join(copy, 'handbook/setup/index.html'))} cache-control:max-age=0`;
    const { express, input, output, run } = await answersOf('typescript', [conditional]);
    const of = (request: string) => express[express.findIndex((l) => l.startsWith(`${request} →`))];
    expect(of('GET /handbook/changelog.txt')).toMatch(/→ 200 text\/plain; charset=UTF-8 - Changes to the handbook/);
    expect(of('GET /handbook/conduct')).toMatch(/→ 200 .*Be kind in reviews/s);
    expect(of('GET /handbook')).toBe('GET /handbook → 301 (redirect) /handbook/');
    expect(of('GET /handbook?from=nav')).toBe('GET /handbook?from=nav → 301 (redirect) /handbook/?from=nav');
    expect(of('GET /handbook/')).toMatch(/→ 404 .* No page at \/handbook\/$/);
    expect(of('GET /handbook/setup?step=1')).toBe('GET /handbook/setup?step=1 → 301 (redirect) /handbook/setup/?step=1');
    expect(of('GET /handbook/setup/')).toMatch(/→ 200 .*Setting up/s);
    expect(of('GET /handbook/missing.txt')).toMatch(/→ 404 .* No page at \/handbook\/missing.txt$/);
    expect(of('GET /handbook/changelog.txt range:bytes=0-6')).toMatch(/→ 206 .* Changes$/);
    expect(of('HEAD /handbook/changelog.txt')).toMatch(/→ 200 text\/plain; charset=UTF-8 - $/);
    expect(of('GET /api/chapters')).toMatch(/→ 200 .*"slug":"setup"/);
    expect(of(conditional)).toMatch(/→ 304 /);
    expect(express.join('\n')).toContain('cache-control: public, max-age=600');
    // Its setHeaders (a function of two parameters, exported and called with those two).
    expect(express.join('\n')).toContain('x-robots-tag: index');
    expect(comparable(input), 'after routes').toEqual(comparable(express));
    expect(comparable(output), 'after plugins').toEqual(comparable(express));
    expect(run.result.moved.find((m) => m.step === STEP)).toMatchObject({ done: 1, of: 1 });
    expect(run.files['src/fastify-server.ts']).toContain("root: fileURLToPath(new URL('../handbook/', import.meta.url)),");
  }, 60_000);
});

describe('TypeScript output type-checks', () => {
  it('typescript, after plugins (redirectToFolder typed, @fastify/static options, setHeaders called with the parameters it declares)', async () => {
    const { root } = await runFixture(STEP, 'typescript', 'plugins');
    expect(tscOutput(root)).toBe('');
  }, 60_000);
});
