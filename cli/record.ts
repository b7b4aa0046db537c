/**
 * `migrate record [dir] --entry <file>`: record the app's traffic into a HAR file (redacted), and
 * `migrate record --from-har <browser.har>`: import a browser export instead. Progress, warnings
 * and the summary go to stderr. Exit 0 done; 1 recorded, but the `--run` command failed; 2 the
 * app could not start, the HAR could not be read, or bad arguments.
 */
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { detectEntry, readPackageJson } from '../analyzer/project.js';
import { plural } from '../report/shared.js';
import { loadConfig } from '../verifier/config.js';
import { toolVersion } from '../analyzer/version.js';
import { HarError, writeHar } from '../verifier/har.js';
import { importHarFile } from '../verifier/import-har.js';
import { LaneError } from '../verifier/lane.js';
import { defaultRecordingPath, record, RecordError } from '../verifier/record.js';
import type { RedactOptions } from '../verifier/redact.js';

interface RecordArgs {
  dir: string;
  entry?: string;
  out?: string;
  port?: number;
  run?: string;
  redact: boolean;
  'redact-header'?: string[];
  'redact-field'?: string[];
  'env-file'?: string;
  'from-har'?: string;
  origin?: string;
}

/** The yargs command; `setExit` receives the exit code. */
export function recordCommand(setExit: (code: number) => void): CommandModule<object, RecordArgs> {
  return {
    command: 'record [dir]',
    describe: 'Record the app’s traffic (or import a browser HAR) as a redacted HAR for `migrate verify`',
    builder: (y) =>
      y
        .positional('dir', { type: 'string', default: '.', describe: 'Folder of the app' })
        .option('entry', { type: 'string', describe: 'Module to run, relative to the app folder [config: entry; detected from the start script]' })
        .option('out', { type: 'string', describe: 'HAR file to write (default: <dir>/.migrate/recordings/<timestamp>.har)' })
        .option('port', { type: 'number', describe: 'Port for the app on 127.0.0.1 (default: a free one)' })
        .option('run', { type: 'string', describe: 'Command that sends the traffic (MIGRATE_RECORD_URL is the app’s URL); recording stops when it exits' })
        .option('redact', { type: 'boolean', default: true, describe: 'Replace secrets with stable placeholders (--no-redact keeps them)' })
        .option('redact-header', { type: 'string', array: true, describe: 'Another header whose value is secret (repeatable)' })
        .option('redact-field', { type: 'string', array: true, describe: 'Another body or query field that is secret (repeatable)' })
        .option('env-file', { type: 'string', describe: 'dotenv file for the app, relative to the app folder' })
        .option('from-har', { type: 'string', describe: 'Import this browser HAR export instead of running the app' })
        .option('origin', { type: 'string', describe: 'With --from-har: the origin to keep (default: the most frequent)' })
        .check((a) => {
          if (a['from-har'] && (a.entry || a.run)) throw new Error('--from-har imports a file; it cannot be combined with --entry or --run.');
          if (a.origin && !a['from-har']) throw new Error('--origin only applies with --from-har.');
          return true;
        })
        .example('$0 record fixtures/apps/modern-e5 --entry src/app.js --out rec.har --run "node traffic.mjs"', 'Record what a script sends')
        .example('$0 record . --entry src/server.js', 'Record until Ctrl-C; send requests to the printed URL')
        .example('$0 record --from-har session.har --out rec.har --origin http://localhost:3000', 'Import a browser export') as never,
    handler: async (args) => {
      const redact: RedactOptions = { enabled: args.redact, headers: args['redact-header'], fields: args['redact-field'] };
      const say = (line: string) => process.stderr.write(`${line}\n`);
      try {
        if (args['from-har']) {
          const imported = importHarFile(args['from-har'], { origin: args.origin, redact, creator: { name: 'migrate record --from-har', version: toolVersion() } });
          const out = path.resolve(args.out ?? defaultRecordingPath(args.dir));
          writeHar(out, imported.har);
          for (const w of imported.warnings) say(`warning: ${w}`);
          say(`Imported ${plural(imported.har.log.entries.length, 'exchange')} with ${imported.origin}, ${plural(imported.redactions, 'redaction')} → ${out}`);
          setExit(0);
          return;
        }
        const controller = new AbortController();
        const onSigint = () => {
          if (controller.signal.aborted) {
            // A second Ctrl-C: give up at once.
            process.off('SIGINT', onSigint);
            process.kill(process.pid, 'SIGINT');
            return;
          }
          say('Stopping…');
          controller.abort();
        };
        process.on('SIGINT', onSigint);
        const root = path.resolve(args.dir);
        const entry = args.entry ?? loadConfig(root).entry ?? detectEntry(root, readPackageJson(root)).entry;
        if (!entry) {
          say(`migrate record: no entry found in ${args.dir}: pass --entry <file> (the module that starts the server or exports the app)`);
          setExit(2);
          return;
        }
        try {
          const result = await record({
            dir: args.dir,
            entry,
            out: args.out,
            port: args.port,
            run: args.run,
            signal: controller.signal,
            redact,
            envFile: args['env-file'],
            log: say,
          });
          for (const w of result.warnings) say(`warning: ${w}`);
          say(`Recorded ${plural(result.entries, 'exchange')}, ${plural(result.redactions, 'redaction')} → ${result.out}`);
          if (!result.entries) say('Nothing was recorded: no request reached the app. Exercise it (or give --run a command that does) before stopping.');
          // Exit 1 (a human should look) when nothing was recorded or the --run command failed.
          setExit(!result.entries || (result.runExitCode !== undefined && result.runExitCode !== 0) ? 1 : 0);
        } finally {
          process.off('SIGINT', onSigint);
        }
      } catch (e) {
        if (!(e instanceof LaneError || e instanceof HarError || e instanceof RecordError)) throw e;
        say(`migrate record: ${e.message}`);
        setExit(2);
      }
    },
  };
}
