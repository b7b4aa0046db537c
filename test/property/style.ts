/**
 * Code style of a generated app, applied after the code is written. The renderers write one canonical
 * style (single quotes, semicolons, two-space indentation, LF); `restyle` turns it into the app's
 * style with the TypeScript parser, so string contents and statement ends are found by syntax, not by
 * text search.
 */
import ts from 'typescript';

/** How a generated app writes its code. */
export interface CodeStyle {
  quote: 'single' | 'double';
  semicolons: boolean;
  /** One indentation level. */
  indent: '  ' | '    ' | '\t';
  eol: '\n' | '\r\n';
}

/** The style the renderers write in. */
export const CANONICAL_STYLE: CodeStyle = { quote: 'single', semicolons: true, indent: '  ', eol: '\n' };

/** Statements and members whose trailing `;` is optional (automatic semicolon insertion). */
const SEMICOLON_ENDED = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.ExpressionStatement,
  ts.SyntaxKind.ReturnStatement,
  ts.SyntaxKind.ThrowStatement,
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.ExportAssignment,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.BreakStatement,
  ts.SyntaxKind.ContinueStatement,
  // `declare module 'cors';` (a shorthand ambient module).
  ts.SyntaxKind.ModuleDeclaration,
]);

/** A line starting with one of these would continue the previous statement without its `;`. */
const ASI_HAZARD = /^[([`+\-/]/;

/**
 * Rewrites canonical code (see {@link CANONICAL_STYLE}) into `style`.
 * @param fileName decides the parser (`.ts` → TypeScript, otherwise JavaScript).
 * @throws Error when the canonical source has a line starting with an ASI hazard while semicolons
 *   are to be dropped (a renderer bug: the output would change meaning).
 */
export function restyle(source: string, style: CodeStyle, fileName: string): string {
  let out = source;
  if (style.quote === 'double' || !style.semicolons) out = applyEdits(out, tokenEdits(out, style, fileName));
  if (style.indent !== CANONICAL_STYLE.indent) out = reindent(out, style.indent);
  if (style.eol !== '\n') out = out.replace(/\n/g, style.eol);
  return out;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function tokenEdits(source: string, style: CodeStyle, fileName: string): Edit[] {
  const kind = fileName.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);
  const edits: Edit[] = [];
  const visit = (node: ts.Node): void => {
    if (style.quote === 'double' && ts.isStringLiteral(node)) {
      const start = node.getStart(sf);
      edits.push({ start, end: node.end, text: JSON.stringify(node.text) });
    }
    if (!style.semicolons && SEMICOLON_ENDED.has(node.kind)) {
      const semi = droppableSemicolon(source, node.end);
      if (semi !== null) edits.push({ start: semi, end: semi + 1, text: '' });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edits;
}

/** The offset of the `;` ending at `end` when it ends its line and the next code line is safe without it. */
function droppableSemicolon(source: string, end: number): number | null {
  if (source[end - 1] !== ';') return null;
  const lineEnd = source.indexOf('\n', end);
  const rest = source.slice(end, lineEnd === -1 ? source.length : lineEnd);
  if (!/^\s*(\/\/.*)?$/.test(rest)) return null;
  const following = source.slice(lineEnd === -1 ? source.length : lineEnd + 1).split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('//'));
  if (following !== undefined && ASI_HAZARD.test(following)) {
    throw new Error(`restyle: a line starts with an ASI hazard and semicolons are to be dropped: ${following}`);
  }
  return end - 1;
}

function applyEdits(source: string, edits: Edit[]): string {
  let out = source;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Two canonical spaces per level become `unit`; a leftover odd space is kept. */
function reindent(source: string, unit: string): string {
  return source.replace(/^( +)/gm, (spaces) => unit.repeat(Math.floor(spaces.length / 2)) + (spaces.length % 2 ? ' ' : ''));
}
