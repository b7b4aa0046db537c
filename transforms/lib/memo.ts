/**
 * What a planner reads of a parsed file again and again — its functions, statements, imports,
 * identifiers by name —, computed once per syntax tree. Planning never edits a tree, and a
 * transform plans every rewrite of a file before it applies any, so a memo stays true for as long
 * as the tree is read. Keyed by the tree's node (the File or Program node, or a function's), kept
 * no longer than the tree (WeakMap).
 */
const MEMOS = new WeakMap<object, Map<string, unknown>>();

/** `compute()` the first time `key` is asked of `node`, the same value after. */
export function memoOn<T>(node: object, key: string, compute: () => T): T {
  let memo = MEMOS.get(node);
  if (!memo) MEMOS.set(node, (memo = new Map()));
  if (!memo.has(key)) memo.set(key, compute());
  return memo.get(key) as T;
}
