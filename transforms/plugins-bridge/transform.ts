/**
 * jscodeshift transform of `plugins-bridge`, a recipe of one step on the generated server module:
 * the @fastify/express registration becomes Fastify hooks that run the Express app
 * (server-module/express-hook.ts hookBridge), printed in the module's style, with the shim's header
 * saying so.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { jFor } from '../lib/ast.js';
import { importedSpecifiers } from '../lib/imports.js';
import { printEdited } from '../lib/print.js';
import { detectStyle } from '../lib/style.js';
import { hookBridge, withHookHeader } from '../server-module/express-hook.js';
import type { BridgeEntry } from './plan.js';

/**
 * The module's new source, or null when it has no @fastify/express registration to replace.
 * @throws Error as hookBridge (a module edited by hand: no buildFastify, no expressBridge)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<BridgeEntry>): string | null {
  const entry = options.plan?.entries[0];
  if (!entry) return null;
  const j = jFor(file.path);
  const root = j(file.source);
  const style = detectStyle(file.source, file.path);
  const importsBefore = importedSpecifiers(j, root);
  if (!hookBridge(j, root, entry.typescript, style)) return null;
  return withHookHeader(printEdited(j, root, file.source, style, importsBefore));
}
