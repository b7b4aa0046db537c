/**
 * Verifier replay rate relative to sending: `verify()` replaying N requests into its three lanes
 * (baseline, candidate, noise) against a bare loop that sends exactly the same requests to three
 * lanes of the same app and does nothing else (no rewriting, canonicalising, diffing, noise
 * model). Both are measured in this run (the machines are shared and noisy, so only the ratio is
 * meaningful; target ≥ 0.7). Also samples the process's memory after a full GC every 10,000
 * requests (every N/10 below 50,000) during the verifier run, to show it stays flat (verify keeps
 * only non-passing exchanges and counts passes); the bare loop is sampled at the same points.
 *
 * The requests cycle the GET/HEAD entries of fixtures/apps/modern-e5/recording.har, so the apps'
 * state does not grow, and all six lanes run that app (src/app.js). verify() starts its own three
 * lanes; the bare loop runs on three lanes started the same way (startLane, same specs). To damp
 * drift in machine load, the bare loop's N requests are sent in two halves, one before and one
 * after the verifier run.
 *
 * Run: `npx tsx bench/verify.ts` (N = 100000), or `npx tsx bench/verify.ts --requests 5000` to try.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { analyze } from '../analyzer/analyze.js';
import { LaneBindings } from '../verifier/correlate.js';
import { readHar, toReplayRequests } from '../verifier/har.js';
import { startLane, type Lane, type LaneSpec } from '../verifier/lane.js';
import type { Har, ReplayRequest } from '../verifier/model.js';
import { LaneConnection } from '../verifier/send.js';
import { parseVerifyRules } from '../verifier/verify-rules.js';
import { verify } from '../verifier/verify.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const APP = path.join(ROOT, 'fixtures/apps/modern-e5');
const ENTRY = 'src/app.js';
const MB = 1024 * 1024;
/** Growth (heapUsed and rss, after a full GC) from the 2 × INTERVAL sample to the last that still counts as flat. */
const FLAT_MB = 5;

const N = requestsArg();
/** Every 10,000 requests for a full run; ten samples for a short one. */
const INTERVAL = N >= 50_000 ? 10_000 : Math.max(100, Math.floor(N / 10));

/** A full garbage collection, so the samples show what is retained rather than when the GC last ran. */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

interface Sample {
  done: number;
  rss: number;
  heapUsed: number;
}

function sample(into: Sample[], done: number): void {
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  into.push({ done, rss, heapUsed });
}

const note = (s: string) => process.stderr.write(`${s}\n`);

// The recording's safe entries, cycled into a synthetic recording of N entries.
const recording = readHar(path.join(APP, 'recording.har'));
const safe = recording.log.entries.filter((e) => e.request.method === 'GET' || e.request.method === 'HEAD');
const har: Har = { log: { ...recording.log, entries: Array.from({ length: N }, (_, i) => safe[i % safe.length]) } };
// What verify() puts on the wire for each distinct request: its per-lane rewrite with no bindings
// yet, which only drops hop-by-hop headers (the recording says `Connection: close`). It stays so
// for the whole run as long as no answer sets a cookie or a Location (checked below), since only
// those create bindings for GET/HEAD. Computed once here, outside the timed loop; request i of
// the run is wire[i % wire.length].
const wire: ReplayRequest[] = toReplayRequests({ log: { ...recording.log, entries: safe } }).map((r) => new LaneBindings().rewrite(r).request);
// The CLI hands verify() the baseline's inventory (route attribution and coverage per request).
const inventory = await analyze({ dir: APP, entry: ENTRY });
const spec = (name: string): LaneSpec => ({ name, dir: APP, entry: ENTRY });

note(`starting the bare loop's lanes (baseline, candidate, noise: ${path.relative(ROOT, APP)}/${ENTRY})`);
const lanes: Lane[] = await Promise.all(['baseline', 'candidate', 'noise'].map((n) => startLane(spec(n))));
const connections = lanes.map((l) => new LaneConnection(l.origin));

const bareMemory: Sample[] = [];
const verifyMemory: Sample[] = [];
/** The bare loop sends requests [0, half) before the verifier run and [half, N) after it. */
const half = Math.floor(N / 2);
const bareHalvesMs: number[] = [];
let verifyMs = 0;
/** CPU time of this process (user + system, µs) spent in each loop, for where the verifier's cost goes. */
let bareCpu = 0;
let verifyCpu = 0;
let verdict: Awaited<ReturnType<typeof verify>>;
try {
  // Sanity check (untimed, one request each): nothing the bare loop sends may set a cookie or a
  // Location, else verify()'s requests would drift from `wire` during the run.
  for (const r of wire) {
    for (const answer of await Promise.all(connections.map((c) => c.send(r)))) {
      const binding = answer.headers.find(([k]) => /^(set-cookie|location)$/i.test(k));
      if (binding) throw new Error(`${r.method} ${r.path} answers with ${binding[0]}: the bare loop would not send what verify() sends`);
    }
  }

  /**
   * Sends requests [from, to), one after the other, in the verifier's order: baseline and
   * candidate at once, then the noise lane (its answer must come later, see verify.ts); nothing else.
   */
  const bare = async (from: number, to: number): Promise<number> => {
    if (from === 0) sample(bareMemory, 0);
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    for (let i = from; i < to; i++) {
      if (i > 0 && i % INTERVAL === 0) sample(bareMemory, i); // same pauses as in the verifier run
      const request = wire[i % wire.length];
      await Promise.all([connections[0].send(request), connections[1].send(request)]);
      await connections[2].send(request);
    }
    const ms = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    bareCpu += used.user + used.system;
    return ms;
  };

  note(`bare loop: requests 1–${half}`);
  bareHalvesMs.push(await bare(0, half));

  note(`verify(): ${N} requests (it starts and stops its own three lanes)`);
  let started = 0;
  let first = 0;
  let last = 0;
  let cpu = process.cpuUsage();
  verdict = await verify({
    baseline: spec('baseline'),
    candidate: spec('candidate'),
    har,
    labels: { baseline: 'modern-e5', candidate: 'modern-e5', recording: `modern-e5/recording.har (GET/HEAD cycled to ${N})` },
    rules: parseVerifyRules({ rules: [] }, 'bench'),
    inventory,
    // Called before each request is replayed; `done` requests are finished at that point.
    onProgress: (message) => {
      if (!message.startsWith('replaying ')) return;
      const done = started++;
      if (done === 0) {
        sample(verifyMemory, 0); // after verify()'s set-up, before the clock starts
        cpu = process.cpuUsage();
        first = performance.now();
      } else if (done % INTERVAL === 0) sample(verifyMemory, done);
      if (done === N - 1) {
        last = performance.now();
        const used = process.cpuUsage(cpu);
        verifyCpu = used.user + used.system;
        if (done % INTERVAL !== 0) sample(verifyMemory, done);
      }
    },
  });
  verifyMs = last - first;

  note(`bare loop: requests ${half + 1}–${N}`);
  bareHalvesMs.push(await bare(half, N));
} finally {
  await Promise.all(lanes.map(async (l, i) => (await connections[i].close().catch(() => undefined), await l.stop())));
}

const bareRate = N / ((bareHalvesMs[0] + bareHalvesMs[1]) / 1000);
// From the start of request 1 to the start of request N: N − 1 replays, without lane start-up,
// the set-up before the loop, the verdict after it and stopping the lanes.
const verifyRate = (N - 1) / (verifyMs / 1000);
const t = verdict.totals;

console.log(`Bare loop: the same ${N} requests (the GET/HEAD entries of modern-e5's recording, cycled, as verify() sends them) to three lanes of the same app in the verifier's order (baseline and candidate at once, then the noise lane), nothing else; half before and half after the verifier run, on lanes started once with startLane.`);
console.log(`Verifier: verify() with its own three lanes (baseline, candidate, noise; same app, same specs), empty rules, the baseline inventory; timed from the start of request 1 to the start of request ${N}, lane start-up and shutdown left out (whole call: ${(verdict.durationMs / 1000).toFixed(1)} s).`);
const outcomes = (['pass', 'noise', 'accepted', 'delta', 'regression', 'unverified'] as const).filter((o) => o === 'pass' || t[o]).map((o) => `${t[o]} ${o}`);
console.log(`Verdict: ${t.requests} requests: ${outcomes.join(', ')}; ${verdict.exchanges.length} non-passing exchanges stored${verdict.truncated ? ' (more counted, not stored)' : ''}.`);
console.log();
console.log(['requests', 'bare req/s', 'verify req/s', 'verify / bare'].join('\t'));
console.log([N, bareRate.toFixed(0), verifyRate.toFixed(0), `${(verifyRate / bareRate).toFixed(2)} (target ≥ 0.7)`].join('\t'));
const halfRates = [half / (bareHalvesMs[0] / 1000), (N - half) / (bareHalvesMs[1] / 1000)];
console.log(`Bare loop before / after the verifier: ${halfRates.map((r) => r.toFixed(0)).join(' / ')} req/s (how much the machine drifted).`);
console.log(`CPU of this process per request (the lanes' CPU not counted): bare ${(bareCpu / N).toFixed(0)} µs, verify ${(verifyCpu / (N - 1)).toFixed(0)} µs.`);
console.log();
console.log(`Memory of this process after a full GC, every ${INTERVAL} requests (0: before the first request; for verify() after its set-up; the last sample is taken before the last request):`);
console.log(['requests', 'verify rss MB', 'verify heapUsed MB', 'bare rss MB', 'bare heapUsed MB'].join('\t'));
const mb = (n: number | undefined) => (n === undefined ? '' : (n / MB).toFixed(1));
for (const s of verifyMemory) {
  const b = bareMemory.find((x) => x.done === s.done);
  console.log([s.done, mb(s.rss), mb(s.heapUsed), mb(b?.rss), mb(b?.heapUsed)].join('\t'));
}
const from = verifyMemory.find((s) => s.done === 2 * INTERVAL) ?? verifyMemory[0];
const to = verifyMemory.at(-1)!;
const heapGrowth = (to.heapUsed - from.heapUsed) / MB;
const rssGrowth = (to.rss - from.rss) / MB;
console.log(`Growth from ${from.done} to ${to.done} requests: heapUsed ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MB, rss ${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(1)} MB → ${heapGrowth < FLAT_MB && rssGrowth < FLAT_MB ? 'flat' : 'NOT flat'} (flat: both under ${FLAT_MB} MB).`);

function requestsArg(): number {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === '--requests' || a.startsWith('--requests='));
  if (i < 0) return 100_000;
  const value = args[i].includes('=') ? args[i].split('=')[1] : args[i + 1];
  const n = Number(value);
  if (!Number.isInteger(n) || n < 2) throw new Error(`--requests needs a whole number of at least 2, got ${JSON.stringify(value)}`);
  return n;
}
