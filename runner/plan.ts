/**
 * The plan of a stage: every step's planner reads the one inventory (findings included) and
 * says what it will change; the file plans are grouped per file so that each file runs its
 * steps' transforms in step order, the output of one the input of the next.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import type { Inventory } from '../analyzer/model.js';
import type { DeferredItem, FilePlan, FrameworkDelta, ManualItem, ParityPolicy, PlanContext, Verdict } from '../transforms/model.js';
import { RunError } from './errors.js';
import type { Step } from './steps.js';

/** One step's part of a file's work, as it crosses to a worker (JSON-serialisable). */
export interface StepTask {
  step: string;
  /** Absolute path of the step's transform module. */
  transform: string;
  plan: FilePlan;
}

/** The work on one file: its steps in order. */
export interface FileTask {
  /** POSIX path relative to the project root. */
  file: string;
  /** The file's text, or null when it does not exist yet (a step creates it). */
  source: string | null;
  steps: StepTask[];
}

/** What the stage will do, before any transform runs. */
export interface StagePlan {
  tasks: FileTask[];
  manual: ManualItem[];
  deferred: DeferredItem[];
  moved: Array<{ step: string; what: string; done: number; of: number; groups?: Array<{ name: string; done: number; of: number; later?: number }> }>;
  deltas: FrameworkDelta[];
  /** package.json `dependencies` the steps need: package → range (the higher minimum wins). */
  dependencies: Record<string, string>;
  /** Packages the steps take out of package.json. */
  removeDependencies: string[];
  /** Every step's verdicts, in step order. */
  verdicts: Verdict[];
}

/** How a plan context is made beyond root, inventory and parity. */
export interface PlanContextOptions {
  only?: string;
  /** The stage options' values (PlanContext.options). */
  options?: PlanContext['options'];
  /** Assessing only: what earlier stages would have moved (PlanContext.assumed). */
  assumed?: ReadonlySet<string>;
}

/** A PlanContext whose `readFile` reads (and caches) project files under `root`. */
export function planContext(root: string, inventory: Inventory, parity: ParityPolicy, extra: PlanContextOptions = {}): PlanContext {
  const cache = new Map<string, string | null>();
  return {
    root,
    inventory,
    findings: inventory.findings ?? [],
    parity,
    options: extra.options ?? {},
    ...(extra.only ? { only: extra.only } : {}),
    ...(extra.assumed ? { assumed: extra.assumed } : {}),
    readFile(file) {
      if (!cache.has(file)) {
        const abs = path.join(root, file);
        cache.set(file, existsSync(abs) ? readFileSync(abs, 'utf8') : null);
      }
      return cache.get(file)!;
    },
  };
}

/**
 * Calls every step's planner (in step order) and groups the file plans per file. Files come out
 * sorted by path; a file's sources are read through the context.
 * @throws RunError 'refused' when a planner throws a StepRefusal (its message); 'work-left' when
 *   it throws a StepWorkLeft (its message, and its items as RunError.items); 'plan-failed' when a
 *   planner throws anything else (the message names the step); 'bad-step' when it plans a file
 *   outside the project
 */
export async function planStage(steps: Step[], ctx: PlanContext): Promise<StagePlan> {
  const byFile = new Map<string, StepTask[]>();
  const result: StagePlan = { tasks: [], manual: [], deferred: [], moved: [], deltas: [], dependencies: {}, removeDependencies: [], verdicts: [] };
  for (const step of steps) {
    let plan;
    try {
      plan = await step.plan(ctx);
    } catch (e) {
      // By name as well as class: a step loaded from elsewhere (the test steps) has its own copy of the class.
      if (e instanceof Error && e.name === 'StepRefusal') throw new RunError('refused', e.message);
      if (e instanceof Error && e.name === 'StepWorkLeft') throw new RunError('work-left', e.message, (e as Error & { items: ManualItem[] }).items);
      throw new RunError('plan-failed', `the planner of step ${step.meta.name} failed: ${(e as Error).stack ?? e}`);
    }
    for (const filePlan of plan.files) {
      const file = path.posix.normalize(filePlan.file.split(path.sep).join('/'));
      if (path.isAbsolute(filePlan.file) || file.startsWith('../') || file === '..') throw new RunError('bad-step', `step ${step.meta.name} planned ${filePlan.file}, outside the project`);
      if (!byFile.has(file)) byFile.set(file, []);
      byFile.get(file)!.push({ step: step.meta.name, transform: step.transform, plan: { ...filePlan, file } });
    }
    result.manual.push(...plan.manual);
    result.deferred.push(...(plan.deferred ?? []));
    if (plan.moved) result.moved.push({ step: step.meta.name, ...plan.moved });
    result.deltas.push(...(plan.deltas ?? []).map(asDelta));
    for (const [name, range] of Object.entries(plan.dependencies ?? {})) result.dependencies[name] = higherRange(result.dependencies[name], range);
    for (const name of plan.removeDependencies ?? []) if (!result.removeDependencies.includes(name)) result.removeDependencies.push(name);
    result.verdicts.push(...(plan.verdicts ?? []));
  }
  result.tasks = [...byFile.keys()].sort().map((file) => ({ file, source: ctx.readFile(file), steps: byFile.get(file)! }));
  return result;
}

/** A step's delta as an object: a plain string is one `--parity express` restores (transforms/model.ts StepPlan.deltas). */
function asDelta(delta: string | FrameworkDelta): FrameworkDelta {
  return typeof delta === 'string' ? { text: delta, restoredByParityExpress: true } : delta;
}

/** Of two ranges for one package, the one with the higher minimum version (the first on a tie or when one is not a semver range). */
export function higherRange(current: string | undefined, wanted: string): string {
  if (current === undefined) return wanted;
  const a = semver.validRange(current) ? semver.minVersion(current) : null;
  const b = semver.validRange(wanted) ? semver.minVersion(wanted) : null;
  return a && b && semver.gt(b, a) ? wanted : current;
}
