/** `runStage(options) → RunResult`: the library entry of `migrate run` (work in progress). */
import type { RunOptions, RunResult } from './model.js';
export type { RunOptions, RunResult } from './model.js';
export { RunError } from './errors.js';

/** Runs one stage on a project. */
export async function runStage(options: RunOptions): Promise<RunResult> {
  throw new Error(`runStage(${options.stage}) is not implemented yet`);
}
