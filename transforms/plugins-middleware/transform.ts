/**
 * jscodeshift transform of `plugins-middleware`, a recipe of one step per file: the generated
 * module imports the app's functions the plugins call and registers the root plugins
 * (server-module/root-plugin-registration.ts); a module defining such a function exports it or
 * lifts it out of the options (server-module/app-functions.ts); an app file loses the middleware
 * (lib/registration.ts takeOutMiddleware, helmet's statement becoming `app.disable('x-powered-by')`
 * where it removed that header). Printed in the file's style.
 */
import type { API, Collection, FileInfo, JSCodeshift } from 'jscodeshift';
import type { ImportRequest } from '../lib/imports.js';
import { applyAppFunctionEdit, importAppFunction } from '../server-module/app-functions.js';
import type { TransformOptions } from '../model.js';
import { applyEntries } from '../lib/recipe.js';
import { takeOutMiddleware } from '../lib/registration.js';
import { registerRootPlugins } from '../server-module/root-plugin-registration.js';
import type { MiddlewareEntry } from './plan.js';

/**
 * The file's new source, or null when there is nothing left to do (registered already, removed already).
 * @throws Error as registerRootPlugins (a module edited by hand), or when a registration the plan found is not in the file (takeOutMiddleware)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<MiddlewareEntry>): string | null {
  return applyEntries(file, options, ({ j, root, style }, entry) => {
    if (entry.kind === 'module') {
      const imported = importFunctions(j, root, entry.imports, style.quote);
      return registerRootPlugins(j, root, entry.plugins, entry, style) || imported > 0;
    }
    if (entry.kind !== 'express') return applyAppFunctionEdit(j, root, file.path, entry);
    for (const m of entry.middleware) takeOutMiddleware(j, root, file.path, m.anchor, m.name, m.disablesPoweredBy ? 'x-powered-by' : undefined);
    return entry.middleware.length > 0;
  });
}

/** Imports the app's functions the plugins call (app-functions.ts); returns how many it added. */
function importFunctions(j: JSCodeshift, root: Collection, imports: ImportRequest[], quote: 'single' | 'double'): number {
  return imports.filter((request) => importAppFunction(j, root, request, quote)).length;
}
