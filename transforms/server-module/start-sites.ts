/**
 * Where an Express app is started, found on the syntax tree of the files that may start it (the
 * entry, the files that create an app, the files the analyzer saw listen): `app.listen(…)`,
 * `http.createServer([options,] app)`, `require('http').createServer(app)`, `http.Server(app)`
 * and `new http.Server(app)` (the socket.io pattern). A site counts only when the receiver or
 * argument is bound to the app in that file — `express()` or an import/require of one of the
 * app's own modules — so a redirect server `http.createServer((req, res) => …)` is not one.
 * The planner and the transform use the same test, so what is planned is what is rewritten.
 */
import jscodeshift, { type ASTPath, type Collection, type JSCodeshift } from 'jscodeshift';
import type { App } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';
import { parserFor } from '../lib/parser.js';

/** One place that starts an app; `line` is the 1-based first line of the call. */
export interface StartSite {
  file: string;
  line: number;
  kind: 'listen' | 'create-server';
  app: App;
}

/** The call that starts an app, on a parsed file: what the transform rewrites. */
export interface StartCall {
  kind: StartSite['kind'];
  path: ASTPath;
  line: number;
}

/** The planned sites: the analyzer's listen sites and what the syntax tree of the candidate files shows. */
export function startSites(ctx: PlanContext): StartSite[] {
  const known = SITES.get(ctx.inventory);
  if (known) return known;
  const sites = findStartSites(ctx);
  SITES.set(ctx.inventory, sites);
  return sites;
}

/** The sites of each inventory: every planner of a stage asks for them, and they parse files. */
const SITES = new WeakMap<object, StartSite[]>();

function findStartSites(ctx: PlanContext): StartSite[] {
  const { apps, project } = ctx.inventory;
  if (!apps.length) return [];
  const sites: StartSite[] = [];
  const seen = new Set<string>();
  const add = (site: StartSite) => {
    const key = `${site.file}:${site.line}:${site.kind}`;
    if (seen.has(key)) return;
    seen.add(key);
    sites.push(site);
  };
  for (const app of apps) for (const l of app.listen) add({ file: l.location.file, line: l.location.line, kind: 'listen', app });
  const files = new Set([project.entry, ...apps.map((a) => a.location.file), ...sites.map((s) => s.file)].filter((f): f is string => !!f));
  for (const file of files) {
    const source = ctx.readFile(file);
    if (!source) continue;
    let calls: StartCall[];
    try {
      const j = jscodeshift.withParser(parserFor(file));
      calls = startCallsIn(j, j(source));
    } catch {
      continue; // the runner reports files that do not parse
    }
    const app = apps.find((a) => a.location.file === file) ?? apps[0];
    for (const call of calls) add({ file, line: call.line, kind: call.kind, app });
  }
  return sites.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}

/** Every call in `root` that starts the app (see the module docstring for the forms). */
export function startCallsIn(j: JSCodeshift, root: Collection): StartCall[] {
  const calls: StartCall[] = [];
  const lineOf = (p: ASTPath) => (p.node as { loc?: { start: { line: number } } }).loc?.start.line ?? 0;
  root.find(j.CallExpression).forEach((p) => {
    const callee = p.node.callee;
    if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
    if (callee.property.name === 'listen' && callee.object.type === 'Identifier' && isAppIdentifier(j, p, callee.object.name)) calls.push({ kind: 'listen', path: p, line: lineOf(p) });
    else if (SERVER_FACTORIES.has(callee.property.name) && lastArgumentIsApp(j, p)) calls.push({ kind: 'create-server', path: p, line: lineOf(p) });
  });
  root.find(j.NewExpression).forEach((p) => {
    const callee = p.node.callee;
    if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name === 'Server' && lastArgumentIsApp(j, p)) calls.push({ kind: 'create-server', path: p, line: lineOf(p) });
  });
  return calls;
}

/**
 * Whether a file of the app (the entry or a file that creates an app) already imports a generated
 * module: the shim ran, and nothing is left to start.
 */
export function importsGeneratedModule(ctx: PlanContext): boolean {
  const files = [ctx.inventory.project.entry, ...ctx.inventory.apps.map((a) => a.location.file)].filter((f): f is string => !!f);
  return files.some((f) => GENERATED_IMPORT.test(ctx.readFile(f) ?? ''));
}

/** `require('./fastify-server')`, `from './fastify-bridge.js'`, … (the names facts.ts gives the module). */
const GENERATED_IMPORT = /(require\(|from\s)\s*['"][^'"]*fastify-(server|bridge|shim)[^'"]*['"]/;

/** `http.createServer(app)`, `https.createServer(opts, app)`, `http.Server(app)`. */
const SERVER_FACTORIES = new Set(['createServer', 'Server']);

function lastArgumentIsApp(j: JSCodeshift, p: ASTPath): boolean {
  const args = (p.node as { arguments: Array<{ type: string; name?: string }> }).arguments;
  const last = args[args.length - 1];
  return !!last && last.type === 'Identifier' && isAppIdentifier(j, p, last.name!);
}

/**
 * Whether `name`, as used at `p`, is the Express app: bound in this file to `express()` or to an
 * import/require of one of the app's modules (a relative path).
 */
export function isAppIdentifier(j: JSCodeshift, p: ASTPath, name: string): boolean {
  const root = j(p).closest(j.Program);
  const fromDeclarator = root.find(j.VariableDeclarator, { id: { type: 'Identifier', name } }).some((d) => {
    const init = d.node.init;
    if (!init || init.type !== 'CallExpression' || init.callee.type !== 'Identifier') return false;
    return init.callee.name === 'require' ? isRelative(init.arguments[0]) : /^express$/i.test(init.callee.name);
  });
  const fromImport = root.find(j.ImportDeclaration).some((d) => isRelative(d.node.source) && (d.node.specifiers ?? []).some((s) => s.local?.name === name));
  return fromDeclarator || fromImport;
}

function isRelative(node: unknown): boolean {
  const value = (node as { value?: unknown } | undefined)?.value;
  return typeof value === 'string' && value.startsWith('.');
}
