/**
 * jscodeshift transform of `plugins-views`, a recipe of one step on the generated server module:
 * the @fastify/view registration in movedRoutes goes to the root of buildFastify
 * (server-module/root-views.ts viewsAtRoot), printed in the module's style.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { jFor } from '../lib/ast.js';
import { importedSpecifiers } from '../lib/imports.js';
import { printEdited } from '../lib/print.js';
import { detectStyle } from '../lib/style.js';
import { viewsAtRoot } from '../server-module/root-views.js';
import type { RootViewsEntry } from './plan.js';

/**
 * The module's new source, or null when movedRoutes registers no views.
 * @throws Error as viewsAtRoot (a module edited by hand)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<RootViewsEntry>): string | null {
  if (!options.plan?.entries[0]) return null;
  const j = jFor(file.path);
  const root = j(file.source);
  const style = detectStyle(file.source, file.path);
  const importsBefore = importedSpecifiers(j, root);
  if (!viewsAtRoot(j, root)) return null;
  return printEdited(j, root, file.source, style, importsBefore);
}
