/**
 * Anchors: how a plan names a node for its transform. Plans are made on the files before the
 * stage and cross to workers as JSON, and another step may have edited the file first (added an
 * import line) by the time a transform runs, so a node is found by the source text it had when
 * the plan was made, the nearest to its line when the text repeats — never by line alone.
 */
import type { ASTPath } from 'jscodeshift';
import { located, textOf, type Node } from './ast.js';

/** The anchor of a path's node: its source text and first line (those of its `export` when recast dropped its own). */
export function anchorOf(path: ASTPath<Node>): Anchor {
  const node = located(path);
  return { text: textOf(node) ?? '', line: node?.loc.start.line ?? 0 };
}

/** The path among `paths` whose anchor text is the anchor's, nearest to its line; null when none has that text (the file changed under the plan). */
export function findByAnchor(paths: Array<ASTPath<Node>>, anchor: Anchor): ASTPath<Node> | null {
  const matches = paths.filter((p) => anchorOf(p).text === anchor.text);
  if (matches.length < 2) return matches[0] ?? null;
  const distance = (p: ASTPath<Node>) => Math.abs(anchorOf(p).line - anchor.line);
  return matches.reduce((best, p) => (distance(p) < distance(best) ? p : best));
}

/** A node found by its source text, the nearest to `line` when the text repeats. */
export interface Anchor {
  /** The node's source text when the plan was made. */
  text: string;
  /** 1-based line it started on then. */
  line: number;
}

/** Throws for a planned node that is not in the file: moving the rest of the handler would leave it half moved. */
export function notFound(file: string, what: string, anchor: { text: string; line: number }): never {
  const first = anchor.text.split('\n', 1)[0].slice(0, 80);
  throw new Error(`${file}:${anchor.line}: ${what} (\`${first}\`) is not where the plan found it; did the file change since the plan?`);
}
