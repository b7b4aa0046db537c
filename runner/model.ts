/**
 * What `runStage` takes and returns (the library entry of `migrate run`, runner/run.ts).
 * Paths are POSIX and relative to the project root unless a field says otherwise.
 */
import type { DeferredItem, FileChange, FrameworkDelta, ManualItem, ParityPolicy, StageName, Verdict } from '../transforms/model.js';
import type { RoutesAfter } from './routes-after.js';

/** Options of one stage run. */
export interface RunOptions {
  /** Absolute folder of the app (or of a monorepo, with `app`). */
  root: string;
  stage: StageName;
  /** Compute the changes and the unified diff; write nothing. */
  dry?: boolean;
  /** Compute the changes; write nothing; exit code 1 when the stage would change a file. */
  check?: boolean;
  /** Run on a git tree with uncommitted changes (outside `.migrate/`). */
  allowDirty?: boolean;
  /** Commit the changed files as one commit `migrate: stage <name>`. */
  commit?: boolean;
  /** Run the project's `tsc --noEmit` before and after (projects with a tsconfig.json only). */
  typecheck?: boolean;
  /** How pure framework defaults are treated (DESIGN.md "Behaviour parity"); default 'default'. */
  parity?: ParityPolicy;
  /** `--only`: a router file or a route key; the routes stage moves only those routes (PlanContext.only). */
  only?: string;
  /** Values of the stage's own options (StepMeta.options), by name: `{ 'keep-log-format': true }`. */
  stageOptions?: Record<string, boolean | string>;
  /** Entry file relative to the app folder (detected when omitted). */
  entry?: string;
  /** Workspace member to migrate in a monorepo (package name or folder). */
  app?: string;
  /** Worker threads for the transforms; default: every available core. */
  workers?: number;
  /** Run the project's package manager when package.json dependencies changed. */
  install?: boolean;
  /** Progress messages (the CLI prints them on stderr). */
  onProgress?: (message: string) => void;
  /** Folder holding the steps (`<step>/meta.*`); default the `transforms/` folder next to the runner. For tests. */
  stepsDir?: string;
}

/** What happened to one planned file (jscodeshift's ok / unchanged / skipped / error taxonomy). */
export interface FileOutcome {
  file: string;
  status: 'changed' | 'unchanged' | 'skipped' | 'failed';
  /** Why a file was skipped or failed (parse error with line and column, the transform's error). */
  reason?: string;
  /** The stage creates the file (it did not exist): listed as `created`. */
  created?: boolean;
}

/** How to check the stage with the verifier, as far as the project is set up for it. */
export interface VerifyHint {
  /** The command to run: `migrate verify`, with `--baseline`/`--recording` for what `.migrate/config.json` does not give. */
  command: string;
  /** `.migrate/config.json` gives both the baseline and a recording (`migrate init` was run). */
  configured: boolean;
  /** No recording was found (config, `.migrate/recordings/`): `--recording` holds a placeholder; record one first. */
  needsRecording: boolean;
}

/** One `TODO(migrate)` line in a file the stage changed. */
export interface TodoLine {
  file: string;
  /** 1-based. */
  line: number;
  /** The line's text after `TODO(migrate)`, trimmed (the whole trimmed line when nothing follows). */
  text: string;
  /** It marks the place of one of the run's manual items (ManualItem.todo), which the summary lists instead. */
  paired?: boolean;
}

/** Result of one stage run. */
export interface RunResult {
  stage: StageName;
  /** Absolute folder of the app the stage ran on (the workspace member with `app`). */
  root: string;
  /** What was (or, with `dry`/`check`, would be) written; package.json included. */
  changes: FileChange[];
  outcomes: FileOutcome[];
  /**
   * What a human must do: the steps' manual items and the files skipped because they do not parse
   * (code `parse-error`). Lines are those of the files as written (the item's TODO(migrate) line,
   * else its planned line carried through the stage's edits).
   */
  manual: ManualItem[];
  /** What the stage leaves to a later stage (no exit code 1); lines as in `manual`. */
  deferred: DeferredItem[];
  /** Per step, what moved out of what could move. */
  moved: Array<{ step: string; what: string; done: number; of: number; groups?: Array<{ name: string; done: number; of: number; later?: number }> }>;
  /** Framework defaults that now differ and are not restored, each saying whether `--parity express` would. */
  deltas: FrameworkDelta[];
  /** package.json `dependencies` added or raised: package → range. */
  dependencies: Record<string, string>;
  /** Packages removed from package.json (`dependencies`, `devDependencies`). */
  removedDependencies: string[];
  /** The planners' decisions on every record they looked at (transforms/model.ts Verdict). */
  verdicts: Verdict[];
  /** Why the stage refused because work is left (StepWorkLeft; `manual` lists the work, exit code 1), else null. */
  refusal: string | null;
  /** The command that installs them (`npm install`, `pnpm install`, `yarn`), null when nothing changed. */
  installCommand: string | null;
  /** Route parity after the write (analyzer/route-parity.ts: match keys missing or served twice); null when nothing was written. */
  parity: { missing: string[]; duplicated: string[] } | null;
  /** `tsc` error lines before and after the write, and those of `after` that are new; null when not run. */
  typecheck: { before: string[]; after: string[]; introduced: string[] } | null;
  /** `TODO(migrate)` lines in the changed files. */
  todos: TodoLine[];
  /**
   * After a written `plugins` stage: the routes the routes stage moves if run again, and those it
   * still leaves for the plugins stage (runner/routes-after.ts); absent otherwise.
   */
  routesAfter?: RoutesAfter;
  /** Things the run wants the user to know (not a git repository, parity check unavailable, …). */
  notes: string[];
  /** The unified diff of `changes` (always computed; printed by `--dry`). */
  diff: string;
  /** Worker threads that ran the transforms; 0 when they ran in-process (few files, or from the TypeScript sources). */
  threads: number;
  /** Whether the changes were written to disk. */
  written: boolean;
  /** The commit made by `commit` (hash), or null. */
  commit: string | null;
  /** How to check the written stage with `migrate verify`. */
  verify: VerifyHint;
  /** DESIGN.md exit codes: 0 done; 1 manual items left, work left (`refusal`) or `check` found changes; 2 failed. */
  exitCode: 0 | 1 | 2;
}
