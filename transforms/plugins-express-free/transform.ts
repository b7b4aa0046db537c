/**
 * jscodeshift transform of `plugins-express-free`, a recipe of one step on each file it plans:
 * - the generated server module: the app functions its body parsers carry imported (ESM), and the
 *   hook's declaration listing the moved routes that run no Express code
 *   (server-module/express-free.ts listExpressFree);
 * - a module defining such a function (`verify`): the function exported, or lifted out of the
 *   options (server-module/app-functions.ts);
 * printed in the file's style (lib/recipe.ts).
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { ensureImported } from '../lib/imports.js';
import { applyEntries } from '../lib/recipe.js';
import { applyAppFunctionEdit, importAppFunction } from '../server-module/app-functions.js';
import { listExpressFree } from '../server-module/express-hook.js';
import type { ExpressFreeStepEntry } from './plan.js';

/**
 * The file's new source, or null when nothing changes (the routes are listed already, the functions exported).
 * @throws Error as listExpressFree (a module edited by hand: no buildFastify, no throughExpress), or applyAppFunctionEdit
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<ExpressFreeStepEntry>): string | null {
  return applyEntries(file, options, ({ j, root, style }, entry) => {
    if (entry.kind !== 'list') return applyAppFunctionEdit(j, root, file.path, entry);
    let changed = false;
    for (const pkg of entry.packages) changed = ensureImported(j, root, { local: pkg.name, specifier: pkg.from, kind: 'default', typescript: entry.typescript, module: entry.module }, style.quote, 'the body parsers') || changed;
    for (const request of entry.imports) changed = importAppFunction(j, root, request, style.quote) || changed;
    return listExpressFree(j, root, entry, entry.typescript, style) || changed;
  });
}
