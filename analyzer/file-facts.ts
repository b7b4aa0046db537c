/**
 * Facts of each project source file (model.ts SourceFileFacts): how Node runs it, what syntax it
 * is written in, what it imports (resolved by the analyzer's own resolver) and whether a stage
 * wrote it. Read from the compiler nodes in one walk per file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ts } from 'ts-morph';
import type { ImportFact, SourceFileFacts } from './model.js';
import { generatedKindOf } from './generated.js';
import { lineAndColumn } from './position.js';
import { readPackageJson } from './project.js';
import type { ModuleResolver } from './resolve.js';

/** `.d.ts`, `.d.mts`, `.d.cts`: types only, never run. */
const DECLARATION = /\.d\.[cm]?ts$/;

/**
 * The facts of `files` (absolute, discovered), those that parse (`parsed` returns null for the
 * others) and are not declaration files, sorted by file.
 */
export function sourceFileFacts(files: string[], parsed: (abs: string) => ts.SourceFile | null, root: string, resolver: ModuleResolver): SourceFileFacts[] {
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  const packageType = nearestPackageType();
  const out: SourceFileFacts[] = [];
  for (const abs of files) {
    if (DECLARATION.test(abs)) continue;
    const sf = parsed(abs);
    if (!sf) continue;
    const { imports, commonjs } = readImports(sf, (specifier) => {
      const r = resolver.resolve(specifier, abs);
      return r.kind === 'file' ? rel(r.path) : null;
    });
    const syntax = hasEsmSyntax(sf) ? 'esm' : commonjs ? 'commonjs' : 'none';
    const generated = generatedKindOf(sf);
    out.push({ file: rel(abs), moduleSystem: moduleSystemOf(abs, syntax, packageType(path.dirname(abs)), resolver.tsconfig), syntax, imports, ...(generated ? { generated } : {}) });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * `abs` parsed on its own, for a file the analysis did not parse (a test file, a file it never
 * reached): no diagnostic, no place in the analysis; null when it does not parse.
 */
export function parseQuietly(abs: string): ts.SourceFile | null {
  const sf = ts.createSourceFile(abs, readFileSync(abs, 'utf8'), ts.ScriptTarget.Latest, true);
  return (sf as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics?.length ? null : sf;
}

/**
 * An import, an export or `export default` at the top level, an exported declaration among them
 * (`export const`, `export interface`, `export enum`, …); read from the compiler nodes: ts-morph's
 * getters would list every statement's wrapper four times over. `import x = require()` and
 * `export =` are CommonJS.
 */
export function hasEsmSyntax(sf: ts.SourceFile): boolean {
  const exported = (s: ts.Statement) => ts.canHaveModifiers(s) && !!ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  return sf.statements.some((s) => ts.isImportDeclaration(s) || ts.isExportDeclaration(s) || (ts.isExportAssignment(s) && !s.isExportEquals) || exported(s));
}

/**
 * How Node runs a file (SourceFileFacts.moduleSystem): by extension, else by what tsc emits for
 * TypeScript, else by the nearest package.json `type` (`type` undefined: none there), else by
 * Node's syntax detection.
 */
function moduleSystemOf(abs: string, syntax: SourceFileFacts['syntax'], type: string | undefined, tsconfig: ts.CompilerOptions | null): 'esm' | 'commonjs' {
  const ext = path.extname(abs);
  if (ext === '.mjs' || ext === '.mts') return 'esm';
  if (ext === '.cjs' || ext === '.cts') return 'commonjs';
  const byPackage = type === 'module' ? 'esm' : 'commonjs';
  if (ext === '.ts' || ext === '.tsx') {
    const module = tsconfig?.module ?? ((tsconfig?.target ?? ts.ScriptTarget.ES5) >= ts.ScriptTarget.ES2015 ? ts.ModuleKind.ES2015 : ts.ModuleKind.CommonJS);
    if (module >= ts.ModuleKind.Node16 && module <= ts.ModuleKind.NodeNext) return byPackage;
    return module === ts.ModuleKind.Preserve || (module >= ts.ModuleKind.ES2015 && module <= ts.ModuleKind.ESNext) ? 'esm' : 'commonjs';
  }
  if (type === 'module' || type === 'commonjs') return byPackage;
  return syntax === 'esm' ? 'esm' : 'commonjs';
}

/** The `type` of the package.json nearest a folder (Node's lookup; that package.json decides, with or without a `type`), cached per folder. */
function nearestPackageType(): (dir: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  const lookup = (dir: string): string | undefined => {
    if (known.has(dir)) return known.get(dir);
    const pkg = readPackageJson(dir);
    const parent = path.dirname(dir);
    const type = pkg ? (typeof pkg.type === 'string' ? pkg.type : undefined) : parent === dir ? undefined : lookup(parent);
    known.set(dir, type);
    return type;
  };
  return lookup;
}

/**
 * The imports of a file in source order, and whether it uses CommonJS (`require(…)` calls,
 * `module.exports`, `exports.x`, `import x = require(…)`, `export =`).
 */
function readImports(sf: ts.SourceFile, resolve: (specifier: string) => string | null): { imports: ImportFact[]; commonjs: boolean } {
  const imports: ImportFact[] = [];
  let commonjs = false;
  const add = (specifier: ts.Node | undefined, kind: ImportFact['kind'], at: ts.Node, typeOnly = false) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    imports.push({ specifier: specifier.text, resolved: resolve(specifier.text), line: lineAndColumn(sf, at.getStart(sf)).line, kind, ...(typeOnly ? { typeOnly: true as const } : {}) });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n)) add(n.moduleSpecifier, 'import', n, !!n.importClause?.isTypeOnly);
    else if (ts.isExportDeclaration(n)) add(n.moduleSpecifier, 'export-from', n, n.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) {
      commonjs = true;
      add(n.moduleReference.expression, 'require', n, n.isTypeOnly);
    } else if (ts.isExportAssignment(n) && n.isExportEquals) commonjs = true;
    else if (ts.isCallExpression(n)) {
      if (n.expression.kind === ts.SyntaxKind.ImportKeyword) add(n.arguments[0], 'dynamic', n);
      else if (ts.isIdentifier(n.expression) && n.expression.text === 'require') {
        commonjs = true;
        add(n.arguments[0], 'require', n);
      }
    } else if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && (n.expression.text === 'exports' || (n.expression.text === 'module' && n.name.text === 'exports'))) commonjs = true;
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(sf, visit);
  return { imports, commonjs };
}
