/**
 * jscodeshift transform of `plugins-server-options`, a recipe of one step per file: the generated
 * module sets the server options (server-module/fastify-options.ts setFastifyOption); an app file
 * loses the middleware's registrations (lib/registration.ts, with the import nothing else uses).
 * Printed in the file's style (lib/recipe.ts).
 */
import type { API, Collection, FileInfo, JSCodeshift } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import type { Node } from '../lib/ast.js';
import { removeUnusedImport } from '../lib/imports.js';
import { applyEntries, type FileEdit } from '../lib/recipe.js';
import { findRegistration, removeRegistration } from '../lib/registration.js';
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

/**
 * Deletes each middleware's registration statement (and its import when unused); one found no more
 * is gone already. A middleware the app made in a constant of the module (`const logger =
 * morgan('dev'); app.use(logger)`) loses that constant too when nothing else reads it, and then the
 * factory's import.
 */
function removeMiddleware({ j, root, source }: FileEdit, middleware: Extract<ServerOptionsEntry, { kind: 'express' }>['middleware']): boolean {
  let changed = false;
  for (const m of middleware) {
    const found = findRegistration(j, root, source, m.registration, m.name, undefined);
    if (!found) continue;
    const handler: Node = found.call.node.arguments[found.argIndex];
    removeRegistration(j, root, found.statement, handler);
    if (handler.type === 'Identifier') removeUnusedFactoryConstant(j, root, handler.name);
    changed = true;
  }
  return changed;
}

/** Deletes the top-level `const name = factory(…)` when nothing reads `name` any more, and the factory's import when nothing else uses it. */
function removeUnusedFactoryConstant(j: JSCodeshift, root: Collection, name: string): void {
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const at = program.findIndex((s) => s.type === 'VariableDeclaration' && s.declarations.length === 1 && s.declarations[0].id.type === 'Identifier' && s.declarations[0].id.name === name);
  const init = at >= 0 ? program[at].declarations[0].init : null;
  if (init?.type !== 'CallExpression' || init.callee.type !== 'Identifier' || root.find(j.Identifier, { name }).size() !== 1) return;
  program.splice(at, 1);
  removeUnusedImport(j, root, init.callee.name);
}
