/**
 * The processes of one replay: baseline, candidate and (for noise) a second baseline, each a lane
 * (verifier/lane.ts) with a keep-alive connection and its own value bindings and credentials.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { LaneBindings } from './correlate.js';
import { startLane, type Lane, type LaneSpec } from './lane.js';
import { LaneConnection } from './send.js';

/** The verifier could not do its job (a credentials module failed, the baseline stopped answering). Exit code 2. */
export class VerifyError extends Error {}

/** One side of the replay. */
export interface Side {
  name: 'baseline' | 'candidate' | 'noise';
  lane: Lane;
  connection: LaneConnection;
  bindings: LaneBindings;
  /** The app's folder of this side (its lane's working directory), which answers may name (verifier/app-root.ts). */
  root: string;
}

/** What the sides are made from: lane specs, whether a noise lane runs, the credentials module. */
export interface SidesOptions {
  baseline: LaneSpec;
  candidate: LaneSpec;
  noise?: boolean;
  credentials?: string;
  onProgress?: (message: string) => void;
}

/** Starts the lanes (baseline, candidate, noise) in parallel; stops the started ones if one fails. */
export async function startSides(options: SidesOptions): Promise<Side[]> {
  const specs: Array<[Side['name'], LaneSpec]> = [
    ['baseline', options.baseline],
    ['candidate', options.candidate],
  ];
  if (options.noise !== false) specs.push(['noise', { ...options.baseline, name: 'noise' }]);
  options.onProgress?.(`starting ${specs.map(([n]) => n).join(', ')}`);
  const settled = await Promise.allSettled(specs.map(([, spec]) => startLane(spec)));
  // The candidate's failure first: it is the side the user just changed (and named with --entry).
  const failed = [settled[1], settled[0], settled[2]].find((s): s is PromiseRejectedResult => s?.status === 'rejected');
  if (failed) {
    await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
    throw failed.reason;
  }
  const lanes = settled.map((s) => (s as PromiseFulfilledResult<Lane>).value);
  const sides: Side[] = [];
  try {
    for (const [i, lane] of lanes.entries()) {
      const credentials = options.credentials ? await loadCredentials(options.credentials, specs[i][0], lane.origin) : new Map<string, string>();
      sides.push({ name: specs[i][0], lane, connection: new LaneConnection(lane.origin), bindings: new LaneBindings(credentials), root: specs[i][1].dir });
    }
  } catch (e) {
    await Promise.all(lanes.map((l) => l.stop()));
    throw e;
  }
  return sides;
}

/**
 * Loads credentials for one lane from a module whose default export is
 * `({ lane, origin }) => Record<placeholder, value> | Promise<…>` — e.g. it logs in against
 * `origin` and returns `{ '<redacted:authorization:1>': token }`. Called once per lane.
 * @throws Error naming the module when it has no default function or it fails
 */
async function loadCredentials(file: string, lane: string, origin: string): Promise<Map<string, string>> {
  if (!existsSync(file)) throw new VerifyError(`the credentials module ${file} does not exist`);
  const mod = await import(pathToFileURL(file).href).catch((e: Error) => {
    throw new VerifyError(`the credentials module ${file} cannot be loaded: ${e.message}`);
  });
  if (typeof mod.default !== 'function') throw new VerifyError(`${file}: the credentials module must export a default function ({ lane, origin }) => ({ placeholder: value })`);
  try {
    return new Map(Object.entries((await mod.default({ lane, origin })) ?? {}).map(([k, v]) => [k, String(v)]));
  } catch (e) {
    throw new VerifyError(`${file}: credentials for the ${lane} lane failed: ${(e as Error).message}`);
  }
}

/** How a lane's process ended, waiting up to `ms` for the exit to be seen (a reset connection arrives first); null if it runs on. */
export async function exitOf(lane: Lane, ms = 1000): Promise<string | null> {
  for (let waited = 0; waited < ms && !lane.exited(); waited += 50) await new Promise((r) => setTimeout(r, 50));
  return lane.exited();
}
