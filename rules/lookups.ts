/** Inventory lookups several checks share. */
import type { Inventory, Location, StaticMount } from '../analyzer/model.js';

/** The static mount registered at `at` (an `express.static` middleware's registration), if any. */
export function staticMountAt(inventory: Inventory, at: Location): StaticMount | undefined {
  return inventory.staticMounts.find((x) => x.registration.file === at.file && x.registration.line === at.line && x.registration.column === at.column);
}
