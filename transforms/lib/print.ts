/**
 * The one epilogue of every transform (jest-codemods' `finale`): prints a jscodeshift root so
 * that the code the transform added follows the file's style, and the lines it did not touch
 * stay byte-identical (recast reprints only changed nodes).
 *
 * recast honours `quote` and `lineTerminator`, but not everything (codemod-practice.md §4), so
 * these are fixed on the lines that are new — the lines a line diff against the original marks
 * as added — and nowhere else:
 * - semicolons cannot be omitted (recast #344): dropped in files without semicolons;
 * - `useTabs` only half works (recast #315: a reprinted block comes out indented with spaces):
 *   leading spaces become tabs in tab-indented files;
 * - a reprinted program doubles the `;` of a Babel-AST directive (`'use strict';;`): restored;
 * - a reprinted statement list drops empty statements, so the `;[1, 2].forEach(…)` guard of a
 *   semicolon-free file would vanish and the line join the previous statement: restored.
 *
 * Not fixed: recast gives a statement inserted after one that was followed by a blank line that
 * blank line before it and another after it (jscodeshift #185); insert where no blank line
 * follows, or accept the spacing. And recast reprints some untouched constructs differently
 * (`{...a || {}}` gains parentheses, codemod-practice.md §4), so a transform that changed
 * nothing must return null rather than print.
 */
import { diffLines } from 'diff';
import type { Collection, JSCodeshift } from 'jscodeshift';
import { importedSpecifiers } from './imports.js';
import type { CodeStyle } from './style.js';

/**
 * recast measures the tabs of the original source with the `tabWidth` it was parsed with, and
 * jscodeshift parses with recast's default of 4; printing with the same width keeps the
 * reprinted code's indentation consistent, and the new lines are re-tabbed afterwards.
 */
export const RECAST_PARSE_TAB_WIDTH = 4;

/**
 * Prints `root` (parsed from `original` with jscodeshift's default options) in `style`:
 * `toSource({ quote, tabWidth, useTabs, lineTerminator })`, then, on added lines only, leading
 * spaces become tabs in tab-indented files and the trailing `;` recast adds is dropped in files
 * without semicolons (kept where the next line starts with `(`, `[`, `` ` ``, `+`, `-` or `/`,
 * which would otherwise continue the statement). Returns `original` itself when nothing changed.
 */
export function printWithStyle(root: Collection, original: string, style: CodeStyle): string {
  const printed = root.toSource({
    quote: style.quote,
    tabWidth: style.indent.tabs ? RECAST_PARSE_TAB_WIDTH : style.indent.width,
    useTabs: style.indent.tabs,
    lineTerminator: style.eol,
  });
  if (printed === original) return original;
  return restyleAddedLines(original, printed, style);
}

/** Applies the fixes of the module comment to the lines of `printed` that a line diff marks as added. */
function restyleAddedLines(original: string, printed: string, style: CodeStyle): string {
  const lines: string[] = [];
  const added: boolean[] = [];
  let removed = new Set<string>();
  for (const part of diffLines(original, printed)) {
    if (part.removed) {
      removed = new Set(splitKeepingEol(part.value));
      continue;
    }
    for (const line of splitKeepingEol(part.value)) {
      lines.push(line);
      added.push(Boolean(part.added));
      // A line that recast printed with one `;` too many is the removed line it replaces.
      if (part.added && removed.has(line.replace(/;;([ \t]*\r?\n?)$/, ';$1'))) lines[lines.length - 1] = line.replace(/;;([ \t]*\r?\n?)$/, ';$1');
    }
    if (!part.added) removed = new Set();
  }
  for (let i = 0; i < lines.length; i++) {
    if (!added[i]) continue;
    if (style.indent.tabs) lines[i] = retab(lines[i]);
    if (style.semicolons) continue;
    if (!continuesOnNextLine(lines, i)) lines[i] = lines[i].replace(/;([ \t]*(?:\r?\n)?)$/, '$1');
    if (/^[ \t]*[([`]/.test(lines[i]) && !previousLineOpens(lines, i)) lines[i] = lines[i].replace(/^([ \t]*)/, '$1;');
  }
  return lines.join('');
}

/** Lines of `text` with their terminators kept, so joining them gives the text back. */
function splitKeepingEol(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Leading whitespace as tabs: every RECAST_PARSE_TAB_WIDTH columns become one tab. */
function retab(line: string): string {
  const indent = /^[ \t]*/.exec(line)![0];
  if (!indent.includes(' ')) return line;
  let columns = 0;
  for (const c of indent) columns = c === '\t' ? columns + RECAST_PARSE_TAB_WIDTH - (columns % RECAST_PARSE_TAB_WIDTH) : columns + 1;
  const tabs = Math.floor(columns / RECAST_PARSE_TAB_WIDTH);
  return '\t'.repeat(tabs) + ' '.repeat(columns - tabs * RECAST_PARSE_TAB_WIDTH) + line.slice(indent.length);
}

/** Whether the next non-blank line starts with a character that would continue a statement left without `;`. */
function continuesOnNextLine(lines: string[], i: number): boolean {
  for (let k = i + 1; k < lines.length; k++) {
    const text = lines[k].trim();
    if (text) return startsWithContinuation(text);
  }
  return false;
}

function startsWithContinuation(line: string): boolean {
  // A comment (`//`, `/*`) continues nothing.
  return /^[ \t]*(?!\/[/*])[([`+\-/]/.test(line);
}

/**
 * Whether the previous non-blank line leaves its statement open (ends with `{ ( [ , ; =` or an
 * operator), so a line starting with `(`/`[` continues it on purpose and needs no `;` guard.
 */
function previousLineOpens(lines: string[], i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const text = lines[k].trim();
    if (text) return /[{([,;=+\-*/%&|^!?:<>]$/.test(text);
  }
  return true;
}

/**
 * recast reprints a program whose statement list changed without the blank line that followed
 * its directive (`'use strict';`); put it back when the original had it.
 */
function keepDirectiveGap(original: string, printed: string): string {
  const directive = /^([ \t]*(['"])use strict\2;?)(\r?\n)/m;
  const before = directive.exec(original);
  const after = directive.exec(printed);
  if (!before || !after) return printed;
  const eol = after[3];
  const blankAfter = (text: string, m: RegExpExecArray) => /^[ \t]*\r?\n/.test(text.slice(m.index + m[0].length));
  if (!blankAfter(original, before) || blankAfter(printed, after)) return printed;
  const at = after.index + after[0].length;
  return printed.slice(0, at) + eol + printed.slice(at);
}

/**
 * recast separates a statement added after the last import by the blank line that followed that
 * import; an import we added belongs to the block above it, so that blank line goes.
 */
function closeImportGaps(text: string, specifiers: string[]): string {
  if (!specifiers.length) return text;
  const lines = text.split('\n');
  const isImport = (line: string) => /^\s*(import\s|(const|let|var)\s.*\brequire\()/.test(line);
  for (const specifier of specifiers) {
    const quoted = new RegExp(`['"]${specifier.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]`);
    const at = lines.findIndex((line) => isImport(line) && quoted.test(line));
    if (at >= 2 && lines[at - 1].trim() === '' && isImport(lines[at - 2])) lines.splice(at - 1, 1);
  }
  return lines.join('\n');
}

/**
 * The epilogue of a transform that added imports: printWithStyle, then the blank lines recast
 * leaves wrong closed (closeImportGaps for the imports added since `importsBefore` — the
 * specifiers importedSpecifiers gave before the edits —, keepDirectiveGap for `'use strict'`).
 */
export function printEdited(j: JSCodeshift, root: Collection, original: string, style: CodeStyle, importsBefore: ReadonlySet<string>): string {
  const added = [...importedSpecifiers(j, root)].filter((s) => !importsBefore.has(s));
  return keepDirectiveGap(original, closeImportGaps(printWithStyle(root, original, style), added));
}
