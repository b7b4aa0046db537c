/**
 * The JSON print settings Express's `res.json` honours (`json spaces`, `json replacer`, `json escape`;
 * express 4.x/5.x lib/response.js `stringify`) as the handler rewrite takes them: a numeric
 * `json spaces` it keeps (`JSON.stringify(x, null, N)`); a replacer or escape, or spaces it cannot
 * read, make `res.json` refuse (`jsonSettings`). Shared by the errors and routes stages.
 */
import type { Inventory } from '../../analyzer/model.js';
import type { HandlerOptions } from './rewrite.js';

/** The options for a handler of app `appId` whose settings come from the records `owners` (the app, its router, the sub-apps above it). */
export function jsonOptions(inventory: Inventory, appId: string, owners: ReadonlySet<string>): Pick<HandlerOptions, 'jsonSettings' | 'jsonSpaces'> {
  const own = inventory.settings.filter((s) => s.appId === appId && owners.has(s.ownerId) && s.kind !== 'read' && s.kind !== 'disable');
  const spaces = own.filter((s) => s.key === 'json spaces');
  const readable = spaces.every((s) => s.kind === 'set' && typeof s.value === 'number');
  const other = own.some((s) => s.key === 'json replacer' || s.key === 'json escape');
  return { jsonSettings: other || !readable, ...(spaces.length && readable ? { jsonSpaces: spaces[spaces.length - 1].value as number } : {}) };
}
