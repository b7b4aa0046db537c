/** `migrate analyze [dir]`: inventory an Express app, run the rules, and print text, JSON, Markdown, SARIF or HTML. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { AnalyzeError } from '../analyzer/analyze.js';
import type { Inventory } from '../analyzer/model.js';
import { RULES } from '../rules/index.js';
import { RunError } from '../runner/errors.js';
import { analyzeWithReadiness } from '../runner/readiness.js';
import { renderHtml } from '../report/html.js';
import { renderSarif } from '../report/sarif.js';
import { renderText } from '../report/text.js';
import { renderMarkdown } from '../report/markdown.js';
import { writeFileAtomic } from '../verifier/files.js';
import { progress, useColor } from './output.js';

interface AnalyzeArgs {
  dir: string;
  entry?: string;
  app?: string;
  format: 'text' | 'json' | 'markdown' | 'sarif' | 'html';
  out?: string;
  'fail-on'?: FailOn[];
}

type FailOn = 'incomplete' | 'error' | 'warning';

/** The report in `format`; SARIF file URIs are relative to the repository root (`projectDir` is the app's folder in it). */
function render(inventory: Inventory, format: AnalyzeArgs['format'], o: { color: boolean; projectDir: string }): string {
  switch (format) {
    case 'json':
      return JSON.stringify(inventory, null, 2) + '\n';
    case 'markdown':
      return renderMarkdown(inventory);
    case 'sarif':
      return renderSarif(inventory, RULES, { projectDir: o.projectDir });
    case 'html':
      return renderHtml(inventory, RULES);
    default:
      return renderText(inventory, o.color);
  }
}

/** `dir` relative to the root of the git repository holding it (POSIX), or '' outside a repository. */
function repositoryRelative(dir: string): string {
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return path.relative(top, dir).split(path.sep).join('/');
  } catch {
    return '';
  }
}

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
        .option('format', { choices: ['text', 'json', 'markdown', 'sarif', 'html'] as const, default: 'text' as const, describe: 'Report format (sarif: GitHub code scanning; html: one offline file with sortable, filterable tables)' })
        .option('out', { type: 'string', describe: 'Write the report to this file instead of stdout' })
        .option('fail-on', { type: 'array', choices: ['incomplete', 'error', 'warning'] as const, describe: 'Exit 1 when the inventory is incomplete, or when findings at or above that severity exist' })
        .example('$0 analyze fixtures/apps/url-shortener', 'Print the inventory of the bundled example app')
        .example('$0 analyze . --format json --out inv.json', 'Write the JSON inventory with findings and readiness')
        .example('$0 analyze . --format html --out report.html', 'One offline page for the team lead')
        .example('$0 analyze . --format sarif --out migrate.sarif --fail-on error', 'Code scanning in CI; exit 1 on error findings') as never,
    handler: async (args) => {
      const stop = progress();
      try {
        const inventory = await analyzeWithReadiness({ dir: args.dir, entry: args.entry, app: args.app, onProgress: stop.update });
        stop.done();
        const text = render(inventory, args.format, { color: !args.out && useColor(), projectDir: args.app ? '' : repositoryRelative(path.resolve(args.dir)) });
        if (args.out) {
          writeFileAtomic(args.out, text);
          process.stderr.write(`${inventory.summary.headline}\nWrote ${args.format} report to ${args.out}\n`);
        } else process.stdout.write(text);
        setExit(failed(inventory, args['fail-on'] ?? []) ? 1 : 0);
      } catch (e) {
        stop.done();
        if (!(e instanceof AnalyzeError) && !(e instanceof RunError)) throw e;
        process.stderr.write(`migrate analyze: ${e.message}\n`);
        setExit(2);
      }
    },
  };
}
