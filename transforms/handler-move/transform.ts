/**
 * The transform both `errors` steps share, a recipe over the file's plan entries:
 *   1. find every planned node by its anchor, before anything changes;
 *   2. rewrite the handlers to Fastify's signature (and export them, or hoist an inline one);
 *   3. delete the Express registrations (and a factory that returned the handlers), or mark the ones that stay with a TODO(migrate);
 *   4. register the handlers in the generated module's buildFastify (and @fastify/view, for one that renders);
 *   5. fix the TypeScript type imports (Fastify's, Express's for casts of the raw objects); print in the file's style.
 * A move spans files (the handler's, the registration's, the generated module), so a part that
 * cannot be done — its node is not found by its anchor, or its rewrite would not be complete (the
 * file changed under the plan) — throws: the file fails and the runner writes nothing of the
 * stage. Nothing is ever half converted or half moved.
 */
import type { API, ASTPath, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { printEdited } from '../lib/print.js';
import { detectStyle } from '../lib/style.js';
import { registerHandler, registerViews } from '../server-module/build-fastify.js';
import { complete, planHandlerRewrite } from '../handler-rewrite/rewrite.js';
import { addExport, hoistHandler } from '../lib/exports.js';
import type { MoveEntry } from './model.js';
import { addTodo, removeTodo } from '../lib/todo.js';
import { flagRegistration, removeRegistration } from '../lib/registration.js';
import { findByAnchor, notFound } from '../lib/anchor.js';
import { functionPaths, jFor, type Node } from '../lib/ast.js';
import { addFastifyTypes, addTypeImports, dropUnusedImports } from '../lib/type-imports.js';
import type { TypeImport } from '../handler-rewrite/types.js';
import { importedSpecifiers } from '../lib/imports.js';
import { removeFactory } from './factory.js';

/**
 * jscodeshift transform of the `errors` steps: the new source, or null when nothing changes.
 * @throws Error when a rewrite, hoist, unregister or register of the plan cannot be done in this file
 */
export default function transformMoves(file: FileInfo, _api: API, options: TransformOptions<MoveEntry>): string | null {
  const entries = options.plan?.entries ?? [];
  if (!entries.length) return null;
  const j = jFor(file.path);
  const root = j(file.source);
  const functions = functionPaths(j, root);
  const statements = root.find(j.Statement).paths();
  const at = (anchor: { text: string; line: number }, paths: Array<ASTPath<Node>>) => findByAnchor(paths, anchor);
  const style = detectStyle(file.source, file.path);

  const steps: Array<() => boolean> = [];
  const types = new Set<string>();
  const dropped = new Set<string>();
  const typeImports: TypeImport[] = [];
  for (const entry of entries) {
    if (entry.kind === 'rewrite') {
      const fn = at(entry.fn, functions) ?? notFound(file.path, 'the handler function to rewrite', entry.fn);
      const rewrite = complete(planHandlerRewrite(j, fn, entry.options), file.path, entry.fn);
      for (const t of rewrite.types) types.add(t);
      for (const t of rewrite.droppedTypes) dropped.add(t);
      typeImports.push(...rewrite.typeImports);
      steps.push(() => {
        rewrite.apply();
        if (entry.exportAs) addExport(j, root, entry.exportAs, entry.module);
        return true;
      });
    } else if (entry.kind === 'hoist') {
      const statement = at(entry.statement, statements);
      const call = statement?.node.type === 'ExpressionStatement' ? statement.get('expression') : null;
      const fn = call?.node.type === 'CallExpression' ? call.get('arguments', entry.argIndex) : null;
      if (!statement || !fn || !/Function/.test(fn.node.type)) notFound(file.path, 'the registration with the handler to hoist', entry.statement);
      const rewrite = complete(planHandlerRewrite(j, fn, entry.options), file.path, entry.statement);
      for (const t of rewrite.types) types.add(t);
      for (const t of rewrite.droppedTypes) dropped.add(t);
      typeImports.push(...rewrite.typeImports);
      steps.push(() => {
        rewrite.apply();
        hoistHandler(j, root, statement, fn.node, entry.name, entry.module, entry.flag);
        return true;
      });
    } else if (entry.kind === 'unregister') {
      const statement = at(entry.statement, statements) ?? notFound(file.path, 'the registration to delete', entry.statement);
      const arg = statement.node.expression?.arguments?.[entry.argIndex];
      steps.push(() => {
        if (entry.flag) flagRegistration(j, root, statement, entry.flag, arg);
        else removeRegistration(j, root, statement, arg);
        return true;
      });
    } else if (entry.kind === 'unfactory') {
      const statement = at(entry.statement, statements) ?? notFound(file.path, 'the factory to delete', entry.statement);
      steps.push(() => {
        for (const t of removeFactory(j, root, statement, entry.name)) dropped.add(t);
        return true;
      });
    } else if (entry.kind === 'todo') {
      const statement = at(entry.statement, statements);
      // A TODO only marks what the ManualItem already reports: a statement not found loses the comment, not the item.
      if (statement) steps.push(() => addTodo(j, statement, entry.reason, entry.prefix));
    } else if (entry.kind === 'untodo') {
      const statement = at(entry.statement, statements);
      if (statement) steps.push(() => removeTodo(statement, entry.prefix));
    } else if (entry.kind === 'views') {
      steps.push(() => registerViews(j, root, entry, style.quote));
    } else {
      steps.push(() => registerHandler(j, root, entry, style.quote));
    }
  }
  const importsBefore = importedSpecifiers(j, root);
  let changed = false;
  for (const step of steps) changed = step() || changed;
  if (!changed) return null;
  addFastifyTypes(j, root, [...types]);
  addTypeImports(j, root, typeImports);
  dropUnusedImports(j, root, [...dropped]);
  return printEdited(j, root, file.source, style, importsBefore);
}

