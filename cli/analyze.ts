/** `migrate analyze [dir]`: inventory an Express app and print it as text, JSON or Markdown. */
import type { CommandModule } from 'yargs';
import { analyze, AnalyzeError } from '../analyzer/analyze.js';
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
  'fail-on'?: 'incomplete';
}

/** The yargs command; `setExit` receives the exit code. */
export function analyzeCommand(setExit: (code: number) => void): CommandModule<object, AnalyzeArgs> {
  return {
    command: 'analyze [dir]',
    describe: 'Inventory the routes, middleware and error handlers of an Express app',
    builder: (y) =>
      y
        .positional('dir', { type: 'string', default: '.', describe: 'Folder of the app (or of a monorepo, with --app)' })
        .option('entry', { type: 'string', describe: 'Entry file, relative to the app folder (detected when omitted)' })
        .option('app', { type: 'string', describe: 'Workspace to analyse in a monorepo (package name or folder)' })
        .option('format', { choices: ['text', 'json', 'markdown'] as const, default: 'text' as const, describe: 'Report format' })
        .option('out', { type: 'string', describe: 'Write the report to this file instead of stdout' })
        .option('fail-on', { choices: ['incomplete'] as const, describe: 'Exit 1 when the inventory is incomplete' })
        .example('$0 analyze fixtures/apps/url-shortener', 'Print the inventory of the bundled example app')
        .example('$0 analyze . --format json --out inv.json', 'Write the JSON inventory') as never,
    handler: async (args) => {
      const stop = progress();
      try {
        const inventory = await analyze({ dir: args.dir, entry: args.entry, app: args.app, onProgress: stop.update });
        stop.done();
        const text = args.format === 'json' ? JSON.stringify(inventory, null, 2) + '\n' : args.format === 'markdown' ? renderMarkdown(inventory) : renderText(inventory, !args.out && useColor());
        if (args.out) {
          writeFileAtomic(args.out, text);
          process.stderr.write(`${inventory.summary.headline}\nWrote ${args.format} report to ${args.out}\n`);
        } else process.stdout.write(text);
        setExit(args['fail-on'] === 'incomplete' && !inventory.summary.complete ? 1 : 0);
      } catch (e) {
        stop.done();
        if (!(e instanceof AnalyzeError)) throw e;
        process.stderr.write(`migrate analyze: ${e.message}\n`);
        setExit(2);
      }
    },
  };
}
