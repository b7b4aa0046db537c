/**
 * Reading ts-morph nodes through their compiler nodes. ts-morph creates a wrapper object for every
 * node it hands out (and for each of its ancestors); on large apps creating and collecting them
 * was much of the analysis time, so code that only tests or reads names works on compiler nodes
 * and wraps the few nodes it keeps. Each helper reads what the ts-morph getter it replaces reads.
 */
import { ts, type CompilerNodeToWrappedType, type Node } from 'ts-morph';

/** `getText()` of compiler nodes in one file. */
export type Text = (c: ts.Node) => string;

/** `getText()` of compiler nodes in `node`'s file, computed as ts-morph computes it. */
export function textOf(node: Node): Text {
  const file = node.getSourceFile().compilerNode;
  return (c) => file.text.substring(c.getStart(file), c.getEnd());
}

/**
 * `node.getName()` of a node whose name ts-morph reads as `getNameNode().getText()` (function and
 * parameter declarations, property accesses), without wrapping the name node.
 */
export function nameOf(node: Node): string | undefined {
  const name = (node.compilerNode as { name?: ts.Node }).name;
  return name && textOf(node)(name);
}

/**
 * The ts-morph wrapper of compiler node `c` in `within`'s file, from ts-morph's own factory (the
 * internal method its getters use), so node identity holds.
 */
export function wrap<T extends ts.Node>(within: Node, c: T): CompilerNodeToWrappedType<T> {
  return (within as unknown as { _getNodeFromCompilerNode(c: T): CompilerNodeToWrappedType<T> })._getNodeFromCompilerNode(c);
}

/**
 * `node.getDescendantsOfKind(kind).filter(…)` with the test run on compiler nodes, so that only the
 * matches get ts-morph wrappers (see wrap): wrapping every call of every file dominated the sweep
 * of large apps. Same nodes, same (document) order.
 */
export function descendantsWhere<T extends ts.Node>(node: Node, match: (c: ts.Node) => c is T): CompilerNodeToWrappedType<T>[] {
  return descendants(node.compilerNode, match).map((c) => wrap(node, c));
}

/** The descendants of `node` that pass `keep`, in document order. */
export function descendants<T extends ts.Node>(node: ts.Node, keep: (c: ts.Node) => c is T): T[] {
  const found: T[] = [];
  const visit = (c: ts.Node): undefined => {
    if (keep(c)) found.push(c);
    ts.forEachChild(c, visit);
  };
  ts.forEachChild(node, visit);
  return found;
}
