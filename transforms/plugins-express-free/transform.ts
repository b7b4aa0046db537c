/**
 * jscodeshift transform of `plugins-express-free`, a recipe of one step on the generated server
 * module: the hook's declaration lists the moved routes that run no Express code
 * (server-module/express-free.ts listExpressFree), printed in the module's style.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { jFor } from '../lib/ast.js';
import { importedSpecifiers } from '../lib/imports.js';
import { printEdited } from '../lib/print.js';
import { detectStyle } from '../lib/style.js';
import { listExpressFree } from '../server-module/express-hook.js';
import type { ExpressFreeEntry } from './plan.js';

/**
 * The module's new source, or null when it lists these routes already.
 * @throws Error as listExpressFree (a module edited by hand: no buildFastify, no throughExpress)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<ExpressFreeEntry>): string | null {
  const entry = options.plan?.entries[0];
  if (!entry) return null;
  const j = jFor(file.path);
  const root = j(file.source);
  const style = detectStyle(file.source, file.path);
  const importsBefore = importedSpecifiers(j, root);
  if (!listExpressFree(j, root, entry, entry.typescript, style)) return null;
  return printEdited(j, root, file.source, style, importsBefore);
}
