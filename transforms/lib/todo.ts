/**
 * `// TODO(migrate): …` comments above the statements a step leaves for a human: added once,
 * replaced when a later run gives another reason, removed when the statement no longer needs one.
 * Each step's comments begin with its own prefix, so steps never touch each other's.
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import type { Node } from './ast.js';

/**
 * `// TODO(migrate): reason` above the statement, unless it is there already. A TODO(migrate) of
 * the same step (`prefix`) left there by an earlier run for another reason is replaced, not
 * stacked: the reason can change when the app changes between runs, and a second run must not add
 * a second note. Other TODOs stay (the other step's, for another handler of the same call).
 */
export function addTodo(j: JSCodeshift, statement: ASTPath<Node>, reason: string, prefix: string): boolean {
  const text = ` TODO(migrate): ${reason}`;
  const holder = holderOf(statement);
  const comments: Node[] = holder.node.comments ?? [];
  if (comments.some((c) => c.value.trim() === text.trim())) return false;
  // Above an `if` whose branch is the statement, the other branch's TODO of this step may be there too: it stays.
  const kept = holder === statement ? comments.filter((c) => !isTodoOf(c, prefix)) : comments;
  holder.node.comments = [...kept, j.commentLine(text, true, false)];
  return true;
}

/** Whether the statement carries a leading `TODO(migrate): <prefix>…` comment (one this step wrote). */
export function hasTodoOf(statement: ASTPath<Node>, prefix: string): boolean {
  return ((holderOf(statement).node.comments ?? []) as Node[]).some((c) => isTodoOf(c, prefix));
}

/** Deletes the leading `TODO(migrate): <prefix>…` comments of the statement; whether there was one. */
export function removeTodo(statement: ASTPath<Node>, prefix: string): boolean {
  const holder = holderOf(statement);
  const comments: Node[] = holder.node.comments ?? [];
  const kept = comments.filter((c) => !isTodoOf(c, prefix));
  if (kept.length === comments.length) return false;
  holder.node.comments = kept;
  return true;
}

/**
 * The statement a TODO goes above: the statement itself, or for a branch written without braces
 * (`if (debug) app.use(h);`, `else if …`) the `if` that holds it — a comment on the branch would
 * print between `if (…)` and the statement.
 */
function holderOf(statement: ASTPath<Node>): ASTPath<Node> {
  let p = statement;
  while (p.parent?.node.type === 'IfStatement' && p.parent.node.test !== p.node) p = p.parent;
  return p;
}

function isTodoOf(comment: Node, prefix: string): boolean {
  return comment.leading && String(comment.value).trim().startsWith(`TODO(migrate): ${prefix}`);
}
