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
  /** Source of a project file (POSIX path relative to `root`), or null when it does not exist. */
  readFile(file: string): string | null;
}

/** Something the step could not do and a human must: always with file, line and reason. */
export interface ManualItem {
  file: string;
  line: number;
  /** What was left and why, in one sentence. */
  reason: string;
  /** Stable code (`listen-unknown-shape`, …) for tests and the checklist. */
  code: string;
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
  /** What the step leaves to a human; also marked in code with `TODO(migrate)` where it leaves one. */
  manual: ManualItem[];
  /** "What moved out of what could move": e.g. `{ what: 'listen sites', done: 2, of: 2 }`. */
  moved?: { what: string; done: number; of: number };
  /** Framework defaults that now differ and are not restored (without `--parity express`): one line each. */
  deltas?: string[];
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
