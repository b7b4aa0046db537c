/**
 * Where the project's own tests send requests to the Express app itself (model.ts TestDriver,
 * issue 17): `request(app)`, `request.agent(app)`, `chai.request(app)`, `app.listen(…)`,
 * `http.createServer(app)`, or the app handed to a test helper of the project. Once routes move to
 * Fastify such a test would miss them, so the stages point it at the Fastify server in front of the
 * app. The test files are not evaluated (a test that builds its own Express app must not add to the
 * inventory): each is read on its own, every name resolved through its scope to the import,
 * `require` or assignment that binds it, and a value that comes from a module the evaluation
 * reached is that module's export as the evaluator knows it — so the app is recognised by its
 * value, never by a name.
 */
import path from 'node:path';
import { ts } from 'ts-morph';
import type { ModuleRecord } from './evaluate.js';
import type { RouterNode } from './graph.js';
import type { TestDriver } from './model.js';
import { TEST_ASSERTION_PACKAGES, TEST_CLIENTS } from './packages.js';
import { lineAndColumn } from './position.js';
import type { ModuleResolver } from './resolve.js';
import { obj, type Value } from './values.js';

/**
 * Whether `file` (absolute or relative, POSIX or not) is a test: under a `test`, `tests`,
 * `__tests__`, `spec` or `e2e` folder, or named `*.test.*` / `*.spec.*` (Jest, Vitest, Mocha
 * conventions). The evaluation never starts from one.
 */
export function isTestFile(file: string): boolean {
  const posix = file.split(path.sep).join('/');
  return /(^|\/)(test|tests|__tests__|spec|e2e)\//.test(posix) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(posix);
}

/** What reading the test files needs from the analysis. */
export interface TestDriverContext {
  root: string;
  resolver: ModuleResolver;
  /** The modules the evaluation reached, by absolute path. */
  modules: ReadonlyMap<string, ModuleRecord>;
  /** The id of the app record of an app the evaluation created, or null. */
  appIdOf(node: RouterNode): string | null;
  /** Whether a project file (absolute) is a module the stages generated (analyzer/generated.ts). */
  generated(abs: string): boolean;
}

/**
 * The test drivers of each app (app id → drivers in source order) found in `files` (absolute
 * paths of test files; `parsed` gives each one's syntax tree, or null when it does not parse).
 */
export function testDrivers(files: string[], parsed: (abs: string) => ts.SourceFile | null, ctx: TestDriverContext): Map<string, TestDriver[]> {
  const out = new Map<string, TestDriver[]>();
  for (const abs of files) {
    const sf = parsed(abs);
    if (!sf) continue;
    for (const { appId, driver } of new TestFileReader(sf, abs, ctx).drivers()) out.set(appId, [...(out.get(appId) ?? []), driver]);
  }
  return out;
}

/**
 * What an expression of a test file is known to be: a value of a module the evaluation reached
 * (`from` that module, `late` when the test loads it inside a function or with `import(…)`), a
 * package or Node built-in (with the member path read off it), something of the generated server
 * module, or a function of the project's own (declared in the test or in a project module the
 * evaluation did not reach: a test helper).
 */
type Known =
  | { k: 'value'; value: Value; from: string; late: boolean }
  | { k: 'pkg'; name: string; member: string[] }
  | { k: 'builtin'; name: string; member: string[] }
  | { k: 'generated' }
  | { k: 'project-function' };

/** Node's server factories: `http.createServer(app)`, `https.createServer(options, app)`, `http.Server(app)`. */
const SERVER_MODULES = new Set(['http', 'https']);
const SERVER_FACTORIES = new Set(['createServer', 'Server']);

/** One test file: its scopes, what its names are bound to, and the calls that drive the app. */
class TestFileReader {
  private readonly known = new Map<ts.Node, Known | null>();

  constructor(
    private readonly sf: ts.SourceFile,
    private readonly abs: string,
    private readonly ctx: TestDriverContext,
  ) {}

  drivers(): Array<{ appId: string; driver: TestDriver }> {
    const out: Array<{ appId: string; driver: TestDriver }> = [];
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
        const found = this.driverAt(n);
        if (found) out.push(found);
      }
      ts.forEachChild(n, visit);
    };
    visit(this.sf);
    return out;
  }

  /** The driver call `call` is, or null. */
  private driverAt(call: ts.CallExpression | ts.NewExpression): { appId: string; driver: TestDriver } | null {
    const callee = call.expression;
    const args = call.arguments ?? ts.factory.createNodeArray();
    // `app.listen(…)`.
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'listen') {
      const app = this.appOf(callee.expression);
      if (app) return this.driver('listen', call, withoutParentheses(callee.expression), app, this.mayBeCallback(args.at(-1)) ? { callback: true } : {});
    }
    for (const arg of args) {
      const app = this.appOf(arg);
      if (!app) continue;
      const kind = this.clientKind(callee);
      return kind ? this.driver(kind, call, withoutParentheses(arg), app) : null;
    }
    return null;
  }

  private driver(kind: TestDriver['kind'], call: ts.Node, appNode: ts.Node, app: { id: string; known: Extract<Known, { k: 'value' }> }, extra: Partial<TestDriver> = {}): { appId: string; driver: TestDriver } {
    const text = (n: ts.Node) => this.sf.text.substring(n.getStart(this.sf), n.getEnd());
    const callee = (call as ts.CallExpression).expression;
    return {
      appId: app.id,
      driver: {
        kind,
        location: this.locate(call.getStart(this.sf)),
        callee: `${ts.isNewExpression(call) ? 'new ' : ''}${text(callee).replace(/\s*[\r\n]\s*/g, '')}`,
        app: { text: text(appNode), location: this.locate(appNode.getStart(this.sf)), end: lineAndColumn(this.sf, appNode.getEnd()) },
        from: this.rel(app.known.from),
        ...(app.known.late ? { late: true as const } : {}),
        ...extra,
      },
    };
  }

  /**
   * The driver kind of a call that hands the app to `callee`: a request client, a Node server, or
   * anything else that may send it requests (`helper`: a function of the project's own, a package
   * the analysis does not know, a value the test made — another app mounting it, `wrapper.use(app)`).
   * Null for what never does: assertion and mocking packages, other Node built-ins, the generated
   * module's own functions (`fastifyListener(app)` hands it to Fastify already), globals (a test
   * framework's `expect(app)`) and what a test callback's parameters offer (`t.mock.method(app, …)`).
   */
  private clientKind(callee: ts.Expression): TestDriver['kind'] | null {
    const known = this.evaluate(callee);
    if (known?.k === 'pkg') return TEST_CLIENTS[known.name]?.[known.member.join('.')] ?? (TEST_ASSERTION_PACKAGES.has(known.name) ? null : 'helper');
    if (known?.k === 'builtin') return SERVER_MODULES.has(known.name) && known.member.length === 1 && SERVER_FACTORIES.has(known.member[0]) ? 'create-server' : null;
    if (known?.k === 'generated') return null;
    if (known) return 'helper';
    const root = rootIdentifier(callee);
    const decl = root && declarationOf(root);
    return decl && !ts.isParameter(decl) && !(ts.isBindingElement(decl) && parameterOf(decl)) ? 'helper' : null;
  }

  /** The app `node` evaluates to (its record's id and how the test got it), or null. */
  private appOf(node: ts.Expression): { id: string; known: Extract<Known, { k: 'value' }> } | null {
    const known = this.evaluate(node);
    if (known?.k !== 'value' || known.value.k !== 'router' || known.value.node.kind !== 'app') return null;
    const id = this.ctx.appIdOf(known.value.node);
    return id ? { id, known } : null;
  }

  /** What an expression is known to be, or null. */
  private evaluate(e: ts.Expression): Known | null {
    const inner = skipOuter(e);
    if (ts.isIdentifier(inner)) return this.bound(inner);
    if (ts.isPropertyAccessExpression(inner)) return member(this.evaluate(inner.expression), inner.name.text);
    if (ts.isElementAccessExpression(inner) && ts.isStringLiteralLike(inner.argumentExpression)) return member(this.evaluate(inner.expression), inner.argumentExpression.text);
    if (ts.isArrowFunction(inner) || ts.isFunctionExpression(inner)) return { k: 'project-function' };
    if (ts.isCallExpression(inner) && inner.arguments.length === 1 && ts.isStringLiteralLike(inner.arguments[0])) {
      const specifier = inner.arguments[0].text;
      if (inner.expression.kind === ts.SyntaxKind.ImportKeyword) return this.module(specifier, 'namespace', true);
      if (ts.isIdentifier(inner.expression) && inner.expression.text === 'require' && !declarationOf(inner.expression)) return this.module(specifier, 'require', insideFunction(inner));
    }
    return null;
  }

  /** What the name `id` is bound to, read from its declaration (memoised per declaration). */
  private bound(id: ts.Identifier): Known | null {
    const decl = declarationOf(id);
    if (!decl) return null;
    if (this.known.has(decl)) return this.known.get(decl)!;
    this.known.set(decl, null);
    const value = this.declared(decl);
    this.known.set(decl, value);
    return value;
  }

  private declared(decl: ts.Node): Known | null {
    if (ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl)) return { k: 'project-function' };
    if (ts.isImportEqualsDeclaration(decl)) {
      const ref = decl.moduleReference;
      return ts.isExternalModuleReference(ref) && ts.isStringLiteralLike(ref.expression) ? this.module(ref.expression.text, 'require', false) : null;
    }
    const imported = importOf(decl);
    if (imported) {
      const ns = this.module(imported.specifier, 'namespace', false);
      // A package's default or namespace import is the package itself (supertest's function).
      if (ns?.k === 'pkg' || ns?.k === 'builtin') return imported.name === 'default' || imported.name === '*' ? ns : member(ns, imported.name);
      return imported.name === '*' ? ns : member(ns, imported.name);
    }
    if (ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) return decl.initializer ? this.evaluate(decl.initializer) : this.assigned(decl);
    if (ts.isBindingElement(decl) && ts.isObjectBindingPattern(decl.parent) && ts.isVariableDeclaration(decl.parent.parent) && decl.parent.parent.initializer) {
      const key = decl.propertyName ?? decl.name;
      return ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? member(this.evaluate(decl.parent.parent.initializer), key.text) : null;
    }
    return null;
  }

  /**
   * A variable declared without a value (`let app;`) and assigned later (`app = require('../app')`
   * in a test hook): what every assignment gives, when they all give the same value.
   */
  private assigned(decl: ts.VariableDeclaration): Known | null {
    const values: Known[] = [];
    let unknown = false;
    const visit = (n: ts.Node): void => {
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left) && n.left.text === (decl.name as ts.Identifier).text && declarationOf(n.left) === decl) {
        const v = this.evaluate(n.right);
        if (v) values.push(v);
        else unknown = true;
      }
      ts.forEachChild(n, visit);
    };
    visit(this.sf);
    if (unknown || !values.length) return null;
    const [first] = values;
    const same = values.every((v) => v.k === 'value' && first.k === 'value' && v.value === first.value);
    return same && first.k === 'value' ? { ...first, late: values.some((v) => v.k === 'value' && v.late) } : null;
  }

  /** A module `specifier` names from this file, as `require` or an ESM namespace gives it. */
  private module(specifier: string, as: 'require' | 'namespace', late: boolean): Known | null {
    const r = this.ctx.resolver.resolve(specifier, this.abs);
    if (r.kind === 'builtin') return { k: 'builtin', name: r.name, member: [] };
    if (r.kind === 'package') return { k: 'pkg', name: r.name, member: r.subpath ? [r.subpath.replace(/^\//, '')] : [] };
    if (r.kind !== 'file') return null;
    if (this.ctx.generated(r.path)) return { k: 'generated' };
    const record = this.ctx.modules.get(r.path);
    if (!record) return { k: 'project-function' };
    return { k: 'value', value: as === 'require' ? (record.replaced ?? record.exports) : namespaceOf(record), from: r.path, late };
  }

  /** Whether a listen argument may be a callback: a function written there, or a name bound to one or to a parameter. */
  private mayBeCallback(arg: ts.Expression | undefined): boolean {
    if (!arg) return false;
    const inner = skipOuter(arg);
    if (ts.isArrowFunction(inner) || ts.isFunctionExpression(inner)) return true;
    if (!ts.isIdentifier(inner)) return !(ts.isLiteralExpression(inner) || ts.isTemplateExpression(inner) || ts.isObjectLiteralExpression(inner) || ts.isPropertyAccessExpression(inner));
    const decl = declarationOf(inner);
    if (!decl) return false;
    if (ts.isParameter(decl) || ts.isFunctionDeclaration(decl)) return true;
    return ts.isVariableDeclaration(decl) && !!decl.initializer && (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer));
  }

  private locate(pos: number): TestDriver['location'] {
    return { file: this.rel(this.abs), ...lineAndColumn(this.sf, pos) };
  }

  private rel(abs: string): string {
    return path.relative(this.ctx.root, abs).split(path.sep).join('/');
  }
}

/** A member of what is known: a property of a module's value, or one more step of a package's member path. */
function member(of: Known | null, name: string): Known | null {
  if (!of) return null;
  if (of.k === 'pkg' || of.k === 'builtin') return { ...of, member: [...of.member, name] };
  if (of.k !== 'value') return of;
  const v = of.value;
  const prop = v.k === 'object' ? v.props.get(name) : v.k === 'fn' ? v.props?.get(name) : undefined;
  return prop ? { ...of, value: prop } : null;
}

/** The ESM namespace of a module as an import sees it (a CommonJS module's `module.exports` is its `default`), as the evaluator builds it. */
function namespaceOf(record: ModuleRecord): Value {
  if (record.esm) return record.exports;
  const ns = obj([...record.exports.props]);
  const cjs = record.replaced ?? record.exports;
  if (cjs.k === 'object') for (const [k, v] of cjs.props) ns.props.set(k, v);
  if (!ns.props.has('default')) ns.props.set('default', cjs);
  return ns;
}

/** Parentheses, `await`, TypeScript casts and `!` around an expression. */
function skipOuter(e: ts.Expression): ts.Expression {
  let inner = e;
  while (ts.isParenthesizedExpression(inner) || ts.isAwaitExpression(inner) || ts.isAsExpression(inner) || ts.isTypeAssertionExpression(inner) || ts.isNonNullExpression(inner) || ts.isSatisfiesExpression(inner)) inner = inner.expression;
  return inner;
}

/** The identifier a callee is read off (`wrapper` of `wrapper.use`, `helpers` of `helpers.get`), or null. */
function rootIdentifier(e: ts.Expression): ts.Identifier | null {
  const inner = skipOuter(e);
  if (ts.isIdentifier(inner)) return inner;
  if (ts.isPropertyAccessExpression(inner) || ts.isElementAccessExpression(inner) || ts.isCallExpression(inner)) return rootIdentifier(inner.expression);
  return null;
}

/** Whether a binding element destructures a parameter (`({ mock }) => …`). */
function parameterOf(element: ts.BindingElement): boolean {
  let n: ts.Node = element;
  while (ts.isBindingElement(n) || ts.isObjectBindingPattern(n) || ts.isArrayBindingPattern(n)) n = n.parent;
  return ts.isParameter(n);
}

/** The expression inside any parentheses (the node a Babel tree has for it). */
function withoutParentheses(e: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(e) ? withoutParentheses(e.expression) : e;
}

/** Whether `node` is inside a function (runs later than the module's own body: a test hook). */
function insideFunction(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n)) return true;
  return false;
}

/** The specifier and imported name (`default`, an export name, `*`) of an import clause, specifier or namespace import. */
function importOf(decl: ts.Node): { specifier: string; name: string } | null {
  const declaration = ts.isImportClause(decl) ? decl.parent : ts.isNamespaceImport(decl) ? decl.parent.parent : ts.isImportSpecifier(decl) ? decl.parent.parent.parent : null;
  if (!declaration || !ts.isStringLiteralLike(declaration.moduleSpecifier) || declaration.importClause?.isTypeOnly) return null;
  const specifier = declaration.moduleSpecifier.text;
  if (ts.isImportClause(decl)) return { specifier, name: 'default' };
  if (ts.isNamespaceImport(decl)) return { specifier, name: '*' };
  const s = decl as ts.ImportSpecifier;
  return s.isTypeOnly ? null : { specifier, name: (s.propertyName ?? s.name).text };
}

/**
 * The declaration `id` refers to, found through the lexical scopes around it (blocks, functions
 * and their parameters, `for` heads, `catch`, the module's imports), or null for a global.
 */
function declarationOf(id: ts.Identifier): ts.Node | null {
  for (let scope = id.parent; scope; scope = scope.parent) {
    const found = declaredIn(scope, id.text);
    if (found) return found;
  }
  return null;
}

function declaredIn(scope: ts.Node, name: string): ts.Node | null {
  if (ts.isSourceFile(scope) || ts.isBlock(scope) || ts.isModuleBlock(scope) || ts.isCaseClause(scope) || ts.isDefaultClause(scope)) {
    for (const s of scope.statements) {
      const found = declaredBy(s, name);
      if (found) return found;
    }
    return null;
  }
  if (ts.isFunctionLike(scope)) {
    for (const p of scope.parameters) {
      const found = boundIn(p.name, name, p);
      if (found) return found;
    }
    if ((ts.isFunctionExpression(scope) || ts.isClassExpression(scope)) && scope.name?.text === name) return scope;
    return null;
  }
  if ((ts.isForStatement(scope) || ts.isForInStatement(scope) || ts.isForOfStatement(scope)) && scope.initializer && ts.isVariableDeclarationList(scope.initializer)) {
    for (const d of scope.initializer.declarations) {
      const found = boundIn(d.name, name, d);
      if (found) return found;
    }
  }
  if (ts.isCatchClause(scope) && scope.variableDeclaration) return boundIn(scope.variableDeclaration.name, name, scope.variableDeclaration);
  return null;
}

/** The declaration of `name` a statement makes, if any. */
function declaredBy(s: ts.Statement, name: string): ts.Node | null {
  if (ts.isVariableStatement(s)) {
    for (const d of s.declarationList.declarations) {
      const found = boundIn(d.name, name, d);
      if (found) return found;
    }
    return null;
  }
  if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name?.text === name) return s;
  if (ts.isImportEqualsDeclaration(s) && s.name.text === name) return s;
  if (ts.isImportDeclaration(s) && s.importClause) {
    const clause = s.importClause;
    if (clause.name?.text === name) return clause;
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings) && bindings.name.text === name) return bindings;
    if (bindings && ts.isNamedImports(bindings)) return bindings.elements.find((e) => e.name.text === name) ?? null;
  }
  return null;
}

/** The node that binds `name` in a binding name (an identifier or a destructuring pattern): `owner` for an identifier, the binding element in a pattern. */
function boundIn(binding: ts.BindingName, name: string, owner: ts.Node): ts.Node | null {
  if (ts.isIdentifier(binding)) return binding.text === name ? owner : null;
  for (const element of binding.elements) {
    if (ts.isOmittedExpression(element)) continue;
    if (ts.isIdentifier(element.name)) {
      if (element.name.text === name) return element;
    } else {
      const found = boundIn(element.name, name, element);
      if (found) return found;
    }
  }
  return null;
}
