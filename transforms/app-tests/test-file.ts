/**
 * A test file that sends requests to the Express app itself, pointed at the Fastify server in front
 * of it (model.ts TestSite): the app expression is handed to `fastifyListener` of the generated
 * module, which the file imports under a name it does not use yet, as it imports the rest:
 *   request(app) / request.agent(app) / chai.request(app)  → request(fastifyListener(app)), …
 *   http.createServer(app)                                → http.createServer(fastifyListener(app))
 *   app.listen(port, …)                                   → createServer(fastifyListener(app)).listen(port, …)
 * (`createServer` from node:http: Express's own `app.listen` is `http.createServer(app).listen(…)`).
 * A place it cannot point gets a `TODO(migrate)` above its statement. The import lines go in as text
 * after the file's own (lib/imports.ts insertImportLine), where a reprint would move blank lines.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { identifierNames, startsAt, textOf, type Node } from '../lib/ast.js';
import { importedLocal, namespaceImported } from '../lib/imports.js';
import { stringLiteral, type CodeStyle } from '../lib/style.js';
import { addTodo } from '../lib/todo.js';
import { LISTENER, TODO_PREFIX, type TestFileEntry, type TestSite } from './model.js';

/**
 * Rewrites the entry's sites and marks its TODOs in `root` (parsed from `source`).
 * @returns whether the tree changed, and the import lines (in the file's style) to add after the
 *   file's imports: `fastifyListener` of each generated module, node:http's `createServer`.
 * @throws Error when a planned site is not where the analyzer found it (the stage must fail whole
 *   rather than report a test as pointed at Fastify that is not)
 */
export function pointTestsAtFastify(j: JSCodeshift, root: Collection, source: string, entry: TestFileEntry, style: CodeStyle, file: string): { changed: boolean; imports: string[] } {
  // Found before anything changes: the positions are the analyzer's, in the file as it was.
  const found = entry.sites.map((site) => ({ site, path: siteNode(j, root, site, source) }));
  for (const { site, path } of found) if (!path) throw new Error(`${file}:${site.call.line}: no ${site.kind === 'listen' ? `${site.app.text}.listen(…)` : site.app.text} where the analysis found it`);
  const names = new Imports(j, root, entry.module, style);
  for (const { site, path } of found) {
    const listener = names.local(site.specifier, LISTENER);
    if (site.kind === 'listen') {
      const callee = path!.node.callee;
      callee.object = j.callExpression(names.createServer(), [j.callExpression(j.identifier(listener), [callee.object])]);
    } else path!.replace(j.callExpression(j.identifier(listener), [path!.node]));
  }
  let marked = false;
  for (const todo of entry.todos) {
    const call = callAt(j, root, todo, source);
    const statement = call && statementOf(call);
    if (statement && addTodo(j, statement, todo.text, TODO_PREFIX)) marked = true;
  }
  return { changed: found.length > 0 || marked, imports: names.lines() };
}

/**
 * The names the rewritten sites use, each imported once: the file's own import of it when it has
 * one (`fastifyListener` from the module, `createServer` from `node:http` or `http`), else a new
 * import line under a name the file does not use yet.
 */
class Imports {
  private readonly taken: Set<string>;
  private readonly added = new Map<string, { specifier: string; name: string; local: string }>();

  constructor(
    private readonly j: JSCodeshift,
    private readonly root: Collection,
    private readonly module: 'esm' | 'commonjs',
    private readonly style: CodeStyle,
  ) {
    this.taken = identifierNames(j, root);
  }

  local(specifier: string, name: string): string {
    const key = `${specifier}\u0000${name}`;
    const known = this.added.get(key)?.local ?? importedLocal(this.j, this.root, specifier, { kind: 'named', name }) ?? (specifier === 'node:http' ? importedLocal(this.j, this.root, 'http', { kind: 'named', name }) : null);
    if (known) return known;
    let local = name;
    for (let i = 2; this.taken.has(local); i++) local = `${name}${i}`;
    this.taken.add(local);
    this.added.set(key, { specifier, name, local });
    return local;
  }

  /** node:http's `createServer`: through the file's own binding of the module (`http.createServer`) when it has one. */
  createServer(): Node {
    for (const specifier of ['node:http', 'http']) {
      const namespace = namespaceImported(this.j, this.root, specifier) ?? undefined;
      const module = namespace ?? importedLocal(this.j, this.root, specifier, { kind: 'default' });
      if (module) return this.j.memberExpression(this.j.identifier(module), this.j.identifier('createServer'));
    }
    return this.j.identifier(this.local('node:http', 'createServer'));
  }

  /** `import { a } from '…';` / `const { a } = require('…');`, one per module, in the file's quotes and semicolons. */
  lines(): string[] {
    const bySpecifier = new Map<string, string[]>();
    for (const { specifier, name, local } of this.added.values()) {
      const binding = name === local ? name : this.module === 'esm' ? `${name} as ${local}` : `${name}: ${local}`;
      bySpecifier.set(specifier, [...(bySpecifier.get(specifier) ?? []), binding]);
    }
    const semi = this.style.semicolons ? ';' : '';
    return [...bySpecifier].map(([specifier, bindings]) =>
      this.module === 'esm' ? `import { ${bindings.join(', ')} } from ${stringLiteral(specifier, this.style)}${semi}` : `const { ${bindings.join(', ')} } = require(${stringLiteral(specifier, this.style)})${semi}`,
    );
  }
}
/** The node of a site: the app expression (an argument), or for `listen` the `app.listen(…)` call. */
function siteNode(j: JSCodeshift, root: Collection, site: TestSite, source: string): ASTPath<Node> | null {
  const same = (node: Node) => (textOf(node) ?? '').replace(/\r\n/g, '\n') === site.app.text.replace(/\r\n/g, '\n');
  if (site.kind === 'listen') {
    const call = callAt(j, root, site.call, source);
    const callee = call?.node.callee;
    return callee?.type === 'MemberExpression' && callee.property.name === 'listen' && same(callee.object) ? call : null;
  }
  return (
    root
      .find(j.Node)
      .filter((p) => j.Expression.check(p.node) && startsAt(p.node, site.app, source) && same(p.node))
      .paths()[0] ?? null
  );
}

/** The call (or `new`) expression that starts at `at`. */
function callAt(j: JSCodeshift, root: Collection, at: { line: number; column: number }, source: string): ASTPath<Node> | null {
  const starts = (p: ASTPath<Node>) => startsAt(p.node, at, source);
  return root.find(j.CallExpression).filter(starts).paths()[0] ?? root.find(j.NewExpression).filter(starts).paths()[0] ?? null;
}

/** The statement a path is in. */
function statementOf(path: ASTPath<Node>): ASTPath<Node> | null {
  let p: ASTPath<Node> | null = path;
  while (p && !/Statement$|Declaration$/.test(p.node.type)) p = p.parent;
  return p;
}
