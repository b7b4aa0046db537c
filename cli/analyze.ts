/** `migrate analyze [dir]`: inventory an Express app and print it as text, JSON or Markdown. */
import type { CommandModule } from 'yargs';
import { analyze, AnalyzeError } from '../analyzer/analyze.js';
import type { Inventory } from '../analyzer/model.js';
import { runRules } from '../rules/index.js';
import { renderText } from '../report/text.js';
import { renderMarkdown } from '../report/markdown.js';
import { writeFileAtomic } from '../verifier/files.js';
import { progress, useColor } from './output.js';

interface AnalyzeArgs {
  dir: string;
  entry?: string;
  app?: string;
  format: 'text' | 'json' | 'markdown';
  out?: string;
  'fail-on'?: FailOn[];
}

type FailOn = 'incomplete' | 'error' | 'warning';

/** Whether `--fail-on` conditions hold: an incomplete inventory, or findings at or above a severity. */
function failed(inventory: Inventory, failOn: FailOn[]): boolean {
  const findings = inventory.findings ?? [];
  return (
    (failOn.includes('incomplete') && !inventory.summary.complete) ||
    (failOn.includes('error') && findings.some((f) => f.severity === 'error')) ||
    (failOn.includes('warning') && findings.some((f) => f.severity !== 'info'))
  );
}

/** The yargs command; `setExit` receives the exit code. */
export function analyzeCommand(setExit: (code: number) => void): CommandModule<object, AnalyzeArgs> {
  return {
    command: 'analyze [dir]',
    describe: 'Inventory an Express app and say what each part needs to become Fastify (findings, readiness, stage plan)',
    builder: (y) =>
      y
        .positional('dir', { type: 'string', default: '.', describe: 'Folder of the app (or of a monorepo, with --app)' })
        .option('entry', { type: 'string', describe: 'Entry file, relative to the app folder (detected when omitted)' })
        .option('app', { type: 'string', describe: 'Workspace to analyse in a monorepo (package name or folder)' })
        .option('format', { choices: ['text', 'json', 'markdown'] as const, default: 'text' as const, describe: 'Report format' })
        .option('out', { type: 'string', describe: 'Write the report to this file instead of stdout' })
        .option('fail-on', { type: 'array', choices: ['incomplete', 'error', 'warning'] as const, describe: 'Exit 1 when the inventory is incomplete, or when findings at or above that severity exist' })
        .example('$0 analyze fixtures/apps/url-shortener', 'Print the inventory of the bundled example app')
        .example('$0 analyze . --format json --out inv.json', 'Write the JSON inventory') as never,
    handler: async (args) => {
      const stop = progress();
      try {
        const inventory = runRules(await analyze({ dir: args.dir, entry: args.entry, app: args.app, onProgress: stop.update }));
        stop.done();
        const text = args.format === 'json' ? JSON.stringify(inventory, null, 2) + '\n' : args.format === 'markdown' ? renderMarkdown(inventory) : renderText(inventory, !args.out && useColor());
        if (args.out) {
          writeFileAtomic(args.out, text);
          process.stderr.write(`${inventory.summary.headline}\nWrote ${args.format} report to ${args.out}\n`);
        } else process.stdout.write(text);
        setExit(failed(inventory, args['fail-on'] ?? []) ? 1 : 0);
      } catch (e) {
        stop.done();
        if (!(e instanceof AnalyzeError)) throw e;
        process.stderr.write(`migrate analyze: ${e.message}\n`);
        setExit(2);
      }
    },
  };
}
