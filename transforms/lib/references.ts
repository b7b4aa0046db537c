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
  return otherUseNodes(ctx, handler, registrations).map((u) => at(u.file, u.node));
}

/** The nodes of the handler's other uses (otherUses), each with its file. */
export function otherUseNodes(ctx: PlanContext, handler: HandlerIdentity, registrations: RegistrationSite[]): Array<{ file: string; node: Node }> {
  const found: Array<{ file: string; node: Node }> = [];
  const outside = (file: string, node: Node) => {
    const ranges = [...(file === handler.file ? [handler.range] : []), ...registrations.filter((r) => r.file === file).map((r) => r.range)];
    return !ranges.some(([s, e]) => node.start >= s && node.end <= e);
  };
  const defSource = ctx.readFile(handler.file);
  const def = defSource ? parsedFiles(ctx)(handler.file) : null;
  if (def && handler.binding) {
    for (const p of referencesTo(def.j, def.root, handler.binding)) if (outside(handler.file, p.node) && !isExportSite(p)) found.push({ file: handler.file, node: p.node });
  }
  if (!handler.form) return found;
  // The modules that import the handler's, and with which specifiers, as the analyzer resolved them (tsconfig paths included).
  for (const facts of ctx.inventory.files) {
    const specifiers = new Set(facts.imports.filter((i) => i.resolved === handler.file).map((i) => i.specifier));
    if (facts.file === handler.file || !specifiers.size) continue;
    const source = ctx.readFile(facts.file);
    const parsed = source ? parsedFiles(ctx)(facts.file) : null;
    if (!parsed) continue;
    for (const use of importedUses(parsed.j, parsed.root, handler, specifiers)) if (outside(facts.file, use)) found.push({ file: facts.file, node: use });
  }
  return found;
}

const at = (file: string, node: Node): Location => ({ file, line: node.loc.start.line, column: node.loc.start.column + 1 });

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

/** A handler that is a member of an object or a class (a controller's method), and where it is defined. */
export interface MemberIdentity {
  /** Module that defines it. */
  file: string;
  /** The member's name (`list` of `{ list(req, res) {…} }`, of `class C { list = async (req, res) => … }`). */
  member: string;
  /** The top-level name of the object or class that holds it, when it has one. */
  holder: string | null;
  /** Source range of the function itself (uses inside it do not count). */
  range: [number, number];
}

/**
 * Locations of other uses of a controller's member besides its registrations: `holder.member`,
 * `this.member`, `new Holder().member` and `const { member } = holder` in its own module, and the
 * same through the modules that import it (any import of the module: its default, a namespace, a
 * require, or an instance made there with `new`). Syntactic: a use through a value the holder was
 * copied to elsewhere is not seen.
 */
export function otherMemberUses(ctx: PlanContext, handler: MemberIdentity, registrations: RegistrationSite[]): Location[] {
  const found: Location[] = [];
  const importers = ctx.inventory.files.filter((f) => f.file !== handler.file && f.imports.some((i) => i.resolved === handler.file));
  for (const file of [handler.file, ...importers.map((f) => f.file)]) {
    const parsed = ctx.readFile(file) === null ? null : parsedFiles(ctx)(file);
    if (!parsed) continue;
    const { j, root } = parsed;
    const own = file === handler.file;
    const specifiers = new Set(importers.find((f) => f.file === file)?.imports.filter((i) => i.resolved === handler.file).map((i) => i.specifier) ?? []);
    const holders = new Set(own ? (handler.holder ? [handler.holder] : []) : importedLocals(j, root, specifiers));
    // Instances: `const c = new Holder()` (or `new imported.Holder()`).
    for (const p of pathsOfType(j, root, 'VariableDeclarator')) {
      const init = p.node.init as Node;
      if (p.node.id.type === 'Identifier' && init?.type === 'NewExpression' && holders.has(rootName(init.callee) ?? '')) holders.add(p.node.id.name);
    }
    const isHolder = (object: Node) => (own && object.type === 'ThisExpression') || (object.type === 'Identifier' && holders.has(object.name)) || (object.type === 'NewExpression' && holders.has(rootName(object.callee) ?? ''));
    const ranges = [...(own ? [handler.range] : []), ...registrations.filter((r) => r.file === file).map((r) => r.range)];
    const outside = (node: Node) => !ranges.some(([s, e]) => node.start >= s && node.end <= e);
    const named = (key: Node, computed: boolean) => (!computed && key.type === 'Identifier' && key.name === handler.member) || (key.type === 'StringLiteral' && key.value === handler.member);
    for (const type of ['MemberExpression', 'OptionalMemberExpression']) {
      for (const p of pathsOfType(j, root, type)) if (named(p.node.property, p.node.computed) && isHolder(p.node.object) && outside(p.node)) found.push(at(file, p.node));
    }
    for (const p of pathsOfType(j, root, 'VariableDeclarator')) {
      if (p.node.id.type !== 'ObjectPattern' || !p.node.init || !isHolder(p.node.init)) continue;
      const prop = (p.node.id.properties as Node[]).find((q) => q.type === 'ObjectProperty' && named(q.key, q.computed));
      if (prop && outside(prop)) found.push(at(file, prop));
    }
  }
  return found;
}

/** `Holder` of `Holder` and of `ns.Holder`: the identifier the expression starts with. */
function rootName(node: Node): string | null {
  if (node?.type === 'Identifier') return node.name;
  return node?.type === 'MemberExpression' ? rootName(node.object) : null;
}

/** The local names a module binds to an import or require of one of `specifiers` (default, named, namespace, destructured). */
function importedLocals(j: JSCodeshift, root: Collection, specifiers: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const p of pathsOfType(j, root, 'ImportDeclaration')) if (specifiers.has(p.node.source.value)) for (const s of (p.node.specifiers ?? []) as Node[]) out.push(s.local.name);
  for (const p of pathsOfType(j, root, 'VariableDeclarator')) {
    const init = p.node.init as Node;
    if (!(init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' && specifiers.has(init.arguments[0]?.value))) continue;
    if (p.node.id.type === 'Identifier') out.push(p.node.id.name);
    else if (p.node.id.type === 'ObjectPattern') for (const q of p.node.id.properties as Node[]) if (q.value?.type === 'Identifier') out.push(q.value.name);
  }
  return out;
}
