/**
 * The `migrate` command line: parses arguments with yargs and dispatches to one file per
 * command. Exit codes (DESIGN.md): 0 done; 1 something needs a human; 2 the tool failed or
 * refused (bad arguments included).
 */
import yargs from 'yargs';
import { analyzeCommand } from './analyze.js';
import { initCommand } from './init.js';
import { recordCommand } from './record.js';
import { runCommand } from './run.js';
import { verifyCommand } from './verify.js';

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const cli = yargs(argv)
    .scriptName('migrate')
    .usage('$0 <command> [options]\n\nMove an Express app to Fastify in stages, with proof.')
    .command(analyzeCommand((code) => (exitCode = code)))
    .command(initCommand((code) => (exitCode = code)))
    .command(recordCommand((code) => (exitCode = code)))
    .command(runCommand((code) => (exitCode = code)))
    .command(verifyCommand((code) => (exitCode = code)))
    .demandCommand(1, 'Choose a command, e.g. `migrate analyze .`')
    .strict()
    .help()
    .alias('h', 'help')
    .version(false)
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((msg, err) => {
      // Throwing stops yargs from running the command after a validation failure.
      throw new UsageError(withoutCamelCaseTwins(msg ?? err?.message ?? 'invalid arguments'));
    });
  try {
    await cli.parseAsync();
  } catch (e) {
    const usage = e instanceof UsageError;
    process.stderr.write(`migrate: ${(e as Error).message}\n${usage ? 'Run `migrate --help` for usage.\n' : ''}`);
    return 2;
  }
  return exitCode;
}

/** Bad arguments: reported with a pointer to --help, exit code 2. */
class UsageError extends Error {}

/**
 * yargs lists an unknown `--bogus-flag` twice, as `bogus-flag, bogusFlag` (its camel-case
 * expansion); keep the spelling the user typed.
 */
function withoutCamelCaseTwins(message: string): string {
  return message.replace(/^(Unknown arguments?: )(.*)$/, (_, head: string, list: string) => {
    const names = list.split(', ');
    const kebab = new Set(names.filter((n) => n.includes('-')).map((n) => n.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())));
    const kept = names.filter((n) => !kebab.has(n));
    return `${kept.length === 1 ? 'Unknown argument: ' : head}${kept.join(', ')}`;
  });
}
