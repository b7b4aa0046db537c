/**
 * jscodeshift transform of `plugins-static`, a recipe of one step per file: the generated module
 * registers the moving static mounts (server-module/static-registration.ts registerStatic); an app
 * file loses their registrations (lib/registration.ts, with the import nothing else uses). Printed
 * in the file's style.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { jFor } from '../lib/ast.js';
import { importedSpecifiers } from '../lib/imports.js';
import { printEdited } from '../lib/print.js';
import { findRegistration, removeRegistration } from '../lib/registration.js';
import { detectStyle } from '../lib/style.js';
import { registerStatic } from '../server-module/static-registration.js';
import type { StaticEntry } from './plan.js';

/**
 * The file's new source, or null when there is nothing left to do (registered already, removed already).
 * @throws Error as registerStatic (a module edited by hand), or when a registration the plan names
 *   cannot be deleted (the file changed since the analysis)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<StaticEntry>): string | null {
  const entries = options.plan?.entries ?? [];
  if (!entries.length) return null;
  const j = jFor(file.path);
  const root = j(file.source);
  const style = detectStyle(file.source, file.path);
  const importsBefore = importedSpecifiers(j, root);
  let changed = false;
  for (const entry of entries) {
    if (entry.kind === 'module') changed = registerStatic(j, root, entry.mounts, entry, style) || changed;
    else changed = removeMounts(j, root, file.source, entry.mounts) || changed;
  }
  return changed ? printEdited(j, root, file.source, style, importsBefore) : null;
}

/**
 * Deletes each mount's `app.use([path,] mount)` statement (the planner took only mounts registered
 * alone in a statement of their own); one found no more is gone already.
 */
function removeMounts(j: ReturnType<typeof jFor>, root: ReturnType<ReturnType<typeof jFor>>, source: string, mounts: Extract<StaticEntry, { kind: 'express' }>['mounts']): boolean {
  const found = mounts.flatMap((m) => findRegistration(j, root, source, m.registration, m.name, undefined) ?? []);
  for (const registration of found) removeRegistration(j, root, registration.statement, registration.call.node.arguments[registration.argIndex]);
  return found.length > 0;
}
