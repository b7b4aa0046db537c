/**
 * `migrate run --stage <name> [dir]`: apply one stage of codemods (runner/run.ts) and print the
 * summary (text or JSON) — or, with `--dry`, the unified diff. Refusals exit 2.
 */
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { runStage, RunError, type RunResult } from '../runner/run.js';
import { renderSummary } from '../runner/summary.js';
import { STAGES, type ParityPolicy, type StageName } from '../transforms/model.js';
import { progress, useColor } from './output.js';

interface RunArgs {
  dir: string;
  stage: StageName;
  dry?: boolean;
  check?: boolean;
  'allow-dirty'?: boolean;
  commit?: boolean;
  typecheck?: boolean;
  parity: ParityPolicy;
  only?: string;
  entry?: string;
  app?: string;
  workers?: number;
  install?: boolean;
  format: 'text' | 'json';
  'steps-dir'?: string;
}

/** A yargs coercion accepting whole numbers from 1 up (anything else is a usage error, exit 2). */
function positiveInteger(flag: string): (n: number) => number {
  return (n) => {
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a whole number of 1 or more`);
    return n;
  };
}

/** Options `migrate run` itself declares (with yargs' own keys): every other `--name[=value]` is an option of the stage. */
const OWN = new Set(['_', '$0', 'dir', 'stage', 'dry', 'check', 'allow-dirty', 'allowDirty', 'commit', 'typecheck', 'parity', 'only', 'entry', 'app', 'workers', 'install', 'format', 'steps-dir', 'stepsDir', 'help', 'version']);

/** The stage options given on the command line, by their kebab-case name (yargs' camelCase copies left out). */
function stageOptionsOf(args: Record<string, unknown>): Record<string, boolean | string> {
  const out: Record<string, boolean | string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (OWN.has(key) || /[A-Z]/.test(key)) continue;
    out[key] = typeof value === 'boolean' ? value : String(value);
  }
  return out;
}

/** The yargs command; `setExit` receives the exit code. */
export function runCommand(setExit: (code: number) => void): CommandModule<object, RunArgs> {
  return {
    command: 'run [dir]',
    describe: 'Apply one migration stage (codemods) to the app: --dry shows the diff, --check tells CI whether the stage is done',
    builder: (y) =>
      y
        .positional('dir', { type: 'string', default: '.', describe: 'Folder of the app (or of a monorepo, with --app)' })
        .option('stage', { choices: STAGES, demandOption: true, describe: 'Stage to apply, in this order: shim, errors, routes, plugins, schemas, unshim' })
        .option('dry', { type: 'boolean', describe: 'Print the unified diff of what would be written; write nothing (exit 0)' })
        .option('check', { type: 'boolean', describe: 'Write nothing; exit 1 when the stage would still change a file (for CI)' })
        .option('allow-dirty', { type: 'boolean', describe: 'Run even with uncommitted changes in the app folder (.migrate/ never counts)' })
        .option('commit', { type: 'boolean', describe: 'Commit the changed files as one commit "migrate: stage <name>" (undo: git revert)' })
        .option('typecheck', { type: 'boolean', describe: "Run the project's tsc --noEmit before and after; new errors fail the stage (needs tsconfig.json)" })
        .option('parity', { choices: ['default', 'express'] as const, default: 'default' as const, describe: 'express: also restore pure framework defaults (X-Powered-By, ETag, default 404/500 pages)' })
        .option('only', { type: 'string', describe: 'routes stage: move only the routes of one router file (as analyze prints it) or one route key ("GET /api/notes/:id")' })
        .option('entry', { type: 'string', describe: 'Entry file, relative to the app folder (detected when omitted)' })
        .option('app', { type: 'string', describe: 'Workspace to migrate in a monorepo (package name or folder)' })
        .option('workers', { type: 'number', describe: 'Worker threads for the transforms (default: every core)', coerce: positiveInteger('--workers') })
        .option('install', { type: 'boolean', describe: "Run the project's package manager when dependencies were added" })
        .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Summary format on stdout (json: the whole RunResult)' })
        .option('steps-dir', { type: 'string', hidden: true, describe: 'Folder of the steps (tests only)' })
        // The stage's own options (StepMeta.options, `--keep-log-format`) are the steps' to declare: runStage checks them.
        .strict(false)
        .conflicts('dry', 'check')
        .conflicts('dry', 'commit')
        .conflicts('check', 'commit')
        .example('$0 run --stage shim --dry', 'Show the diff the shim stage would apply to the app in this folder')
        .example('$0 run --stage shim --commit', 'Apply the stage and commit it as one commit')
        .example('$0 run --stage errors --check', 'CI: exit 1 while the errors stage still has work to do') as never,
    handler: async (args) => {
      const stop = progress();
      let result: RunResult;
      try {
        result = await runStage({
          root: path.resolve(args.dir),
          stage: args.stage,
          dry: args.dry,
          check: args.check,
          allowDirty: args['allow-dirty'],
          commit: args.commit,
          typecheck: args.typecheck,
          parity: args.parity,
          only: args.only,
          entry: args.entry,
          app: args.app,
          workers: args.workers,
          install: args.install,
          stageOptions: stageOptionsOf(args),
          stepsDir: args['steps-dir'] && path.resolve(args['steps-dir']),
          onProgress: stop.update,
        });
      } catch (e) {
        stop.done();
        if (!(e instanceof RunError)) throw e;
        process.stderr.write(`migrate run: ${e.message}\n`);
        setExit(2);
        return;
      }
      stop.done();
      if (args.format === 'json') process.stdout.write(JSON.stringify(result, null, 2) + '\n');
      else {
        if (args.dry) process.stdout.write(result.diff);
        const summary = renderSummary(result, { dry: args.dry, check: args.check, color: useColor(args.dry ? process.stderr : process.stdout) });
        // With --dry the diff owns stdout (pipe it to `git apply`); the summary goes to stderr.
        (args.dry ? process.stderr : process.stdout).write(summary);
      }
      setExit(result.exitCode);
    },
  };
}
