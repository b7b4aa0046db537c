/**
 * Step discovery: every folder `<stepsDir>/<step>/` holding a `meta.(js|ts)` is a step
 * (transforms/model.ts: `meta`, `plan`, `transform`), found relative to the runner module so it
 * works from the TypeScript sources (vitest, tsx) and from dist/ alike.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STAGES, type PlanContext, type StageName, type StepMeta, type StepPlan } from '../transforms/model.js';
import { RunError } from './errors.js';

/** The steps folder next to the runner: `transforms/` (sources) or `dist/transforms/` (built). */
export const DEFAULT_STEPS_DIR = fileURLToPath(new URL('../transforms/', import.meta.url));

/** A discovered step: its meta, its planner, and the absolute path of its transform module. */
export interface Step {
  meta: StepMeta;
  plan: (ctx: PlanContext) => StepPlan | Promise<StepPlan>;
  /** Absolute path of `transform.(js|ts)` (loaded by the worker that runs it). */
  transform: string;
}

/** Compiled first, so a folder holding both runs what was built. */
const EXTENSIONS = ['.js', '.ts'];

/** `<dir>/<name>.js` or `.ts`, whichever exists; null when neither does. */
function moduleFile(dir: string, name: string): string | null {
  for (const ext of EXTENSIONS) if (existsSync(path.join(dir, name + ext))) return path.join(dir, name + ext);
  return null;
}

/** The metas of every step under `stepsDir` (folders without `meta.*` are helpers, e.g. `lib/`). */
export async function discoverMetas(stepsDir: string = DEFAULT_STEPS_DIR): Promise<Array<{ meta: StepMeta; dir: string }>> {
  if (!existsSync(stepsDir)) return [];
  const out: Array<{ meta: StepMeta; dir: string }> = [];
  for (const name of readdirSync(stepsDir).sort()) {
    const dir = path.join(stepsDir, name);
    if (!statSync(dir).isDirectory()) continue;
    const metaFile = moduleFile(dir, 'meta');
    if (!metaFile) continue;
    const { meta } = (await import(pathToFileURL(metaFile).href)) as { meta?: StepMeta };
    if (!meta || !STAGES.includes(meta.stage)) throw new Error(`${metaFile} does not export a meta with a known stage`);
    out.push({ meta, dir });
  }
  return out;
}

/**
 * The steps of `stage`, sorted by `order` (then name).
 * @throws RunError 'unknown-stage' for a stage not in STAGES; 'no-steps' when the stage has no
 *   step yet (the message names the stages that have some).
 */
export async function stepsOfStage(stage: string, stepsDir: string = DEFAULT_STEPS_DIR): Promise<Step[]> {
  if (!(STAGES as readonly string[]).includes(stage)) throw new RunError('unknown-stage', `unknown stage '${stage}'; stages: ${STAGES.join(', ')}`);
  const all = await discoverMetas(stepsDir);
  const mine = all.filter((s) => s.meta.stage === stage).sort((a, b) => a.meta.order - b.meta.order || a.meta.name.localeCompare(b.meta.name));
  if (mine.length === 0) {
    const ready = STAGES.filter((s) => all.some((x) => x.meta.stage === s));
    throw new RunError('no-steps', `stage '${stage}' has no steps yet; stages with steps: ${ready.length ? ready.join(', ') : 'none'}`);
  }
  return Promise.all(mine.map(({ meta, dir }) => loadStep(meta, dir as string, stage as StageName)));
}

async function loadStep(meta: StepMeta, dir: string, stage: StageName): Promise<Step> {
  const planFile = moduleFile(dir, 'plan');
  const transform = moduleFile(dir, 'transform');
  if (!planFile || !transform) throw new RunError('bad-step', `step ${meta.name} of stage ${stage} lacks ${planFile ? 'transform' : 'plan'}.(js|ts) in ${dir}`);
  const { plan } = (await import(pathToFileURL(planFile).href)) as { plan?: Step['plan'] };
  if (typeof plan !== 'function') throw new RunError('bad-step', `${planFile} does not export a plan function`);
  return { meta, plan, transform };
}

/**
 * The values of the stage's options (StepMeta.options of its steps) from what `migrate run` was
 * given (`given`, by option name), defaults filled in.
 * @throws RunError 'bad-option' for an option no step of the stage declares (the message lists
 *   those it has), or a value of the wrong type
 */
export function stageOptions(steps: Step[], stage: string, given: Record<string, boolean | string>): Record<string, boolean | string | undefined> {
  const declared = new Map(steps.flatMap((s) => s.meta.options ?? []).map((o) => [o.name, o]));
  const values: Record<string, boolean | string | undefined> = {};
  for (const [name, option] of declared) values[name] = option.default ?? (option.type === 'boolean' ? false : undefined);
  for (const [name, value] of Object.entries(given)) {
    const option = declared.get(name);
    if (!option) throw new RunError('bad-option', `the ${stage} stage has no option --${name}${declared.size ? `; its options: ${[...declared.keys()].map((n) => `--${n}`).join(', ')}` : ''} (\`migrate run --help\` lists the options of every stage, --dry among them)`);
    if (typeof value !== option.type) throw new RunError('bad-option', `--${name} takes a ${option.type}`);
    values[name] = value;
  }
  return values;
}
