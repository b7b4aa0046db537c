/**
 * The contract between the runner (`runner/`) and the codemod steps (`transforms/<step>/`).
 *
 * A step is a folder with three files:
 * - `meta.ts` exports `meta: StepMeta` (name, stage, order within the stage, description);
 * - `plan.ts` exports `plan(ctx: PlanContext): StepPlan` — what the step will change, read from the
 *   inventory and the findings (analysis runs once per stage; steps never re-analyse);
 * - `transform.ts` default-exports a jscodeshift transform `(file, api, options) => string | null | undefined`
 *   that reads `options.plan` (the `FilePlan` of that file). Without a plan it returns the source
 *   unchanged (`null`), so it can also be run with the jscodeshift CLI given a plan.
 *
 * Data flows one way (DESIGN.md "Data flow"): inventory + findings → StepPlan → FileChange[] →
 * `--dry` diff or atomic write.
 */
import type { Finding, Inventory } from '../analyzer/model.js';

/** The stages of DESIGN.md "Stages", in the order they run. */
export const STAGES = ['shim', 'errors', 'routes', 'plugins', 'schemas', 'unshim'] as const;
export type StageName = (typeof STAGES)[number];

/** `meta.ts` of a step. */
export interface StepMeta {
  /** Folder name under `transforms/`, kebab-case (`shim-server`). */
  name: string;
  stage: StageName;
  /** Order of the step within its stage: lower runs first on a file. */
  order: number;
  /** One sentence for `migrate run --help` and the docs. */
  description: string;
}

/** How the run was asked to treat pure framework defaults (DESIGN.md "Behaviour parity"). */
export type ParityPolicy = 'default' | 'express';

/** What a step's planner reads. */
export interface PlanContext {
  /** Absolute project root (the folder analysed). */
  root: string;
  /** The inventory with `findings` and `readiness` (rules already run). */
  inventory: Inventory;
  findings: Finding[];
  parity: ParityPolicy;
  /**
   * `migrate run --only`: a router file (POSIX, relative to root) or a route key (`GET /api/notes/:id`)
   * — the steps that move routes take only those; the others ignore it.
   */
  only?: string;
  /** Source of a project file (POSIX path relative to `root`), or null when it does not exist. */
  readFile(file: string): string | null;
}

/** Something the step could not do and a human must: always with file, line and reason. */
export interface ManualItem {
  file: string;
  /**
   * 1-based line in the file as the planner read it (before the stage). The runner reports it at
   * the line it has in the file as written: the line of its `TODO(migrate)` comment (see `todo`),
   * else this line carried through the stage's edits of that file.
   */
  line: number;
  /** What was left and why, in one sentence. */
  reason: string;
  /** Stable code (`listen-unknown-shape`, …) for tests and the checklist. */
  code: string;
  /**
   * The text of the `// TODO(migrate): <text>` comment the step leaves in code for this item (what
   * follows `TODO(migrate):`), when it leaves one; the run pairs the two and lists the item once.
   */
  todo?: string;
}

/**
 * Something this stage leaves on purpose because a later stage takes it (a router's error handler
 * becomes its plugin's error handler in `routes`): listed under "Left for the <stage> stage", with
 * no `TODO(migrate)` in code and no exit code 1 — nobody has to act before that stage runs.
 */
export interface DeferredItem extends ManualItem {
  /** The stage that takes it. */
  stage: StageName;
}

/**
 * A framework default that differs after the stage (DESIGN.md "Behaviour parity"): clients rarely
 * depend on it, so it is reported, not treated as a regression.
 */
export interface FrameworkDelta {
  /** One sentence: what differs, and how to restore it by hand. */
  text: string;
  /**
   * Whether running the stage with `--parity express` restores it (the step then emits the
   * restoration and does not report the delta). False: no policy of ours restores it yet.
   */
  restoredByParityExpress: boolean;
}

/**
 * Thrown by a step's planner when the stage cannot run on this project at all (a prerequisite is
 * missing: `errors` before `shim`). The runner turns it into a refusal (RunError, exit 2) with
 * this message, which says what to do; nothing is written.
 */
export class StepRefusal extends Error {
  constructor(
    /** Stable code (`shim-missing`, …). */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'StepRefusal';
  }
}

/** The part of a step's plan for one file. `entries` is step-specific data (JSON-serialisable: it crosses to a worker). */
export interface FilePlan<E = unknown> {
  /** POSIX path relative to the project root. */
  file: string;
  /** True when the step creates the file (the transform receives an empty source). */
  create?: boolean;
  entries: E[];
}

/** What one step will do in this run. */
export interface StepPlan<E = unknown> {
  step: string;
  files: Array<FilePlan<E>>;
  /** package.json `dependencies` to add or raise: package → range (ranges from rules/catalogue/versions.ts). */
  dependencies?: Record<string, string>;
  /** What the step leaves to a human; also marked in code with `TODO(migrate)` where it leaves one (`todo`). */
  manual: ManualItem[];
  /** What the step leaves to a later stage (no TODO in code, no exit 1). */
  deferred?: DeferredItem[];
  /**
   * "What moved out of what could move": e.g. `{ what: 'listen sites', done: 2, of: 2 }`. `done`
   * counts what the plan really changes; `of` leaves out what is deferred to a later stage.
   */
  moved?: {
    what: string;
    done: number;
    of: number;
    /** The same counts per group (the routes stage: per router, `router notes at /api/notes (src/routes/notes.js)`). */
    groups?: Array<{ name: string; done: number; of: number; /** Left for a later stage (not in `of`). */ later?: number }>;
  };
  /**
   * Framework defaults that now differ and are not restored under this run's parity policy. A plain
   * string is a delta that `--parity express` restores (as the shim's are): the same as
   * `{ text, restoredByParityExpress: true }`.
   */
  deltas?: Array<string | FrameworkDelta>;
}

/** Options a step's transform receives from the runner (plus whatever jscodeshift passes). */
export interface TransformOptions<E = unknown> {
  plan?: FilePlan<E>;
}

/** One file the stage changes: `before` null for a new file. Paths are POSIX, relative to the root. */
export interface FileChange {
  file: string;
  before: string | null;
  after: string;
}
