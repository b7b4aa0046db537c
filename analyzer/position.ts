/**
 * Positions in the user's source as the Inventory writes them: 1-based lines and 1-based
 * character columns, counted as ts-morph counts them (`Location`, and the exclusive ends of
 * spans: start sites, registration statements).
 */
import { Node, type ts } from 'ts-morph';

/** A line and a column (1-based); as an end, the position just after the last character. */
export interface Position {
  line: number;
  column: number;
}

/** Line breaks of TypeScript's line map that ts-morph's line count ignores (it ends lines at `\n` only). */
const OTHER_LINE_BREAKS = /\r(?!\n)|[\u2028\u2029]/;
const lineMapAgrees = new WeakMap<ts.SourceFile, boolean>();

/**
 * Line and column (1-based) of `pos` as ts-morph's getLineAndColumnAtPos gives them: from the
 * compiler's cached line map when the file has no line breaks the two count differently (ts-morph
 * scans the text from the start on every call), else by ts-morph's rule.
 */
export function lineAndColumn(sf: ts.SourceFile, pos: number): Position {
  let agrees = lineMapAgrees.get(sf);
  if (agrees === undefined) lineMapAgrees.set(sf, (agrees = !OTHER_LINE_BREAKS.test(sf.text)));
  if (!agrees) {
    const before = sf.text.slice(0, pos);
    return { line: before.split('\n').length, column: pos - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) };
  }
  const { line, character } = sf.getLineAndCharacterOfPosition(pos);
  return { line: line + 1, column: character + 1 };
}

/** Where `node` ends: the line and column just after its last character (exclusive end). */
export function endOf(node: Node | ts.Node): Position {
  const c = node instanceof Node ? node.compilerNode : node;
  return lineAndColumn(c.getSourceFile(), c.getEnd());
}
