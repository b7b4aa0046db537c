/**
 * The transform both `errors` steps share, a recipe over the file's plan entries:
 *   1. find every planned node by its anchor, before anything changes;
 *   2. rewrite the handlers to Fastify's signature (and export them, or hoist an inline one);
 *   3. delete the Express registrations, or mark the ones that stay with a TODO(migrate);
 *   4. register the handlers in the generated module's buildFastify;
 *   5. fix the TypeScript type imports; print in the file's style.
 * A move spans files (the handler's, the registration's, the generated module), so a part that
 * cannot be done — its node is not found by its anchor, or its rewrite would not be complete (the
 * file changed under the plan) — throws: the file fails and the runner writes nothing of the
 * stage. Nothing is ever half converted or half moved.
 */
import type { API, ASTPath, Collection, FileInfo, JSCodeshift } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { printWithStyle } from '../lib/print.js';
import { detectStyle } from '../lib/style.js';
import { registerHandler } from './fastify-module.js';
import { planHandlerRewrite, type HandlerRewrite } from './handler-function.js';
import { addExport, hoistHandler } from './handler-module.js';
import type { MoveEntry } from './model.js';
import { addTodo, removeRegistration, removeTodo } from './registration.js';
import { findByAnchor, functionPaths, jFor, type Node } from './source-files.js';
import { addFastifyTypes, dropUnusedImports } from './type-imports.js';

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
  for (const entry of entries) {
    if (entry.kind === 'rewrite') {
      const fn = at(entry.fn, functions) ?? notFound(file.path, 'the handler function to rewrite', entry.fn);
      const rewrite = complete(planHandlerRewrite(j, fn, entry.options), file.path, entry.fn);
      for (const t of rewrite.types) types.add(t);
      for (const t of rewrite.droppedTypes) dropped.add(t);
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
      steps.push(() => {
        rewrite.apply();
        hoistHandler(j, root, statement, fn.node, entry.name, entry.module);
        return true;
      });
    } else if (entry.kind === 'unregister') {
      const statement = at(entry.statement, statements) ?? notFound(file.path, 'the registration to delete', entry.statement);
      const arg = statement.node.expression?.arguments?.[entry.argIndex];
      steps.push(() => {
        removeRegistration(j, root, statement, arg);
        return true;
      });
    } else if (entry.kind === 'todo') {
      const statement = at(entry.statement, statements);
      // A TODO only marks what the ManualItem already reports: a statement not found loses the comment, not the item.
      if (statement) steps.push(() => addTodo(j, statement, entry.reason, entry.prefix));
    } else if (entry.kind === 'untodo') {
      const statement = at(entry.statement, statements);
      if (statement) steps.push(() => removeTodo(statement, entry.prefix));
    } else {
      steps.push(() => registerHandler(j, root, entry, style.quote));
    }
  }
  const importsBefore = importedSpecifiers(j, root);
  let changed = false;
  for (const step of steps) changed = step() || changed;
  if (!changed) return null;
  addFastifyTypes(j, root, [...types]);
  dropUnusedImports(j, root, [...dropped]);
  const added = [...importedSpecifiers(j, root)].filter((s) => !importsBefore.has(s));
  return keepDirectiveGap(file.source, closeImportGaps(printWithStyle(root, file.source, style), added));
}

/**
 * recast reprints a program whose statement list changed without the blank line that followed
 * its directive (`'use strict';`); put it back when the original had it.
 */
export function keepDirectiveGap(original: string, printed: string): string {
  const directive = /^([ \t]*(['"])use strict\2;?)(\r?\n)/m;
  const before = directive.exec(original);
  const after = directive.exec(printed);
  if (!before || !after) return printed;
  const eol = after[3];
  const blankAfter = (text: string, m: RegExpExecArray) => /^[ \t]*\r?\n/.test(text.slice(m.index + m[0].length));
  if (!blankAfter(original, before) || blankAfter(printed, after)) return printed;
  const at = after.index + after[0].length;
  return printed.slice(0, at) + eol + printed.slice(at);
}

/** Specifiers the module imports or requires at its top level. */
export function importedSpecifiers(j: JSCodeshift, root: Collection): Set<string> {
  const out = new Set<string>();
  root.find(j.ImportDeclaration).forEach((p) => void out.add(String(p.node.source.value)));
  root.find(j.CallExpression, { callee: { type: 'Identifier', name: 'require' } }).forEach((p) => {
    const arg = p.node.arguments[0] as Node;
    if (arg?.type === 'StringLiteral') out.add(arg.value);
  });
  return out;
}

/**
 * recast separates a statement added after the last import by the blank line that followed that
 * import; an import we added belongs to the block above it, so that blank line goes.
 */
export function closeImportGaps(text: string, specifiers: string[]): string {
  if (!specifiers.length) return text;
  const lines = text.split('\n');
  const isImport = (line: string) => /^\s*(import\s|(const|let|var)\s.*\brequire\()/.test(line);
  for (const specifier of specifiers) {
    const quoted = new RegExp(`['"]${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]`);
    const at = lines.findIndex((line) => isImport(line) && quoted.test(line));
    if (at >= 2 && lines[at - 1].trim() === '' && isImport(lines[at - 2])) lines.splice(at - 1, 1);
  }
  return lines.join('\n');
}

/** `rewrite` when it converts everything; else throws (the plan said it would: the file changed under it). */
export function complete(rewrite: HandlerRewrite, file: string, anchor: { line: number }): HandlerRewrite {
  if (rewrite.refusals.length) throw new Error(`${file}:${anchor.line}: the planned handler can no longer be rewritten (${rewrite.refusals.join('; ')}); did the file change since the plan?`);
  return rewrite;
}

/** Throws for a planned node that is not in the file: moving the rest of the handler would leave it half moved. */
export function notFound(file: string, what: string, anchor: { text: string; line: number }): never {
  const first = anchor.text.split('\n', 1)[0].slice(0, 80);
  throw new Error(`${file}:${anchor.line}: ${what} (\`${first}\`) is not where the plan found it; did the file change since the plan?`);
}
