/**
 * The routes the routes stage would move now, and those it still leaves for the plugins stage, read after a `plugins` stage wrote (issue 19 item 5):
 * routes it left for that stage (a route middleware whose plugin the stage registers, a response
 * method whose Fastify form needs one: `res.render` once @fastify/view is at the root) can move once
 * it ran, with `migrate run --stage routes` run again. The routes stage's own plan over the analysis
 * of the written project decides, so the list is exactly what that run moves.
 */
import type { Inventory } from '../analyzer/model.js';
import { runRules } from '../rules/index.js';
import type { DeferredItem, ParityPolicy } from '../transforms/model.js';
import { RunError } from './errors.js';
import { planContext, planStage } from './plan.js';
import { stepsOfStage } from './steps.js';

/** The routes stage as the plugins stage left the project: what it moves now, and what it still leaves for the plugins stage. */
export interface RoutesAfter {
  /** The keys (`GET /users/:id`) of the Express routes it moves. */
  movable: string[];
  /** Its items for the routes it still leaves for the plugins stage (file, line, why). */
  waiting: DeferredItem[];
}

/**
 * The routes stage's plan over `after`, the analysis of the project in `root` as the stage left it;
 * nothing when that plan refuses or leaves work (the routes stage says why when it runs).
 * @throws what a planner throws other than a RunError
 */
export async function routesAfter(root: string, after: Inventory, parity: ParityPolicy): Promise<RoutesAfter> {
  const inventory = runRules(after);
  try {
    const plan = await planStage(await stepsOfStage('routes'), planContext(root, inventory, parity));
    const moving = new Set(plan.verdicts.filter((v) => v.kind === 'route' && v.moves).map((v) => v.id));
    return { movable: inventory.routes.filter((r) => moving.has(r.id)).map((r) => r.key), waiting: plan.deferred.filter((d) => d.stage === 'plugins') };
  } catch (e) {
    if (e instanceof RunError) return { movable: [], waiting: [] };
    throw e;
  }
}
