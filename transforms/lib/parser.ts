/**
 * The parser of a file, chosen by its extension (codemod-practice.md §5.4 and §6 "Parser
 * matrix": `babel` fails on TypeScript, `tsx` on `<T>x` casts, `ts` on JSX — so one per
 * extension, as aws-sdk-js-codemod does).
 *
 * - `.ts`, `.mts`, `.cts` → jscodeshift's `ts` parser;
 * - `.tsx` → jscodeshift's `tsx` parser;
 * - `.js`, `.mjs`, `.cjs`, `.jsx` and anything else → `babel`: @babel/parser with JSX and the
 *   same modern-syntax plugins as jscodeshift's `ts` parser, producing the same Babel AST
 *   (`StringLiteral`, `ObjectProperty`, …) as the TypeScript parsers. jscodeshift's own `babel`
 *   parser (babel5Compat) adds the `estree` plugin (`Literal`, `Property`), so a transform would
 *   need two code paths; this one lets one transform serve JS and TS alike.
 *
 * The runner uses the same parsers to check every input before a transform and every output
 * before it is written (`parses`).
 */
import { createRequire } from 'node:module';
import type { ASTNode, Parser } from 'jscodeshift';

/** Name of the parser a file gets. */
export type ParserName = 'ts' | 'tsx' | 'babel';

// jscodeshift's own copy of @babel/parser and its TypeScript options, so JS and TS files are
// parsed by the same Babel version recast was tested with.
const requireFromJscodeshift = createRequire(createRequire(import.meta.url).resolve('jscodeshift'));
const babelParser = requireFromJscodeshift('@babel/parser') as { parse(code: string, options: object): ASTNode };
const tsOptions = requireFromJscodeshift('./parser/tsOptions.js') as { plugins: Array<string | [string, object]> } & Record<string, unknown>;

/** Babel options for JS files: jscodeshift's TypeScript options with `jsx` in place of `typescript`. */
const JS_OPTIONS = { ...tsOptions, plugins: [...tsOptions.plugins.filter((p) => p !== 'typescript'), 'jsx'] };
const TS_OPTIONS = tsOptions;
const TSX_OPTIONS = { ...tsOptions, plugins: [...tsOptions.plugins, 'jsx'] };

/** The same options without tokens: a parse that only checks the syntax skips building the token list recast needs. */
const CHECK_OPTIONS: Record<ParserName, object> = {
  ts: { ...TS_OPTIONS, tokens: false },
  tsx: { ...TSX_OPTIONS, tokens: false },
  babel: { ...JS_OPTIONS, tokens: false },
};

const PARSERS: Record<ParserName, Parser> = {
  ts: { parse: (code: string) => babelParser.parse(code, TS_OPTIONS) },
  tsx: { parse: (code: string) => babelParser.parse(code, TSX_OPTIONS) },
  babel: { parse: (code: string) => babelParser.parse(code, JS_OPTIONS) },
};

/** The parser name for `file` (a path; only its extension counts). */
export function parserNameFor(file: string): ParserName {
  const ext = /\.[^./\\]+$/.exec(file)?.[0].toLowerCase() ?? '';
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') return 'ts';
  if (ext === '.tsx') return 'tsx';
  return 'babel';
}

/** The parser object for `file`, for `jscodeshift.withParser(parserFor(file))`. */
export function parserFor(file: string): Parser {
  return PARSERS[parserNameFor(file)];
}

/** Whether the runner checks `file` with a parser: JavaScript and TypeScript sources, and JSON. */
export function isCheckedSource(file: string): boolean {
  return /\.(?:[cm]?[jt]sx?|json)$/i.test(file);
}

/** Where and why a source does not parse: 1-based line and column (1, 1 when the parser gives no place). */
export interface ParseError {
  line: number;
  column: number;
  /** The parser's message without its `(line:column)` suffix. */
  message: string;
}

/**
 * The parse error of `source` read as `file` (by its extension; JSON files with JSON.parse), or
 * null when it parses. Files of other types are not checked (null).
 */
export function parseError(source: string, file: string): ParseError | null {
  if (/\.json$/i.test(file)) {
    try {
      JSON.parse(source);
      return null;
    } catch (e) {
      const message = (e as Error).message;
      const at = /position (\d+)/.exec(message);
      const before = at ? source.slice(0, Number(at[1])) : '';
      return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n'), message };
    }
  }
  if (!isCheckedSource(file)) return null;
  try {
    babelParser.parse(source, CHECK_OPTIONS[parserNameFor(file)]);
    return null;
  } catch (e) {
    const err = e as Error & { loc?: { line: number; column: number } };
    return { line: err.loc?.line ?? 1, column: (err.loc?.column ?? 0) + 1, message: err.message.replace(/\s*\(\d+:\d+\)$/, '') };
  }
}

/**
 * Whether `source` parses as `file` (see parseError): null when it does, else the parse error as
 * `line:column message` (JSON: the message alone).
 */
export function parses(source: string, file: string): string | null {
  const error = parseError(source, file);
  if (!error) return null;
  return /\.json$/i.test(file) ? error.message : `${error.line}:${error.column} ${error.message}`;
}
