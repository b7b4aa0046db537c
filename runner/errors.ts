/** Refusals of `runStage`, each with a stable code; the CLI maps every one to exit code 2, but 'work-left' (1). */
import type { ManualItem } from '../transforms/model.js';


/** Codes of {@link RunError}. */
export type RunErrorCode =
  /** `git status --porcelain` lists changes outside `.migrate/` and neither allowDirty, dry nor check was given. */
  | 'dirty-tree'
  /** The stage is not one of transforms/model.ts STAGES. */
  | 'unknown-stage'
  /** No step of the stage exists yet. */
  | 'no-steps'
  /** The folder does not exist, or the analyzer refused it (`--app`, `--entry`). */
  | 'not-a-project'
  /** `commit` was asked outside a git repository. */
  | 'not-a-repo'
  /** A step folder lacks its plan or transform module. */
  | 'bad-step'
  /** A step's planner threw. */
  | 'plan-failed'
  /** A step refused the project: a prerequisite of the stage is missing (`errors` before `shim`); the message says what to do. */
  | 'refused'
  /** The analysis found no app (Express or Fastify) from the entry: nothing to migrate, or the entry is not the app's (parse errors named). */
  | 'no-app'
  /** A step refused because work is left that a human must do first (`items` lists it): exit 1, not a tool failure. */
  | 'work-left'
  /** An option given to `migrate run` that no step of the stage declares (StepMeta.options), or a value of the wrong type. */
  | 'bad-option'
  /** `typecheck` was asked and tsc cannot run on the project. */
  | 'typecheck-failed'
  /** The package manager failed (`install`). */
  | 'install-failed'
  /** Writing a file failed; the files written before it were put back, so nothing of the stage is written. */
  | 'write-failed';

/** A refusal of `runStage`: nothing was written. */
export class RunError extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
    /** For 'work-left': what is left, each with file, line and reason. */
    readonly items: ManualItem[] = [],
  ) {
    super(message);
    this.name = 'RunError';
  }
}
