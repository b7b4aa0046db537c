/**
 * `migrate init [dir]`: writes `.migrate/config.json` (entry, baseline, recordings, parity
 * policy) from flags, or from a short dialogue when stdin is a terminal and `--yes` is not given.
 * Every other command reads its defaults from that file. Refuses to overwrite it without --force.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { confirm, input, select } from '@inquirer/prompts';
import type { CommandModule } from 'yargs';
import { detectEntry, readPackageJson } from '../analyzer/project.js';
import { pinRef } from '../verifier/baseline-ref.js';
import { configPath, saveConfig, type MigrateConfig } from '../verifier/config.js';

interface InitArgs {
  dir: string;
  entry?: string;
  baseline?: string;
  recording?: string[];
  parity?: 'client' | 'express';
  yes: boolean;
  force: boolean;
}

/** The yargs command; `setExit` receives the exit code. */
export function initCommand(setExit: (code: number) => void): CommandModule<object, InitArgs> {
  return {
    command: 'init [dir]',
    describe: 'Write .migrate/config.json: entry, baseline, recordings, parity policy',
    builder: (y) =>
      y
        .positional('dir', { type: 'string', default: '.', describe: 'Project root' })
        .option('entry', { type: 'string', describe: 'File that starts the server or exports the app (detected when omitted)' })
        .option('baseline', { type: 'string', describe: 'Git ref (or folder) the migration is compared with, e.g. main; a ref that moves (HEAD, a branch) is pinned to its commit; a folder that exists is written as baseline.dir' })
        .option('recording', { type: 'array', string: true, describe: 'HAR recording to replay (verify replays the first)' })
        .option('parity', { choices: ['client', 'express'] as const, describe: 'client: fail on what clients notice; express: also on framework deltas' })
        .option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'Do not ask; use flags and detected values' })
        .option('force', { type: 'boolean', default: false, describe: 'Overwrite an existing config' })
        .example('$0 init --baseline main --recording .migrate/recordings/app.har --yes', 'Non-interactive set-up') as never,
    handler: async (args) => {
      const root = path.resolve(args.dir);
      const file = configPath(root);
      if (existsSync(file) && !args.force) {
        process.stderr.write(`migrate: ${path.relative(process.cwd(), file)} exists; pass --force to overwrite it\n`);
        setExit(2);
        return;
      }
      const detected = detectEntry(root, readPackageJson(root), args.entry);
      const defaults: MigrateConfig = {
        entry: args.entry ?? detected.entry ?? undefined,
        baseline: args.baseline ? (isFolder(path.resolve(args.baseline)) ? { dir: path.relative(root, path.resolve(args.baseline)) || '.' } : { ref: args.baseline }) : undefined,
        recordings: args.recording,
        parity: args.parity ?? 'client',
      };
      const config = process.stdin.isTTY && !args.yes ? await ask(defaults) : defaults;
      if (!config) {
        process.stderr.write('Nothing written.\n');
        setExit(0);
        return;
      }
      if (config.baseline?.ref) {
        const pinned = pinRef(root, config.baseline.ref);
        config.baseline.ref = pinned.ref;
        if (pinned.pinnedFrom) process.stderr.write(`Baseline ${pinned.pinnedFrom} pinned to commit ${pinned.ref.slice(0, 12)}: ${pinned.pinnedFrom} moves (migrate run --commit moves HEAD), the commit to compare with does not.\n`);
      }
      const written = saveConfig(root, JSON.parse(JSON.stringify(config)) as MigrateConfig);
      process.stderr.write(`Wrote ${path.relative(process.cwd(), written)}\n`);
      for (const warning of checkConfig(root, config)) process.stderr.write(`warning: ${warning}\n`);
      setExit(0);
    },
  };
}

/**
 * The dialogue: one question per field, the flag or detected value as default. Null when the
 * user declines to write, or leaves with Ctrl+C (inquirer's ExitPromptError).
 */
async function ask(defaults: MigrateConfig): Promise<MigrateConfig | null> {
  try {
    return await questions(defaults);
  } catch (e) {
    if ((e as Error).name === 'ExitPromptError') return null;
    throw e;
  }
}

async function questions(defaults: MigrateConfig): Promise<MigrateConfig | null> {
  const entry = await input({ message: 'Entry (the file that starts the server or exports the app):', default: defaults.entry });
  const baseline = await input({ message: 'Baseline git ref to compare with (e.g. main):', default: defaults.baseline?.ref ?? 'main' });
  const recording = await input({ message: 'Recording to replay (HAR; empty if you will record later):', default: defaults.recordings?.[0] ?? '.migrate/recordings/app.har' });
  const parity = await select({
    message: 'Parity policy:',
    default: defaults.parity,
    choices: [
      { value: 'client' as const, name: 'client — fail on what clients can notice; report framework deltas' },
      { value: 'express' as const, name: 'express — also fail on framework deltas (X-Powered-By, ETag, …)' },
    ],
  });
  const ok = await confirm({ message: 'Write .migrate/config.json?', default: true });
  if (!ok) return null;
  return { entry: entry || undefined, baseline: baseline ? { ref: baseline } : undefined, recordings: recording ? [recording] : undefined, parity };
}

/** What `verify` will trip over with this config: no baseline, a ref git does not know, a missing recording. */
function checkConfig(root: string, config: MigrateConfig): string[] {
  const warnings: string[] = [];
  const ref = config.baseline?.ref;
  if (!ref && !config.baseline?.dir) warnings.push('no baseline: `migrate verify` will need --baseline <git-ref|folder> (or run init again with --baseline)');
  if (ref && spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root }).status !== 0) warnings.push(`git does not know the baseline ref "${ref}" here (yet)`);
  for (const r of config.recordings ?? []) if (!existsSync(path.resolve(root, r))) warnings.push(`the recording ${r} does not exist yet: make it with \`migrate record --out ${r}\``);
  return warnings;
}

function isFolder(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}
