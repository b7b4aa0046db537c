/**
 * How the module that defines a handler makes it importable by the generated Fastify module:
 * already exported (ESM `export`, CommonJS `module.exports`), a top-level declaration that needs an
 * export, or a function written inside its registration that must become a declaration.
 *
 * `placementOf` decides (plan); `addExport` and `hoistHandler` edit (transform).
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { isReference, pathsOfType, type Node } from './ast.js';
import { flagRegistration, removeStatement } from './registration.js';

/** Where a handler function stands in its module. */
export type Placement =
  /** Exported already: imported with `form`; `name` is a good local name for it. */
  | { kind: 'exported'; form: ImportForm; name: string }
  /** A top-level declaration the module does not export: export it as `name`. */
  | { kind: 'export-needed'; name: string }
  /** Anything else (inside another function, a call argument, an object that is not exported). */
  | { kind: 'nested' };

/** Placement of the function at `fn` in the module `root`. */
export function placementOf(j: JSCodeshift, root: Collection, fn: ASTPath<Node>): Placement {
  const node = fn.node;
  const parent = fn.parent.node;
  if (node.type === 'FunctionDeclaration') {
    if (parent.type === 'ExportNamedDeclaration') return { kind: 'exported', form: { kind: 'named', name: node.id.name }, name: node.id.name };
    if (parent.type === 'ExportDefaultDeclaration') return { kind: 'exported', form: { kind: 'default' }, name: node.id?.name ?? '' };
    if (parent.type === 'Program' && node.id) return exportedBinding(j, root, node.id.name);
    return { kind: 'nested' };
  }
  if (parent.type === 'ExportDefaultDeclaration') return { kind: 'exported', form: { kind: 'default' }, name: node.id?.name ?? '' };
  if (parent.type === 'VariableDeclarator' && parent.init === node && parent.id.type === 'Identifier') {
    const declaration = fn.parent.parent;
    if (declaration.parent.node.type === 'ExportNamedDeclaration') return { kind: 'exported', form: { kind: 'named', name: parent.id.name }, name: parent.id.name };
    if (declaration.parent.node.type === 'Program') return exportedBinding(j, root, parent.id.name);
    return { kind: 'nested' };
  }
  if (parent.type === 'AssignmentExpression' && parent.right === node) {
    const target = moduleExportsTarget(parent.left);
    if (target === 'module') return { kind: 'exported', form: { kind: 'default' }, name: node.id?.name ?? '' };
    if (target) return { kind: 'exported', form: { kind: 'named', name: target }, name: target };
  }
  if (parent.type === 'ObjectProperty' && parent.value === node && !parent.computed) {
    const object = fn.parent.parent.node;
    const assignment = fn.parent.parent.parent.node;
    if (assignment.type === 'AssignmentExpression' && assignment.right === object && moduleExportsTarget(assignment.left) === 'module') {
      const name = parent.key.type === 'Identifier' ? parent.key.name : parent.key.value;
      return { kind: 'exported', form: { kind: 'named', name }, name };
    }
  }
  return { kind: 'nested' };
}

/**
 * The member a function is of an object or a class, for a controller method
 * (`const ctrl = { list(req, res) {…} }`, `class C { list = async (req, res) => …; show(req, res) {…} }`):
 * its name, and the top-level name of the object (a `const`) or class that holds it (null when it
 * has none). Null when the function is not a member.
 */
export function memberOf(fn: ASTPath<Node>): { member: string; holder: string | null } | null {
  const node = fn.node;
  const parent = fn.parent.node;
  const own = node.type === 'ObjectMethod' || node.type === 'ClassMethod';
  const property = own ? node : (parent.type === 'ObjectProperty' || parent.type === 'ClassProperty') && parent.value === node ? parent : null;
  if (!property || property.computed) return null;
  const key = property.key;
  const member = key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : null;
  if (!member) return null;
  const container = own ? fn.parent : fn.parent.parent;
  const holderNode = container.node.type === 'ClassBody' ? container.parent.node : container.parent?.node;
  const holder = holderNode?.type === 'ClassDeclaration' ? holderNode.id?.name ?? null : holderNode?.type === 'VariableDeclarator' && holderNode.id.type === 'Identifier' ? holderNode.id.name : null;
  return { member, holder };
}

/**
 * `module.exports` → 'module'; `module.exports.x` / `exports.x` → 'x'; anything else null.
 */
export function moduleExportsTarget(left: Node): string | null {
  const isModuleExports = (n: Node) => n.type === 'MemberExpression' && !n.computed && n.object.type === 'Identifier' && n.object.name === 'module' && n.property.name === 'exports';
  if (isModuleExports(left)) return 'module';
  if (left.type === 'MemberExpression' && !left.computed && left.property.type === 'Identifier') {
    if (isModuleExports(left.object) || (left.object.type === 'Identifier' && left.object.name === 'exports')) return left.property.name;
  }
  return null;
}

/** How the module exports the top-level binding `name`: `export { name as x }`, `export default name`, `module.exports = …`. */
function exportedBinding(j: JSCodeshift, root: Collection, name: string): Placement {
  const sites = { named: pathsOfType(j, root, 'ExportNamedDeclaration'), defaults: pathsOfType(j, root, 'ExportDefaultDeclaration'), assignments: pathsOfType(j, root, 'AssignmentExpression') };
  for (const p of sites.named) {
    if (p.node.source) continue;
    const spec = ((p.node.specifiers ?? []) as Node[]).find((s) => s.local?.name === name);
    if (spec) return { kind: 'exported', form: { kind: 'named', name: spec.exported.name }, name };
  }
  for (const p of sites.defaults) {
    if (p.node.declaration.type === 'Identifier' && p.node.declaration.name === name) return { kind: 'exported', form: { kind: 'default' }, name };
  }
  for (const p of sites.assignments) {
    const target = moduleExportsTarget(p.node.left);
    const right = p.node.right as Node;
    if (!target) continue;
    if (right.type === 'Identifier' && right.name === name) return target === 'module' ? { kind: 'exported', form: { kind: 'default' }, name } : { kind: 'exported', form: { kind: 'named', name: target }, name };
    if (target === 'module' && right.type === 'ObjectExpression') {
      const prop = right.properties.find((q: Node) => q.type === 'ObjectProperty' && !q.computed && q.value.type === 'Identifier' && q.value.name === name);
      if (prop) return { kind: 'exported', form: { kind: 'named', name: prop.key.type === 'Identifier' ? prop.key.name : prop.key.value }, name };
    }
  }
  return { kind: 'export-needed', name };
}

/** Exports the top-level declaration of `name`: `export` in front (ESM), or a `module.exports` entry (CommonJS). */
export function addExport(j: JSCodeshift, root: Collection, name: string, module: 'esm' | 'commonjs'): void {
  if (module === 'commonjs') return addCommonJsExport(j, root, name);
  const program = root.find(j.Program).paths()[0];
  const body: Node[] = program.node.body;
  const index = body.findIndex(
    (s) => (s.type === 'FunctionDeclaration' && s.id?.name === name) || (s.type === 'VariableDeclaration' && s.declarations.some((d: Node) => d.id.type === 'Identifier' && d.id.name === name)),
  );
  if (index < 0) return;
  body[index] = wrapInExport(j, body[index]);
}

/** `export <declaration>`, the declaration's comments kept above the `export`. */
function wrapInExport(j: JSCodeshift, declaration: Node): Node {
  const exported = j.exportNamedDeclaration(declaration);
  exported.comments = declaration.comments;
  declaration.comments = null;
  return exported;
}

/**
 * Whether a CommonJS module's exports may be something other than a plain object (the Express
 * app: `module.exports = app`), so that a `module.exports.name` entry could replace one of its
 * members (`handle`). False when every `module.exports = …` assigns an object literal, or there is none.
 */
export function exportsMayBeApp(j: JSCodeshift, root: Collection): boolean {
  return root.find(j.AssignmentExpression).some((p) => moduleExportsTarget(p.node.left) === 'module' && p.node.right.type !== 'ObjectExpression');
}

/** Adds `name` to `module.exports = { … }` when the module has that form, else appends `module.exports.name = name;`. */
function addCommonJsExport(j: JSCodeshift, root: Collection, name: string): void {
  const program = root.find(j.Program).paths()[0];
  const objectExports = root
    .find(j.AssignmentExpression)
    .filter((p) => p.parent.node.type === 'ExpressionStatement' && p.parent.parent.node.type === 'Program' && moduleExportsTarget(p.node.left) === 'module' && p.node.right.type === 'ObjectExpression')
    .paths()[0];
  if (objectExports) {
    const prop = j.objectProperty(j.identifier(name), j.identifier(name));
    prop.shorthand = true;
    (objectExports.node.right as Node).properties.push(prop);
    return;
  }
  program.node.body.push(j.expressionStatement(j.assignmentExpression('=', j.memberExpression(j.memberExpression(j.identifier('module'), j.identifier('exports')), j.identifier(name)), j.identifier(name))));
}

/**
 * Puts the (already rewritten) handler `fn` in place of its registration statement as a
 * declaration named `name`, exported: `export function name(…) {…}` / `export const name = (…) => …`
 * (ESM), or the declaration plus a `module.exports` entry (CommonJS). The statement's comments
 * stay above it. A registration below the top level (in an `if` branch, in a loader function)
 * is deleted and the declaration goes before the top-level statement that holds it; a branch
 * left empty goes too (lib/registration.ts pruneEmptyBranch); with `flag` (a registration in a
 * start-up callback, HandlerRegistration.flag) it becomes `app.enable(flag)` instead. The caller
 * checks that `fn` reads nothing bound there (closureRefusal).
 */
export function hoistHandler(j: JSCodeshift, root: Collection, statement: ASTPath<Node>, fn: Node, name: string, module: 'esm' | 'commonjs', flag?: string): void {
  let declaration: Node;
  if (fn.type === 'FunctionExpression') {
    declaration = j.functionDeclaration(j.identifier(name), fn.params, fn.body);
    declaration.async = fn.async;
    declaration.generator = fn.generator;
    declaration.returnType = fn.returnType;
    declaration.typeParameters = fn.typeParameters;
  } else {
    declaration = j.variableDeclaration('const', [j.variableDeclarator(j.identifier(name), fn)]);
  }
  declaration.comments = statement.node.comments;
  const exported = module === 'esm' ? wrapInExport(j, declaration) : declaration;
  if (statement.parent.node.type === 'Program') statement.replace(exported);
  else {
    let top: ASTPath<Node> = statement;
    while (top.parent.node.type !== 'Program') top = top.parent;
    top.insertBefore(exported);
    if (flag) flagRegistration(j, root, statement, flag, null);
    else removeStatement(j, statement);
  }
  if (module === 'commonjs') addCommonJsExport(j, root, name);
}

/**
 * Lifts the function at `fn`, written as a value inside a statement (`express.json({ verify: (req, res, buf) => … })`,
 * or a method of the options, `{ setHeaders(res) {…} }`),
 * into an exported top-level `const name = <fn>;` before the top-level statement that holds it, and
 * puts `name` in its place: `export const` (ESM), or the declaration plus a `module.exports` entry
 * (CommonJS). The caller checks that `fn` reads nothing bound below the top level (closureRefusal).
 */
export function liftFunction(j: JSCodeshift, root: Collection, fn: ASTPath<Node>, name: string, module: 'esm' | 'commonjs'): void {
  let top: ASTPath<Node> = fn;
  while (top.parent.node.type !== 'Program') top = top.parent;
  // A method (`setHeaders(res) {…}`) becomes a function expression, and its key a property naming the const.
  const method = fn.node.type === 'ObjectMethod';
  const value = method ? Object.assign(j.functionExpression(null, fn.node.params, fn.node.body), { async: fn.node.async, generator: fn.node.generator, returnType: fn.node.returnType }) : fn.node;
  const declaration = j.variableDeclaration('const', [j.variableDeclarator(j.identifier(name), value)]);
  top.insertBefore(module === 'esm' ? j.exportNamedDeclaration(declaration) : declaration);
  fn.replace(method ? j.objectProperty(fn.node.key, j.identifier(name)) : j.identifier(name));
  if (module === 'commonjs') addCommonJsExport(j, root, name);
}

/** `base`, or `base2`, … when the module already uses the name or it was given to another lifted function (`given`). */
export function freeTopLevelName(j: JSCodeshift, root: Collection, base: string, given: ReadonlySet<string> = new Set()): string {
  const taken = new Set<string>(given);
  root.find(j.Identifier).forEach((p) => void taken.add(p.node.name));
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  return name;
}

/**
 * Why the function at `fn`, written below the top level, cannot become a top-level declaration:
 * it reads names bound between it and the top level (a loader's parameters or locals). Null when
 * everything it reads is its own, the module's or a global.
 */
export function closureRefusal(j: JSCodeshift, fn: ASTPath<Node>): string | null {
  const bound = new Set<string>();
  j(fn)
    .find(j.Identifier)
    .filter(isReference)
    .forEach((p) => {
      const scope = p.scope?.lookup(p.node.name);
      if (!scope || scope.isGlobal || scope.path.node.type === 'Program') return;
      // Declared in the function itself or below it.
      for (let s = scope.path; s; s = s.parent) if (s.node === fn.node) return;
      bound.add(p.node.name);
    });
  return bound.size ? `it reads ${[...bound].map((n) => `\`${n}\``).join(', ')}, bound where it is registered (not at the top level of its module), so it cannot be moved out to be exported` : null;
}

/** How the generated module imports a handler from the module that defines it. */
export type ImportForm =
  /** `import x from` / `const x = require(…)` (ESM default export, or `module.exports = fn`). */
  | { kind: 'default' }
  /** `import { name } from` / `const { name } = require(…)`. */
  | { kind: 'named'; name: string };
