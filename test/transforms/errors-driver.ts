/**
 * A stand-in for `runStage({ stage: 'errors' })` while runner/run.ts is not implemented: analyse,
 * run the rules, plan both `errors` steps on the same inventory, and apply their transforms to
 * each file in step order, as the runner contract (transforms/model.ts) describes. Used by the
 * errors tests only; they call the real runner once it runs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import jscodeshift from 'jscodeshift';
import { analyze } from '../../analyzer/analyze.js';
import { runRules } from '../../rules/index.js';
import type { FilePlan, ManualItem, StepPlan, TransformOptions } from '../../transforms/model.js';
import { plan as planHandler } from '../../transforms/errors-handler/plan.js';
import transformHandler from '../../transforms/errors-handler/transform.js';
import { plan as planNotFound } from '../../transforms/errors-not-found/plan.js';
import transformNotFound from '../../transforms/errors-not-found/transform.js';
import { parses } from '../../transforms/lib/parser.js';

type Transform = (file: { path: string; source: string }, api: never, options: TransformOptions) => string | null | undefined;
const STEPS: Array<{ plan: typeof planHandler; transform: Transform }> = [
  { plan: planHandler, transform: transformHandler as Transform },
  { plan: planNotFound, transform: transformNotFound as Transform },
];

/** What one run did. */
export interface DriverRun {
  changed: string[];
  manual: ManualItem[];
  plans: StepPlan[];
}

/** Runs the `errors` stage on the app in `root` and writes the files that change. */
export async function runErrorsStage(root: string, parity: 'default' | 'express' = 'default'): Promise<DriverRun> {
  const inventory = runRules(await analyze({ dir: root }));
  const readFile = (file: string) => {
    const abs = path.join(root, file);
    return existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  };
  const ctx = { root, inventory, findings: inventory.findings ?? [], parity, readFile };
  const plans = STEPS.map((s) => s.plan(ctx));
  const current = new Map<string, string>();
  const original = new Map<string, string>();
  STEPS.forEach((step, i) => {
    for (const filePlan of plans[i].files as FilePlan[]) {
      const before = current.get(filePlan.file) ?? readFile(filePlan.file) ?? '';
      if (!original.has(filePlan.file)) original.set(filePlan.file, before);
      const out = step.transform({ path: path.join(root, filePlan.file), source: before }, { jscodeshift, j: jscodeshift, stats: () => undefined, report: () => undefined } as never, { plan: filePlan });
      if (typeof out === 'string' && out !== before) {
        const problem = parses(out, filePlan.file);
        if (problem) throw new Error(`${filePlan.file}: output does not parse: ${problem}\n${out}`);
        current.set(filePlan.file, out);
      }
    }
  });
  const changed: string[] = [];
  for (const [file, text] of current) {
    if (text === original.get(file)) continue;
    writeFileSync(path.join(root, file), text);
    changed.push(file);
  }
  return { changed: changed.sort(), manual: plans.flatMap((p) => p.manual), plans };
}
