/** Installing the dependencies a stage added, with the project's own package manager. */
import { spawnSync } from 'node:child_process';
import type { ProjectFacts } from '../analyzer/model.js';
import { RunError } from './errors.js';

/** The install command of a package manager (npm when unknown). */
export function installCommand(manager: ProjectFacts['packageManager']): string {
  switch (manager) {
    case 'pnpm':
      return 'pnpm install';
    case 'yarn':
      return 'yarn';
    case 'bun':
      return 'bun install';
    default:
      return 'npm install';
  }
}

/**
 * Runs `command` in `root`, its output on stderr (stdout stays machine output).
 * @throws RunError 'install-failed' when it cannot start or exits with an error
 */
export function runInstall(root: string, command: string): void {
  const [bin, ...args] = command.split(' ');
  const result = spawnSync(bin, args, { cwd: root, stdio: ['ignore', process.stderr, process.stderr], shell: process.platform === 'win32' });
  if (result.error || result.status !== 0) throw new RunError('install-failed', `\`${command}\` failed in ${root}: ${result.error?.message ?? `exit code ${result.status}`}`);
}
