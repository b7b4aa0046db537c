/**
 * Request throughput of an example app on Express against the same app after migration stages,
 * measured side by side in one run (the machines are shared and noisy, so only the ratio
 * candidate / baseline is meaningful; a ratio of 1.00 means the port serves as fast as Express).
 *
 *   baseline   the app as it is (fixtures/apps/NAME), in its own lane (verifier/lane.ts);
 *   candidate  a copy of it under os.tmpdir() after `runStage` of each stage in order (shim, errors,
 *              routes by default), in another lane. Both run the file the app's start script runs
 *              (the analyzer's `project.entry`), so the candidate really answers behind Fastify.
 *
 * What is requested: by default the distinct GET routes of the app's recording.har (up to 8, in
 * recording order; route attribution as the verifier's coverage does it), each with the first
 * recorded URL that answered 2xx/3xx, skipping routes the recording shows rate-limited (429);
 * `--routes "GET /a,GET /b"` names them instead. The recording is replayed in order into both
 * lanes (the verifier's bindings carry cookies and created ids) up to each measured entry, so a
 * route is measured in the state it was recorded in (a short id exists, a session is logged in);
 * a request the recording does not hold is measured on the freshly started app.
 *
 * Per route: a warm-up of each side (WARM_UP_SECONDS), then `--rounds` rounds of `--duration`
 * seconds per side with autocannon (`--connections` keep-alive connections, load generated in this
 * process), the sides alternating baseline, candidate, candidate, baseline, … so that drift in
 * machine load hits both alike. Rate = completed responses / seconds of the run (requests/second).
 * Prints per route and overall the median baseline and candidate req/s over the rounds, the median
 * and the min–max of the per-round ratios candidate / baseline; overall, a round is the requests
 * of that round summed over the routes divided by its seconds summed over the routes. `--json` prints
 * `{ routes: [{ route, request, baseline, candidate, ratio, spread: [min, max], statuses }], overall }`.
 *
 * Exit codes: 0 measured; 1 the sides answer a route differently (a status one side gives and the
 * other does not, any 5xx or 429, connection errors or timeouts): a benchmark of a broken port is
 * meaningless, the statuses are printed instead of the table; 2 not measured (a bad option, a stage
 * that failed or refused, a lane that did not start). Both lanes are stopped and the copy removed
 * in every case.
 *
 * Run: `npm run bench:serve`, or `npx tsx bench/serve.ts --app fixtures/apps/modern-e5 --duration 2
 * --rounds 3 [--stages shim,errors,routes] [--connections 10] [--routes "GET /health"] [--json]`.
 */
import autocannon from 'autocannon';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { analyze } from '../analyzer/analyze.js';
import type { Inventory } from '../analyzer/model.js';
import { runStage, RunError } from '../runner/run.js';
import { STAGES, type StageName } from '../transforms/model.js';
import { LaneBindings } from '../verifier/correlate.js';
import { RouteCoverage } from '../verifier/coverage.js';
import { readHar, recordedResponse, toReplayRequests } from '../verifier/har.js';
import { LaneError, startLane, type Lane } from '../verifier/lane.js';
import type { Har, ReplayRequest } from '../verifier/model.js';
import { LaneConnection } from '../verifier/send.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Seconds each side is driven on a route before its rounds, untimed (JIT, caches, connection pools). */
const WARM_UP_SECONDS = 1;
/** Default routes taken from the recording at most. */
const MAX_ROUTES = 8;

/** The command line, checked. */
interface BenchOptions {
  /** Absolute folder of the app. */
  app: string;
  stages: StageName[];
  /** Seconds per side per round. */
  duration: number;
  rounds: number;
  connections: number;
  /** `--routes` as given (`METHOD /path?query`), or null for the recording's GET routes. */
  routes: Array<{ method: string; path: string }> | null;
  json: boolean;
}

/** One request to measure. */
interface Target {
  /** The route key that answers it (the baseline's inventory), or null when none does. */
  route: string | null;
  /** As recorded (or as given by `--routes`); rewritten per lane before it is sent. */
  request: ReplayRequest;
  /** Its position in the recording: the entries before it are replayed first; -1 when it is not recorded. */
  index: number;
}

/** One lane with what the replay keeps for it. */
interface Side {
  name: 'baseline' | 'candidate';
  lane: Lane;
  connection: LaneConnection;
  bindings: LaneBindings;
  /** Index of the next recording entry to replay into this lane. */
  next: number;
}

/** One autocannon run against one side. */
interface Run {
  /** Completed responses. */
  requests: number;
  /** Wall time of the run, in seconds. */
  seconds: number;
  /** Responses per status code. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
}

/** A route's runs: per side, the warm-up and the rounds (rounds[i] of both sides are one pairing). */
interface Measured {
  target: Target;
  warmUp: Record<Side['name'], Run>;
  rounds: Record<Side['name'], Run[]>;
}

/**
 * A row of the result: rates in requests/second (medians over the rounds); `ratio` is the median
 * of the per-round ratios candidate / baseline (each round pairs the sides run back to back, so
 * drift between rounds cancels out), which may differ a little from the ratio of the two medians.
 */
interface Row {
  route: string;
  /** `METHOD /path?query` as sent (before the lanes' rewriting). */
  request: string;
  baseline: number;
  candidate: number;
  ratio: number;
  /** Lowest and highest per-round ratio candidate / baseline. */
  spread: [number, number];
  /** Responses per status code per side, warm-up included. */
  statuses: Record<Side['name'], Record<string, number>>;
}

/** A stage that failed or refused: the run ends with exit code 2. */
class StageFailure extends Error {}

/** A bad command line: exit code 2. */
class UsageError extends Error {}

const note = (s: string) => process.stderr.write(`${s}\n`);

/** Parses and checks the command line (defaults in the file's docstring). */
function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      app: { type: 'string', default: 'fixtures/apps/url-shortener' },
      stages: { type: 'string', default: 'shim,errors,routes' },
      duration: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      routes: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const positive = (name: string, value: string, integer: boolean): number => {
    const n = Number(value);
    if (!(n > 0) || (integer && !Number.isInteger(n))) throw new UsageError(`--${name} needs a ${integer ? 'whole ' : ''}number above 0, got ${JSON.stringify(value)}`);
    return n;
  };
  const app = path.resolve(ROOT, values.app);
  if (!existsSync(path.join(app, 'recording.har'))) throw new UsageError(`--app ${values.app}: no recording.har in ${app}`);
  const stages = values.stages.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = stages.filter((s) => !(STAGES as readonly string[]).includes(s));
  if (unknown.length || !stages.length) throw new UsageError(`--stages: ${unknown.length ? `unknown ${unknown.join(', ')}` : 'none given'} (stages: ${STAGES.join(', ')})`);
  const routes =
    values.routes === undefined
      ? null
      : values.routes.split(',').map((r) => {
          const m = /^\s*(?:([A-Za-z]+)\s+)?(\/\S*)\s*$/.exec(r);
          if (!m) throw new UsageError(`--routes: "${r}" is not "METHOD /path"`);
          return { method: (m[1] ?? 'GET').toUpperCase(), path: m[2] };
        });
  return {
    app,
    stages: stages as StageName[],
    duration: positive('duration', values.duration, false),
    rounds: positive('rounds', values.rounds, true),
    connections: positive('connections', values.connections, true),
    routes,
    json: values.json,
  };
}

/**
 * The requests to measure, in recording order. Without `--routes`: for each distinct GET route
 * key the recording reaches (the first that answers, in registration order, as the verifier's
 * coverage attributes requests), its first entry that answered 2xx/3xx; routes that answered 429
 * anywhere in the recording are left out (under load they would measure the rate limiter), and
 * so are requests no route answers (static files, 404s). With `--routes`: each given request, at
 * its first entry in the recording (one that answered 2xx/3xx when there is one), else unrecorded.
 */
function chooseTargets(har: Har, inventory: Inventory, given: BenchOptions['routes']): Target[] {
  const coverage = new RouteCoverage(inventory);
  const requests = toReplayRequests(har);
  const statusOf = (i: number) => har.log.entries[i].response.status;
  const answered = (i: number) => statusOf(i) >= 200 && statusOf(i) < 400;
  if (given) {
    return given
      .map(({ method, path: wanted }): Target => {
        const same = requests.map((r, i) => ({ r, i })).filter(({ r }) => r.method === method && r.path === wanted);
        const pick = same.find(({ i }) => answered(i)) ?? same[0];
        const request: ReplayRequest = pick?.r ?? { id: `${method} ${wanted}`, session: 'default', method, path: wanted, headers: [] };
        return { route: coverage.routeFor(method, wanted), request, index: pick?.i ?? -1 };
      })
      .sort((a, b) => a.index - b.index);
  }
  const routeOf = requests.map((r) => coverage.routeFor(r.method, r.path));
  const limited = new Set(routeOf.filter((key, i) => key && statusOf(i) === 429));
  const chosen = new Map<string, Target>();
  requests.forEach((request, index) => {
    const key = routeOf[index];
    if (request.method !== 'GET' || !key?.startsWith('GET ') || limited.has(key) || chosen.has(key) || !answered(index)) return;
    chosen.set(key, { route: key, request, index });
  });
  return [...chosen.values()].slice(0, MAX_ROUTES);
}

/**
 * Copies the app to `<tmp>/<name>` (timestamps kept: static files' ETag and Last-Modified come from
 * them) without its node_modules, and links the packages the way the workspace resolves them:
 * `<tmp>/<name>/node_modules` → the app's own node_modules when it has one (modern-e5's Express 5),
 * `<tmp>/node_modules` → this repository's (the hoisted packages, Fastify and @fastify/express
 * included). Returns the copy's absolute folder.
 */
function copyApp(app: string, tmp: string): string {
  const copy = path.join(tmp, path.basename(app));
  cpSync(app, copy, { recursive: true, preserveTimestamps: true, filter: (src) => path.basename(src) !== 'node_modules' });
  if (existsSync(path.join(app, 'node_modules'))) symlinkSync(path.join(app, 'node_modules'), path.join(copy, 'node_modules'), 'junction');
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(tmp, 'node_modules'), 'junction');
  return copy;
}

/**
 * Runs each stage in order on `dir` with the runner's library API (written in place, no git, no
 * typecheck, no install). Returns one line per stage for the report.
 * @throws StageFailure when a stage throws a RunError, refuses (work left) or a file fails
 */
async function runStages(dir: string, stages: StageName[]): Promise<string[]> {
  const lines: string[] = [];
  for (const stage of stages) {
    note(`stage ${stage}`);
    let result;
    try {
      result = await runStage({ root: dir, stage, allowDirty: true });
    } catch (e) {
      if (e instanceof RunError) throw new StageFailure(`stage ${stage} failed (${e.code}): ${e.message}`);
      throw e;
    }
    const failed = result.outcomes.filter((o) => o.status === 'failed');
    if (result.exitCode === 2 || failed.length) throw new StageFailure(`stage ${stage} failed: ${failed.map((o) => `${o.file}: ${o.reason}`).join('; ') || result.notes.join('; ')}`);
    if (result.refusal) throw new StageFailure(`stage ${stage} refused: ${result.refusal}`);
    const moved = result.moved.map((m) => `${m.what} ${m.done}/${m.of}`).join(', ');
    lines.push(`${stage}: ${result.changes.length} file(s) changed${moved ? `, moved ${moved}` : ''}${result.manual.length ? `, ${result.manual.length} manual item(s)` : ''}${result.deferred.length ? `, ${result.deferred.length} left for a later stage` : ''}`);
  }
  return lines;
}

/**
 * Replays the recording's entries [side.next, until) into one lane, in order: each request
 * rewritten with the lane's bindings, then the answer learnt (verifier/correlate.ts), as the
 * verifier does for each lane. Requests needing a credential the recording redacted are skipped.
 */
async function replayUntil(side: Side, har: Har, requests: ReplayRequest[], until: number): Promise<void> {
  for (; side.next < until; side.next++) {
    const recorded = requests[side.next];
    const { request, missing } = side.bindings.rewrite(recorded);
    if (missing.length) continue;
    const answer = await side.connection.send(request);
    side.bindings.learn(recorded.session, recorded.method, recordedResponse(har.log.entries[side.next]), answer);
  }
}

/** Drives one lane with `request` for `seconds` over `connections` keep-alive connections. */
async function cannon(lane: Lane, request: ReplayRequest, seconds: number, connections: number): Promise<Run> {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) {
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}${key === 'cookie' ? '; ' : ', '}${value}`;
  }
  const result = await autocannon({
    url: lane.origin + request.path,
    method: request.method as autocannon.Request['method'],
    headers,
    body: request.body,
    connections,
    duration: seconds,
  });
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = count ?? 0;
  return { requests: result.requests.total, seconds: result.duration, statuses, errors: result.errors, timeouts: result.timeouts };
}

/**
 * Measures one target on both sides: replays the recording up to it, warms each side up, then the
 * rounds, alternating which side goes first (baseline, candidate | candidate, baseline | …). Stops
 * after the warm-up when the answers already differ ({@link brokenAnswers}).
 */
async function measureTarget(sides: Side[], har: Har, requests: ReplayRequest[], target: Target, opts: BenchOptions): Promise<Measured> {
  if (target.index >= 0) await Promise.all(sides.map((s) => replayUntil(s, har, requests, target.index)));
  const wire = new Map(sides.map((s) => [s.name, s.bindings.rewrite(target.request).request]));
  const run = (s: Side, seconds: number) => cannon(s.lane, wire.get(s.name)!, seconds, opts.connections);
  const warmUp = { baseline: await run(sides[0], WARM_UP_SECONDS), candidate: await run(sides[1], WARM_UP_SECONDS) };
  const measured: Measured = { target, warmUp, rounds: { baseline: [], candidate: [] } };
  if (brokenAnswers(measured).length) return measured;
  for (let i = 0; i < opts.rounds; i++) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) measured.rounds[s.name].push(await run(s, opts.duration));
    note(`  round ${i + 1}/${opts.rounds}: baseline ${rate(measured.rounds.baseline[i]).toFixed(0)} req/s, candidate ${rate(measured.rounds.candidate[i]).toFixed(0)} req/s`);
  }
  return measured;
}

/** Responses per status code of one side over the warm-up and the rounds. */
function statusesOf(m: Measured, side: Side['name']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const run of [m.warmUp[side], ...m.rounds[side]]) for (const [status, n] of Object.entries(run.statuses)) out[status] = (out[status] ?? 0) + n;
  return out;
}

/**
 * Why the two sides' answers to a route make its benchmark meaningless: a status one side gave
 * and the other did not, a 5xx or 429 on either side, connection errors or timeouts. Empty when none.
 */
function brokenAnswers(m: Measured): string[] {
  const label = `${m.target.route ?? 'no route'} (${m.target.request.method} ${m.target.request.path})`;
  const problems: string[] = [];
  const statuses = { baseline: statusesOf(m, 'baseline'), candidate: statusesOf(m, 'candidate') };
  const shown = (side: Side['name']) => Object.entries(statuses[side]).map(([s, n]) => `${s} ×${n}`).join(', ') || 'no answer';
  for (const [side, other] of [['baseline', 'candidate'], ['candidate', 'baseline']] as const) {
    const only = Object.keys(statuses[side]).filter((s) => !(s in statuses[other]));
    if (only.length) problems.push(`${label}: only the ${side} answers ${only.join(', ')}`);
  }
  for (const side of ['baseline', 'candidate'] as const) {
    const bad = Object.keys(statuses[side]).filter((s) => Number(s) >= 500 || s === '429');
    if (bad.length) problems.push(`${label}: the ${side} answers ${bad.join(', ')}`);
    const runs = [m.warmUp[side], ...m.rounds[side]];
    const errors = runs.reduce((n, r) => n + r.errors, 0);
    const timeouts = runs.reduce((n, r) => n + r.timeouts, 0);
    if (errors || timeouts) problems.push(`${label}: the ${side} had ${errors} connection error(s), ${timeouts} timeout(s)`);
  }
  if (problems.length) problems.push(`${label}: statuses baseline ${shown('baseline')}; candidate ${shown('candidate')}`);
  return problems;
}

/** Requests/second of a run. */
function rate(run: Run): number {
  return run.requests / run.seconds;
}

/** The median (for an even count, the mean of the middle two). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A row from per-round rates (requests/second) of both sides, paired by round (see {@link Row}). */
function rowOf(route: string, request: string, baseline: number[], candidate: number[], statuses: Row['statuses']): Row {
  const ratios = baseline.map((b, i) => candidate[i] / b);
  return { route, request, baseline: median(baseline), candidate: median(candidate), ratio: median(ratios), spread: [Math.min(...ratios), Math.max(...ratios)], statuses };
}

/** Rows per route and overall (each round's requests summed over the routes, over its seconds summed). */
function summarize(measured: Measured[]): { routes: Row[]; overall: Row } {
  const routes = measured.map((m) =>
    rowOf(m.target.route ?? '(no route)', `${m.target.request.method} ${m.target.request.path}`, m.rounds.baseline.map(rate), m.rounds.candidate.map(rate), {
      baseline: statusesOf(m, 'baseline'),
      candidate: statusesOf(m, 'candidate'),
    }),
  );
  const roundsOf = (side: Side['name']) =>
    measured[0].rounds[side].map((_, i) => {
      const runs = measured.map((m) => m.rounds[side][i]);
      return runs.reduce((n, r) => n + r.requests, 0) / runs.reduce((n, r) => n + r.seconds, 0);
    });
  const total = (side: Side['name']) => {
    const out: Record<string, number> = {};
    for (const row of routes) for (const [s, n] of Object.entries(row.statuses[side])) out[s] = (out[s] ?? 0) + n;
    return out;
  };
  const overall = rowOf('overall', `${measured.length} route(s)`, roundsOf('baseline'), roundsOf('candidate'), { baseline: total('baseline'), candidate: total('candidate') });
  return { routes, overall };
}

/** The table: one line per route, then the overall line; rates in requests/second. */
function printTable(rows: Row[], overall: Row): void {
  const cells = (r: Row) => [r.route, r.request, r.baseline.toFixed(0), r.candidate.toFixed(0), `${r.ratio.toFixed(2)}×`, `${r.spread[0].toFixed(2)}–${r.spread[1].toFixed(2)}`, Object.keys(r.statuses.baseline).join(' ')];
  const table = [['route', 'request', 'baseline req/s', 'candidate req/s', 'ratio', 'round ratios', 'statuses'], ...rows.map(cells), cells(overall)];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  const line = (row: string[]) => row.map((cell, c) => (c >= 2 && c <= 5 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ').trimEnd();
  console.log(line(table[0]));
  for (const row of table.slice(1, -1)) console.log(line(row));
  console.log(line(table.at(-1)!.map((cell, c) => (c === 1 ? '' : cell))));
}

async function main(): Promise<number> {
  let opts: BenchOptions;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError || (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS'))) throw e;
    note((e as Error).message);
    return 2;
  }
  const shown = path.relative(ROOT, opts.app);
  const har = readHar(path.join(opts.app, 'recording.har'));
  const requests = toReplayRequests(har);
  const inventory = await analyze({ dir: opts.app });
  const entry = inventory.project.entry;
  if (!entry) {
    note(`${shown}: no entry found (${inventory.project.entrySource})`);
    return 2;
  }
  const targets = chooseTargets(har, inventory, opts.routes);
  if (!targets.length) {
    note(`${shown}: no GET route of recording.har answered 2xx/3xx; name requests with --routes "GET /a,GET /b"`);
    return 2;
  }

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'migrate-bench-serve-'));
  const sides: Side[] = [];
  try {
    const candidateDir = copyApp(opts.app, tmp);
    let stageLines: string[];
    try {
      stageLines = await runStages(candidateDir, opts.stages);
    } catch (e) {
      if (!(e instanceof StageFailure)) throw e;
      note(e.message);
      return 2;
    }
    note(`starting the lanes (${entry}): baseline ${shown}, candidate ${candidateDir}`);
    try {
      for (const [name, dir] of [['baseline', opts.app], ['candidate', candidateDir]] as const) {
        const lane = await startLane({ name, dir, entry });
        sides.push({ name, lane, connection: new LaneConnection(lane.origin), bindings: new LaneBindings(), next: 0 });
      }
    } catch (e) {
      if (!(e instanceof LaneError)) throw e;
      note(e.message);
      return 2;
    }

    const measured: Measured[] = [];
    const broken: string[] = [];
    for (const target of targets) {
      note(`${target.route ?? 'no route'}: ${target.request.method} ${target.request.path}`);
      const m = await measureTarget(sides, har, requests, target, opts);
      const problems = brokenAnswers(m);
      if (problems.length) broken.push(...problems);
      else measured.push(m);
    }
    if (broken.length) {
      console.log(`The sides answer differently (${shown}, after ${opts.stages.join(', ')}); nothing is reported, a benchmark of a broken port is meaningless:`);
      for (const problem of broken) console.log(`  ${problem}`);
      return 1;
    }

    const { routes, overall } = summarize(measured);
    if (opts.json) {
      const about = { app: shown, entry, stages: opts.stages, duration: opts.duration, rounds: opts.rounds, connections: opts.connections, cores: os.availableParallelism() };
      console.log(JSON.stringify({ ...about, routes, overall }, null, 2));
      return 0;
    }
    console.log(`${shown} (${entry}): Express as it is against a copy after ${opts.stages.join(', ')}; ${opts.rounds} round(s) of ${opts.duration} s per side per route, ${opts.connections} connections, after a ${WARM_UP_SECONDS} s warm-up (${os.availableParallelism()} cores, load generated in this process).`);
    for (const line of stageLines) console.log(`  ${line}`);
    console.log(`Medians over the rounds in requests/second; ratio = median of the per-round ratios candidate / baseline (each round runs the two sides back to back), round ratios = their min–max.`);
    console.log();
    printTable(routes, overall);
    return 0;
  } finally {
    await Promise.all(sides.map(async (s) => (await s.connection.close().catch(() => undefined), await s.lane.stop())));
    rmSync(tmp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
