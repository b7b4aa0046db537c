/**
 * The module the `shim` stage generated (`fastify-server.*`, recognised by GENERATED_MARK on its
 * first line): found for an app (plan), and given the app's handler — an import and a
 * `fastify.setErrorHandler(handler)` / `fastify.setNotFoundHandler(handler)` call in
 * `buildFastify`, just before `return fastify` (transform).
 */
import path from 'node:path';
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { App } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';
import type { RegisterEntry } from './model.js';
import { isGeneratedModule, moduleSystemOfFile, serverModuleFor } from './shim-facts.js';
import { projectSourceFiles, type Node } from './source-files.js';

type Quote = 'single' | 'double';

/** What addImport needs: the module, how it exports the value, the preferred local name. */
export type ImportRequest = Pick<RegisterEntry, 'specifier' | 'form' | 'local' | 'module'>;

/** The generated module of an app. */
export interface GeneratedModule {
  /** POSIX path relative to the project root. */
  file: string;
  module: 'esm' | 'commonjs';
  typescript: boolean;
  source: string;
  /** `--parity express`: the shim registered Express's own error page as the error handler. */
  parityErrorPage: boolean;
}

/**
 * The generated module that serves `app`: the Fastify app the inventory says serves it
 * (`servedBy`), else the module the shim names for the app's file, its listen sites or the entry
 * (`serverModuleFor`, so both stages name it alike), else the only one in the project. Null when
 * the shim has not run.
 */
export function generatedModuleFor(ctx: PlanContext, app: App): GeneratedModule | null {
  const inventory = ctx.inventory;
  const server = app.servedBy ? inventory.apps.find((a) => a.id === app.servedBy) : undefined;
  if (server && isGeneratedModule(ctx.readFile(server.location.file))) return describe(ctx, server.location.file);
  const starts = [app.location.file, ...app.listen.map((l) => l.location.file), ...(inventory.project.entry ? [inventory.project.entry] : [])];
  for (const start of starts) {
    const { file } = serverModuleFor(ctx, start);
    if (isGeneratedModule(ctx.readFile(file))) return describe(ctx, file);
  }
  const all = projectSourceFiles(ctx.root).filter((f) => path.posix.basename(f).startsWith('fastify-') && isGeneratedModule(ctx.readFile(f)));
  return all.length === 1 ? describe(ctx, all[0]) : null;
}

function describe(ctx: PlanContext, file: string): GeneratedModule {
  const source = ctx.readFile(file) ?? '';
  return {
    file,
    module: moduleSystemOfFile(file, source, ctx.inventory.project.moduleKind),
    typescript: /\.[mc]?ts$/.test(file),
    source,
    parityErrorPage: /\.setErrorHandler\(\s*\(/.test(source),
  };
}

/**
 * Registers the handler of `entry` in `buildFastify`: imports it (reusing an import of the same
 * module), replaces a handler the shim registered for the same method (its `--parity express`
 * page), and adds `fastify.<method>(handler)` before `return fastify`. No change when the call is
 * there already.
 * @returns whether the file changed.
 * @throws Error when the module has no `function buildFastify` ending in `return <instance>` (it
 *   was edited by hand): the handler would be taken from Express and registered nowhere
 */
export function registerHandler(j: JSCodeshift, root: Collection, entry: RegisterEntry, quote: Quote): boolean {
  const build = root.find(j.FunctionDeclaration, { id: { name: 'buildFastify' } }).paths()[0];
  if (!build) throw new Error(`the generated module has no function buildFastify to register ${entry.from}'s handler in`);
  const body: Node[] = build.node.body.body;
  const returned = [...body].reverse().find((s) => s.type === 'ReturnStatement' && s.argument?.type === 'Identifier');
  if (!returned) throw new Error(`buildFastify in the generated module does not end in \`return <fastify instance>\`, where ${entry.from}'s handler is registered`);
  const instance: string = returned.argument.name;
  const imported = importedLocal(j, root, entry);
  const calls = body.filter((s) => isCallOn(s, instance, entry.method));
  if (imported && calls.some((s) => s.expression.arguments[0]?.type === 'Identifier' && s.expression.arguments[0].name === imported)) return false;
  for (const call of calls) body.splice(body.indexOf(call), 1);
  const local = imported ?? addImport(j, root, entry, quote);
  const statement = j.expressionStatement(j.callExpression(j.memberExpression(j.identifier(instance), j.identifier(entry.method)), [j.identifier(local)]));
  statement.comments = [j.commentLine(commentFor(entry), true, false)];
  body.splice(body.indexOf(returned), 0, statement);
  return true;
}

function commentFor(entry: RegisterEntry): string {
  return entry.method === 'setErrorHandler'
    ? ` The app's error handler (${entry.from}): errors of the routes still on Express reach it through the bridge (next(err)).`
    : ` The app's 404 handler (${entry.from}): requests the Express app leaves unanswered reach it through the bridge.`;
}

function isCallOn(statement: Node, instance: string, method: string): boolean {
  const e = statement.type === 'ExpressionStatement' ? statement.expression : null;
  return !!e && e.type === 'CallExpression' && e.callee.type === 'MemberExpression' && e.callee.object.type === 'Identifier' && e.callee.object.name === instance && e.callee.property.name === method;
}

/** The local name an existing import or require of `entry.specifier` gives the handler, or null. */
function importedLocal(j: JSCodeshift, root: Collection, entry: RegisterEntry): string | null {
  for (const p of root.find(j.ImportDeclaration, { source: { value: entry.specifier } }).paths()) {
    for (const s of (p.node.specifiers ?? []) as Node[]) {
      if (entry.form.kind === 'default' && s.type === 'ImportDefaultSpecifier') return s.local.name;
      if (entry.form.kind === 'named' && s.type === 'ImportSpecifier' && s.imported.name === entry.form.name) return s.local.name;
    }
  }
  for (const p of requiresOf(j, root, entry.specifier)) {
    const id = p.node.id;
    if (entry.form.kind === 'default' && id.type === 'Identifier') return id.name;
    if (entry.form.kind === 'named' && id.type === 'ObjectPattern') {
      const name = entry.form.name;
      const prop = id.properties.find((q: Node) => q.key?.name === name);
      if (prop) return prop.value.name;
    }
  }
  return null;
}

function requiresOf(j: JSCodeshift, root: Collection, specifier: string): Array<ASTPath<Node>> {
  return root
    .find(j.VariableDeclarator)
    .filter((p) => {
      const init = p.node.init as Node;
      return init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' && init.arguments[0]?.value === specifier;
    })
    .paths();
}

/** Adds the import (ESM) or require (CommonJS) after the module's last one; returns the local name. */
/**
 * Imports `entry.form` of `entry.specifier` under a collision-free local name (`local`, `local2`, …),
 * merging into an import or destructuring require of the same module when there is one; ESM
 * `import` or CommonJS `require` by `entry.module`. Shared with the routes stage.
 * @returns the local name.
 */
export function addImport(j: JSCodeshift, root: Collection, entry: ImportRequest, quote: Quote): string {
  const taken = new Set<string>();
  root.find(j.Identifier).forEach((p) => void taken.add(p.node.name));
  let local = entry.local;
  for (let i = 2; taken.has(local); i++) local = `${entry.local}${i}`;
  if (mergeIntoImport(j, root, entry, local, quote)) return local;
  const program = root.find(j.Program).paths()[0];
  const body: Node[] = program.node.body;
  const source = j.stringLiteral(entry.specifier);
  let declaration: Node;
  let last: number;
  if (entry.module === 'esm') {
    const specifier = entry.form.kind === 'default' ? j.importDefaultSpecifier(j.identifier(local)) : j.importSpecifier(j.identifier(entry.form.name), j.identifier(local));
    declaration = j.importDeclaration([specifier], source);
    last = lastIndex(body, (s) => s.type === 'ImportDeclaration');
  } else {
    declaration =
      entry.form.kind === 'named'
        ? destructuringRequire(j, [[entry.form.name, local]], entry.specifier, quote)
        : j.variableDeclaration('const', [j.variableDeclarator(j.identifier(local), j.callExpression(j.identifier('require'), [source]))]);
    last = lastIndex(body, (s) => s.type === 'VariableDeclaration' && s.declarations.some((d: Node) => d.init?.type === 'CallExpression' && d.init.callee.name === 'require'));
  }
  body.splice(last + 1, 0, declaration);
  return local;
}

/** Adds the handler to an import (or destructuring require) of the same module, when there is one that can take it. */
function mergeIntoImport(j: JSCodeshift, root: Collection, entry: ImportRequest, local: string, quote: Quote): boolean {
  const form = entry.form;
  const existing = root.find(j.ImportDeclaration, { source: { value: entry.specifier } }).filter((p) => p.node.importKind !== 'type').paths()[0];
  if (existing) {
    const specifiers = (existing.node.specifiers ?? []) as Node[];
    if (specifiers.some((s) => s.type === 'ImportNamespaceSpecifier')) return false;
    if (form.kind === 'named') specifiers.push(j.importSpecifier(j.identifier(form.name), j.identifier(local)));
    else if (specifiers.some((s) => s.type === 'ImportDefaultSpecifier')) return false;
    else specifiers.unshift(j.importDefaultSpecifier(j.identifier(local)));
    existing.node.specifiers = specifiers;
    return true;
  }
  const required = form.kind === 'named' ? requiresOf(j, root, entry.specifier).find((p) => p.node.id.type === 'ObjectPattern') : undefined;
  const declaration = required?.parent;
  if (!required || form.kind !== 'named' || declaration.node.declarations.length !== 1) return false;
  const props = (required.node.id as Node).properties as Node[];
  if (!props.every((q) => q.type === 'ObjectProperty' && q.key.type === 'Identifier' && q.value.type === 'Identifier')) return false;
  const names: Array<[string, string]> = [...props.map((q): [string, string] => [q.key.name, q.value.name]), [form.name, local]];
  const replacement = destructuringRequire(j, names, entry.specifier, quote);
  replacement.comments = declaration.node.comments;
  declaration.replace(replacement);
  return true;
}

/**
 * `const { a, b: c } = require('x');`, parsed from text: recast prints every object pattern it
 * builds over several lines, so the one-line form a person writes is made as text.
 */
function destructuringRequire(j: JSCodeshift, names: Array<[string, string]>, specifier: string, quote: Quote): Node {
  const q = quote === 'double' ? '"' : "'";
  const list = names.map(([name, local]) => (name === local ? name : `${name}: ${local}`)).join(', ');
  return j(`const { ${list} } = require(${q}${specifier}${q});`).find(j.VariableDeclaration).paths()[0].node;
}

function lastIndex(body: Node[], test: (s: Node) => boolean): number {
  for (let i = body.length - 1; i >= 0; i--) if (test(body[i])) return i;
  // No import yet: after a 'use strict' directive statement or at the top.
  return -1;
}
