/** Inventory lookups several checks share (and the transforms that read the same facts). */
import semver from 'semver';
import type { Inventory, Location, StaticMount } from '../analyzer/model.js';

/** The static mount registered at `at` (an `express.static` middleware's registration), if any. */
export function staticMountAt(inventory: Inventory, at: Location): StaticMount | undefined {
  return inventory.staticMounts.find((x) => x.registration.file === at.file && x.registration.line === at.line && x.registration.column === at.column);
}

/**
 * The app's version of `pkg` for the catalogue's version-dependent texts: the installed version
 * (node_modules; for express also the lockfile), else the range package.json declares; null when
 * neither is known or readable (`latest`, `github:…`). `label` says which, for the message.
 */
export function appVersion(project: Inventory['project'], pkg: string): { version: string; label: string } | null {
  const dep = project.dependencies?.[pkg];
  const installed = dep?.installed ?? (pkg === 'express' ? project.expressVersion.installed : null);
  if (installed && semver.valid(installed)) return { version: installed, label: `${pkg} ${installed} installed` };
  const declared = dep?.declared ?? (pkg === 'express' ? project.expressVersion.declared : null);
  if (declared && semver.validRange(declared)) return { version: declared, label: `${pkg} ${declared} declared` };
  return null;
}
