/**
 * `migrate verify [dir]`: replay a recording against the baseline and the candidate and report
 * regressions. Exit codes (DESIGN.md): 0 no regressions; 1 regressions or what `--fail-on`
 * names; 2 the verifier failed (bad arguments, a lane that cannot boot, a bad recording).
 */
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { markAccepted } from '../verifier/accepted.js';
import { gateOf, type FailOn } from '../verifier/gate.js';
import { writeFileAtomic } from '../verifier/files.js';
import { renderVerifyJunit } from '../verifier/report-junit.js';
import { renderVerifyMarkdown } from '../verifier/report-markdown.js';
import { renderVerifyText } from '../verifier/report-text.js';
import { prepareVerify } from '../verifier/setup.js';
import { verify } from '../verifier/verify.js';
import { progress, useColor } from './output.js';

interface VerifyArgs {
  dir: string;
  baseline?: string;
  recording?: string;
  entry?: string;
  'baseline-entry'?: string;
  rules?: string;
  format: 'text' | 'json' | 'markdown';
  out?: string;
  junit?: string;
  'fail-on'?: FailOn[];
  noise: boolean;
  credentials?: string;
  'env-file'?: string;
  'baseline-env-file'?: string;
  setup?: string;
  'baseline-setup'?: string;
  accept?: string;
  'accept-only'?: string[];
  'start-timeout': number;
}

/** The yargs command; `setExit` receives the exit code. */
export function verifyCommand(setExit: (code: number) => void): CommandModule<object, VerifyArgs> {
  return {
    command: 'verify [dir]',
    describe: 'Replay a recording against the baseline and the migrated app, and report what changed',
    builder: (y) =>
      y
        .positional('dir', { type: 'string', default: '.', describe: 'The candidate app (the working tree)' })
        .option('baseline', { type: 'string', describe: 'Git ref or folder of the baseline app [config: baseline.ref|dir]' })
        .option('recording', { type: 'string', describe: 'HAR file to replay [config: recordings[0]]' })
        .option('entry', { type: 'string', describe: 'File that starts the candidate (listens or exports the app) [config: entry; detected]' })
        .option('baseline-entry', { type: 'string', describe: 'Entry of the baseline when it differs [config: baseline.entry]' })
        .option('rules', { type: 'string', describe: 'Comparison rules [default: .migrate/verify.json]' })
        .option('format', { choices: ['text', 'json', 'markdown'] as const, default: 'text' as const, describe: 'Report format' })
        .option('out', { type: 'string', describe: 'Write the report to this file instead of stdout' })
        .option('junit', { type: 'string', describe: 'Also write JUnit XML to this file' })
        .option('fail-on', { type: 'array', choices: ['deltas', 'uncovered', 'drift'] as const, describe: 'Also exit 1 on framework deltas, routes the recording never exercised, or requests the baseline answered otherwise than recorded (regressions and requests not verified always do)' })
        .option('noise', { type: 'boolean', default: true, describe: 'Run a second baseline to tell noise from regressions (--no-noise to skip)' })
        .option('credentials', { type: 'string', describe: 'Module giving real values for redacted credentials, per lane [config: credentials]' })
        .option('env-file', { type: 'string', describe: 'Environment file for the candidate [config: candidate.envFile]' })
        .option('baseline-env-file', { type: 'string', describe: 'Environment file for the baseline [config: baseline.envFile]' })
        .option('setup', { type: 'string', describe: 'Shell command run before the candidate starts, e.g. to reset its database [config: candidate.setup]' })
        .option('baseline-setup', { type: 'string', describe: 'Shell command run before each baseline lane starts [config: baseline.setup]' })
        .option('accept', { type: 'string', describe: 'Accept the current regressions and deltas with this reason (.migrate/verify/accepted.json)' })
        .option('accept-only', { type: 'array', string: true, describe: 'With --accept: only these requests (ids such as e12, as the report prints them)' })
        .option('start-timeout', { type: 'number', default: 20_000, describe: 'Milliseconds a lane may take to start listening' })
        .example('$0 verify --baseline main --recording .migrate/recordings/app.har', 'Compare the working tree with the main branch')
        .example('$0 verify --format markdown --junit verify.xml >> $GITHUB_STEP_SUMMARY', 'CI job summary and JUnit') as never,
    handler: async (args) => {
      const stop = progress();
      const prepared = await prepareVerify({
        dir: args.dir,
        baseline: args.baseline,
        recording: args.recording,
        entry: args.entry,
        baselineEntry: args['baseline-entry'],
        rules: args.rules,
        envFile: args['env-file'],
        baselineEnvFile: args['baseline-env-file'],
        setup: args.setup,
        baselineSetup: args['baseline-setup'],
        credentials: args.credentials,
        noise: args.noise,
        startTimeoutMs: args['start-timeout'],
        onProgress: stop.update,
      }).catch((e) => (stop.done(), Promise.reject(e)));
      try {
        const verdict = await verify(prepared.options);
        stop.done();
        if (args.accept !== undefined) {
          const only = args['accept-only']?.map(String);
          const chosen = verdict.exchanges.filter((x) => (x.outcome === 'regression' || x.deltas.length) && (!only || only.includes(x.id)));
          const unknown = (only ?? []).filter((id) => !verdict.exchanges.some((x) => x.id === id));
          if (unknown.length) process.stderr.write(`Nothing to accept for ${unknown.join(', ')} (no regression or delta there).\n`);
          const file = path.join(prepared.stateDir, 'verify', 'accepted.json');
          const added = prepared.options.accepted!.acceptAll(file, chosen, args.accept);
          markAccepted(verdict, chosen);
          process.stderr.write(`Accepted ${added} difference${added === 1 ? '' : 's'} (${chosen.map((x) => x.id).join(', ') || 'none'}) in ${path.relative(process.cwd(), file)}: "${args.accept}".\n`);
        }
        const gate = gateOf(verdict, args['fail-on'] ?? [], prepared.config.parity);
        writeFileAtomic(path.join(prepared.stateDir, 'verify', 'last.json'), JSON.stringify({ verdict, gate }, null, 2) + '\n');
        const report = args.format === 'json' ? JSON.stringify(verdict, null, 2) + '\n' : args.format === 'markdown' ? renderVerifyMarkdown(verdict, gate) : renderVerifyText(verdict, gate, !args.out && useColor());
        if (args.out) {
          writeFileAtomic(args.out, report);
          process.stderr.write(`${gate.failed ? `FAIL: ${gate.reasons.join('; ')}` : `PASS: ${gate.summary}`}\nWrote ${args.format} report to ${args.out}\n`);
        } else process.stdout.write(report);
        if (args.junit) writeFileAtomic(args.junit, renderVerifyJunit(verdict));
        setExit(gate.exitCode);
      } finally {
        stop.done();
        await prepared.cleanup();
      }
    },
  };
}
