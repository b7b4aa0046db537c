/**
 * The registration of a handler in the Express app (`app.use(errorHandler)`,
 * `app.all('*', notFound)`): found from the inventory's location (plan), deleted with the import
 * it leaves unused, or marked with a `TODO(migrate)` comment (transform).
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { ROUTE_METHODS } from '../../analyzer/express-api.js';
import type { Location } from '../../analyzer/model.js';
import { anchorOf, findByAnchor, notFound, type Anchor } from './anchor.js';
import { startsAt, textOf, type Node } from './ast.js';
import type { ParsedFile } from './parsed-files.js';
import { removeUnusedImport } from './imports.js';

/** Methods a handler is registered with: `use` and the routing methods the analyzer knows. */
const REGISTRATION_METHODS = new Set(['use', ...ROUTE_METHODS]);

/** A handler's registration: the call, the statement around it, and whether the step can delete it. */
export interface Registration {
  /** The statement that holds the call (where a TODO comment goes). */
  statement: ASTPath<Node>;
  call: ASTPath<Node>;
  /** Index of the handler among the call's arguments. */
  argIndex: number;
  /** The handler is written in the call itself. */
  inline: boolean;
  /** Why the statement cannot simply be deleted; absent when it can. */
  refuse?: string;
}

/**
 * The `X.use(…)` / `X.all(path, …)` call at `at` whose argument is the handler (its reference
 * text `name`, or the function that starts at `definition`). It can be deleted when it is a
 * statement of its own with no other middleware: `app.use(h)`, `app.use('/', h)`, `app.all(path, h)`.
 * @returns null when no such call is at `at`.
 */
export function findRegistration(j: JSCodeshift, root: Collection, source: string, at: Location, name: string, definition: Location | undefined): Registration | null {
  for (const call of registrationCallsAt(j, root, source, at)) {
    const found = registrationOf(call, name, definition, source);
    if (found) return found;
  }
  return null;
}

/**
 * The registration a plan found (its call's anchor, lib/anchor.ts, taken by registrationAnchor),
 * in a file an earlier step of the stage may have edited above it — or inside it: a function the
 * step lifted out of the options (app-functions.ts) changes the call's text, and then the call
 * passing `name` nearest to the anchor's line is it; null when there is none.
 */
export function findRegistrationByAnchor(j: JSCodeshift, root: Collection, anchor: Anchor, name: string): Registration | null {
  const calls = root
    .find(j.CallExpression)
    .filter((p) => isRegistrationCall(p.node))
    .paths();
  const call = findByAnchor(calls, anchor);
  if (call) return registrationOf(call, name, undefined, '');
  const passing = calls.flatMap((c) => registrationOf(c, name, undefined, '') ?? []);
  const distance = (r: Registration) => Math.abs((r.call.node.loc?.start.line ?? 0) - anchor.line);
  return passing.reduce<Registration | null>((best, r) => (!best || distance(r) < distance(best) ? r : best), null);
}

/** The anchor of the registration of `name` at `at` in a file as the plan reads it (parsed-files.ts), or null when none is there. */
export function registrationAnchor(file: ParsedFile, at: Location, name: string): Anchor | null {
  const found = findRegistration(file.j, file.root, file.source, at, name, undefined);
  return found ? anchorOf(found.call) : null;
}

/** `call` as the registration of the handler `name` (or the function starting at `definition`), or null when it does not pass it. */
function registrationOf(call: ASTPath<Node>, name: string, definition: Location | undefined, source: string): Registration | null {
  const args: Node[] = call.node.arguments;
  // The handler as written (`errors.handler`), a factory's call (`errorHandler()`, named by its callee), or the function itself.
  const argIndex = args.findIndex((a) => textOf(a) === name || (a.type === 'CallExpression' && textOf(a.callee) === name) || (definition && /Function/.test(a.type) && startsAt(a, definition, source)));
  if (argIndex < 0) return null;
  const inline = /Function/.test(args[argIndex].type);
  let statement: ASTPath<Node> = call;
  while (statement.parent && !/Statement$|Declaration$/.test(statement.node.type)) statement = statement.parent;
  const found: Registration = { statement, call, argIndex, inline };
  const others = args.filter((_, i) => i !== argIndex);
  const method = (call.node.callee as Node).property.name;
  const alone = method === 'use' ? others.length === 0 || (others.length === 1 && others[0].type === 'StringLiteral' && others[0].value === '/') : others.length === 1 && argIndex === 1 && isPath(others[0]);
  if (call.parent.node.type !== 'ExpressionStatement') found.refuse = 'it is registered inside a larger expression (a chain of calls); give the registration a statement of its own';
  else if (!alone) found.refuse = 'it is registered together with other middleware in one call; register it on its own';
  return found;
}

/** The `X.use(…)` / `X.METHOD(…)` calls that start at `at`. */
function registrationCallsAt(j: JSCodeshift, root: Collection, source: string, at: Location): Array<ASTPath<Node>> {
  return root
    .find(j.CallExpression)
    .filter((p) => startsAt(p.node, at, source) && isRegistrationCall(p.node))
    .paths();
}

/** Whether `call` is `X.use(…)` or `X.METHOD(…)`. */
function isRegistrationCall(call: Node): boolean {
  const { callee } = call;
  return callee.type === 'MemberExpression' && !callee.computed && REGISTRATION_METHODS.has(callee.property.name);
}

/** A registration that passes a factory's call (`app.use(errorHandler())`). */
export interface FactoryRegistration {
  /** The call as written (`errorHandler()`), for reasons. */
  text: string;
  /** Its callee as written (`errorHandler`, `errors.handlers`). */
  callee: string;
  /** How many arguments the call passes. */
  argCount: number;
  /** The registration found by that callee (findRegistration), with why it cannot be deleted. */
  registration: Registration | null;
}

/**
 * The factory call a registration at `at` passes (`app.use(errorHandler())`, where the call
 * returns the handler, or an array of handlers Express flattens); null when the registration
 * passes none.
 */
export function factoryAt(j: JSCodeshift, root: Collection, source: string, at: Location): FactoryRegistration | null {
  const arg = registrationCallsAt(j, root, source, at)
    .flatMap((c) => c.node.arguments as Node[])
    .find((a) => a.type === 'CallExpression');
  if (!arg) return null;
  const callee = textOf(arg.callee) ?? '';
  return { text: textOf(arg) ?? source.slice(arg.start, arg.end), callee, argCount: arg.arguments.length, registration: callee ? findRegistration(j, root, source, at, callee, undefined) : null };
}

function isPath(node: Node): boolean {
  return node.type === 'StringLiteral' || node.type === 'TemplateLiteral' || node.type === 'RegExpLiteral';
}

/**
 * Deletes a registration statement. Its leading comments move to the next statement when that one
 * follows without a blank line (a banner over several registrations), and go with it otherwise
 * (they described it). The import or require of the handler goes too when nothing else uses it.
 */
export function removeRegistration(j: JSCodeshift, root: Collection, statement: ASTPath<Node>, handlerArg: Node): void {
  const container: Node[] | null = Array.isArray(statement.parent.node.body) ? statement.parent.node.body : null;
  const index = container ? container.indexOf(statement.node) : -1;
  const next = container && index >= 0 ? container[index + 1] : null;
  const leading = (statement.node.comments ?? []).filter((c: Node) => c.leading);
  if (next && leading.length && next.loc && statement.node.loc && next.loc.start.line === statement.node.loc.end.line + 1) next.comments = [...leading, ...(next.comments ?? [])];
  const bindingName = rootIdentifier(handlerArg);
  removeStatement(j, statement);
  if (bindingName) removeUnusedImport(j, root, bindingName);
}

/**
 * Replaces a registration statement (`app.use(errorHandler)`, in a start-up callback) with the
 * flag the generated module reads (HandlerRegistration.flag): `app.enable('<setting>')` on the
 * same app (or `app.disable(…)`: a setting the middleware's removal must keep, plugins-middleware),
 * the statement's comments kept. The import of the handler goes when nothing else uses it.
 */
export function flagRegistration(j: JSCodeshift, root: Collection, statement: ASTPath<Node>, setting: string, handlerArg: Node | null, method: 'enable' | 'disable' = 'enable'): void {
  const receiver = statement.node.expression.callee.object;
  const flag = j.expressionStatement(j.callExpression(j.memberExpression(receiver, j.identifier(method)), [j.stringLiteral(setting)]));
  flag.comments = statement.node.comments;
  statement.replace(flag);
  const bindingName = handlerArg ? rootIdentifier(handlerArg) : null;
  if (bindingName) removeUnusedImport(j, root, bindingName);
}

/**
 * Deletes `statement`, and the `if`/`else` branch it leaves empty (pruneEmptyBranch). A branch
 * written without braces (`if (dev) app.use(h); else app.use(g);`) is first made an empty block:
 * pruning it would have ast-types rewrite the `if` under the other paths the transform holds.
 */
export function removeStatement(j: JSCodeshift, statement: ASTPath<Node>): void {
  if (statement.parent?.node.type === 'IfStatement') {
    statement.replace(j.blockStatement([]));
    pruneEmptyBranch(statement);
    return;
  }
  const block = statement.parent;
  statement.prune();
  pruneEmptyBranch(block);
}

/**
 * After a registration left `block` empty: an empty `else { }` goes, and so does an `if` left with
 * an empty body and no `else` (a condition the errors stage keeps reads only what lib/guard.ts
 * allows: no side effects).
 */
export function pruneEmptyBranch(block: ASTPath<Node>): void {
  if (block.node.type !== 'BlockStatement' || block.node.body.length || block.parent?.node.type !== 'IfStatement') return;
  const ifStatement = block.parent;
  if (ifStatement.node.alternate === block.node) ifStatement.node.alternate = null;
  const body = ifStatement.node.consequent;
  if (!ifStatement.node.alternate && body.type === 'BlockStatement' && !body.body.length && !(body.comments ?? []).length) ifStatement.prune();
}

/** `errorHandler` → `errorHandler`; `errors.errorHandler` → `errors`; a factory's call `errorHandler()` → `errorHandler`; a function → null. */
function rootIdentifier(node: Node): string | null {
  let n = node.type === 'CallExpression' ? node.callee : node;
  while (n.type === 'MemberExpression' && !n.computed) n = n.object;
  return n.type === 'Identifier' ? n.name : null;
}

/**
 * Takes a middleware a step moved to Fastify out of the Express app: deletes the registration the
 * plan found (`anchor`, passing `name`), or replaces it with `app.disable(disable)` when given, with
 * the import nothing else uses. A middleware the app made in a constant of the module (`const logger =
 * morgan('dev'); app.use(logger)`) loses that constant too when nothing else reads it, and then
 * the factory's import.
 * @throws Error when the registration is not in the file (it changed under the plan): the middleware
 *   would run twice, in Express and as its Fastify replacement
 */
export function takeOutMiddleware(j: JSCodeshift, root: Collection, file: string, anchor: Anchor, name: string, disable?: string): true {
  const found = findRegistrationByAnchor(j, root, anchor, name);
  if (!found) notFound(file, `the registration of ${name}`, anchor);
  const handler: Node = found.call.node.arguments[found.argIndex];
  if (disable) {
    flagRegistration(j, root, found.statement, disable, handler, 'disable');
    found.statement.node.comments = [...(found.statement.node.comments ?? []), j.commentLine(` ${name} turned this off for every request; it is a Fastify plugin now, which runs before Express sets it.`, true, false)];
  }
  else removeRegistration(j, root, found.statement, handler);
  if (handler.type === 'Identifier') removeUnusedFactoryConstant(j, root, handler.name);
  return true;
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
