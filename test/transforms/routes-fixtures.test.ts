/**
 * Fixture pairs of the `routes` stage (fixtures/transforms/routes-move/): each case's input is a
 * small app after `shim` and `errors`; the stage's output must equal `expected/` byte for byte and a
 * second run must change nothing (`expectFixture`). Per case: what moved out of what could move,
 * the items left for a human and for a later stage. Cases with `requests` in case.json are also
 * started before and after the stage, with the Express major their package.json declares, and must
 * answer every request alike (status, content type, body, Location) — the stage's promise, checked
 * on real HTTP.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderSummary } from '../../runner/summary.js';
import { caseOptions, expectFixture, fixtureCases, runFixture, TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'routes-fixtures');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** moved `[done, of]` of each case. */
const MOVED: Record<string, [number, number]> = {
  'app-middleware-kept': [3, 3],
  'cjs-controllers': [3, 3],
  'class-controller': [3, 3],
  'co-generators': [8, 8],
  'co-generators-stay': [1, 4],
  'controller-array': [3, 3],
  'cookie-like-express': [3, 3],
  'esm-router': [3, 4],
  'express4-paths': [4, 5],
  'hand-over-order': [2, 2],
  'hand-over-upgrade': [1, 1],
  'helper-function': [2, 2],
  'helper-modules': [3, 3],
  'helper-shared': [1, 3],
  'later-middleware': [2, 2],
  'later-route-stays': [5, 5],
  'middleware-array': [4, 4],
  'method-override-header': [5, 5],
  'mounted-twice': [4, 4],
  'object-controller': [2, 4],
  'only-one-router': [2, 2],
  overlap: [3, 4],
  'package-handler': [6, 7],
  'package-handler-prefix-404': [5, 7],
  'package-handler-ts': [2, 2],
  'package-handler-upgrade': [1, 1],
  'package-middleware': [5, 5],
  'param-later': [1, 2],
  'render-ejs': [1, 1],
  'registrar-closure': [4, 4],
  'registrar-nested': [2, 2],
  'registrar-nested-ts': [1, 1],
  'registrar-routers': [6, 6],
  'registrar-stays': [0, 1],
  'registrar-ts': [2, 2],
  'render-replaced': [3, 3],
  'render-replaced-ts': [5, 5],
  'request-hand-off': [2, 4],
  'request-hand-off-ts': [1, 1],
  'router-error-chain': [0, 1],
  'send-like-express': [3, 3],
  'send-like-express-ts': [3, 3],
  'start-file-cjs': [5, 5],
  'start-file-later': [2, 2],
  'sub-app': [3, 3],
  'sub-app-settings': [1, 4],
  'start-file-ts': [3, 3],
  'static-after-routes': [2, 2],
  'style-double': [2, 2],
  'ts-later': [4, 4],
  'table-loop-block': [3, 3],
  'table-loop-cjs': [5, 5],
  'table-loop-handed': [4, 4],
  'table-loop-stays': [2, 6],
  'table-one-stays': [0, 2],
  'ts-router': [3, 3],
  'two-apps-one-module': [0, 2],
  'two-routers': [2, 3],
  'validator-callbacks': [1, 2],
  'view-helpers-bridge': [2, 2],
  'tab-indented': [1, 1],
  'wrapped-cjs-exports': [5, 5],
  'wrapped-esm-controllers': [3, 3],
  'wrapped-no-change': [0, 0],
  'wrapped-package-inline': [4, 4],
  'wrapped-route-stays': [1, 3],
  'wrapped-ts': [3, 3],
  'wrapper-logs': [1, 2],
};
/** ManualItem codes per case (plan order); absent: none. */
const MANUAL: Record<string, string[]> = {
  'co-generators-stay': ['route-handler-api', 'route-handler-wrapped', 'route-handler-wrapped'],
  'esm-router': ['route-handler-api'],
  'express4-paths': ['route-path-syntax'],
  'helper-shared': ['route-helper-shared', 'route-handler-api'],
  'object-controller': ['route-handler-shared', 'route-handler-api'],
  overlap: ['route-overlap'],
  'package-handler': ['route-handler-next'],
  'package-handler-prefix-404': ['route-handler-next', 'route-handler-next'],
  'param-later': ['route-later-middleware'],
  'registrar-stays': ['route-registrar'],
  'request-hand-off': ['route-handler-api', 'route-handler-api'],
  'sub-app-settings': ['route-sub-app-settings', 'route-router-error-handler', 'route-sub-app-api'],
  'table-loop-stays': ['route-table-form', 'route-table-form', 'route-table-form', 'route-table-form'],
  'table-one-stays': ['route-partner-stays', 'route-handler-api'],
  'router-error-chain': ['route-router-error-handler'],
  'two-apps-one-module': ['route-shared-module', 'route-shared-module'],
  'two-routers': ['route-registration-shape'],
  'validator-callbacks': ['route-handler-api'],
  'wrapped-route-stays': ['route-partner-stays', 'route-unresolved'],
  'wrapper-logs': ['route-handler-wrapped'],
};
/** DeferredItems per case as `stage:code`; absent: none. */
const DEFERRED: Record<string, string[]> = {
  'later-route-stays': ['plugins:route-handler-plugin-api'],
  'package-middleware': ['plugins:route-middleware-package'],
  'wrapped-no-change': ['plugins:route-handler-plugin-api', 'plugins:route-handler-plugin-api'],
  'wrapped-route-stays': ['plugins:route-handler-plugin-api'],
};

describe('routes-move fixtures', () => {
  for (const name of fixtureCases('routes-move')) {
    it(name, async () => {
      const run = await expectFixture('routes-move', name, 'routes');
      const moved = run.result.moved.find((m) => m.step === 'routes-move');
      expect(moved && [moved.done, moved.of], 'moved').toEqual(MOVED[name]);
      expect(run.result.manual.map((m) => m.code), 'ManualItem codes').toEqual(MANUAL[name] ?? []);
      expect(run.result.deferred.map((d) => `${d.stage}:${d.code}`), 'DeferredItems').toEqual(DEFERRED[name] ?? []);
    }, 60_000);
  }
});

describe('moved routes answer as before (real HTTP)', () => {
  for (const name of fixtureCases('routes-move').filter((n) => caseOptions('routes-move', n).requests?.length)) {
    it(name, async () => {
      const { requests, headers } = caseOptions('routes-move', name);
      const before = await answers(withDeclaredExpress(copyOf(path.join(TRANSFORM_FIXTURES, 'routes-move', name, 'input'))), requests!, headers);
      const run = await expectFixture('routes-move', name, 'routes');
      const after = await answers(withDeclaredExpress(run.root), requests!, headers);
      expect(after).toEqual(before);
    }, 60_000);
  }
});

/**
 * The app in `root` with the Express major its package.json declares: the repository's Express is
 * 4, so an app declaring Express 5 gets the one fixtures/apps/modern-e5 installs, as
 * `node_modules/express` (a link; the fixture runner leaves node_modules out of its comparisons).
 */
function withDeclaredExpress(root: string): string {
  const declared = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies?.express ?? '';
  if (/^\D*5/.test(declared)) {
    mkdirSync(path.join(root, 'node_modules'), { recursive: true });
    symlinkSync(path.join(REPO, 'fixtures/apps/modern-e5/node_modules/express'), path.join(root, 'node_modules', 'express'), 'dir');
  }
  return root;
}

function copyOf(dir: string): string {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(path.join(TMP, 'input-'));
  made.push(root);
  cpSync(dir, root, { recursive: true });
  return root;
}

/**
 * Starts the app in `root` (package.json `main`, TypeScript through tsx) on a free port, sends each
 * request in order (`METHOD /path [body] [header:value]`; a body starting with `{` is JSON,
 * `multipart:name=value&file=@name.txt:content` multipart form data, else urlencoded), and returns
 * `status type location body` per request (`status (redirect) location` for a redirect), then
 * each of `headers` the answer has (`set-cookie` one line per cookie; the Expires a Max-Age gives,
 * which depends on the clock, as `Expires=<now + Max-Age>`).
 */
async function answers(root: string, requests: string[], headers: string[] = []): Promise<string[]> {
  const main = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string }).main;
  const port = await freePort();
  const child = spawn(process.execPath, [...(/\.ts$/.test(main) ? ['--import', 'tsx'] : []), main], { cwd: root, env: { ...process.env, PORT: String(port), NODE_ENV: 'test' }, stdio: 'ignore' });
  try {
    await until(port, child);
    const out: string[] = [];
    for (const line of requests) {
      const [method, target, ...rest] = line.split(' ');
      const header = rest.find((r) => /^[\w-]+:/.test(r) && !r.startsWith('{') && !r.startsWith('multipart:'));
      const body = rest.filter((r) => r !== header).join(' ') || undefined;
      const sent: Record<string, string> = {};
      if (header) sent[header.slice(0, header.indexOf(':'))] = header.slice(header.indexOf(':') + 1);
      if (body && !body.startsWith('multipart:')) sent['content-type'] = body.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded';
      const res = await fetch(`http://127.0.0.1:${port}${target}`, { method, headers: sent, body: body?.startsWith('multipart:') ? formData(body.slice('multipart:'.length)) : body, redirect: 'manual' });
      const location = res.headers.get('location');
      // A redirect's body and its type are the framework delta redirect-body (rules/catalogue/framework-defaults.ts):
      // Express writes 'Found. Redirecting to …', Fastify's reply.redirect nothing. Status and Location must agree.
      if (location && res.status >= 300 && res.status < 400) out.push(`${line} → ${res.status} (redirect) ${location}`);
      else out.push(`${line} → ${res.status} ${res.headers.get('content-type') ?? '-'} ${location ?? '-'} ${await res.text()}`);
      for (const name of headers) {
        const values = name === 'set-cookie' ? res.headers.getSetCookie().map(clockFree) : [res.headers.get(name)].filter((v) => v !== null);
        for (const value of values) out.push(`  ${name}: ${value}`);
      }
    }
    return out;
  } finally {
    child.kill();
  }
}

/** A Set-Cookie value with the Expires its Max-Age gave (the time of the answer plus Max-Age, to the second) written `<now + Max-Age>`. */
function clockFree(cookie: string): string {
  const maxAge = /;\s*Max-Age=(\d+)/i.exec(cookie);
  if (!maxAge) return cookie;
  return cookie.replace(/;\s*Expires=([^;]+)/i, (whole, date: string) => (Math.abs(Date.parse(date) - (Date.now() + Number(maxAge[1]) * 1000)) < 60_000 ? '; Expires=<now + Max-Age>' : whole));
}

/** `name=value&file=@name.txt:content` as form data: a value `@name:content` is a file of that name and content. */
function formData(fields: string): FormData {
  const form = new FormData();
  for (const field of fields.split('&')) {
    const [name, value] = [field.slice(0, field.indexOf('=')), field.slice(field.indexOf('=') + 1)];
    if (value.startsWith('@')) form.append(name, new Blob([value.slice(value.indexOf(':') + 1)]), value.slice(1, value.indexOf(':')));
    else form.append(name, value);
  }
  return form;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the app did not start');
}

/** tsc's report on the project at `root` (empty when it type-checks). */
function tscOutput(root: string): string {
  try {
    execFileSync(path.join(REPO, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', path.join(root, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? e);
  }
}

describe('TypeScript output type-checks', () => {
  // Registrars rewritten to take `fastify`; the hand-over's functions in an Express router
  // (`router.get('/', movedToFastify)`) and in the bridge; reply.renderLikeExpress (its declaration
  // merged into FastifyReply) and the answers of handlers typed `: void`; notFoundAfterNext as a
  // route's handler; the like-express module.
  const names = ['package-handler-ts', 'registrar-nested-ts', 'registrar-ts', 'render-replaced-ts', 'send-like-express-ts', 'ts-later'];
  for (const name of names) {
    it(name, async () => {
      const { root } = await runFixture('routes-move', name, 'routes');
      expect(tscOutput(root)).toBe('');
    }, 60_000);
  }
  // An older app's configuration (microsoft/TypeScript-Node-Starter): noImplicitAny without strict,
  // where a function that returns `void expr` implicitly returns any (TS7011), and target es6 (its
  // library lacks Object.fromEntries, but the @types/node here references ES2020's, so that part was
  // checked on the app itself).
  for (const name of names) {
    it(`${name}, with target es6 and noImplicitAny without strict`, async () => {
      const { root } = await runFixture('routes-move', name, 'routes');
      const file = path.join(root, 'tsconfig.json');
      const config = JSON.parse(readFileSync(file, 'utf8'));
      const { strict: _strict, ...options } = config.compilerOptions;
      writeFileSync(file, JSON.stringify({ ...config, compilerOptions: { ...options, target: 'es6', noImplicitAny: true } }));
      expect(tscOutput(root)).toBe('');
    }, 60_000);
  }
});

describe('the summary of the routes stage', () => {
  it('prints moved of movable per router, and every reason of a route left behind with its TODO once', async () => {
    const run = await runFixture('routes-move', 'two-routers', 'routes');
    const text = renderSummary(run.result);
    expect(text).toContain('  routes-move: moved 2 of 3 routes\n    router publicRouter at /pub (routes/two.js): 1 of 1\n    router privateRouter at /priv (routes/two.js): 1 of 2\n');
    expect(text).toContain(
      'Left for a human (1)\n  routes/two.js:13 GET /priv/items/:id stays on Express: its route() chain has .all(…) functions that run before every method; Fastify has no per-path middleware: register them with each method\n',
    );
  }, 60_000);
});
