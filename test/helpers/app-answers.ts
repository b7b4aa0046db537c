/**
 * A fixture app's answers on real HTTP, for the checks that a stage keeps them: the app started in
 * its own process (package.json `main`, TypeScript through tsx) with the Express major it declares,
 * each request sent in order, each answer written as one comparable line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'app-answers');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/**
 * The app in `root` with the Express major its package.json declares: the repository's Express is
 * 4, so an app declaring Express 5 gets the one fixtures/apps/modern-e5 installs, as
 * `node_modules/express` (a link; the fixture runner leaves node_modules out of its comparisons).
 */
export function withDeclaredExpress(root: string): string {
  const declared = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies?.express ?? '';
  if (/^\D*5/.test(declared)) {
    mkdirSync(path.join(root, 'node_modules'), { recursive: true });
    symlinkSync(path.join(REPO, 'fixtures/apps/modern-e5/node_modules/express'), path.join(root, 'node_modules', 'express'), 'dir');
  }
  return root;
}

/** A fresh copy of `dir` under the repository's .tmp/, removed after the test file. */
export function copyOf(dir: string): string {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(path.join(TMP, 'input-'));
  made.push(root);
  cpSync(dir, root, { recursive: true });
  return root;
}

/**
 * Starts the app in `root` (package.json `main`, TypeScript through tsx) on a free port, sends each
 * request in order (`METHOD /path [body] [header:value …]`, a header value without spaces; fetch adds
 * `cache-control: no-cache` to a conditional request unless one is given; a body starting with `{` is JSON,
 * `multipart:name=value&file=@name.txt:content` multipart form data, else urlencoded), and returns
 * `status type location body` per request (`status (redirect) location` for a redirect), then
 * each of `headers` the answer has (`set-cookie` one line per cookie; the Expires a Max-Age gives,
 * which depends on the clock, as `Expires=<now + Max-Age>`). `node` adds Node options and
 * environment variables for the app's process (a `--require` probe).
 */
export async function answers(root: string, requests: string[], headers: string[] = [], node: NodeOptions = {}): Promise<string[]> {
  const { port, child } = await started(root, node);
  try {
    const out: string[] = [];
    for (const line of requests) {
      const [method, target, ...rest] = line.split(' ');
      const given = rest.filter((r) => /^[\w-]+:/.test(r) && !r.startsWith('{') && !r.startsWith('multipart:'));
      const body = rest.filter((r) => !given.includes(r)).join(' ') || undefined;
      const sent: Record<string, string> = {};
      for (const header of given) sent[header.slice(0, header.indexOf(':'))] = header.slice(header.indexOf(':') + 1);
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

/** Node options and environment variables for the app's process (a `--require` probe); `stdout`: a file its standard output goes to (else ignored). */
export interface NodeOptions {
  args?: string[];
  env?: Record<string, string>;
  stdout?: string;
}

/** A request sent byte for byte: its headers as given (no Content-Length added when `chunked`), its body as given. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Sends the body with `Transfer-Encoding: chunked` in two chunks. */
  chunked?: boolean;
}

/**
 * Starts the app in `root` as `answers` does and sends each request with Node's http client (so a
 * Content-Length, a charset or a Content-Encoding goes as written), returning `status body` per
 * request and the Connection header the answer had (`close` when the server closes it).
 */
export async function rawAnswers(root: string, requests: RawRequest[], node: NodeOptions = {}): Promise<string[]> {
  const { port, child } = await started(root, node);
  try {
    const out: string[] = [];
    for (const r of requests) out.push(await sendRaw(port, r));
    return out;
  } finally {
    child.kill();
  }
}

function sendRaw(port: number, r: RawRequest): Promise<string> {
  const body = r.body === undefined ? undefined : Buffer.from(r.body);
  const headers = { ...r.headers, ...(body && !r.chunked && !('content-length' in r.headers) ? { 'content-length': String(body.length) } : {}), ...(r.chunked ? { 'transfer-encoding': 'chunked' } : {}) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: r.method, path: r.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(`${r.method} ${r.path} ${JSON.stringify(r.headers)} → ${res.statusCode} ${res.headers['content-type'] ?? '-'} ${Buffer.concat(chunks).toString()} (connection: ${res.headers.connection ?? '-'})`));
    });
    req.on('error', reject);
    if (body && r.chunked) {
      req.write(body.subarray(0, Math.ceil(body.length / 2)));
      req.write(body.subarray(Math.ceil(body.length / 2)));
    } else if (body) req.write(body);
    req.end();
  });
}

/** The app in `root` started on a free port (package.json `main`, TypeScript through tsx), once it answers. */
async function started(root: string, node: NodeOptions): Promise<{ port: number; child: ChildProcess }> {
  const main = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string }).main;
  const port = await freePort();
  const stdout = node.stdout ? openSync(node.stdout, 'a') : undefined;
  const child = spawn(process.execPath, [...(node.args ?? []), ...(/\.ts$/.test(main) ? ['--import', 'tsx'] : []), main], { cwd: root, env: { ...process.env, ...node.env, PORT: String(port), NODE_ENV: 'test' }, stdio: ['ignore', stdout ?? 'ignore', 'ignore'] });
  if (stdout !== undefined) child.on('exit', () => closeSync(stdout));
  try {
    await until(port, child);
  } catch (error) {
    child.kill();
    throw error;
  }
  return { port, child };
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
