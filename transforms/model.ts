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
import type { Finding, Inventory, Location } from '../analyzer/model.js';
import type { BlockerCode } from '../rules/catalogue/blockers.js';

export type { BlockerCode };

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
  /**
   * Options of the stage this step reads (`migrate run --stage plugins --keep-log-format`): the
   * runner accepts exactly the options the steps of the stage declare, and hands their values
   * to every planner of the stage in `PlanContext.options`.
   */
  options?: StepOption[];
}

/** An option a step declares (StepMeta.options). */
export interface StepOption {
  /** Kebab-case, as on the command line without the dashes (`keep-log-format`). */
  name: string;
  type: 'boolean' | 'string';
  /** One sentence for `migrate run --help` and the docs. */
  description: string;
  /** The value when the option is not given (absent: boolean false, string unset). */
  default?: boolean | string;
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
  /** The values of the stage's options (StepMeta.options), by name, defaults filled in. */
  options: Readonly<Record<string, boolean | string | undefined>>;
  /**
   * Set when the plan only assesses, for the readiness `migrate analyze` gives (runner/readiness.ts):
   * the inventory ids of what the earlier stages would have moved by then — apps the shim puts
   * behind Fastify, handlers the errors stage moves, routes the routes stage moves. A planner
   * treats those records as on Fastify already (isOnFastify) and does not refuse for a missing
   * earlier stage. Absent when the stage really runs.
   */
  assumed?: ReadonlySet<string>;
}

/**
 * Why something stays where it is in this stage: a stable code (rules/catalogue/blockers.ts), a
 * sentence for the `TODO(migrate)` comment and the item, and places (`file:line`) for the item
 * only — a TODO must read the same on the next run, when the lines have moved.
 */
export interface Blocker {
  code: BlockerCode;
  reason: string;
  where?: string[];
  /** The place that holds the record back when it is not the record itself (the middleware, error handler or finding it names): where the readiness counts the cause. */
  at?: Location;
  /** Leave no `TODO(migrate)` in code (the file stays as it is); the ManualItem alone reports it. */
  noTodo?: boolean;
  /** For a code lifted `as-partner`: the stage the record it shares something with waits for. */
  partnerWaitsFor?: StageName;
}

/**
 * A planner's decision on one inventory record (an app, a route, an error or 404 handler): it
 * moves in this stage, or it stays with its blockers — waiting for `waitsFor` when every blocker
 * is one that stage lifts. The readiness of `migrate analyze` is made of these (one decision, in
 * the planner, for both).
 */
export interface Verdict {
  /** The inventory record's id. */
  id: string;
  kind: 'app' | 'route' | 'error-handler' | 'not-found-handler';
  moves: boolean;
  /** Empty when it moves. */
  blockers: Blocker[];
  waitsFor?: StageName;
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
  /** Stable code (rules/catalogue/blockers.ts) for tests and the checklist. */
  code: BlockerCode;
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

/**
 * Thrown by a step's planner when the stage refuses because work is left that a human must do
 * first ("unshim: 3 things still use Express"): not a tool failure. The runner writes nothing and
 * ends with exit code 1 (DESIGN.md "CLI conventions"), `message` as its refusal and `items` as
 * the manual items — each with file, line and reason.
 */
export class StepWorkLeft extends Error {
  constructor(
    message: string,
    readonly items: ManualItem[],
  ) {
    super(message);
    this.name = 'StepWorkLeft';
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
  /** Packages to remove from package.json (`dependencies` and `devDependencies`): what the stage took out of the code (`express` at unshim). */
  removeDependencies?: string[];
  /** The planner's decision on every record it looked at (see Verdict). */
  verdicts?: Verdict[];
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
