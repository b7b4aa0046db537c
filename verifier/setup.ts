/**
 * Turns what the user asked for (flags over `.migrate/config.json`) into a ready replay: the
 * baseline prepared (worktree or folder), both lane specs, the recording, rules, accepted
 * differences and the baseline inventory for coverage. The CLI only parses flags and prints.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../analyzer/analyze.js';
import type { Inventory } from '../analyzer/model.js';
import { detectEntry, readPackageJson } from '../analyzer/project.js';
import { AcceptedDifferences } from './accepted.js';
import { prepareBaseline } from './baseline.js';
import { baselineIsCandidate, type SelfBaseline } from './baseline-ref.js';
import { loadConfig, MIGRATE_DIR, type MigrateConfig } from './config.js';
import { readHar } from './har.js';
import type { LaneSpec } from './lane.js';
import { loadVerifyRules } from './verify-rules.js';
import type { VerifyOptions } from './verify.js';

/**
 * What the user asked for; unset fields come from `.migrate/config.json`. Paths given here are
 * relative to the working directory (they come from flags), except entries, which are relative to
 * their app's folder; paths in the config file are relative to `dir`.
 */
export interface VerifyRequest {
  /** The candidate app's root (the working tree). */
  dir: string;
  /** A git ref or a folder. */
  baseline?: string;
  recording?: string;
  entry?: string;
  baselineEntry?: string;
  rules?: string;
  envFile?: string;
  baselineEnvFile?: string;
  setup?: string;
  baselineSetup?: string;
  credentials?: string;
  noise?: boolean;
  startTimeoutMs?: number;
  onProgress?: (message: string) => void;
}

/** A prepared replay; call `cleanup` when done (removes the baseline worktree). */
export interface PreparedVerify {
  options: VerifyOptions;
  config: MigrateConfig;
  /** Where the tool keeps its files for this project (`<dir>/.migrate`). */
  stateDir: string;
  cleanup(): Promise<void>;
}

/** The user's input is incomplete or points nowhere; exit code 2 with this message. */
export class VerifySetupError extends Error {}

/**
 * Prepares a replay.
 * @throws VerifySetupError when no baseline or recording is given (by flag or config), no entry
 *   can be found, or the baseline ref is the working tree's own commit with nothing uncommitted; BaselineError, HarError or a rules error from the modules that load them
 */
export async function prepareVerify(req: VerifyRequest): Promise<PreparedVerify> {
  const dir = path.resolve(req.dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new VerifySetupError(`${req.dir} is not a folder: give the candidate app's folder (default: the current one)`);
  const config = loadConfig(dir);
  /** A flag's path (relative to the working directory), else the config's (relative to `dir`). */
  const pick = (flag: string | undefined, configured: string | undefined) => (flag !== undefined ? path.resolve(flag) : configured !== undefined ? path.resolve(dir, configured) : undefined);
  const baselineArg = req.baseline ?? config.baseline?.ref ?? config.baseline?.dir;
  if (!baselineArg) throw new VerifySetupError('no baseline: pass --baseline <git-ref|folder> or run `migrate init`');
  const recordingArg = req.recording ?? config.recordings?.[0];
  if (!recordingArg) throw new VerifySetupError('no recording: pass --recording <file.har> (make one with `migrate record`) or run `migrate init`');
  const entry = req.entry ?? config.candidate?.entry ?? config.entry ?? detectEntry(dir, readPackageJson(dir)).entry;
  if (!entry) throw new VerifySetupError(`no entry found in ${dir}: pass --entry <file> (the file that starts the server or exports the app)`);
  const recordingFile = pick(req.recording, config.recordings?.[0])!;
  const ignoredRecordings = req.recording ? [] : (config.recordings ?? []).slice(1);
  if (!existsSync(recordingFile)) throw new VerifySetupError(`the recording ${recordingArg} does not exist: make it with \`migrate record --out ${recordingArg}\``);
  const har = readHar(recordingFile);
  if (!har.log.entries.length) throw new VerifySetupError(`the recording ${recordingArg} has no requests: nothing to replay`);
  const rulesFile = pick(req.rules, config.rules);
  // The default rules file is optional; one the user named must exist.
  if (rulesFile && !existsSync(rulesFile)) throw new VerifySetupError(`the rules file ${req.rules ?? config.rules} does not exist`);
  const rules = loadVerifyRules(rulesFile ?? path.join(dir, MIGRATE_DIR, 'verify.json'));
  const accepted = AcceptedDifferences.load(path.join(dir, MIGRATE_DIR, 'verify', 'accepted.json'));

  const baselinePath = req.baseline !== undefined ? path.resolve(req.baseline) : path.resolve(dir, baselineArg);
  const asDir = config.baseline?.dir === baselineArg || (existsSync(baselinePath) && statSync(baselinePath).isDirectory());
  const self = asDir ? undefined : baselineIsCandidate(dir, baselineArg);
  if (self) throw new VerifySetupError(selfBaselineMessage(baselineArg, self, req.baseline === undefined));
  req.onProgress?.(asDir ? `baseline: folder ${baselineArg}` : `baseline: checking out ${baselineArg}`);
  const baseline = await prepareBaseline({
    repoRoot: asDir ? dir : gitRoot(dir, baselineArg),
    appDir: dir,
    ...(asDir ? { dir: baselinePath } : { ref: baselineArg }),
    cacheDir: path.join(dir, MIGRATE_DIR, 'cache'),
    copyIgnored: config.baseline?.copyIgnored,
  }).catch((e: Error & { code?: string }) => {
    throw e.code === 'BASELINE_NO_REF' ? new VerifySetupError(`${e.message}; and there is no folder ${baselinePath} either`) : e;
  });
  const baselineEntry = req.baselineEntry ?? config.baseline?.entry ?? entry;
  const lane = (name: string, appDir: string, laneEntry: string, envFile: string | undefined, setup: string | undefined): LaneSpec => ({
    name,
    dir: appDir,
    entry: laneEntry,
    envFile,
    setup,
    startTimeoutMs: req.startTimeoutMs,
  });
  const notes = [...baseline.notes];
  if (ignoredRecordings.length) notes.push(`only the first recording of .migrate/config.json is replayed; not ${ignoredRecordings.join(', ')} (pass one with --recording)`);
  const inventory = await analyzeForCoverage(baseline.appDir, baselineEntry, notes);
  const options: VerifyOptions = {
    baseline: lane('baseline', baseline.appDir, baselineEntry, pick(req.baselineEnvFile, config.baseline?.envFile), req.baselineSetup ?? config.baseline?.setup),
    candidate: lane('candidate', dir, entry, pick(req.envFile, config.candidate?.envFile), req.setup ?? config.candidate?.setup),
    har,
    labels: { baseline: baselineArg, candidate: path.relative(process.cwd(), dir) || '.', recording: recordingArg },
    rules,
    accepted,
    inventory,
    noise: req.noise,
    credentials: pick(req.credentials, config.credentials),
    notes,
    fastifyVersion: installedFastify(dir),
    onProgress: req.onProgress,
  };
  return { options, config, stateDir: path.join(dir, MIGRATE_DIR), cleanup: () => baseline.cleanup() };
}

/** Why a baseline that is the working tree is refused, and the ref to give instead. */
function selfBaselineMessage(ref: string, self: SelfBaseline, fromConfig: boolean): string {
  const where = fromConfig ? ' (baseline.ref in .migrate/config.json)' : '';
  const instead = self.beforeMigration
    ? `compare with the commit before the migration: --baseline ${self.beforeMigration.slice(0, 12)} (the parent of the first "migrate: stage" commit)`
    : 'name the commit before the change (after `migrate run --commit`: --baseline HEAD~1)';
  return `the baseline ${ref}${where} is ${self.commit.slice(0, 12)}, the commit the working tree is at, and nothing is uncommitted: verify would compare the app with itself and pass; ${instead}`;
}

function gitRoot(dir: string, ref: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    throw new VerifySetupError(`the baseline ${ref} is not a folder, and ${dir} is not inside a git repository where it could be a ref: pass --baseline <folder> or <git-ref>`);
  }
}

/**
 * The baseline's inventory for coverage. The lane entry may be a module that only exports a
 * factory, where the analyzer sees no app; then the entry the analyzer detects (the start
 * script) is tried, and when no route is found at all the notes say so.
 */
async function analyzeForCoverage(appDir: string, entry: string, notes: string[]): Promise<Inventory | undefined> {
  const attempt = (e?: string) => analyze({ dir: appDir, entry: e }).catch((err: Error) => (notes.push(`coverage: the baseline could not be analysed from ${e ?? 'its detected entry'} (${err.message})`), undefined));
  const first = await attempt(entry);
  if (first?.routes.length) return first;
  const detected = detectEntry(appDir, readPackageJson(appDir)).entry;
  const second = detected && detected !== entry ? await attempt(detected) : undefined;
  if (second?.routes.length) return second;
  notes.push(`coverage unavailable: no route found by analysing the baseline from ${entry}${detected && detected !== entry ? ` or ${detected}` : ''}`);
  return undefined;
}

/** The Fastify version installed for the app at `dir` (resolved as the app would), or null. */
function installedFastify(dir: string): string | null {
  try {
    const file = createRequire(path.join(dir, 'package.json')).resolve('fastify/package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}
