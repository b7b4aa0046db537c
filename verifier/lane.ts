/**
 * A lane is one side of a replay: the user's app running in a child process that listens on
 * 127.0.0.1. The child is `node [--import tsx] --import runtime/lane-hook.mjs [--import preload…]
 * runtime/boot.mjs <entry>`; the hook keeps every listen on loopback and reports the port over IPC,
 * boot.mjs starts an app that only exports itself. Design: shared/reference/verifier-design.md §7.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseEnv } from 'node:util';

/** What to run in a lane. */
export interface LaneSpec {
  /** 'baseline' | 'candidate' | 'noise' | 'record': names the lane in messages. */
  name: string;
  /** Absolute app root; the child's working directory. */
  dir: string;
  /** Module to run, relative to `dir` or absolute (.js .mjs .cjs, or .ts .mts .cts .tsx through tsx). */
  entry: string;
  /** Merged over process.env (and over `envFile`). NODE_ENV is 'production' unless set here or in `envFile`. */
  env?: Record<string, string>;
  /** dotenv file (relative to `dir` or absolute) merged under `env`. */
  envFile?: string;
  /** Shell command run in `dir` (sh -c) before the start, e.g. resetting a SQLite file. */
  setup?: string;
  /** How long the app may take from spawn to listening, in milliseconds (default 20000). */
  startTimeoutMs?: number;
  /** Extra absolute module paths preloaded with --import after the lane hook (the recorder uses this). */
  preload?: string[];
  /** Port to force; 0 (default) takes a free one. */
  port?: number;
}

/** A running lane. */
export interface Lane {
  name: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  pid: number;
  /** The last ~64 KB of the child's stdout and stderr, interleaved as received. */
  output(): string;
  /** How the process ended (`code 3`, `signal SIGKILL`) when it exited on its own or was stopped; null while it runs. */
  exited(): string | null;
  /** SIGTERM, then SIGKILL after 3 s; resolves once the process has exited. Idempotent. */
  stop(): Promise<void>;
}

/** Stable codes of LaneError: bad spec (missing folder, entry or env file), setup failed, node could not be spawned, the app exited or timed out before listening. */
export type LaneErrorCode = 'LANE_BAD_SPEC' | 'LANE_SETUP_FAILED' | 'LANE_SPAWN_FAILED' | 'LANE_EXITED' | 'LANE_TIMEOUT';

/** A lane that could not start; `code` is stable, `message` says which lane, why, and ends with the tail of the output. */
export class LaneError extends Error {
  override name = 'LaneError';
  /** The lane's name. */
  lane: string;
  /** Everything the setup command or the app printed (last ~64 KB). */
  output: string;
  code: LaneErrorCode;

  constructor(lane: string, code: LaneErrorCode, reason: string, output = '') {
    const tail = tailOf(output);
    super(`${lane} lane: ${reason}${tail ? `\n--- last output of the ${lane} lane ---\n${tail}` : ''}`);
    this.lane = lane;
    this.code = code;
    this.output = output;
  }
}

const OUTPUT_LIMIT = 64 * 1024;
const DEFAULT_START_TIMEOUT_MS = 20_000;
const KILL_AFTER_MS = 3_000;
const CLOSE_GRACE_MS = 500;
const TYPESCRIPT = /\.(ts|mts|cts|tsx)$/;

/**
 * Starts the app of `spec` and resolves once it listens on 127.0.0.1.
 * Throws LaneError when the spec is unusable (missing dir, entry or envFile), the setup command
 * exits non-zero, the app exits before listening, or it does not listen within `startTimeoutMs`.
 */
export async function startLane(spec: LaneSpec): Promise<Lane> {
  const dir = path.resolve(spec.dir);
  const entry = path.resolve(dir, spec.entry);
  if (!isDirectory(dir)) throw new LaneError(spec.name, 'LANE_BAD_SPEC', `app folder ${dir} does not exist`);
  const env = laneEnv(spec, dir);
  // The setup may build the entry (`babel src -d build`, `tsc`): a checked-out baseline has none before it runs.
  if (spec.setup) await runSetup(spec.name, spec.setup, dir, env);
  if (!existsSync(entry)) throw new LaneError(spec.name, 'LANE_BAD_SPEC', `entry ${entry} does not exist${spec.setup ? ' after the setup command' : ''}`);
  return launch(spec, dir, entry, env);
}

function laneEnv(spec: LaneSpec, dir: string): NodeJS.ProcessEnv {
  let fromFile: Record<string, string> = {};
  if (spec.envFile) {
    const file = path.resolve(dir, spec.envFile);
    if (!existsSync(file)) throw new LaneError(spec.name, 'LANE_BAD_SPEC', `env file ${file} does not exist`);
    // `$MIGRATE_LANE` in a value becomes the lane's name, so the baseline and the noise lane
    // (one env file) can keep their state apart, e.g. DATABASE_FILE=/tmp/db-$MIGRATE_LANE.sqlite.
    const parsed = parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
    fromFile = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v.replace(/\$\{?MIGRATE_LANE\}?(?![A-Z_])/g, spec.name)]));
  }
  return {
    ...process.env,
    NODE_ENV: 'production',
    ...fromFile,
    ...spec.env,
    MIGRATE_LANE: spec.name,
    MIGRATE_LANE_PORT: String(spec.port ?? 0),
  };
}

function runSetup(lane: string, command: string, dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = new OutputTail();
    const child = spawn('sh', ['-c', command], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => out.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => out.add(chunk));
    child.on('error', (err) => reject(new LaneError(lane, 'LANE_SETUP_FAILED', `setup command could not run (${err.message}): ${command}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new LaneError(lane, 'LANE_SETUP_FAILED', `setup failed (exited with ${exitText(code, signal)}): ${command}`, out.text()));
    });
  });
}

function launch(spec: LaneSpec, dir: string, entry: string, env: NodeJS.ProcessEnv): Promise<Lane> {
  const runtime = path.join(packageRoot(), 'verifier', 'runtime');
  const imports = [
    ...(TYPESCRIPT.test(entry) ? [tsxLoader()] : []),
    pathToFileURL(path.join(runtime, 'lane-hook.mjs')).href,
    ...(spec.preload ?? []).map((p) => (path.isAbsolute(p) ? pathToFileURL(p).href : p)),
  ];
  const args = [...imports.flatMap((i) => ['--import', i]), path.join(runtime, 'boot.mjs'), entry];
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  live.add(child);
  const out = new OutputTail();
  child.stdout?.on('data', (chunk: Buffer) => out.add(chunk));
  child.stderr?.on('data', (chunk: Buffer) => out.add(chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => live.delete(child));
  const timeoutMs = spec.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;

  return new Promise<Lane>((resolve, reject) => {
    let settled = false;
    let timedOut = false;
    const settle = (error?: LaneError, port?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('message', onMessage);
      if (error) reject(error);
      else resolve(laneOf(spec.name, child, port!, out, exited));
    };
    const onMessage = (message: unknown) => {
      if (isListening(message)) settle(undefined, message.port);
    };
    const timer = setTimeout(() => {
      timedOut = true; // the exit that follows is ours, not the app's
      child.kill('SIGKILL');
      const reason = `timed out after ${timeoutMs} ms without listening (entry ${entry})`;
      void exited.then(() => settle(new LaneError(spec.name, 'LANE_TIMEOUT', reason, out.text())));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', (code, signal) => {
      if (timedOut) return;
      // Report once the output is drained ('close'), so the tail is complete; but a grandchild
      // holding our pipes open must not keep us waiting.
      const exitedEarly = () =>
        settle(new LaneError(spec.name, 'LANE_EXITED', `exited with ${exitText(code, signal)} before listening (entry ${entry})`, out.text()));
      child.once('close', exitedEarly);
      setTimeout(exitedEarly, CLOSE_GRACE_MS);
    });
    child.once('error', (err) => settle(new LaneError(spec.name, 'LANE_SPAWN_FAILED', `could not start node (${err.message})`, out.text())));
  });
}

function laneOf(name: string, child: ChildProcess, port: number, out: OutputTail, exited: Promise<void>): Lane {
  let stopping: Promise<void> | undefined;
  return {
    name,
    origin: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    output: () => out.text(),
    exited: () => (child.exitCode !== null || child.signalCode !== null ? exitText(child.exitCode, child.signalCode) : null),
    stop() {
      stopping ??= stopChild(child, exited);
      return stopping;
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
  await exited;
  clearTimeout(killer);
}

/** Children still running, killed if this process exits without stopping them (a crash, Ctrl-C). */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function isListening(message: unknown): message is { type: 'listening'; port: number } {
  const m = message as { type?: unknown; port?: unknown } | null;
  return m !== null && typeof m === 'object' && m.type === 'listening' && typeof m.port === 'number';
}

/** Keeps the last OUTPUT_LIMIT bytes of what a child printed. */
class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;

  add(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0].length >= OUTPUT_LIMIT) this.size -= this.chunks.shift()!.length;
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - OUTPUT_LIMIT)).toString('utf8');
  }
}

/** The last lines of `output` for a message (the full tail stays on LaneError.output). */
function tailOf(output: string, lines = 30, chars = 4000): string {
  const trimmed = output.trimEnd();
  const tail = trimmed.split('\n').slice(-lines).join('\n');
  return tail.length > chars ? `…${tail.slice(-chars)}` : tail;
}

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `signal ${signal}` : `code ${code}`;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

let root: string | undefined;

/** Our package's root (the folder of the package.json named express-to-fastify-migrate), from dist/ or from the sources. */
function packageRoot(): string {
  if (root) return root;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'express-to-fastify-migrate') {
      return (root = dir);
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot find the express-to-fastify-migrate package above ${fileURLToPath(import.meta.url)}`);
  }
}

/** Our own tsx (not the user's), as a file URL for --import. */
function tsxLoader(): string {
  return pathToFileURL(createRequire(path.join(packageRoot(), 'package.json')).resolve('tsx')).href;
}
