/**
 * Other uses of a handler besides its registration: a handler that a route calls, or that is
 * registered a second time, cannot move to Fastify alone (the other use would still expect the
 * Express signature). Read from the source: references to its binding in its own module, and to
 * its export in the modules that import it (Inventory.files: the analyzer's resolution of every
 * import, tsconfig paths included).
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { Location } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';
import { moduleExportsTarget, type ImportForm } from './exports.js';
import { identifiersNamed, pathsOfType, type Node } from './ast.js';
import { parsedFiles } from './parsed-files.js';

/** What identifies the handler. */
export interface HandlerIdentity {
  /** Module that defines it. */
  file: string;
  /** Its top-level binding there, when it has one. */
  binding: string | null;
  /** How other modules import it, when it is exported. */
  form: ImportForm | null;
  /** Source range of the function itself (uses inside it do not count). */
  range: [number, number];
}

/** A registration that moves with it (or a factory that goes with it): uses inside this range do not count. */
export interface RegistrationSite {
  file: string;
  range: [number, number];
}

/** Locations (file, line, column) of the handler's other uses; empty when the registrations are its only uses. */
export function otherUses(ctx: PlanContext, handler: HandlerIdentity, registrations: RegistrationSite[]): Location[] {
  const found: Location[] = [];
  const outside = (file: string, node: Node) => {
    const ranges = [...(file === handler.file ? [handler.range] : []), ...registrations.filter((r) => r.file === file).map((r) => r.range)];
    return !ranges.some(([s, e]) => node.start >= s && node.end <= e);
  };
  const at = (file: string, node: Node): Location => ({ file, line: node.loc.start.line, column: node.loc.start.column + 1 });
  const defSource = ctx.readFile(handler.file);
  const def = defSource ? parsedFiles(ctx)(handler.file) : null;
  if (def && handler.binding) {
    for (const p of referencesTo(def.j, def.root, handler.binding)) if (outside(handler.file, p.node) && !isExportSite(p)) found.push(at(handler.file, p.node));
  }
  if (!handler.form) return found;
  // The modules that import the handler's, and with which specifiers, as the analyzer resolved them (tsconfig paths included).
  for (const facts of ctx.inventory.files) {
    const specifiers = new Set(facts.imports.filter((i) => i.resolved === handler.file).map((i) => i.specifier));
    if (facts.file === handler.file || !specifiers.size) continue;
    const source = ctx.readFile(facts.file);
    const parsed = source ? parsedFiles(ctx)(facts.file) : null;
    if (!parsed) continue;
    for (const use of importedUses(parsed.j, parsed.root, handler, specifiers)) if (outside(facts.file, use)) found.push(at(facts.file, use));
  }
  return found;
}

/** Identifier paths reading the top-level binding `name` (not declarations, property names or imports). */
function referencesTo(j: JSCodeshift, root: Collection, name: string): Array<ASTPath<Node>> {
  return identifiersNamed(j, root, name).filter((p) => {
      const parent = p.parent.node;
      if (/^(Import|Export)\w*Specifier$/.test(parent.type)) return false;
      if ((parent.type === 'FunctionDeclaration' || parent.type === 'VariableDeclarator' || parent.type === 'FunctionExpression' || parent.type === 'ClassDeclaration') && parent.id === p.node) return false;
      if ((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === p.node && !parent.computed) return false;
      // A shorthand property `{ name }` has a key and a value node: the value is the reference.
      if (parent.type === 'ObjectProperty' && parent.key === p.node && !parent.computed) return false;
      // `const { name } = require(…)`: a binding, not a use.
      if (parent.type === 'ObjectProperty' && p.parent.parent.node.type === 'ObjectPattern') return false;
      if (/^TS/.test(parent.type)) return false;
      if (p.scope && p.scope.lookup(name) && !p.scope.lookup(name).isGlobal) return false;
      return true;
    });
}

/** `export default name`, `module.exports = name`, `module.exports = { name }`, `exports.x = name`: the export itself, not a use. */
function isExportSite(p: ASTPath<Node>): boolean {
  const parent = p.parent.node;
  if (parent.type === 'ExportDefaultDeclaration') return true;
  if (parent.type === 'AssignmentExpression' && parent.right === p.node) return moduleExportsTarget(parent.left) !== null;
  if (parent.type === 'ObjectProperty' && parent.value === p.node) {
    const assignment = p.parent.parent.parent.node;
    // `export default { shorten, redirect }` (a controller object), or `module.exports = { … }`.
    if (assignment.type === 'ExportDefaultDeclaration') return true;
    return assignment.type === 'AssignmentExpression' && assignment.right === p.parent.parent.node && moduleExportsTarget(assignment.left) === 'module';
  }
  return false;
}

/** Nodes in one module that use the handler through an import or require of its module. */
function importedUses(j: JSCodeshift, root: Collection, handler: HandlerIdentity, specifiers: ReadonlySet<string>): Node[] {
  const form = handler.form!;
  const uses: Node[] = [];
  const targetsHandler = (specifier: unknown) => typeof specifier === 'string' && specifiers.has(specifier);
  const usesOf = (local: string, member: string | null) => {
    for (const p of referencesTo(j, root, local)) {
      if (!member) uses.push(p.node);
      else if (p.parent.node.type === 'MemberExpression' && p.parent.node.object === p.node && p.parent.node.property.name === member) uses.push(p.parent.node);
    }
  };
  for (const p of pathsOfType(j, root, 'ImportDeclaration')) {
    if (!targetsHandler(p.node.source.value)) continue;
    for (const s of (p.node.specifiers ?? []) as Node[]) {
      if (s.type === 'ImportDefaultSpecifier' && form.kind === 'default') usesOf(s.local.name, null);
      else if (s.type === 'ImportSpecifier' && form.kind === 'named' && s.imported.name === form.name) usesOf(s.local.name, null);
      else if (s.type === 'ImportNamespaceSpecifier') usesOf(s.local.name, form.kind === 'named' ? form.name : 'default');
    }
  }
  for (const p of pathsOfType(j, root, 'VariableDeclarator')) {
    const init = p.node.init as Node;
    if (!(init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' && targetsHandler(init.arguments[0]?.value))) continue;
    const id = p.node.id as Node;
    if (id.type === 'Identifier') usesOf(id.name, form.kind === 'named' ? form.name : null);
    else if (id.type === 'ObjectPattern' && form.kind === 'named') {
      const prop = id.properties.find((q: Node) => q.key?.name === form.name);
      if (prop?.value?.type === 'Identifier') usesOf(prop.value.name, null);
    }
  }
  return uses;
}

/**
 * Whether `file` (POSIX, relative to the project) is a test: under a `test`, `tests`, `__tests__`
 * or `spec` folder, or named `*.test.*` / `*.spec.*` (Jest, Vitest, Mocha conventions). A test
 * calling a handler does not keep it on Express: the stage moves it and asks for the test's update.
 */
export function isTestFile(file: string): boolean {
  return /(^|\/)(tests?|__tests__|spec)\//.test(file) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(file);
}
