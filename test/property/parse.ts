/**
 * Whether a file of a generated (or transformed) app parses, checked by two parsers independent of
 * the runner's own check: the TypeScript compiler's parser, and Babel in the file's real module
 * mode (a CommonJS `.js` file is parsed as a script, so an `import` or a top-level `await` written
 * into it by a stage is caught). JSON files must satisfy JSON.parse; other files are not checked.
 */
import { createRequire } from 'node:module';
import ts from 'typescript';

// jscodeshift's copy of @babel/parser (not a direct dependency of this repository).
const requireFromJscodeshift = createRequire(createRequire(import.meta.url).resolve('jscodeshift'));
const babel = requireFromJscodeshift('@babel/parser') as {
  parse(code: string, options: { sourceType: 'module' | 'script'; plugins: string[]; errorRecovery: boolean }): unknown;
};

/** `"module"` when the app's package.json says `"type": "module"`, else `"commonjs"`. */
export type PackageType = 'module' | 'commonjs';

/** The package type declared by a package.json source (missing or unreadable → commonjs). */
export function packageTypeOf(packageJson: string | undefined): PackageType {
  try {
    return (JSON.parse(packageJson ?? '{}') as { type?: string }).type === 'module' ? 'module' : 'commonjs';
  } catch {
    return 'commonjs';
  }
}

/**
 * Null when `source` parses as `file` (POSIX path; its extension and `packageType` decide the
 * grammar), else the first problem as `parser line:column message`.
 */
export function parseProblem(file: string, source: string, packageType: PackageType): string | null {
  if (file.endsWith('.json')) {
    try {
      JSON.parse(source);
      return null;
    } catch (e) {
      return `JSON.parse: ${(e as Error).message}`;
    }
  }
  const ext = /\.([cm]?[jt]sx?)$/.exec(file)?.[1];
  if (!ext) return null;
  const typescript = ext.includes('t');
  const kind = { ts: ts.ScriptKind.TS, mts: ts.ScriptKind.TS, cts: ts.ScriptKind.TS, tsx: ts.ScriptKind.TSX, jsx: ts.ScriptKind.JSX }[ext] ?? ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, kind);
  const tsErrors = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  if (tsErrors.length > 0) {
    const d = tsErrors[0];
    const { line, character } = sf.getLineAndCharacterOfPosition(d.start ?? 0);
    return `typescript ${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  }
  // TypeScript files use import syntax whatever they compile to; JavaScript follows its package.
  const script = ext === 'cjs' || (ext === 'js' && packageType === 'commonjs');
  try {
    babel.parse(source, { sourceType: script ? 'script' : 'module', plugins: typescript ? ['typescript', ...(ext === 'tsx' ? ['jsx'] : [])] : ext === 'jsx' ? ['jsx'] : [], errorRecovery: false });
  } catch (e) {
    return `babel ${(e as Error).message}`;
  }
  return null;
}
