/** Reads analyzer fixtures (fixtures/analyzer/README.md) and renders inventories in their terms. */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Inventory, Route } from '../../analyzer/model.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/analyzer');

export interface ExpectedInventory {
  pattern: string;
  description: string;
  entry: string;
  routes: ExpectedRoute[];
  errorHandlers?: { name: string; path: string }[];
  notFoundHandlers?: { name: string; path: string }[];
  staticMounts?: { path: string; package: string }[];
  /** A code, or a code with the `file:line` of its call site. */
  diagnostics?: (string | { code: string; at: string })[];
  settings?: { key: string; value?: unknown; kind?: string }[];
  viewEngines?: { ext: string; engine?: string | null; views?: string | null }[];
}

/** One route of expected.json (fixtures/analyzer/README.md, "Extra fields"). */
export interface ExpectedRoute {
  key: string;
  chain?: string[];
  resolution?: string;
  reasons?: string[];
  handler?: { name?: string; definition?: string; wrappers?: string[]; async?: boolean; origin?: string; package?: string };
  usage?: string[];
  usageViaHelpers?: string[];
}

/** Every fixture folder (`<section>/<pattern>-<variant>`) with its expected.json. */
export function analyzerFixtures(): { name: string; dir: string; expected: ExpectedInventory }[] {
  const out = [];
  for (const section of readdirSync(FIXTURES).sort()) {
    const sectionDir = path.join(FIXTURES, section);
    if (!existsSync(sectionDir) || section.includes('.')) continue;
    for (const name of readdirSync(sectionDir).sort()) {
      const file = path.join(sectionDir, name, 'expected.json');
      if (!existsSync(file)) continue;
      out.push({ name: `${section}/${name}`, dir: path.join(sectionDir, name), expected: JSON.parse(readFileSync(file, 'utf8')) as ExpectedInventory });
    }
  }
  return out;
}

/** A route's chain in fixture notation: `name [package]`, handler last. */
export function chainOf(r: Route): string[] {
  return [...r.chain, r.handler].map((e) => (e.package ? `${e.name} [${e.package}]` : e.name));
}

/** Routes as sorted `key | chain` lines, comparable with the expected ones. */
export function routeLines(inv: Inventory): string[] {
  return inv.routes.map((r) => `${r.key} | ${chainOf(r).join(', ')}`).sort();
}

export function expectedRouteLines(e: ExpectedInventory, actual: Inventory): string[] {
  return e.routes
    .map((r) => {
      // A fixture may omit a chain; then only the key is checked and the actual chain is used.
      const chain = r.chain ?? chainOf(actual.routes.find((a) => a.key === r.key) ?? ({ chain: [], handler: { name: '?' } } as unknown as Route));
      return `${r.key} | ${chain.join(', ')}`;
    })
    .sort();
}
