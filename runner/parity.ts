/**
 * The route parity check after a stage (issue 7, DESIGN.md "Match key"): every route of the app
 * before the stage is still served, exactly once. The comparison itself is the analyzer's
 * `routeParity(before, after)` (analyzer/route-parity.ts).
 */
import type { Inventory } from '../analyzer/model.js';

/** Route match keys that disappeared or are now served twice. */
export interface ParityResult {
  missing: string[];
  duplicated: string[];
}

/** `routeParity(before, after)` of analyzer/route-parity.ts. */
export type RouteParity = (before: Inventory, after: Inventory) => ParityResult;

// TODO(runner): import routeParity statically once analyzer/route-parity.ts has landed.
const ROUTE_PARITY_MODULE = '../analyzer/route-parity.js';

/** The analyzer's `routeParity`, or null when it does not provide the check yet. */
export async function loadRouteParity(): Promise<RouteParity | null> {
  try {
    return ((await import(/* @vite-ignore */ ROUTE_PARITY_MODULE)) as { routeParity?: RouteParity }).routeParity ?? null;
  } catch (e) {
    if (/Cannot find module|Failed to load url|ERR_MODULE_NOT_FOUND/.test(String((e as Error).message ?? e) + String((e as { code?: string }).code))) return null;
    throw e;
  }
}

/** Whether the parity check failed. */
export function parityFailed(result: ParityResult | null): boolean {
  return Boolean(result && (result.missing.length > 0 || result.duplicated.length > 0));
}
