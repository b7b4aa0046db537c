/**
 * jscodeshift transform of `plugins-server-options`, a recipe of one step per file: the generated
 * module sets the server options (server-module/fastify-options.ts setFastifyOption); an app file
 * loses the middleware's registrations (lib/registration.ts, with the import nothing else uses).
 * Printed in the file's style.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { jFor } from '../lib/ast.js';
import { importedSpecifiers } from '../lib/imports.js';
import { printEdited } from '../lib/print.js';
import { findRegistration, removeRegistration } from '../lib/registration.js';
import { detectStyle } from '../lib/style.js';
import { setFastifyOption } from '../server-module/fastify-options.js';
import type { ServerOptionsEntry } from './plan.js';

/**
 * The file's new source, or null when there is nothing left to do (set already, removed already).
 * @throws Error as setFastifyOption (a module edited by hand)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<ServerOptionsEntry>): string | null {
  const entries = options.plan?.entries ?? [];
  if (!entries.length) return null;
  const j = jFor(file.path);
  const root = j(file.source);
  const style = detectStyle(file.source, file.path);
  const importsBefore = importedSpecifiers(j, root);
  let changed = false;
  for (const entry of entries) {
    if (entry.kind === 'module') {
      for (const o of entry.options) changed = setFastifyOption(j, root, o.option.name, o.option.value, ` The app's ${o.name} (${o.registration.file}:${o.registration.line}), as Fastify's ${o.option.name} (\`migrate run --stage plugins\`).`) || changed;
    } else {
      // Deleted once: a registration found no more is gone already.
      for (const m of entry.middleware) {
        const found = findRegistration(j, root, file.source, m.registration, m.name, undefined);
        if (!found) continue;
        removeRegistration(j, root, found.statement, found.call.node.arguments[found.argIndex]);
        changed = true;
      }
    }
  }
  return changed ? printEdited(j, root, file.source, style, importsBefore) : null;
}
