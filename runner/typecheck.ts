/**
 * `--typecheck`: the project's own `tsc --noEmit -p tsconfig.json` (TypeScript resolved from the
 * project, else ours), run before and after a stage; the stage fails when it adds errors that
 * were not there before.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Whether the project can be type-checked (it has a tsconfig.json). */
export function hasTsconfig(root: string): boolean {
  return existsSync(path.join(root, 'tsconfig.json'));
}

/** Path of `typescript/bin/tsc`: the project's (Node resolution from `root`), else the tool's own. */
export function tscPath(root: string): string {
  try {
    return createRequire(path.join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  }
}

/**
 * The error lines of `tsc --noEmit -p tsconfig.json --pretty false` in `root`
 * (`src/a.ts(3,7): error TS2322: …`), in tsc's order.
 * @throws Error when tsc cannot run at all (its stderr)
 */
export function typeErrors(root: string): string[] {
  const result = spawnSync(process.execPath, [tscPath(root), '--noEmit', '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0 && !/error TS\d+/.test(result.stdout)) throw new Error(`tsc failed: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout.split(/\r?\n/).filter((line) => /\berror TS\d+:/.test(line));
}

/**
 * Errors of `after` that were not in `before`. Compared without line and column (the stage moves
 * code), each as many times as it appears: an error that was there before and is still there
 * after is not new, wherever it moved.
 */
export function newTypeErrors(before: string[], after: string[]): string[] {
  const seen = new Map<string, number>();
  for (const line of before) seen.set(withoutPosition(line), (seen.get(withoutPosition(line)) ?? 0) + 1);
  return after.filter((line) => {
    const key = withoutPosition(line);
    const n = seen.get(key) ?? 0;
    if (n > 0) {
      seen.set(key, n - 1);
      return false;
    }
    return true;
  });
}

function withoutPosition(line: string): string {
  return line.replace(/^(.*?)\(\d+,\d+\): /, '$1: ');
}
