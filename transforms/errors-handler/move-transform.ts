/**
 * The transform both `errors` steps share, a recipe over the file's plan entries:
 *   1. find every planned node by its anchor, before anything changes;
 *   2. rewrite the handlers to Fastify's signature (and export them, or hoist an inline one);
 *   3. delete the Express registrations, or mark the ones that stay with a TODO(migrate);
 *   4. register the handlers in the generated module's buildFastify;
 *   5. fix the TypeScript type imports; print in the file's style.
 * A handler whose rewrite would not be complete is left as it is (the plan said it moves, so this
 * only happens when the file changed under the plan); nothing is ever half converted.
 */
import type { API, ASTPath, Collection, FileInfo, JSCodeshift } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { printWithStyle } from '../lib/print.js';
import { detectStyle } from '../lib/style.js';
import { registerHandler } from './fastify-module.js';
import { planHandlerRewrite, type HandlerRewrite } from './handler-function.js';
import { addExport, hoistHandler } from './handler-module.js';
import type { MoveEntry } from './model.js';
import { addTodo, removeRegistration } from './registration.js';
import { findByAnchor, functionPaths, jFor, type Node } from './source-files.js';
import { addFastifyTypes, dropUnusedImports } from './type-imports.js';

/** jscodeshift transform of the `errors` steps: the new source, or null when nothing changes. */
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
      const fn = at(entry.fn, functions);
      const rewrite = fn && complete(planHandlerRewrite(j, fn, entry.options));
      if (!rewrite) continue;
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
      const rewrite = fn && /Function/.test(fn.node.type) && complete(planHandlerRewrite(j, fn, entry.options));
      if (!rewrite || !statement) continue;
      for (const t of rewrite.types) types.add(t);
      for (const t of rewrite.droppedTypes) dropped.add(t);
      steps.push(() => {
        rewrite.apply();
        hoistHandler(j, root, statement, fn.node, entry.name, entry.module);
        return true;
      });
    } else if (entry.kind === 'unregister') {
      const statement = at(entry.statement, statements);
      if (!statement) continue;
      const arg = statement.node.expression?.arguments?.[entry.argIndex];
      steps.push(() => {
        removeRegistration(j, root, statement, arg);
        return true;
      });
    } else if (entry.kind === 'todo') {
      const statement = at(entry.statement, statements);
      if (statement) steps.push(() => addTodo(j, statement, entry.reason));
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
function keepDirectiveGap(original: string, printed: string): string {
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
function importedSpecifiers(j: JSCodeshift, root: Collection): Set<string> {
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
function closeImportGaps(text: string, specifiers: string[]): string {
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

function complete(rewrite: HandlerRewrite): HandlerRewrite | null {
  return rewrite.refusals.length ? null : rewrite;
}
