/**
 * The places that started the Express app start Fastify instead, with the same arguments:
 *   app.listen(port, cb)            → listen(buildFastify(app), port, cb)
 *   http.createServer(app)          → http.createServer(requestListener(buildFastify(app)))
 * and the file imports those names from the generated module of each app it starts (a second
 * app's under names of its own: `listenAdmin`). The recipe: find the planned calls, rewrite them,
 * add the imports, print in the file's style.
 */
import type { API, ASTPath, CallExpression, Collection, FileInfo, JSCodeshift } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { detectStyle, type CodeStyle } from '../lib/style.js';
import { printWithStyle } from '../lib/print.js';
import type { ListenEntry } from './plan.js';
import { startsAt, textOf } from '../lib/ast.js';
import { insertImportLine } from '../lib/imports.js';

/**
 * jscodeshift transform; null when there is no plan.
 * @throws Error when a planned call is not on its line: the stage must fail whole rather than
 *   report a start site as moved that was not.
 */
export default function transform(file: FileInfo, api: API, options: TransformOptions<ListenEntry>): string | null {
  const entries = options.plan?.entries ?? [];
  if (!entries.length) return null;
  const j = api.jscodeshift;
  const style = detectStyle(file.source, file.path);
  const root = j(file.source);
  const taken = bindingNames(j, root);
  const imports: string[] = [];
  for (const [index, group] of byModule(entries).entries()) {
    // Each app imports its own module; the first one's names are plain, the next ones' carry the app's name (listenAdmin).
    const names = freeNames(taken, index === 0 ? '' : pascalCase(group[0].app));
    const used = new Set<keyof Names>();
    for (const entry of group) {
      const call = plannedCall(j, root, entry, file.source);
      if (!call) throw new Error(`shim-listen: no ${entry.kind === 'listen' ? 'app.listen(…)' : 'createServer(app)'} call on line ${entry.line} of ${file.path}`);
      if (entry.kind === 'listen') rewriteListen(j, call, names, used);
      else rewriteServerArgument(j, call, entry.appArgument, names, used);
    }
    imports.push(importLine(group[0], names, used, style));
  }
  const printed = printWithStyle(root, file.source, style);
  return insertImportLine(j, printed, imports.join(style.eol), style);
}

/** The entries grouped by the module they import (one per app), in the order of their first entry. */
function byModule(entries: ListenEntry[]): ListenEntry[][] {
  const groups = new Map<string, ListenEntry[]>();
  for (const e of entries) groups.set(e.specifier, [...(groups.get(e.specifier) ?? []), e]);
  return [...groups.values()];
}

/** `admin-app`, `admin_app`, `adminApp` → `AdminApp`. */
function pascalCase(name: string): string {
  return name.split(/[^A-Za-z0-9$]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('') || 'App';
}

type Names = Record<'buildFastify' | 'listen' | 'requestListener', string>;

/**
 * The planned call where the analyzer found it: the call (or `new`) that starts there with the
 * callee it recorded — several calls start at one place (`http.createServer(app).listen(3000)`,
 * `require('http').createServer(app)`), the callee tells the site apart.
 */
function plannedCall(j: JSCodeshift, root: Collection, entry: ListenEntry, source: string): ASTPath | undefined {
  // Spaces and parentheses left out on both sides: `new (require('http').Server)` is recorded with its parentheses, recast's callee has none.
  const bare = (s: string) => s.replace(/[\s()]+/g, '');
  const calleeOf = (p: ASTPath) => {
    const node = p.node as unknown as { type: string; callee: unknown };
    return `${node.type === 'NewExpression' ? 'new' : ''}${bare(textOf(node.callee) ?? '')}`;
  };
  const at = (p: ASTPath) => startsAt(p.node, entry, source) && calleeOf(p) === bare(entry.callee);
  return [...root.find(j.CallExpression).filter(at).paths(), ...root.find(j.NewExpression).filter(at).paths()][0];
}

/** `X.listen(args)` → `listen(buildFastify(X), args)`. */
function rewriteListen(j: JSCodeshift, p: ASTPath, names: Names, used: Set<keyof Names>): void {
  const node = p.node as CallExpression;
  const receiver = (node.callee as { object: CallExpression['arguments'][number] }).object;
  p.replace(j.callExpression(j.identifier(names.listen), [j.callExpression(j.identifier(names.buildFastify), [receiver]), ...node.arguments]));
  used.add('listen').add('buildFastify');
}

/** `http.createServer([options,] app)`, `http.Server(app)`, `new http.Server(app)` → the app replaced by Fastify's request listener. */
function rewriteServerArgument(j: JSCodeshift, p: ASTPath, appArgument: number | undefined, names: Names, used: Set<keyof Names>): void {
  const args = (p.node as CallExpression).arguments;
  const index = appArgument ?? args.length - 1;
  const app = args[index];
  args[index] = j.callExpression(j.identifier(names.requestListener), [j.callExpression(j.identifier(names.buildFastify), [app])]);
  used.add('requestListener').add('buildFastify');
}

/** The names bound in the file (identifiers that are not property names). */
function bindingNames(j: JSCodeshift, root: Collection): Set<string> {
  return new Set(
    root
      .find(j.Identifier)
      .filter((p) => !isPropertyName(p))
      .nodes()
      .map((n) => n.name),
  );
}

/**
 * The names one import binds: ours with `suffix` (`listen`, `listenAdmin`), unless the file binds
 * one already (then `listenFastify`, `listenFastify3`, …). The names picked join `taken`.
 */
function freeNames(taken: Set<string>, suffix: string): Names {
  const pick = (name: string) => {
    let candidate = name + suffix;
    for (let i = 2; taken.has(candidate); i++) candidate = `${name}${suffix}Fastify${i > 2 ? i : ''}`;
    taken.add(candidate);
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
function importLine(entry: ListenEntry, names: Names, used: Set<keyof Names>, style: CodeStyle): string {
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
