/**
 * The `migrate verify` command that checks a written stage, for the summary's "Next": plain
 * `migrate verify` when `.migrate/config.json` (written by `migrate init`) gives the baseline and
 * a recording, else with `--baseline` (the commit before the stage: `HEAD~1` after `--commit`,
 * `HEAD` while the stage is uncommitted) and `--recording` (the config's, else the newest
 * `.migrate/recordings/*.har`, else a placeholder to record first) — so the command works
 * without `init` (cli/verify.ts, verifier/setup.ts).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, MIGRATE_DIR, type MigrateConfig } from '../verifier/config.js';
import type { VerifyHint } from './model.js';

/** Where the stage's changes are, for the baseline to compare with. */
export interface StageState {
  /** The folder is in a git repository. */
  repo: boolean;
  /** The stage was committed (`--commit`). */
  committed: boolean;
}

/** Placeholder of the recording when the project has none yet. */
export const RECORDING_PLACEHOLDER = '<recording.har>';

/**
 * The verify command for the app in `root` (absolute), relative to `cwd` (the folder argument
 * and the recording's path are written from there).
 */
export function verifyHint(root: string, state: StageState, cwd: string = process.cwd()): VerifyHint {
  const config = readConfig(root);
  const configuredBaseline = Boolean(config.baseline?.ref || config.baseline?.dir);
  const configuredRecording = Boolean(config.recordings?.length);
  const args = ['migrate', 'verify'];
  const dir = path.relative(cwd, root);
  if (dir) args.push(quote(dir));
  if (!configuredBaseline) args.push('--baseline', state.committed ? 'HEAD~1' : state.repo ? 'HEAD' : '<copy-of-the-app-before-the-stage>');
  let needsRecording = false;
  if (!configuredRecording) {
    const recorded = newestRecording(root);
    needsRecording = recorded === null;
    args.push('--recording', recorded ? quote(path.relative(cwd, recorded)) : RECORDING_PLACEHOLDER);
  }
  return { command: args.join(' '), configured: configuredBaseline && configuredRecording, needsRecording };
}

function readConfig(root: string): MigrateConfig {
  try {
    return loadConfig(root);
  } catch {
    // An invalid config is reported by the commands that use it; here it only means "not set up".
    return {};
  }
}

/** The newest HAR under `.migrate/recordings/` (`migrate record` names them by timestamp), absolute; null when none. */
function newestRecording(root: string): string | null {
  const dir = path.join(root, MIGRATE_DIR, 'recordings');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.har'));
  } catch {
    return null;
  }
  const newest = names.sort().at(-1);
  return newest ? path.join(dir, newest) : null;
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
