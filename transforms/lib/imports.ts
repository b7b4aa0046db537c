/**
 * Imports and requires in a file being transformed: what it imports, adding an import (merged into
 * one of the same module when there is one, under a collision-free name, ESM `import` or CommonJS
 * `require` by the module's system), and removing a binding nothing uses any more.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { textOf, type Node } from './ast.js';
import type { ImportForm } from './exports.js';

type Quote = 'single' | 'double';

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

/** Removes the import specifier or `require` binding `name` when no reference to it is left. */
export function removeUnusedImport(j: JSCodeshift, root: Collection, name: string): void {
  const references = root.find(j.Identifier, { name }).filter((p) => {
    const parent = p.parent.node;
    if (/^Import/.test(parent.type)) return false;
    if (parent.type === 'VariableDeclarator' && parent.id === p.node) return false;
    if (parent.type === 'ObjectProperty' && p.parent.parent.node.type === 'ObjectPattern') return false;
    if (parent.type === 'MemberExpression' && parent.property === p.node && !parent.computed) return false;
    if (parent.type === 'ObjectProperty' && parent.key === p.node && !parent.shorthand && !parent.computed) return false;
    return true;
  });
  if (references.size()) return;
  root.find(j.ImportDeclaration).forEach((p) => {
    const specifiers: Node[] = p.node.specifiers ?? [];
    const kept = specifiers.filter((s) => s.local.name !== name);
    if (kept.length === specifiers.length) return;
    if (kept.length) p.node.specifiers = kept;
    else p.prune();
  });
  root.find(j.VariableDeclarator).forEach((p) => {
    const init = p.node.init;
    const required = init && init.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require';
    if (!required || p.parent.parent.node.type !== 'Program') return;
    if (p.node.id.type === 'Identifier' && p.node.id.name === name) {
      p.prune();
      return;
    }
    if (p.node.id.type === 'ObjectPattern') {
      const props: Node[] = p.node.id.properties;
      const kept = props.filter((q) => !(q.value?.type === 'Identifier' && q.value.name === name));
      if (kept.length === props.length) return;
      if (!kept.length) return void p.prune();
      // recast reprints a changed pattern one property a line; one written on a line stays on one (parsed from text, printed as written).
      const texts = kept.map((q) => textOf(q));
      const oneLine = !p.node.id.typeAnnotation && p.node.id.loc && p.node.id.loc.start.line === p.node.id.loc.end.line && texts.every((t) => t !== null);
      if (oneLine) p.node.id = j(`const { ${texts.join(', ')} } = x;`).find(j.VariableDeclarator).paths()[0].node.id;
      else p.node.id.properties = kept;
    }
  });
}

/** The local name an existing import or require of `specifier` gives its export `form`, or null. */
export function importedLocal(j: JSCodeshift, root: Collection, specifier: string, form: ImportForm): string | null {
  for (const p of root.find(j.ImportDeclaration, { source: { value: specifier } }).paths()) {
    for (const s of (p.node.specifiers ?? []) as Node[]) {
      if (form.kind === 'default' && s.type === 'ImportDefaultSpecifier') return s.local.name;
      if (form.kind === 'named' && s.type === 'ImportSpecifier' && s.imported.name === form.name) return s.local.name;
    }
  }
  if (form.kind === 'default') {
    const equals = root.find(j.TSImportEqualsDeclaration).filter((p) => (p.node.moduleReference as Node).expression?.value === specifier).paths()[0];
    if (equals) return (equals.node.id as Node).name;
  }
  for (const p of requiresOf(j, root, specifier)) {
    const id = p.node.id;
    if (form.kind === 'default' && id.type === 'Identifier') return id.name;
    if (form.kind === 'named' && id.type === 'ObjectPattern') {
      const prop = id.properties.find((q: Node) => q.key?.name === form.name);
      if (prop) return prop.value.name;
    }
  }
  return null;
}

/** What addImport needs: the module, how it exports the value, the preferred local name. */
export interface ImportRequest {
  /** The module imported (`./middleware/error.js`, `encodeurl`). */
  specifier: string;
  /** How the module exports the value. */
  form: ImportForm;
  /** Preferred local name (made collision-free). */
  local: string;
  /** The importing file's module system: `import` or `require`. */
  module: 'esm' | 'commonjs';
  /**
   * TypeScript compiled to CommonJS importing a CommonJS package it calls (`errorhandler`):
   * `import local = require('specifier')`, which works with or without esModuleInterop (form default only).
   */
  equalsRequire?: boolean;
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
 * `import` or CommonJS `require` by `entry.module`, or `import x = require(…)` (`equalsRequire`).
 * Shared with the routes stage.
 * @returns the local name.
 */
export function addImport(j: JSCodeshift, root: Collection, entry: ImportRequest, quote: Quote): string {
  const taken = new Set<string>();
  root.find(j.Identifier).forEach((p) => void taken.add(p.node.name));
  let local = entry.local;
  for (let i = 2; taken.has(local); i++) local = `${entry.local}${i}`;
  const program = root.find(j.Program).paths()[0];
  const body: Node[] = program.node.body;
  if (entry.equalsRequire) {
    const q = quote === 'double' ? '"' : "'";
    const [equals] = j(`import ${local} = require(${q}${entry.specifier}${q});`).find(j.Program).paths()[0].node.body;
    body.splice(lastIndex(body, (s) => s.type === 'ImportDeclaration' || s.type === 'TSImportEqualsDeclaration') + 1, 0, equals);
    return local;
  }
  if (mergeIntoImport(j, root, entry, local, quote)) return local;
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

/** Adds `import * as local from 'specifier'` after the module's last import (TypeScript's form of a CommonJS package without esModuleInterop). */
export function addNamespaceImport(j: JSCodeshift, root: Collection, local: string, specifier: string): void {
  const body: Node[] = root.find(j.Program).paths()[0].node.body;
  body.splice(lastIndex(body, (s) => s.type === 'ImportDeclaration') + 1, 0, j.importDeclaration([j.importNamespaceSpecifier(j.identifier(local))], j.stringLiteral(specifier)));
}

/** The local name of `import * as x from 'specifier'`, or null. */
export function namespaceImported(j: JSCodeshift, root: Collection, specifier: string): string | null {
  const s = root.find(j.ImportDeclaration, { source: { value: specifier } }).find(j.ImportNamespaceSpecifier).nodes()[0];
  return s ? (s.local!.name as string) : null;
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

/**
 * Inserts `line` (one or more import lines, joined by the file's line ending) after the last
 * top-level import or `require` declaration of `source` (or before the first statement), as text:
 * reprinting the program would lose the blank lines around directives and imports (recast prints
 * the whole statement list again). Shared by the shim's start sites and the tests it points at Fastify.
 */
export function insertImportLine(j: JSCodeshift, source: string, line: string, style: { eol: string }): string {
  const program = j(source).find(j.Program).nodes()[0];
  const statements = program.body as Array<{ type: string; loc?: { start: { line: number; column: number }; end: { line: number } } | null; declarations?: Array<{ init?: { type: string; callee?: { type: string; name?: string } } | null }> }>;
  const isRequire = (s: (typeof statements)[number]) =>
    s.type === 'VariableDeclaration' && (s.declarations ?? []).some((d) => d.init?.type === 'CallExpression' && d.init.callee?.type === 'Identifier' && d.init.callee.name === 'require');
  const last = statements.filter((s) => s.type === 'ImportDeclaration' || s.type === 'TSImportEqualsDeclaration' || isRequire(s)).at(-1);
  const lines = source.split(style.eol);
  // A statement after it on the same line (`const app = require('./app'); app.listen(…)`) goes on a line of its own, after the import.
  const next = last ? statements[statements.indexOf(last) + 1] : undefined;
  if (last?.loc && next?.loc && next.loc.start.line === last.loc.end.line) {
    const at = last.loc.end.line - 1;
    lines.splice(at, 1, lines[at].slice(0, next.loc.start.column).trimEnd(), line, lines[at].slice(next.loc.start.column));
  } else if (last?.loc) lines.splice(last.loc.end.line, 0, line);
  else lines.splice(Math.max(0, (statements[0]?.loc?.start.line ?? 1) - 1), 0, line, '');
  return lines.join(style.eol);
}

/**
 * Imports `local` from `specifier` into a generated module unless it does: a default (a namespace
 * in TypeScript, as the generated module imports Node's and CommonJS packages there) or a named
 * export. `user` names what needs it, for the error.
 * @returns whether it added the import.
 * @throws Error when `local` is bound to another import or name
 */
export function ensureImported(
  j: JSCodeshift,
  root: Collection,
  want: { local: string; specifier: string; kind: 'default' | 'named'; typescript: boolean; module: 'esm' | 'commonjs' },
  quote: Quote,
  user: string,
): boolean {
  const { local, specifier, kind } = want;
  const form: ImportForm = kind === 'named' ? { kind: 'named', name: local } : { kind: 'default' };
  const found = importedLocal(j, root, specifier, form) ?? namespaceImported(j, root, specifier);
  if (found === local) return false;
  if (found || root.find(j.Identifier, { name: local }).size()) throw new Error(`the generated module binds ${local} to something other than ${specifier}, which ${user} use`);
  if (want.typescript && kind === 'default') addNamespaceImport(j, root, local, specifier);
  else addImport(j, root, { specifier, form, local, module: want.module }, quote);
  return true;
}
