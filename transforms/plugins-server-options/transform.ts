/**
 * jscodeshift transform of `plugins-server-options`, a recipe of one step per file: the generated
 * module sets the server options (server-module/fastify-options.ts setFastifyOption); an app file
 * loses the middleware's registrations (lib/registration.ts, with the import nothing else uses).
 * Printed in the file's style (lib/recipe.ts).
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { applyEntries, type FileEdit } from '../lib/recipe.js';
import { takeOutMiddleware } from '../lib/registration.js';
import { setFastifyOption } from '../server-module/fastify-options.js';
import type { ServerOptionsEntry } from './plan.js';

/**
 * The file's new source, or null when there is nothing left to do (set already, removed already).
 * @throws Error as setFastifyOption (a module edited by hand)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<ServerOptionsEntry>): string | null {
  return applyEntries(file, options, (edit, entry) => (entry.kind === 'module' ? setOptions(edit, entry.options) : removeMiddleware(edit, entry.middleware)));
}

/** Sets each option in buildFastify, with a comment naming the middleware it replaces. */
function setOptions({ j, root }: FileEdit, options: Extract<ServerOptionsEntry, { kind: 'module' }>['options']): boolean {
  let changed = false;
  for (const o of options) changed = setFastifyOption(j, root, o.option.name, o.option.value, ` The app's ${o.callee} (${o.registration.file}:${o.registration.line}), as Fastify's ${o.option.name} (\`migrate run --stage plugins\`).`) || changed;
  return changed;
}

/** Takes each middleware out of the Express app (lib/registration.ts takeOutMiddleware). */
function removeMiddleware({ j, root, file }: FileEdit, middleware: Extract<ServerOptionsEntry, { kind: 'express' }>['middleware']): boolean {
  for (const m of middleware) takeOutMiddleware(j, root, file, m.anchor, m.name);
  return middleware.length > 0;
}
