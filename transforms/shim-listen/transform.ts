/**
 * The places that started the Express app start Fastify instead, with the same arguments:
 *   app.listen(port, cb)            → listen(buildFastify(app), port, cb)
 *   http.createServer(app)          → http.createServer(requestListener(buildFastify(app)))
 * and the file imports those names from the generated module. The recipe: find the planned
 * calls, rewrite them, add the import, print in the file's style.
 */
import type { API, ASTPath, CallExpression, Collection, FileInfo, JSCodeshift } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { detectStyle, type CodeStyle } from '../lib/style.js';
import { printWithStyle } from '../lib/print.js';
import type { ListenEntry } from './plan.js';

/** jscodeshift transform; null when there is no plan or nothing matched. */
export default function transform(file: FileInfo, api: API, options: TransformOptions<ListenEntry>): string | null {
  const entries = options.plan?.entries ?? [];
  if (!entries.length) return null;
  const j = api.jscodeshift;
  const style = detectStyle(file.source, file.path);
  const root = j(file.source);
  const names = freeNames(j, root);
  const used = new Set<string>();
  rewriteListenCalls(j, root, entries, names, used);
  rewriteCreateServerCalls(j, root, entries, names, used);
  if (!used.size) return null;
  const printed = printWithStyle(root, file.source, style);
  return insertImport(j, printed, importLine(entries[0], names, used, style), style);
}

type Names = Record<'buildFastify' | 'listen' | 'requestListener', string>;

/** `X.listen(args)` on a planned line → `listen(buildFastify(X), args)`. */
function rewriteListenCalls(j: JSCodeshift, root: Collection, entries: ListenEntry[], names: Names, used: Set<string>): void {
  const planned = new Map(entries.filter((e) => e.kind === 'listen').map((e) => [e.line, e]));
  root
    .find(j.CallExpression, { callee: { type: 'MemberExpression', property: { name: 'listen' } } })
    .filter((p) => {
      const entry = planned.get(p.node.loc?.start.line ?? -1);
      const receiver = (p.node.callee as { object: { type: string; name?: string } }).object;
      return !!entry && (!entry.scanned || (receiver.type === 'Identifier' && isAppIdentifier(j, p, receiver.name!)));
    })
    .forEach((p) => {
      const callee = p.node.callee as { object: CallExpression['arguments'][number] };
      p.replace(j.callExpression(j.identifier(names.listen), [j.callExpression(j.identifier(names.buildFastify), [callee.object as never]), ...p.node.arguments]));
      used.add('listen').add('buildFastify');
    });
}

/** `http.createServer([options,] app)` on a planned line → the app replaced by Fastify's request listener. */
function rewriteCreateServerCalls(j: JSCodeshift, root: Collection, entries: ListenEntry[], names: Names, used: Set<string>): void {
  const lines = new Set(entries.filter((e) => e.kind === 'create-server').map((e) => e.line));
  root
    .find(j.CallExpression, { callee: { type: 'MemberExpression', property: { name: 'createServer' } } })
    .filter((p) => {
      const last = p.node.arguments[p.node.arguments.length - 1];
      return lines.has(p.node.loc?.start.line ?? -1) && last?.type === 'Identifier' && isAppIdentifier(j, p, last.name);
    })
    .forEach((p) => {
      const args = p.node.arguments;
      const app = args[args.length - 1];
      args[args.length - 1] = j.callExpression(j.identifier(names.requestListener), [j.callExpression(j.identifier(names.buildFastify), [app as never])]);
      used.add('requestListener').add('buildFastify');
    });
}

/**
 * Whether `name`, as used at `p`, is the Express app: bound in this file to `express()` or to an
 * import/require of one of the app's modules (a relative path).
 */
function isAppIdentifier(j: JSCodeshift, p: ASTPath, name: string): boolean {
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

/** The names the import binds: ours, unless the file already uses one (then `…FromFastify`). */
function freeNames(j: JSCodeshift, root: Collection): Names {
  const taken = new Set(
    root
      .find(j.Identifier)
      .filter((p) => !isPropertyName(p))
      .nodes()
      .map((n) => n.name),
  );
  const pick = (name: string) => {
    let candidate = name;
    for (let i = 2; taken.has(candidate); i++) candidate = `${name}Fastify${i > 2 ? i : ''}`;
    return candidate;
  };
  return { buildFastify: pick('buildFastify'), listen: pick('listen'), requestListener: pick('requestListener') };
}

/** `x.name` and `{ name: … }`: a property, not a binding. */
function isPropertyName(p: ASTPath): boolean {
  const parent = p.parent?.node as { type: string; property?: unknown; key?: unknown; computed?: boolean } | undefined;
  if (!parent || parent.computed) return false;
  if ((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === p.node) return true;
  return (parent.type === 'Property' || parent.type === 'ObjectProperty' || parent.type === 'ClassProperty') && parent.key === p.node;
}

/**
 * The import line, in the file's style: `import { … } from '<specifier>';` or
 * `const { … } = require('<specifier>');`.
 */
function importLine(entry: ListenEntry, names: Names, used: Set<string>, style: CodeStyle): string {
  const bound = (['buildFastify', 'listen', 'requestListener'] as const).filter((n) => used.has(n));
  const q = style.quote === 'double' ? '"' : "'";
  const semi = style.semicolons ? ';' : '';
  if (entry.module === 'esm') {
    const specifiers = bound.map((n) => (n === names[n] ? n : `${n} as ${names[n]}`));
    return `import { ${specifiers.join(', ')} } from ${q}${entry.specifier}${q}${semi}`;
  }
  const properties = bound.map((n) => (n === names[n] ? n : `${n}: ${names[n]}`));
  return `const { ${properties.join(', ')} } = require(${q}${entry.specifier}${q})${semi}`;
}

/**
 * Inserts `line` after the last top-level import or `require` declaration of `source` (or before
 * the first statement), as text: reprinting the program would lose the blank lines around
 * directives and imports (recast prints the whole statement list again).
 */
function insertImport(j: JSCodeshift, source: string, line: string, style: CodeStyle): string {
  const program = j(source).find(j.Program).nodes()[0];
  const statements = program.body as Array<{ type: string; loc?: { start: { line: number }; end: { line: number } } | null; declarations?: Array<{ init?: { type: string; callee?: { type: string; name?: string } } | null }> }>;
  const isRequire = (s: (typeof statements)[number]) =>
    s.type === 'VariableDeclaration' && (s.declarations ?? []).some((d) => d.init?.type === 'CallExpression' && d.init.callee?.type === 'Identifier' && d.init.callee.name === 'require');
  const last = statements.filter((s) => s.type === 'ImportDeclaration' || isRequire(s)).at(-1);
  const lines = source.split(style.eol);
  if (last?.loc) lines.splice(last.loc.end.line, 0, line);
  else lines.splice(Math.max(0, (statements[0]?.loc?.start.line ?? 1) - 1), 0, line, '');
  return lines.join(style.eol);
}
