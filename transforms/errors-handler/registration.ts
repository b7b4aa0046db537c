/**
 * The registration of a handler in the Express app (`app.use(errorHandler)`,
 * `app.all('*', notFound)`): found from the inventory's location (plan), deleted with the import
 * it leaves unused, or marked with a `TODO(migrate)` comment (transform).
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { Location } from '../../analyzer/model.js';
import { startsAt, textOf, type Node } from './source-files.js';

/** Methods a handler is registered with. */
const REGISTRATION_METHODS = new Set(['use', 'all', 'get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

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
  const calls = root
    .find(j.CallExpression)
    .filter((p) => {
      const { callee } = p.node as Node;
      return startsAt(p.node, at, source) && callee.type === 'MemberExpression' && !callee.computed && REGISTRATION_METHODS.has(callee.property.name);
    })
    .paths();
  for (const call of calls) {
    const args: Node[] = call.node.arguments;
    const argIndex = args.findIndex((a) => textOf(a) === name || (definition && /Function/.test(a.type) && startsAt(a, definition, source)));
    if (argIndex < 0) continue;
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
  return null;
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
  statement.prune();
  if (bindingName) removeUnusedImport(j, root, bindingName);
}

/** `errorHandler` → `errorHandler`; `errors.errorHandler` → `errors`; a function → null. */
function rootIdentifier(node: Node): string | null {
  let n = node;
  while (n.type === 'MemberExpression' && !n.computed) n = n.object;
  return n.type === 'Identifier' ? n.name : null;
}

/** Removes the import specifier or `require` binding `name` when no reference to it is left. */
function removeUnusedImport(j: JSCodeshift, root: Collection, name: string): void {
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
      if (kept.length) p.node.id.properties = kept;
      else p.prune();
    }
  });
}

/**
 * `// TODO(migrate): reason` above the statement, unless it is there already. A TODO(migrate) of
 * the same step (`prefix`) left there by an earlier run for another reason is replaced, not
 * stacked: the reason can change when the app changes between runs, and a second run must not add
 * a second note. Other TODOs stay (the other step's, for another handler of the same call).
 */
export function addTodo(j: JSCodeshift, statement: ASTPath<Node>, reason: string, prefix: string): boolean {
  const text = ` TODO(migrate): ${reason}`;
  const comments: Node[] = statement.node.comments ?? [];
  if (comments.some((c) => c.value.trim() === text.trim())) return false;
  const kept = comments.filter((c) => !isTodoOf(c, prefix));
  statement.node.comments = [...kept, j.commentLine(text, true, false)];
  return true;
}

/** Whether the statement carries a leading `TODO(migrate): <prefix>…` comment (one this step wrote). */
export function hasTodoOf(statement: ASTPath<Node>, prefix: string): boolean {
  return ((statement.node.comments ?? []) as Node[]).some((c) => isTodoOf(c, prefix));
}

/** Deletes the leading `TODO(migrate): <prefix>…` comments of the statement; whether there was one. */
export function removeTodo(statement: ASTPath<Node>, prefix: string): boolean {
  const comments: Node[] = statement.node.comments ?? [];
  const kept = comments.filter((c) => !isTodoOf(c, prefix));
  if (kept.length === comments.length) return false;
  statement.node.comments = kept;
  return true;
}

function isTodoOf(comment: Node, prefix: string): boolean {
  return comment.leading && String(comment.value).trim().startsWith(`TODO(migrate): ${prefix}`);
}
