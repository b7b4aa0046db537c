/** Express's X-Powered-By header as the app's settings leave it (the express-free routes and the root plugins read it). */
import type { Inventory } from '../../analyzer/model.js';

/** Whether the Express app or sub-app `owner` leaves X-Powered-By on (Express's default: `app.disable('x-powered-by')` turns it off). */
export function sendsPoweredBy(inventory: Inventory, owner: string): boolean {
  const last = inventory.settings.filter((s) => s.ownerId === owner && s.key === 'x-powered-by' && s.kind !== 'read').at(-1);
  return !last || (last.kind === 'set' ? last.value !== false : last.kind === 'enable');
}
