/**
 * `analyze(options) → Inventory`: the analyzer's public entry. Loads the project (ts-morph, JS
 * and TS, CJS and ESM), evaluates it from its entry, builds the records, sweeps for route-like
 * calls it could not attribute, and summarises how complete the result is. Never runs user code.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Node, Project, ts, type SourceFile } from 'ts-morph';
import { glob } from 'tinyglobby';
import { discoverFiles } from './files.js';
import { joinTsoaActions } from './decorators.js';
import { BudgetExceeded, Evaluator } from './evaluate.js';
import { buildRecords } from './inventory.js';
import { helperLookup } from './helpers.js';
import { BLIND_SPOTS, SCHEMA_VERSION, type Diagnostic, type Inventory, type Location, type Resolution } from './model.js';
import { detectEntry, readPackageJson, readProjectFacts, workspaceDirs } from './project.js';
import { ModuleResolver } from './resolve.js';
import { ROUTE_METHODS } from './express-api.js';
import { descendantsWhere } from './syntax.js';
import { toolVersion } from './version.js';
import { lineAndColumn } from './position.js';
import { parseQuietly, sourceFileFacts } from './file-facts.js';
import { generatedKindOf } from './generated.js';
import { isTestFile, testDrivers } from './test-drivers.js';

export interface AnalyzeOptions {
  /** Folder to analyse (absolute or relative to the process cwd). */
  dir: string;
  /** Entry file relative to the app folder; detected when omitted. */
  entry?: string;
  /** Workspace member to analyse in a monorepo: its package name or folder. */
  app?: string;
  /** Progress messages for long runs (the CLI prints them on stderr). */
  onProgress?: (message: string) => void;
}

/** Refusals with a stable code; the CLI maps them to exit code 2. */
export class AnalyzeError extends Error {
  constructor(readonly code: 'missing-dir' | 'app-ambiguous' | 'app-not-found' | 'entry-not-found', message: string) {
    super(message);
  }
}

/**
 * Analyses the Express app in `options.dir`.
 * @throws AnalyzeError when the folder does not exist, `--app` names no workspace, several
 *   workspaces hold Express apps and none was chosen, or `--entry` does not exist.
 */
export async function analyze(options: AnalyzeOptions): Promise<Inventory> {
  const root = await chooseRoot(path.resolve(options.dir), options.app);
  const pkg = readPackageJson(root);
  const entry = detectEntry(root, pkg, options.entry);
  if (options.entry && !entry.entry) throw new AnalyzeError('entry-not-found', `entry ${options.entry} does not exist in ${root}`);
  const { facts, diagnostics: projectDiagnostics } = await readProjectFacts(root, entry);
  const discovered = await discoverFiles(root);
  options.onProgress?.(`analysing ${discovered.files.length} files in ${root}`);

  const diagnostics: Diagnostic[] = [...projectDiagnostics, ...discovered.diagnostics];
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: true } });
  const resolver = new ModuleResolver({ root });
  for (const problem of resolver.tsconfigProblems) diagnostics.push({ code: 'tsconfig-problem', severity: 'info', message: `tsconfig.json: ${problem} (analysis continues with the options that could be read)` });
  const allowed = new Set(discovered.files);
  const failed = new Set<string>();
  const relPaths = new Map<string, string>();
  const rel = (abs: string) => {
    let r = relPaths.get(abs);
    if (r === undefined) relPaths.set(abs, (r = path.relative(root, abs).split(path.sep).join('/')));
    return r;
  };
  const locate = (node: Node | ts.Node): Location => {
    const c = node instanceof Node ? node.compilerNode : node;
    const sf = c.getSourceFile();
    return { file: rel(sf.fileName), ...lineAndColumn(sf, c.getStart(sf)) };
  };
  const sourceFile = (abs: string): SourceFile | null => {
    if (failed.has(abs)) return null;
    const existing = project.getSourceFile(abs);
    if (existing) return existing;
    if (!allowed.has(abs) && !existsSync(abs)) return null;
    const sf = project.addSourceFileAtPath(abs);
    const parseErrors = (sf.compilerNode as unknown as { parseDiagnostics?: { start?: number; messageText: unknown }[] }).parseDiagnostics ?? [];
    if (parseErrors.length > 0) {
      const first = parseErrors[0];
      const pos = sf.getLineAndColumnAtPos(first.start ?? 0);
      diagnostics.push({ code: 'parse-error', severity: 'error', message: `${rel(abs)} does not parse: ${typeof first.messageText === 'string' ? first.messageText : 'syntax error'}; its routes are not in the inventory`, location: { file: rel(abs), line: pos.line, column: pos.column } });
      failed.add(abs);
      project.removeSourceFile(sf);
      return null;
    }
    return sf;
  };

  const evaluator = new Evaluator({ project, root, resolver, sourceFile, diagnostics, location: locate });
  const roots = entry.entry ? [path.join(root, entry.entry)] : expressFiles(discovered.files, sourceFile);
  if (!entry.entry) diagnostics.push({ code: 'no-entry', severity: roots.length ? 'info' : 'warning', message: roots.length ? `no entry file found; analysed every file that imports express (${roots.length})` : 'no entry file found and no file imports express' });
  for (const file of roots) {
    try {
      evaluator.loadModule(file);
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      diagnostics.push({ code: 'analysis-budget', severity: 'error', message: 'the evaluation budget was exhausted; the inventory is incomplete', location: locate(e.node) });
    }
  }
  joinTsoaActions(evaluator);

  const records = buildRecords(evaluator.routers, locate, root, helperLookup(evaluator), evaluator.api.fastify.apps);
  diagnostics.push(...records.diagnostics, ...sweepUnattributed(discovered.files, sourceFile, evaluator, locate));
  for (const file of discovered.files) {
    if (!evaluator.modules.has(file) && !failed.has(file) && !isTestFile(file) && importsExpress(file)) {
      diagnostics.push({ code: 'unreached-file', severity: 'info', message: `${rel(file)} imports express but is not reached from the entry ${entry.entry ?? ''}`.trim(), location: { file: rel(file), line: 1, column: 1 } });
    }
  }
  if (evaluator.routers.length === 0 && evaluator.api.fastify.apps.length === 0) {
    const nested = await glob(['*/package.json', '*/*/package.json'], { cwd: root, ignore: ['**/node_modules/**'] });
    const candidates = nested.map((f) => path.dirname(f)).filter((d) => dependsOnExpress(path.join(root, d))).sort();
    const hint = candidates.length ? `; Express apps in subfolders: ${candidates.map((d) => `${d} (run \`migrate analyze ${path.join(options.dir, d)}\`)`).join(', ')}` : '';
    diagnostics.push({ code: 'no-express', severity: 'info', message: `no Express app or router was found in this folder${hint}` });
  }

  // The entry is a project file too when discovery leaves it out for its name (`bin/www` has no extension).
  const entryFile = entry.entry ? path.join(root, entry.entry) : null;
  const factFiles = entryFile && !allowed.has(entryFile) && existsSync(entryFile) ? [...discovered.files, entryFile] : discovered.files;
  // Files the analysis did not parse (test files, files it never reached) are parsed once, quietly.
  const quiet = new Map<string, ts.SourceFile | null>();
  const parsed = (abs: string) => (failed.has(abs) ? null : (project.getSourceFile(abs)?.compilerNode ?? (quiet.has(abs) ? quiet.get(abs)! : quiet.set(abs, parseQuietly(abs)).get(abs)!)));
  const files = sourceFileFacts(factFiles, parsed, root, resolver);
  const drivers = testDrivers(discovered.files.filter((f) => isTestFile(path.relative(root, f))), parsed, {
    root,
    resolver,
    modules: evaluator.modules,
    appIdOf: (node) => {
      const at = locate(node.site);
      return records.apps.find((a) => a.location.file === at.file && a.location.line === at.line && a.location.column === at.column)?.id ?? null;
    },
    generated: (abs) => {
      const sf = parsed(abs);
      return !!sf && generatedKindOf(sf) === 'server-module';
    },
  });
  for (const app of records.apps) if (drivers.has(app.id)) app.testDrivers = drivers.get(app.id);
  const inventory: Inventory = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'express-to-fastify-migrate', version: toolVersion() },
    project: facts,
    summary: { routes: 0, byResolution: { exact: 0, partial: 0, inferred: 0, unresolved: 0 }, routers: 0, mounts: 0, middleware: 0, errorHandlers: 0, files: { analysed: 0, skipped: 0, failed: 0, skippedFolders: [] }, complete: true, reasons: {}, headline: '' },
    ...records,
    files,
    diagnostics: sortDiagnostics(diagnostics),
  };
  inventory.summary = summarise(inventory, { analysed: evaluator.modules.size - failed.size, skipped: discovered.diagnostics.length, failed: failed.size, skippedFolders: discovered.skippedDirs });
  return inventory;
}

/**
 * Picks the folder to analyse: the given one, or one workspace member of a monorepo (also used by
 * `migrate run`, which edits files in that folder).
 * @throws AnalyzeError 'missing-dir', 'app-not-found' or 'app-ambiguous'
 */
export async function chooseRoot(dir: string, app?: string): Promise<string> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new AnalyzeError('missing-dir', `${dir} is not a folder`);
  const pkg = readPackageJson(dir);
  const members = await workspaceDirs(dir, pkg);
  const withExpress = members.filter((m) => dependsOnExpress(path.join(dir, m)));
  if (app) {
    if (members.length === 0) throw new AnalyzeError('app-not-found', `--app applies to monorepos; ${dir} declares no workspaces`);
    const wanted = app.replace(/\/$/, '');
    const match = members.find((m) => m === wanted || path.basename(m) === wanted || readPackageJson(path.join(dir, m))?.name === wanted);
    if (!match) throw new AnalyzeError('app-not-found', `--app ${app} is not a workspace of ${dir}; workspaces: ${members.join(', ')}`);
    return path.join(dir, match);
  }
  if (dependsOnExpress(dir) || withExpress.length === 0) return dir;
  if (withExpress.length === 1) return path.join(dir, withExpress[0]);
  throw new AnalyzeError('app-ambiguous', `${dir} is a monorepo with ${withExpress.length} Express apps; choose one with --app: ${withExpress.join(', ')}`);
}

function dependsOnExpress(dir: string): boolean {
  const pkg = readPackageJson(dir);
  return Boolean(pkg?.dependencies?.express ?? pkg?.devDependencies?.express);
}

function importsExpress(file: string): boolean {
  return /(?:from\s*|require\s*\(\s*|import\s*\(\s*)['"]express['"]/.test(readFileSync(file, 'utf8'));
}

/** Files of other HTTP frameworks register routes with the same method names; not ours to flag. */
function importsOtherFramework(file: string): boolean {
  return /(?:from\s*|require\s*\(\s*)['"](?:fastify|koa|@koa\/router|koa-router|@hapi\/hapi|hono|restify)['"]/.test(readFileSync(file, 'utf8'));
}

function expressFiles(files: string[], sourceFile: (f: string) => SourceFile | null): string[] {
  return files.filter((f) => !isTestFile(f) && importsExpress(f) && sourceFile(f) !== null);
}

/**
 * Route-like calls (`x.get('/path', fn)`, `x.use('/path', fn)`) the evaluation never reached:
 * code in functions never called, or on values it could not identify. Reported so that nothing
 * is dropped silently.
 */
function sweepUnattributed(files: string[], sourceFile: (f: string) => SourceFile | null, ev: Evaluator, locate: (n: Node) => Location): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of files) {
    if (isTestFile(file)) continue;
    const sf = ev.modules.get(file)?.source ?? (importsOtherFramework(file) ? null : sourceFile(file));
    if (!sf) continue;
    for (const call of descendantsWhere(sf, routeLikeCall)) {
      if (ev.visitedCalls.has(call)) continue;
      const callee = call.getExpression();
      if (!Node.isPropertyAccessExpression(callee)) continue;
      const method = callee.getName();
      if (!ROUTE_METHODS.has(method) && method !== 'use') continue;
      const args = call.getArguments();
      if (args.length < 2) continue;
      const first = args[0];
      const pathLike = (Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first)) && first.getLiteralValue().startsWith('/');
      const fnLike = args.slice(1).some((a) => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isIdentifier(a) || Node.isPropertyAccessExpression(a) || Node.isCallExpression(a));
      if (!pathLike || !fnLike) continue;
      out.push({ code: 'unresolved-router', severity: 'warning', message: `\`${callee.getExpression().getText()}.${method}(${first.getText()}, …)\` looks like a registration, but the analysis never reached it with a known app or router (a function never called, or a receiver it could not identify)`, location: locate(call) });
    }
  }
  return out;
}

/**
 * What sweepUnattributed needs of a call, tested on the compiler node so that only candidates get
 * ts-morph wrappers: `x.<route method or use>(a, b, …)` with a string or template first argument.
 */
function routeLikeCall(c: ts.Node): c is ts.CallExpression {
  if (!ts.isCallExpression(c) || !ts.isPropertyAccessExpression(c.expression) || c.arguments.length < 2) return false;
  const method = c.expression.name.text;
  const first = c.arguments[0];
  return (ROUTE_METHODS.has(method) || method === 'use') && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first));
}

function summarise(inv: Inventory, files: Inventory['summary']['files']): Inventory['summary'] {
  const byResolution: Record<Resolution, number> = { exact: 0, partial: 0, inferred: 0, unresolved: 0 };
  const reasons: Record<string, number> = {};
  for (const r of inv.routes) {
    byResolution[r.resolution]++;
    for (const reason of r.reasons) reasons[reason.code] = (reasons[reason.code] ?? 0) + 1;
  }
  for (const m of inv.mounts) for (const reason of m.reasons) reasons[reason.code] = (reasons[reason.code] ?? 0) + 1;
  const blind = inv.diagnostics.filter((d) => BLIND_SPOTS.includes(d.code));
  for (const d of blind) reasons[d.code] = (reasons[d.code] ?? 0) + 1;
  const unattributed = blind.length;
  const parseErrors = inv.diagnostics.filter((d) => d.code === 'parse-error' || d.code === 'analysis-budget').length;
  if (parseErrors) reasons['parse-error'] = parseErrors;
  const notExact = inv.routes.length - byResolution.exact;
  const complete = notExact === 0 && unattributed === 0 && parseErrors === 0 && inv.mounts.every((m) => m.resolution === 'exact');
  const problems = [
    notExact ? `${notExact} of ${inv.routes.length} routes ${notExact === 1 ? 'is' : 'are'} not resolved exactly` : '',
    unattributed ? `${unattributed} registration${unattributed === 1 ? '' : 's'} could not be followed (${[...new Set(blind.map((d) => d.code))].join(', ')})` : '',
    parseErrors ? `${parseErrors} file${parseErrors === 1 ? '' : 's'} could not be analysed` : '',
  ].filter(Boolean);
  const headline = inv.routes.length === 0 && inv.apps.length === 0
    ? 'No Express app found.'
    : complete
      ? `Inventory complete: ${inv.routes.length} routes in ${inv.apps.length} app${inv.apps.length === 1 ? '' : 's'}, all resolved exactly.`
      : `Inventory INCOMPLETE: ${problems.join('; ')}. See "Not resolved" below.`;
  return {
    routes: inv.routes.length, byResolution, routers: inv.routers.length, mounts: inv.mounts.length, middleware: inv.middleware.length, errorHandlers: inv.errorHandlers.length,
    files, complete, reasons, headline,
  };
}

/** Sorted by file, line, code; exact repeats (one per method of a route) dropped. */
function sortDiagnostics(d: Diagnostic[]): Diagnostic[] {
  const unique = [...new Map(d.map((x) => [JSON.stringify(x), x])).values()];
  return unique.sort((a, b) => (a.location?.file ?? '').localeCompare(b.location?.file ?? '') || (a.location?.line ?? 0) - (b.location?.line ?? 0) || a.code.localeCompare(b.code) || a.message.localeCompare(b.message));
}
