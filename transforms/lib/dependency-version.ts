/**
 * A package of the project older than a version a stage needs: the version the inventory has for
 * it (installed, else the lowest its declared range allows) and the line of package.json naming it.
 */
import semver from 'semver';
import type { PlanContext } from '../model.js';

/** `name` at `version` when it is below `from` (semver), with its line in package.json (1 when not found); null when it is not, or unknown. */
export function dependencyBelow(ctx: PlanContext, name: string, from: string): { version: string; line: number } | null {
  const dep = ctx.inventory.project.dependencies[name];
  const version = dep?.installed ?? (dep?.declared && semver.validRange(dep.declared) ? semver.minVersion(dep.declared)?.version : null);
  if (!version || !semver.valid(version) || !semver.lt(version, from)) return null;
  const line = (ctx.readFile('package.json') ?? '').split('\n').findIndex((l) => l.includes(`"${name}"`)) + 1;
  return { version, line: Math.max(line, 1) };
}
