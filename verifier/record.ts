/**
 * `migrate record`: runs the app in a lane with the recorder preloaded (runtime/record-hook.mjs),
 * lets traffic through — a command given with `run`, or whatever is sent until the caller aborts
 * (Ctrl-C) — then turns the captured exchanges into a redacted, stable HAR 1.2 file
 * (verifier-design.md §7.2–7.4).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolVersion } from '../analyzer/version.js';
import { harContent, harPostData, parseCookieHeader, parseSetCookie, queryStringOf, writeHar } from './har.js';
import { startLane, type Lane } from './lane.js';
import { redactHar, type RedactOptions } from './redact.js';
import type { Har, HarEntry, HarNameValue } from './model.js';

/** What to record. */
export interface RecordOptions {
  /** App folder (the lane's working directory). */
  dir: string;
  /** Module to run, relative to `dir` (an app that listens, or one that exports its app). */
  entry: string;
  /** HAR file to write; default `<dir>/.migrate/recordings/<UTC timestamp>.har`. */
  out?: string;
  /** Port for the app on 127.0.0.1; default a free one. */
  port?: number;
  /**
   * A command (`sh -c`, in the current folder) that sends the traffic; `MIGRATE_RECORD_URL` in its
   * environment is the app's origin. Recording stops when it exits.
   */
  run?: string;
  /** Stops the recording when aborted (the CLI wires Ctrl-C to it). Needed when there is no `run`. */
  signal?: AbortSignal;
  redact?: RedactOptions;
  /** Environment for the app, over `envFile` and the current environment. */
  env?: Record<string, string>;
  /** dotenv file for the app, relative to `dir`. */
  envFile?: string;
  /** How long the app may take to listen, in milliseconds (lane default: 20 s). */
  startTimeoutMs?: number;
  /** Progress lines for a human (the CLI prints them on stderr). */
  log?: (line: string) => void;
  /** Output of the `run` command; default: copied to this process's stderr. */
  runOutput?: (chunk: Buffer) => void;
}

/** What was recorded: exchanges and redactions in the file written to `out`, and warnings for a human. */
export interface RecordResult {
  out: string;
  entries: number;
  redactions: number;
  /** Exit code of the `run` command (null when a signal ended it); absent without `run`. */
  runExitCode?: number | null;
  warnings: string[];
}

/** Recording could not take place (bad options, the app did not start); the message says why. */
export class RecordError extends Error {
  override name = 'RecordError';
}

/**
 * Records the app's traffic into a HAR file.
 * @throws RecordError when neither `run` nor `signal` can end the recording; LaneError (from
 *   lane.ts) when the app cannot start.
 */
export async function record(options: RecordOptions): Promise<RecordResult> {
  if (!options.run && !options.signal) throw new RecordError('nothing would stop the recording: give a command to run or an abort signal');
  const log = options.log ?? (() => {});
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'migrate-record-'));
  const file = path.join(tmp, 'exchanges.ndjson');
  const warnings: string[] = [];
  let runExitCode: number | null | undefined;
  try {
    const lane = await startLane({
      name: 'record',
      dir: options.dir,
      entry: options.entry,
      env: { ...options.env, MIGRATE_RECORD_FILE: file },
      envFile: options.envFile,
      port: options.port,
      preload: [hookPath()],
      startTimeoutMs: options.startTimeoutMs,
    });
    try {
      ({ runExitCode } = await letTrafficThrough(lane, options, log, warnings));
    } finally {
      await lane.stop();
    }

    const lines = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const built = harFromExchanges(lines, { app: path.basename(path.resolve(options.dir)), entry: options.entry });
    warnings.push(...built.warnings);
    if (built.har.log.entries.length === 0) warnings.push('No exchange was recorded: the app received no request.');
    const { har, redactions } = redactHar(built.har, options.redact);
    const out = path.resolve(options.out ?? defaultRecordingPath(options.dir));
    writeHar(out, har);
    return { out, entries: har.log.entries.length, redactions, warnings, ...(runExitCode === undefined ? {} : { runExitCode }) };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Waits for the `run` command to exit, or for the signal; notes when the app exits on its own meanwhile. */
async function letTrafficThrough(lane: Lane, options: RecordOptions, log: (line: string) => void, warnings: string[]): Promise<{ runExitCode?: number | null }> {
  const died = watchExit(lane.pid);
  let runExitCode: number | null | undefined;
  if (options.run) {
    log(`Recording ${lane.origin}: running ${options.run}`);
    const run = runCommand(options.run, lane.origin, options.signal, options.runOutput);
    try {
      const first = await Promise.race([run.exited, died.promise.then(() => 'died' as const)]);
      if (first === 'died') run.kill();
      runExitCode = first === 'died' ? await run.exited : first;
    } finally {
      run.kill();
    }
    if (runExitCode !== 0) warnings.push(`The command exited with ${runExitCode === null ? 'a signal' : `code ${runExitCode}`}: ${options.run}`);
  } else {
    log(`Recording ${lane.origin} — send requests to it, then press Ctrl-C to stop.`);
    await Promise.race([aborted(options.signal!), died.promise]);
  }
  died.cancel();
  // Ctrl-C reaches the app too (same process group): its exit is then expected.
  if (died.happened && !options.signal?.aborted) {
    warnings.push(`The app exited during the recording; what it answered until then is kept.\n${lane.output().trimEnd().split('\n').slice(-10).join('\n')}`);
  }
  return runExitCode === undefined ? {} : { runExitCode };
}

/**
 * Builds a HAR from the recorder's NDJSON (one exchange per line, runtime/record-hook.mjs), in
 * the order requests arrived. URLs are `<scheme>://<Host header as sent><path as sent>`; bodies
 * are decoded from Content-Encoding (textual as text, the rest base64). Lines that are not JSON
 * are skipped with a warning.
 */
export function harFromExchanges(ndjson: string, about: { app: string; entry: string }): { har: Har; warnings: string[] } {
  const warnings: string[] = [];
  const exchanges: Exchange[] = [];
  ndjson.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      exchanges.push(JSON.parse(line) as Exchange);
    } catch {
      warnings.push(`Recorder line ${i + 1} is not JSON (the app was stopped while writing?); skipped.`);
    }
  });
  exchanges.sort((a, b) => a.start - b.start || a.pid - b.pid || a.seq - b.seq);
  const version = toolVersion();
  const har: Har = {
    log: {
      version: '1.2',
      creator: { name: 'migrate record', version },
      pages: [],
      entries: exchanges.map(entryOf),
      comment: `Recorded by migrate record from ${about.app} (${about.entry}).`,
      _verifierVersion: version,
    },
  };
  const truncated = har.log.entries.filter((e) => e.comment?.includes('truncated')).length;
  if (truncated) warnings.push(`${truncated} exchange${truncated === 1 ? ' has' : 's have'} a body cut at the recorder's limit (MIGRATE_RECORD_MAX_BODY).`);
  return { har, warnings };
}

/** Where a recording goes by default: `<dir>/.migrate/recordings/<UTC timestamp, e.g. 2026-11-30T12-10-06Z>.har`. */
export function defaultRecordingPath(dir: string): string {
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return path.join(dir, '.migrate', 'recordings', `${stamp}.har`);
}

// ---------------------------------------------------------------------------------------------

/** One line written by runtime/record-hook.mjs. Bodies are base64; the response body is decoded. */
interface Exchange {
  v: 1;
  pid: number;
  seq: number;
  /** Epoch milliseconds (fractional) when the request arrived. */
  start: number;
  startedDateTime: string;
  time: number;
  timings: { send: number; wait: number; receive: number };
  route?: string;
  request: { method: string; url: string; scheme: string; httpVersion: string; headers: Array<[string, string]>; body: string; truncated?: boolean };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: Array<[string, string]>;
    body: string;
    encodedSize: number;
    truncated?: boolean;
    decodeError?: string;
  };
}

function entryOf(x: Exchange): HarEntry {
  const find = (headers: Array<[string, string]>, name: string) => headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v);
  const nv = (headers: Array<[string, string]>): HarNameValue[] => headers.map(([name, value]) => ({ name, value }));
  const host = find(x.request.headers, 'host')[0] ?? '127.0.0.1';
  const requestBody = Buffer.from(x.request.body ?? '', 'base64');
  const responseBody = Buffer.from(x.response.body ?? '', 'base64');
  const entry: HarEntry = {
    startedDateTime: x.startedDateTime,
    time: x.time,
    request: {
      method: x.request.method,
      url: `${x.request.scheme}://${host}${x.request.url}`,
      httpVersion: x.request.httpVersion,
      cookies: find(x.request.headers, 'cookie').flatMap(parseCookieHeader),
      headers: nv(x.request.headers),
      queryString: queryStringOf(x.request.url),
      headersSize: -1,
      bodySize: requestBody.length,
    },
    response: {
      status: x.response.status,
      statusText: x.response.statusText,
      httpVersion: x.response.httpVersion,
      cookies: find(x.response.headers, 'set-cookie').map(parseSetCookie),
      headers: nv(x.response.headers),
      content: harContent(responseBody, find(x.response.headers, 'content-type')[0] ?? '', x.response.decodeError ? responseBody.length : x.response.encodedSize),
      redirectURL: find(x.response.headers, 'location')[0] ?? '',
      headersSize: -1,
      bodySize: x.response.encodedSize,
    },
    cache: {},
    timings: x.timings,
  };
  if (requestBody.length) entry.request.postData = harPostData(requestBody, find(x.request.headers, 'content-type')[0] ?? '');
  const notes = [
    x.request.truncated && 'request body truncated',
    x.response.truncated && 'response body truncated',
    x.response.decodeError && `response body stored as sent, its Content-Encoding could not be decoded (${x.response.decodeError})`,
  ].filter(Boolean);
  if (notes.length) entry.comment = notes.join('; ');
  if (x.route !== undefined) entry._routeTemplate = x.route;
  return entry;
}

/** runtime/record-hook.mjs, from the sources or from dist/ (the runtime folder is not compiled). */
function hookPath(): string {
  const candidates = ['./runtime/record-hook.mjs', '../../verifier/runtime/record-hook.mjs'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new RecordError(`cannot find the recorder (looked for ${candidates.join(', ')})`);
  return found;
}

/**
 * Runs the traffic command in its own process group, so stopping it stops what it started too.
 * `exited` resolves with its exit code (null after a signal) as soon as the shell exits.
 */
function runCommand(command: string, origin: string, signal: AbortSignal | undefined, output?: (chunk: Buffer) => void) {
  const child = spawn('sh', ['-c', command], { env: { ...process.env, MIGRATE_RECORD_URL: origin }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const write = output ?? ((chunk: Buffer) => process.stderr.write(chunk));
  child.stdout.on('data', write);
  child.stderr.on('data', write);
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  };
  signal?.addEventListener('abort', kill, { once: true });
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(127));
    child.once('exit', (code) => {
      signal?.removeEventListener('abort', kill);
      resolve(code);
    });
  });
  return { exited, kill };
}

function aborted(signal: AbortSignal): Promise<void> {
  return signal.aborted ? Promise.resolve() : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Notices, by polling every 250 ms, that a process has gone away: `promise` resolves then and `happened` turns true. */
function watchExit(pid: number) {
  const watch = { happened: false, promise: Promise.resolve(), cancel: () => clearInterval(timer) };
  let timer: NodeJS.Timeout | undefined;
  watch.promise = new Promise<void>((resolve) => {
    timer = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        watch.happened = true;
        clearInterval(timer);
        resolve();
      }
    }, 250);
  });
  return watch;
}
