/**
 * The readiness `migrate analyze` gives: the plans of the stages run in turn on the project as it
 * is — shim, errors, routes —, nothing transformed or written, each with what the earlier ones
 * would move assumed (PlanContext.assumed), and the routes rated from the routes plan's verdicts
 * (rules/readiness.ts). So a route rated to move at the routes stage is exactly one that
 * `migrate run --stage routes` moves once the earlier stages ran; one rated for a later stage is
 * one it leaves for that stage.
 */
import { analyze, chooseRoot, type AnalyzeOptions } from '../analyzer/analyze.js';
import type { Inventory, Location, Route, RouteBlocker, Unassessed } from '../analyzer/model.js';
import path from 'node:path';
import { runRules } from '../rules/index.js';
import { readinessOf, type RouteVerdict } from '../rules/readiness.js';
import type { Blocker, StageName, Verdict } from '../transforms/model.js';
import { RunError } from './errors.js';
import { planContext, planStage } from './plan.js';
import { stepsOfStage } from './steps.js';

/** The stages whose plans the readiness needs, in order. */
const ASSESSED: StageName[] = ['shim', 'errors', 'routes'];

/** What the assessment gives besides the rated inventory. */
export interface Assessment {
  /** The inventory with `readiness`. */
  inventory: Inventory;
  /** Every verdict of the assessed stages' plans, by stage. */
  verdicts: Partial<Record<StageName, Verdict[]>>;
}

/**
 * `migrate analyze`'s inventory: the analysis of `options.dir`, the rules' findings, and the
 * readiness of every route (assessReadiness).
 * @throws AnalyzeError as analyze
 */
export async function analyzeWithReadiness(options: AnalyzeOptions): Promise<Inventory> {
  const inventory = runRules(await analyze(options));
  options.onProgress?.('assessing the stages for the readiness');
  const root = await chooseRoot(path.resolve(options.dir), options.app);
  return (await assessReadiness(root, inventory)).inventory;
}

/**
 * Rates the routes of `inventory` (analysed from `root`, with findings) by assessing the stages.
 * A stage whose plan refuses, leaves work or fails is not assessed: `readiness.unassessed` says
 * why, and when the routes stage is among them its routes are manual (`route-not-assessed`).
 * @throws what a planner throws other than a RunError
 */
export async function assessReadiness(root: string, inventory: Inventory): Promise<Assessment> {
  const assumed = new Set<string>();
  const verdicts: Assessment['verdicts'] = {};
  const unassessed: Unassessed[] = [];
  // Without an app there is nothing the stages would plan (`migrate run` refuses: no-app).
  for (const stage of inventory.apps.length ? ASSESSED : []) {
    const steps = await stepsOfStage(stage);
    try {
      const plan = await planStage(steps, planContext(root, inventory, 'default', { assumed }));
      verdicts[stage] = plan.verdicts;
      for (const v of plan.verdicts) if (v.moves) assumed.add(v.id);
    } catch (e) {
      if (!(e instanceof RunError)) throw e;
      // A planner that failed is a bug in migrate: its stack is for `migrate run`, not this report.
      unassessed.push({ stage, reason: e.code === 'plan-failed' ? `${e.message.split('\n')[0]} (a bug in migrate: \`migrate run --stage ${stage}\` shows where)` : e.message });
    }
  }
  const byRoute = new Map((verdicts.routes ?? []).filter((v) => v.kind === 'route').map((v) => [v.id, routeVerdict(inventory, v)]));
  // A catch-all 404 registered as a route (`app.all('*', notFound)`) that the errors stage moves is that stage's.
  for (const n of inventory.notFoundHandlers) {
    if (!assumed.has(n.id)) continue;
    const route = inventory.routes.find((r) => r.registration.file === n.registration.file && r.registration.line === n.registration.line && r.registration.column === n.registration.column);
    if (route && !byRoute.has(route.id)) byRoute.set(route.id, { moves: true, movesAt: 'errors', blockers: [] });
  }
  return { inventory: { ...inventory, readiness: readinessOf(inventory, inventory.findings ?? [], byRoute, unassessed) }, verdicts };
}

/** A route's verdict as the Inventory keeps it: each blocker as a code, a message and the place it names. */
function routeVerdict(inventory: Inventory, v: Verdict): RouteVerdict {
  const route = inventory.routes.find((r) => r.id === v.id);
  return { moves: v.moves, blockers: v.blockers.map((b) => routeBlocker(b, route)), ...(v.waitsFor ? { waitsFor: v.waitsFor } : {}) };
}

function routeBlocker(b: Blocker, route: Route | undefined): RouteBlocker {
  const where = b.where?.length ? ` (${b.where.join(', ')})` : '';
  const location: Location = b.at ?? route?.registration ?? { file: '', line: 1, column: 1 };
  return { code: b.code, message: `${b.reason}${where}`, location: { file: location.file, line: location.line, column: location.column } };
}
