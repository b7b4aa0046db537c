/**
 * Handlers an app registers through a factory of its own that returns them, an array Express
 * flattens (`app.use(errorHandler())` with `export default () => [notFound, errorHandler]`;
 * edwinhern/express-typescript, issue 16). The handlers move together — the 404 in the
 * errors-not-found step, the error handlers in errors-handler, all or none — and the step that runs
 * last deletes the registration and the factory, whose only use it was.
 *
 * `factoryGroupOf` reads the group from the inventory (ErrorHandler.element); `planFactory` checks
 * the factory's shape in the code (plan); `removeFactory` deletes it (transform).
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { Inventory, Location } from '../../analyzer/model.js';
import type { ManualItem, PlanContext } from '../model.js';
import { anchorOf, type Anchor } from '../lib/anchor.js';
import { startsAt, textOf, type Node } from '../lib/ast.js';
import { moduleExportsTarget, placementOf } from '../lib/exports.js';
import { isTestFile, otherUses, type RegistrationSite } from '../lib/references.js';
import { factoryAt, removeStatement, type Registration } from '../lib/registration.js';
import { parsedFiles } from '../lib/parsed-files.js';

/** The handlers one factory call registers, as the inventory lists them (Candidate.factory). */
export interface FactoryGroup {
  /** The registration's site (`file:line:column`): the same for every member. */
  key: string;
  /** Where this handler's element is written in the factory's array. */
  element: Location;
  /** Every member, both steps' (`role`), in the array's order: partners of each other (plan.ts Partner). */
  members: Array<{ id: string; name: string; role: 'error' | 'not-found' }>;
}

/**
 * The factory group of the handler `id`, or undefined when it is not registered as an element of
 * an array (its ErrorHandler/NotFoundHandler `element`).
 */
export function factoryGroupOf(inventory: Inventory, id: string): FactoryGroup | undefined {
  const all = [
    ...inventory.errorHandlers.filter((h) => h.framework !== 'fastify').map((h) => ({ h, role: 'error' as const })),
    ...inventory.notFoundHandlers.filter((h) => h.framework !== 'fastify').map((h) => ({ h, role: 'not-found' as const })),
  ];
  const self = all.find((x) => x.h.id === id);
  if (!self?.h.element) return undefined;
  const key = siteKey(self.h.registration);
  const members = all
    .filter((x) => x.h.element && siteKey(x.h.registration) === key)
    .sort((a, b) => a.h.element!.line - b.h.element!.line || a.h.element!.column - b.h.element!.column)
    .map((x) => ({ id: x.h.id, name: x.h.name, role: x.role }));
  return { key, element: self.h.element, members };
}

/** Whether the step of `role` deletes the group's registration and factory: the last step (errors-not-found) when the group has a 404 handler. */
export function cleansUp(group: FactoryGroup, role: 'error' | 'not-found'): boolean {
  return role === 'not-found' || !group.members.some((m) => m.role === 'not-found');
}

/** The factory as the plan found it: the registration to delete and the factory's own statement. */
export interface FactoryPlan {
  registration: Registration;
  /** The statement that declares the factory (`export default () => […]`). */
  statement: Anchor;
  /** The factory's binding, when it has one: what exports it apart from its declaration goes too. */
  name?: string;
  /** Uses inside the factory and the registration do not count as other uses of a member. */
  sites: RegistrationSite[];
  /** The factory's uses in tests: a human updates them (the factory goes). */
  testUses: ManualItem[];
}

/**
 * Checks that the registration at `registration` passes a call of a factory that takes nothing
 * and only returns the array holding the group's members (each by name, nothing else), declared
 * by a top-level statement of its own, and used nowhere else but in tests (each a ManualItem).
 * @returns the plan, or the reason it stays
 */
export function planFactory(ctx: PlanContext, registration: Location, group: FactoryGroup): FactoryPlan | { refuse: string } {
  const parse = parsedFiles(ctx);
  const reg = parse(registration.file);
  const regSource = ctx.readFile(registration.file);
  const call = reg && regSource ? factoryAt(reg.j, reg.root, regSource, registration) : null;
  if (!call?.registration) return { refuse: `its registration (a factory's call) was not found where the analysis put it (${registration.file}:${registration.line})` };
  if (call.registration.refuse) return { refuse: call.registration.refuse };
  if (call.argCount) return { refuse: `it is registered through \`${call.text}\`, a factory called with arguments; register the handlers themselves (app.use(notFound); app.use(errorHandler))` };
  const def = parse(group.element.file);
  const defSource = ctx.readFile(group.element.file);
  const array = def && defSource ? arrayAt(def.j, def.root, group.element, defSource) : null;
  const fn = array ? returningFunction(array) : null;
  if (!def || !array || !fn) return { refuse: `\`${call.text}\` returns its handlers other than as \`return [a, b]\` from a function without parameters; register the handlers themselves` };
  const names = (array.node.elements as Node[]).map((e) => (e?.type === 'Identifier' ? e.name : textOf(e)));
  const expected = group.members.map((m) => m.name);
  if (names.join() !== expected.join()) return { refuse: `\`${call.text}\` returns ${names.join(', ')}, not only the app's error and 404 handlers (${expected.join(', ')}); register the handlers themselves` };
  const statement = declaringStatement(fn);
  const placement = placementOf(def.j, def.root, fn);
  if (!statement || placement.kind === 'nested') return { refuse: `the factory behind \`${call.text}\` is not declared by a top-level statement of its own in ${group.element.file}` };
  const own: RegistrationSite = { file: group.element.file, range: [fn.node.start, fn.node.end] };
  const at: RegistrationSite = { file: registration.file, range: [call.registration.call.node.start, call.registration.call.node.end] };
  const uses = otherUses(ctx, { file: group.element.file, binding: placement.name || null, form: placement.kind === 'exported' ? placement.form : null, range: own.range }, [at]);
  const appUses = uses.filter((u) => !isTestFile(u.file));
  if (appUses.length) return { refuse: `the factory behind \`${call.text}\` is also used at ${appUses.map((u) => `${u.file}:${u.line}`).join(', ')}, where it still gives Express's handlers` };
  const testUses = uses.map((u) => ({ file: u.file, line: u.line, code: 'handler-test-use' as const, reason: `a test registers \`${call.text}\` on an Express app; its handlers (${expected.join(', ')}) moved to Fastify and the factory is gone: test them through the Fastify server (buildFastify with fastify.inject)` }));
  return { registration: call.registration, statement: anchorOf(statement), ...(placement.name ? { name: placement.name } : {}), sites: [at, own], testUses };
}

/**
 * Deletes the factory's declaring statement and what exports its binding `name` elsewhere
 * (transform), and returns the type names its annotations read (`[RequestHandler,
 * ErrorRequestHandler]`), whose imports may now be unused.
 */
export function removeFactory(j: JSCodeshift, root: Collection, statement: ASTPath<Node>, name: string | undefined): string[] {
  const types = new Set<string>();
  j(statement).find(j.TSTypeReference).forEach((p) => {
    if (p.node.typeName.type === 'Identifier') types.add(p.node.typeName.name);
  });
  removeStatement(j, statement);
  if (name) removeExportOf(j, root, name);
  return [...types];
}

/** Deletes what exports the binding `name` apart from its declaration: `export { name }`, `export default name`, `module.exports = { name }`, `module.exports.x = name`. */
function removeExportOf(j: JSCodeshift, root: Collection, name: string): void {
  const isName = (n: Node) => n?.type === 'Identifier' && n.name === name;
  root.find(j.ExportSpecifier).filter((p) => isName(p.node.local) && !p.parent.node.source).forEach((p) => {
    const declaration = p.parent;
    declaration.node.specifiers = declaration.node.specifiers.filter((s: Node) => s !== p.node);
    if (!declaration.node.specifiers.length) declaration.prune();
  });
  root.find(j.ExportDefaultDeclaration).filter((p) => isName(p.node.declaration)).forEach((p) => void p.prune());
  root.find(j.AssignmentExpression).filter((p) => moduleExportsTarget(p.node.left) !== null).forEach((p) => {
    if (isName(p.node.right) && p.parent.node.type === 'ExpressionStatement') p.parent.prune();
    else if (p.node.right.type === 'ObjectExpression' && moduleExportsTarget(p.node.left) === 'module') p.node.right.properties = p.node.right.properties.filter((prop: Node) => !(prop.type === 'ObjectProperty' && isName(prop.value)));
  });
}

/** The array literal whose element starts at `at`. */
function arrayAt(j: JSCodeshift, root: Collection, at: Location, source: string): ASTPath<Node> | null {
  const element = root.find(j.Identifier).filter((p) => p.parent.node.type === 'ArrayExpression' && startsAt(p.node, at, source)).paths()[0];
  return element ? element.parent : null;
}

/** The function that only returns `array` (`() => [a, b]`, `function () { return [a, b]; }`) and takes no parameters; null otherwise. */
function returningFunction(array: ASTPath<Node>): ASTPath<Node> | null {
  let fn = array.parent;
  if (fn.node.type === 'ReturnStatement') {
    const block = fn.parent;
    if (block.node.type !== 'BlockStatement' || block.node.body.length !== 1) return null;
    fn = block.parent;
  } else if (fn.node.type !== 'ArrowFunctionExpression' || fn.node.body !== array.node) return null;
  return /Function/.test(fn.node.type) && !fn.node.params.length ? fn : null;
}

/** The top-level statement that declares `fn` and nothing else (`export default …`, `const f = …`, `function f`, `module.exports = …`); null otherwise. */
function declaringStatement(fn: ASTPath<Node>): ASTPath<Node> | null {
  let top: ASTPath<Node> = fn;
  for (let depth = 0; top.parent && top.parent.node.type !== 'Program' && depth < 3; depth++) top = top.parent;
  if (top.parent?.node.type !== 'Program') return null;
  const node = top.node.type === 'ExportNamedDeclaration' || (top.node.type === 'ExportDefaultDeclaration' && top.node.declaration !== fn.node) ? top.node.declaration : top.node;
  if (node === fn.node || (top.node.type === 'ExportDefaultDeclaration' && top.node.declaration === fn.node)) return top;
  if (node?.type === 'VariableDeclaration') return node.declarations.length === 1 && node.declarations[0].init === fn.node ? top : null;
  if (node?.type === 'ExpressionStatement') return node.expression.type === 'AssignmentExpression' && node.expression.right === fn.node ? top : null;
  return null;
}

function siteKey(l: Location): string {
  return `${l.file}:${l.line}:${l.column}`;
}
