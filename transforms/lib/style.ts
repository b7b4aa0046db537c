/**
 * The code style of a file, detected once before a transform changes it, so the code it adds
 * follows the file (codemod-practice.md §4: quotes, semicolons, indentation, line endings;
 * jest-codemods' quote-style and line-terminator utils, aws-sdk-js-codemod's
 * getMostUsedStringLiteralQuote). Every property is decided by counting, not by the first
 * occurrence, and ties go to the default.
 */
import detectIndent from 'detect-indent';
import { parserFor } from './parser.js';

/** What new code must look like to fit the file. */
export interface CodeStyle {
  /** Quote of most string literals (JSX attribute values not counted). */
  quote: 'single' | 'double';
  /** Whether most statements that may end with `;` do. */
  semicolons: boolean;
  /** Indentation unit: tabs, or `width` spaces (detect-indent's most common indentation step). */
  indent: { tabs: boolean; width: number };
  /** Line terminator of most lines. */
  eol: '\n' | '\r\n';
}

/** The style of an empty file, and of whatever cannot be counted in a file. */
export const DEFAULT_STYLE: CodeStyle = { quote: 'single', semicolons: true, indent: { tabs: false, width: 2 }, eol: '\n' };

/** Statements (and class members) that end with an optional `;`. */
const SEMICOLON_STATEMENTS = new Set([
  'ExpressionStatement', 'VariableDeclaration', 'ReturnStatement', 'ThrowStatement', 'BreakStatement', 'ContinueStatement',
  'DoWhileStatement', 'DebuggerStatement', 'ImportDeclaration', 'ExportAllDeclaration', 'ClassProperty', 'ClassPrivateProperty',
  'TSTypeAliasDeclaration', 'TSImportEqualsDeclaration', 'TSExportAssignment',
]);

interface BabelNode {
  type: string;
  start: number;
  end: number;
  extra?: { raw?: string };
  [key: string]: unknown;
}

/**
 * Detects the style of `source`. `file` (a path; only the extension counts) chooses the parser
 * for quotes and semicolons; without it TypeScript then JavaScript/JSX are tried. When the
 * source does not parse, quotes and semicolons keep their defaults; indentation and line endings
 * are counted on the text either way.
 */
export function detectStyle(source: string, file?: string): CodeStyle {
  const ast = parseAny(source, file);
  const counts = ast ? countSyntax(ast, source) : null;
  return {
    quote: counts && counts.double > counts.single ? 'double' : 'single',
    semicolons: counts ? counts.withSemicolon >= counts.withoutSemicolon : true,
    indent: detectIndentation(source),
    eol: detectEol(source),
  };
}

function parseAny(source: string, file?: string): BabelNode | null {
  const candidates = file ? [file] : ['x.ts', 'x.jsx'];
  for (const name of candidates) {
    try {
      return parserFor(name).parse(source) as BabelNode;
    } catch {
      // try the next parser; an unparsable file keeps the default quotes and semicolons
    }
  }
  return null;
}

/** Counts string-literal quotes and statement-ending semicolons in a Babel AST. */
function countSyntax(ast: BabelNode, source: string): { single: number; double: number; withSemicolon: number; withoutSemicolon: number } {
  const counts = { single: 0, double: 0, withSemicolon: 0, withoutSemicolon: 0 };
  const visit = (node: BabelNode, parent: BabelNode | null, key: string): void => {
    if ((node.type === 'StringLiteral' || node.type === 'DirectiveLiteral') && parent?.type !== 'JSXAttribute') {
      const quote = (node.extra?.raw ?? source.slice(node.start, node.end))[0];
      if (quote === "'") counts.single++;
      else if (quote === '"') counts.double++;
    }
    if (endsWithOptionalSemicolon(node, parent, key)) {
      if (source[node.end - 1] === ';') counts.withSemicolon++;
      else counts.withoutSemicolon++;
    }
    for (const [childKey, value] of Object.entries(node)) {
      if (childKey === 'loc' || childKey === 'tokens' || childKey === 'comments' || childKey === 'extra') continue;
      if (Array.isArray(value)) for (const child of value) isNode(child) && visit(child, node, childKey);
      else if (isNode(value)) visit(value, node, childKey);
    }
  };
  visit(ast, null, '');
  return counts;
}

function endsWithOptionalSemicolon(node: BabelNode, parent: BabelNode | null, key: string): boolean {
  if (node.type === 'VariableDeclaration') return !(parent && /^For/.test(parent.type) && key !== 'body') && !node.declare;
  if (node.type === 'ExportNamedDeclaration') return !node.declaration;
  if (node.type === 'ExportDefaultDeclaration') return !/Declaration$/.test((node.declaration as BabelNode).type);
  return SEMICOLON_STATEMENTS.has(node.type);
}

function isNode(value: unknown): value is BabelNode {
  return typeof value === 'object' && value !== null && typeof (value as BabelNode).type === 'string' && typeof (value as BabelNode).start === 'number';
}

function detectIndentation(source: string): CodeStyle['indent'] {
  const found = detectIndent(source);
  if (found.type === 'tab') return { tabs: true, width: DEFAULT_STYLE.indent.width };
  if (found.type === 'space' && found.amount > 0) return { tabs: false, width: found.amount };
  return { ...DEFAULT_STYLE.indent };
}

function detectEol(source: string): CodeStyle['eol'] {
  const crlf = source.match(/\r\n/g)?.length ?? 0;
  const lf = (source.match(/\n/g)?.length ?? 0) - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** `lines` (written with single quotes, semicolons and two-space indents) in `style`: quotes, semicolons, indentation and line ends. */
export function restyle(lines: string[], style: CodeStyle): string {
  return lines
    .map((line) => {
      if (line.trimStart().startsWith('//') || line.trimStart().startsWith('*') || line.trimStart().startsWith('/**')) return indent(line, style);
      let out = style.quote === 'double' ? line.replace(/'([^'"\\]*)'/g, '"$1"') : line;
      if (!style.semicolons) out = out.replace(/;$/, '');
      return indent(out, style);
    })
    .join(style.eol)
    .concat(style.eol);
}

function indent(line: string, style: CodeStyle): string {
  const depth = (line.length - line.trimStart().length) / 2;
  const unit = style.indent.tabs ? '\t' : ' '.repeat(style.indent.width);
  return unit.repeat(Math.floor(depth)) + (depth % 1 ? ' ' : '') + line.trimStart();
}

/** `text` as a string literal in the file's quotes (`'a'`, or `"a"` in a double-quoted file). */
export function stringLiteral(text: string, style: Pick<CodeStyle, 'quote'>): string {
  return style.quote === 'double' ? JSON.stringify(text) : `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
