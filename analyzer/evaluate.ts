/**
 * The evaluator: a small abstract interpreter over the user's modules. It walks module bodies in
 * Node's order (ESM imports first, `require` when reached), follows calls into the project's own
 * functions (registration functions, router factories, class constructors), folds constants, and
 * hands every call on an Express app or router to `ExpressApi`. It never runs user code.
 *
 * Apps and routers are identified by import provenance: a value is an app only when it comes
 * from calling the `express` export (analyzer-patterns.md §0.4), never by variable name.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Node, SyntaxKind, ts, type SourceFile, type Project } from 'ts-morph';
import type { Diagnostic, Location, Reason } from './model.js';
import type { ModuleResolver } from './resolve.js';
import type { RouterNode } from './graph.js';
import { ROUTER_PACKAGES } from './packages.js';
import { type ClassValue, type FnValue, type ObjectValue, type Value, alt, obj, UNDEF, unknown } from './values.js';
import { ExpressApi } from './express-api.js';
import { nameOf, textOf, wrap } from './syntax.js';
import { hasEsmSyntax } from './file-facts.js';

/** A lexical scope; bindings may be lazy (imports resolve on first read, like live bindings). */
export class Env {
  private readonly vars = new Map<string, { value?: Value; lazy?: () => Value }>();
  /** `call`: for the scope of a function call, the call expression (a handler wrapper's maker applied: analyzer/entry.ts). */
  constructor(readonly parent: Env | null, readonly self: Value | null = null, readonly module: ModuleRecord | null = null, readonly call: Node | null = null) {}
  declare(name: string, value: Value): void {
    this.vars.set(name, { value });
  }
  declareLazy(name: string, lazy: () => Value): void {
    this.vars.set(name, { lazy });
  }
  lookup(name: string): Value | undefined {
    for (let e: Env | null = this; e; e = e.parent) {
      const b = e.vars.get(name);
      if (b) {
        if (b.value === undefined && b.lazy) b.value = b.lazy();
        return b.value;
      }
    }
    return undefined;
  }
  assign(name: string, value: Value): void {
    const owner = this.owner(name);
    if (owner) owner.vars.set(name, { value });
  }
  /** The scope that declares `name`, or null. */
  owner(name: string): Env | null {
    for (let e: Env | null = this; e; e = e.parent) if (e.vars.has(name)) return e;
    return null;
  }
  get thisValue(): Value | null {
    for (let e: Env | null = this; e; e = e.parent) if (e.self) return e.self;
    return null;
  }
  get moduleRecord(): ModuleRecord {
    for (let e: Env | null = this; e; e = e.parent) if (e.module) return e.module;
    throw new Error('environment without module');
  }
}

export interface ModuleRecord {
  file: string;
  source: SourceFile | null;
  /** ESM namespace / CJS `exports` object. */
  exports: ObjectValue;
  /** Set when `module.exports = …` replaced the exports object. */
  replaced?: Value;
  esm: boolean;
  state: 'evaluating' | 'done';
  /** `export { local }` reads, repeated when the body has run (exports are live bindings). */
  localExports: [string, () => Value][];
}

type Completion = { type: 'return'; value: Value } | { type: 'break' } | { type: 'continue' } | undefined;

/**
 * String concatenation (`a + b`, template spans) over folded values: alternatives multiply out
 * (`(dev ? '/a' : '/b') + '/x'`); anything else unknown keeps the reason that blocked it
 * (`environment` for `process.env`, `call-expression` for a call, else `dynamic-path`).
 */
export function concat(left: Value, right: Value, node: Node): Value {
  if (left.k === 'alt') return alt(left.items.map((l) => concat(l, right, node)), left.reason, left.text, node);
  if (right.k === 'alt') return alt(right.items.map((r) => concat(left, r, node)), right.reason, right.text, node);
  if ((left.k === 'str' || left.k === 'num') && (right.k === 'str' || right.k === 'num')) return { k: 'str', v: String(left.v) + String(right.v) };
  const blocker = left.k === 'unknown' ? left : right.k === 'unknown' ? right : null;
  const reason = blocker?.k === 'unknown' && ['environment', 'call-expression'].includes(blocker.reason) ? blocker.reason : 'dynamic-path';
  return unknown(reason, blocker?.k === 'unknown' && blocker.node ? blocker.node : node);
}

/** Strict equality of two folded primitive values. */
function sameValue(a: Value, b: Value): boolean {
  return (a.k === 'str' || a.k === 'num' || a.k === 'bool') && a.k === b.k && a.v === (b as { v: unknown }).v;
}

/** `typeof v` when the value's kind decides it. */
function typeOf(v: Value, node: Node): Value {
  const kinds: Partial<Record<Value['k'], string>> = { str: 'string', num: 'number', bool: 'boolean', undef: 'undefined', null: 'object', object: 'object', array: 'object', instance: 'object', regexp: 'object', fn: 'function', class: 'function', router: 'function' };
  const t = kinds[v.k];
  return t ? { k: 'str', v: t } : unknown('unresolved-value', node);
}

/** A path-like string (`/x`) and a function among a call's arguments, or inside an object argument. */
function looksLikeRegistration(args: Value[]): boolean {
  const flat = args.flatMap((a) => (a.k === 'object' ? [...a.props.values()] : [a]));
  return flat.some((a) => a.k === 'str' && a.v.startsWith('/')) && flat.some((a) => a.k === 'fn');
}

/** Argument values of one call mapped to their expressions, down into object and array literals written at the call. */
function argumentOrigins(args: Value[], nodes: Node[]): Map<Value, Node> {
  const origins = new Map<Value, Node>();
  const add = (node: Node, value: Value | undefined, depth: number) => {
    if (!value || depth > 4) return;
    origins.set(value, node);
    if (Node.isArrayLiteralExpression(node) && value.k === 'array') node.getElements().forEach((el, i) => add(el, value.items[i], depth + 1));
    if (Node.isObjectLiteralExpression(node) && value.k === 'object') {
      for (const prop of node.getProperties()) {
        if (Node.isPropertyAssignment(prop)) add(prop.getInitializerOrThrow(), value.props.get(literalName(prop)), depth + 1);
        else if (Node.isShorthandPropertyAssignment(prop)) add(prop.getNameNode(), value.props.get(prop.getName()), depth + 1);
      }
    }
  };
  args.forEach((value, i) => nodes[i] && add(nodes[i], value, 0));
  return origins;
}

/** The key of `'/users': …` or `get: …`. */
function literalName(prop: import('ts-morph').PropertyAssignment): string {
  const n = prop.getNameNode();
  return Node.isStringLiteral(n) ? n.getLiteralValue() : n.getText();
}

/** Interpreter limits: deep enough for real apps, bounded so no input can hang the analysis. */
const MAX_CALL_DEPTH = 40;
const MAX_RECURSION_PER_FUNCTION = 6;
const MAX_LOOP_ITEMS = 200;
const MAX_STEPS = 2_000_000;

/** Context the evaluator needs from the analysis: parsed files, resolution, diagnostics. */
export interface EvalContext {
  project: Project;
  root: string;
  resolver: ModuleResolver;
  /** Parses a project file or returns null (with a diagnostic already recorded). */
  sourceFile(abs: string): SourceFile | null;
  diagnostics: Diagnostic[];
  location(node: Node): Location;
}

/**
 * Interprets the project's modules from its entry and records apps, routers and their layers in
 * `routers`. Throws BudgetExceeded when an input would take it past MAX_STEPS.
 */
export class Evaluator {
  readonly modules = new Map<string, ModuleRecord>();
  readonly routers: RouterNode[] = [];
  /** Registration calls the evaluator interpreted; the sweep reports route-like calls it did not. */
  readonly visitedCalls = new Set<Node>();
  /** Value of each call argument at its latest evaluation, for naming wrapped handlers. */
  readonly argValues = new WeakMap<Node, Value>();
  readonly conditions: string[] = [];
  /** Per `if` branch being walked, innermost last: the variables it assigned, with their values before. */
  private readonly journals: Map<Env, Map<string, Value>>[] = [];
  /** Reasons every layer registered now carries (a directory scan being unrolled). */
  readonly ambient: Reason[] = [];
  /** Per call being evaluated, outermost first: argument value → the expression written for it. */
  readonly frames: Map<Value, Node>[] = [];
  /** Per call of a project function being evaluated from a call expression (`crud(users, ctrl)`), outermost first. */
  readonly calls: Array<{ site: Node; fn: Node }> = [];
  readonly api: ExpressApi;
  private depth = 0;
  private steps = 0;
  private readonly active = new Map<Node, number>();

  constructor(readonly ctx: EvalContext) {
    this.api = new ExpressApi(this);
  }

  // ── modules ────────────────────────────────────────────────────────────────

  /** Evaluates a project file once and returns its record (partial while it is evaluating). */
  loadModule(abs: string): ModuleRecord {
    const existing = this.modules.get(abs);
    if (existing) return existing;
    const source = this.ctx.sourceFile(abs);
    const record: ModuleRecord = { file: abs, source, exports: obj(), esm: source ? hasEsmSyntax(source.compilerNode) : false, state: 'evaluating', localExports: [] };
    this.modules.set(abs, record);
    if (source) {
      const env = new Env(null, null, record);
      this.hoist(source.getStatements(), env);
      // ESM evaluates its imports before its own body.
      for (const imp of source.getImportDeclarations()) this.importModuleValue(imp.getModuleSpecifierValue(), abs, imp);
      this.execBlock(source.getStatements(), env);
      for (const [name, read] of record.localExports) record.exports.props.set(name, read());
    }
    record.state = 'done';
    return record;
  }

  /** What `require(spec)` returns. */
  requireValue(specifier: string, fromFile: string, site: Node): Value {
    const r = this.importModuleValue(specifier, fromFile, site);
    if (r.kind === 'module') return r.record.replaced ?? r.record.exports;
    return r.value;
  }

  /** The ESM namespace of `import * as ns from spec` (CJS modules get `default` = module.exports). */
  namespaceValue(specifier: string, fromFile: string, site: Node): Value {
    const r = this.importModuleValue(specifier, fromFile, site);
    if (r.kind !== 'module') return r.value;
    if (r.record.esm) return r.record.exports;
    const ns = obj([...r.record.exports.props]);
    const cjs = r.record.replaced ?? r.record.exports;
    if (cjs.k === 'object') for (const [k, v] of cjs.props) ns.props.set(k, v);
    if (!ns.props.has('default')) ns.props.set('default', cjs);
    return ns;
  }

  /** Reads export `name` (or `default`) of a module with CJS/ESM interop. */
  importBinding(specifier: string, fromFile: string, name: string, site: Node): Value {
    const ns = this.namespaceValue(specifier, fromFile, site);
    // A JSON module's default export is the whole document (Node's JSON modules have no named exports).
    if (name === 'default' && /\.json$/.test(specifier)) return ns;
    if (ns.k === 'express') return name === 'default' ? ns : { k: 'express', member: [...ns.member, name] };
    if (ns.k === 'pkg') return name === 'default' ? ns : { k: 'pkg', name: ns.name, member: [...ns.member, name], called: ns.called };
    if (ns.k === 'builtin') return name === 'default' ? ns : { k: 'builtin', name: ns.name, member: [name] };
    return this.api.get(ns, name, site);
  }

  private importModuleValue(specifier: string, fromFile: string, site: Node): { kind: 'module'; record: ModuleRecord } | { kind: 'value'; value: Value } {
    const resolved = this.ctx.resolver.resolve(specifier, fromFile);
    switch (resolved.kind) {
      case 'builtin':
        return { kind: 'value', value: { k: 'builtin', name: resolved.name, member: [] } };
      case 'package':
        if (resolved.name === 'express' && resolved.subpath === '') return { kind: 'value', value: { k: 'express', member: [] } };
        return { kind: 'value', value: { k: 'pkg', name: resolved.name, member: [], called: false } };
      case 'file':
        if (/\.json$/.test(resolved.path)) return { kind: 'value', value: jsonModule(resolved.path, site) };
        return { kind: 'module', record: this.loadModule(resolved.path) };
      default:
        this.diagnose('unresolved-import', 'warning', `cannot resolve "${specifier}"`, site);
        return { kind: 'value', value: unknown('unresolved-import', site) };
    }
  }

  diagnose(code: string, severity: Diagnostic['severity'], message: string, node?: Node): void {
    const location = node ? this.ctx.location(node) : undefined;
    if (this.ctx.diagnostics.some((d) => d.code === code && d.message === message && d.location?.file === location?.file && d.location?.line === location?.line)) return;
    this.ctx.diagnostics.push({ code, severity, message, ...(location ? { location } : {}) });
  }

  // ── statements ─────────────────────────────────────────────────────────────

  /** Function declarations are visible in their whole block (hoisting); imports are live bindings. */
  private hoist(statements: Node[], env: Env): void {
    for (const st of statements) {
      const name = Node.isFunctionDeclaration(st) ? nameOf(st) : undefined;
      if (name) env.declare(name, this.fnValue(st, env));
      if (Node.isImportDeclaration(st)) this.bindImport(st, env);
      if (Node.isImportEqualsDeclaration(st)) this.bindImportEquals(st, env);
    }
  }

  /** Binds the names an import declares, read from the compiler nodes (as ts-morph's getters read them) so that they need no wrappers. */
  private bindImport(decl: Node, env: Env): void {
    if (!Node.isImportDeclaration(decl)) return;
    const spec = decl.getModuleSpecifierValue();
    const file = env.moduleRecord.file;
    const text = textOf(decl);
    const clause = decl.compilerNode.importClause;
    if (clause?.name) env.declareLazy(text(clause.name), () => this.importBinding(spec, file, 'default', decl));
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) env.declareLazy(text(bindings.name), () => this.namespaceValue(spec, file, decl));
    if (!bindings || !ts.isNamedImports(bindings)) return;
    // `import { a as b }`, `import { 'a-b' as c }`: the exported name, then the local one.
    const exportName = (n: ts.ModuleExportName) => (ts.isStringLiteral(n) ? n.text : text(n));
    for (const named of bindings.elements) {
      const exported = exportName(named.propertyName ?? named.name);
      env.declareLazy(named.propertyName ? text(named.name) : exportName(named.name), () => this.importBinding(spec, file, exported, wrap(decl, named)));
    }
  }

  private bindImportEquals(decl: Node, env: Env): void {
    if (!Node.isImportEqualsDeclaration(decl)) return;
    const ref = decl.getModuleReference();
    const name = decl.getName();
    if (Node.isExternalModuleReference(ref)) {
      const spec = ref.getExpression();
      if (spec && Node.isStringLiteral(spec)) env.declareLazy(name, () => this.requireValue(spec.getLiteralValue(), env.moduleRecord.file, decl));
    } else env.declareLazy(name, () => this.ev(ref, env));
  }

  execBlock(statements: Node[], env: Env): Completion {
    for (const st of statements) {
      const c = this.exec(st, env);
      if (c) return c;
    }
    return undefined;
  }

  private exec(st: Node, env: Env): Completion {
    if (++this.steps > MAX_STEPS) throw new BudgetExceeded(st);
    switch (st.getKind()) {
      case SyntaxKind.VariableStatement:
        for (const d of (st as Node).asKindOrThrow(SyntaxKind.VariableStatement).getDeclarations()) {
          const init = d.getInitializer();
          this.bindPattern(d.getNameNode(), init ? this.ev(init, env) : UNDEF, env);
        }
        if (st.asKindOrThrow(SyntaxKind.VariableStatement).hasExportKeyword()) {
          for (const d of st.asKindOrThrow(SyntaxKind.VariableStatement).getDeclarations()) this.exportNames(d.getNameNode(), env);
        }
        return undefined;
      case SyntaxKind.ExpressionStatement:
        this.ev(st.asKindOrThrow(SyntaxKind.ExpressionStatement).getExpression(), env);
        return undefined;
      case SyntaxKind.FunctionDeclaration: {
        const fn = st.asKindOrThrow(SyntaxKind.FunctionDeclaration);
        const name = nameOf(fn);
        const value = env.lookup(name ?? '') ?? this.fnValue(fn, env);
        // Syntactic export checks: ts-morph's isExported() builds a type checker (slow; DESIGN asks for sparing use).
        if (fn.hasExportKeyword()) this.setExport(env, fn.hasDefaultKeyword() ? 'default' : name!, value);
        return undefined;
      }
      case SyntaxKind.ClassDeclaration: {
        const cls = st.asKindOrThrow(SyntaxKind.ClassDeclaration);
        const value = this.classValue(cls, env);
        if (cls.getName()) env.declare(cls.getName()!, value);
        if (cls.hasExportKeyword()) this.setExport(env, cls.hasDefaultKeyword() ? 'default' : cls.getName()!, value);
        return undefined;
      }
      case SyntaxKind.EnumDeclaration: {
        const en = st.asKindOrThrow(SyntaxKind.EnumDeclaration);
        const value = this.enumValue(en, env);
        env.declare(en.getName(), value);
        if (en.hasExportKeyword()) this.setExport(env, en.getName(), value);
        return undefined;
      }
      case SyntaxKind.ExportAssignment: {
        const ea = st.asKindOrThrow(SyntaxKind.ExportAssignment);
        const value = this.ev(ea.getExpression(), env);
        if (ea.isExportEquals()) env.moduleRecord.replaced = value;
        else this.setExport(env, 'default', value);
        return undefined;
      }
      case SyntaxKind.ExportDeclaration:
        this.execExportDeclaration(st, env);
        return undefined;
      case SyntaxKind.Block:
        return this.execScoped(st.asKindOrThrow(SyntaxKind.Block).getStatements(), env);
      case SyntaxKind.IfStatement:
        return this.execIf(st, env);
      case SyntaxKind.ReturnStatement: {
        const e = st.asKindOrThrow(SyntaxKind.ReturnStatement).getExpression();
        return { type: 'return', value: e ? this.ev(e, env) : UNDEF };
      }
      case SyntaxKind.TryStatement: {
        const t = st.asKindOrThrow(SyntaxKind.TryStatement);
        const c = this.execScoped(t.getTryBlock().getStatements(), env);
        const fin = t.getFinallyBlock();
        if (fin) this.execScoped(fin.getStatements(), env);
        return c;
      }
      case SyntaxKind.ForOfStatement:
      case SyntaxKind.ForInStatement:
        return this.execForOf(st, env);
      case SyntaxKind.ForStatement:
      case SyntaxKind.WhileStatement:
      case SyntaxKind.DoStatement:
        return this.withCondition(`loop at line ${st.getStartLineNumber()}`, () => {
          const body = (st as Node & { getStatement(): Node }).getStatement();
          const c = this.exec(body, new Env(env));
          return c?.type === 'return' ? c : undefined;
        });
      case SyntaxKind.SwitchStatement:
        return this.execSwitch(st.asKindOrThrow(SyntaxKind.SwitchStatement), env);
      case SyntaxKind.BreakStatement:
        return { type: 'break' };
      case SyntaxKind.ContinueStatement:
        return { type: 'continue' };
      case SyntaxKind.LabeledStatement:
        return this.exec(st.asKindOrThrow(SyntaxKind.LabeledStatement).getStatement(), env);
      default:
        return undefined;
    }
  }

  /**
   * A switch on a known value runs the matching clause and falls through to the next `break`, as
   * JavaScript does; on a value known only at run time every clause runs under a condition.
   */
  private execSwitch(sw: import('ts-morph').SwitchStatement, env: Env): Completion {
    const clauses = sw.getCaseBlock().getClauses();
    const subject = this.ev(sw.getExpression(), env);
    const known = subject.k === 'str' || subject.k === 'num' || subject.k === 'bool';
    if (known) {
      let start = clauses.findIndex((c) => Node.isCaseClause(c) && sameValue(this.ev(c.getExpression(), env), subject));
      if (start < 0) start = clauses.findIndex((c) => Node.isDefaultClause(c));
      const scope = new Env(env);
      for (const clause of start < 0 ? [] : clauses.slice(start)) {
        const c = this.execBlock(clause.getStatements(), scope);
        if (c?.type === 'break') break;
        if (c) return c;
      }
      return undefined;
    }
    for (const clause of clauses) {
      const c = this.withCondition(`switch (${sw.getExpression().getText()}) ${clause.getText().split(':')[0]}`, () => this.execScoped(clause.getStatements(), env));
      if (c?.type === 'return') return c;
    }
    return undefined;
  }

  private execScoped(statements: Node[], env: Env): Completion {
    const inner = new Env(env);
    this.hoist(statements, inner);
    return this.execBlock(statements, inner);
  }

  private execIf(st: Node, env: Env): Completion {
    const s = st.asKindOrThrow(SyntaxKind.IfStatement);
    const cond = this.truthiness(this.ev(s.getExpression(), env));
    const thenSt = s.getThenStatement();
    const elseSt = s.getElseStatement();
    if (cond === true) return this.exec(thenSt, env);
    if (cond === false) return elseSt ? this.exec(elseSt, env) : undefined;
    const text = s.getExpression().getText();
    // Both branches are walked, each from the same variables; a variable either assigns becomes
    // one of the values it has after each branch (`let hops; if (prod) hops = 1; else hops = 0`).
    const [a, afterThen] = this.journaled(() => this.withCondition(`if (${text})`, () => this.exec(thenSt, env)));
    const [b, afterElse] = this.journaled(() => (elseSt ? this.withCondition(`if !(${text})`, () => this.exec(elseSt, env)) : undefined));
    for (const [scope, names] of new Map([...afterThen.before, ...afterElse.before])) {
      for (const [name, before] of names) {
        const t = afterThen.after.get(scope)?.get(name) ?? before;
        const e = afterElse.after.get(scope)?.get(name) ?? before;
        scope.assign(name, t === e ? t : alt([t, e], 'conditional', text, s.getExpression()));
      }
    }
    // A return in only one of the branches leaves the outcome unknown.
    if (a?.type === 'return' && b?.type === 'return') return a;
    return undefined;
  }

  /**
   * Runs `fn`, recording the variables it assigns: their values before (`before`) and after
   * (`after`), then puts the values before back so another branch starts from the same state.
   */
  private journaled<T>(fn: () => T): [T, { before: Map<Env, Map<string, Value>>; after: Map<Env, Map<string, Value>> }] {
    const before = new Map<Env, Map<string, Value>>();
    this.journals.push(before);
    let result: T;
    try {
      result = fn();
    } finally {
      this.journals.pop();
    }
    const after = new Map<Env, Map<string, Value>>();
    for (const [scope, names] of before) {
      for (const [name, value] of names) {
        after.set(scope, (after.get(scope) ?? new Map()).set(name, scope.lookup(name) ?? UNDEF));
        scope.assign(name, value);
      }
    }
    return [result, { before, after }];
  }

  private execForOf(st: Node, env: Env): Completion {
    const loop = st as Node & { getInitializer(): Node; getExpression(): Node; getStatement(): Node };
    const collection = this.ev(loop.getExpression(), env);
    const isIn = Node.isForInStatement(st);
    const items = collection.k === 'array' ? collection.items : collection.k === 'object' && isIn ? [...collection.props.keys()].map((v): Value => ({ k: 'str', v })) : null;
    const bindName = (value: Value, scope: Env) => {
      const init = loop.getInitializer();
      const decl = Node.isVariableDeclarationList(init) ? init.getDeclarations()[0]?.getNameNode() : init;
      if (decl) this.bindPattern(decl, value, scope);
    };
    if (!items || items.length > MAX_LOOP_ITEMS) {
      return this.withCondition(`loop over ${loop.getExpression().getText()}`, () => {
        const scope = new Env(env);
        bindName(unknown('dynamic-path', loop.getExpression()), scope);
        const c = this.exec(loop.getStatement(), scope);
        return c?.type === 'return' ? c : undefined;
      });
    }
    return this.overFilesystem(collection, () => {
      for (const item of items) {
        const scope = new Env(env);
        bindName(item, scope);
        const c = this.exec(loop.getStatement(), scope);
        if (c?.type === 'break') break;
        if (c?.type === 'return') return c;
      }
      return undefined;
    });
  }

  /**
   * Runs `fn` (a loop over `collection`); when the collection is a directory listing, what it
   * registers is `inferred` from the files there now (analyzer-patterns.md §3 P31), and the scan
   * is reported at its call site.
   */
  overFilesystem<T>(collection: Value, fn: () => T): T {
    if (collection.k !== 'array' || !collection.fromFilesystem) return fn();
    const site = collection.fromFilesystem;
    const location = this.ctx.location(site);
    if (!this.ctx.diagnostics.some((d) => d.code === 'filesystem-registration' && d.location?.file === location.file && d.location.line === location.line)) {
      this.diagnose('filesystem-registration', 'warning', `routes are registered from a directory listing (\`${site.getText().slice(0, 60)}\`): inferred from the files there now; a file added or removed changes them`, site);
    }
    this.ambient.push({ code: 'filesystem-registration', message: 'registered by a loop over a directory listing; inferred from the files present now', location });
    try {
      return fn();
    } finally {
      this.ambient.pop();
    }
  }

  withCondition<T>(text: string, fn: () => T): T {
    this.conditions.push(text.length > 80 ? text.slice(0, 77) + '...' : text);
    try {
      return fn();
    } finally {
      this.conditions.pop();
    }
  }

  private execExportDeclaration(st: Node, env: Env): void {
    const ed = st.asKindOrThrow(SyntaxKind.ExportDeclaration);
    const spec = ed.getModuleSpecifierValue();
    const file = env.moduleRecord.file;
    if (!spec) {
      for (const n of ed.getNamedExports()) {
        const local = n.getName();
        const exported = n.getAliasNode()?.getText() ?? local;
        this.exportLocal(env, exported, () => env.lookup(local) ?? unknown('unresolved-value', n));
      }
      return;
    }
    if (ed.isNamespaceExport() && !ed.getNamespaceExport()) {
      // export * from './x': every named export except default, read when first used.
      const ns = this.namespaceValue(spec, file, ed);
      if (ns.k === 'object') for (const [k, v] of ns.props) if (k !== 'default' && !env.moduleRecord.exports.props.has(k)) env.moduleRecord.exports.props.set(k, v);
      return;
    }
    const nsExport = ed.getNamespaceExport();
    if (nsExport) return void this.setExport(env, nsExport.getName(), this.namespaceValue(spec, file, ed));
    for (const n of ed.getNamedExports()) {
      const name = n.getName();
      const exported = n.getAliasNode()?.getText() ?? name;
      this.setExport(env, exported, this.importBinding(spec, file, name, n));
    }
  }

  private setExport(env: Env, name: string, value: Value): void {
    env.moduleRecord.exports.props.set(name, value);
  }

  /** `export { local as name }`: the binding's value when the statement runs. */
  private exportLocal(env: Env, name: string, read: () => Value): void {
    env.moduleRecord.exports.props.set(name, read());
    env.moduleRecord.localExports.push([name, read]);
  }

  private exportNames(nameNode: Node, env: Env): void {
    if (Node.isIdentifier(nameNode)) this.setExport(env, nameNode.getText(), env.lookup(nameNode.getText()) ?? UNDEF);
    else for (const el of nameNode.getDescendantsOfKind(SyntaxKind.BindingElement)) this.setExport(env, el.getName(), env.lookup(el.getName()) ?? UNDEF);
  }

  /** Binds identifiers and object/array destructuring patterns. */
  bindPattern(nameNode: Node, value: Value, env: Env): void {
    if (Node.isIdentifier(nameNode)) return void env.declare(nameNode.getText(), value);
    if (Node.isObjectBindingPattern(nameNode)) {
      for (const el of nameNode.getElements()) {
        if (el.getDotDotDotToken()) {
          env.declare(el.getName(), value);
          continue;
        }
        const key = el.getPropertyNameNode()?.getText().replace(/^['"]|['"]$/g, '') ?? el.getName();
        let v = this.api.get(value, key, el);
        const init = el.getInitializer();
        if (v.k === 'undef' && init) v = this.ev(init, env);
        this.bindPattern(el.getNameNode(), v, env);
      }
      return;
    }
    if (Node.isArrayBindingPattern(nameNode)) {
      nameNode.getElements().forEach((el, i) => {
        if (Node.isBindingElement(el)) this.bindPattern(el.getNameNode(), value.k === 'array' ? value.items[i] ?? UNDEF : unknown('unresolved-value', el), env);
      });
    }
  }

  // ── expressions ────────────────────────────────────────────────────────────

  ev(node: Node, env: Env): Value {
    if (++this.steps > MAX_STEPS) throw new BudgetExceeded(node);
    switch (node.getKind()) {
      case SyntaxKind.StringLiteral:
      case SyntaxKind.NoSubstitutionTemplateLiteral:
        return { k: 'str', v: (node as Node & { getLiteralValue(): string }).getLiteralValue() };
      case SyntaxKind.NumericLiteral:
        return { k: 'num', v: Number(node.getText()) };
      case SyntaxKind.TrueKeyword:
        return { k: 'bool', v: true };
      case SyntaxKind.FalseKeyword:
        return { k: 'bool', v: false };
      case SyntaxKind.NullKeyword:
        return { k: 'null' };
      case SyntaxKind.RegularExpressionLiteral: {
        const text = node.getText();
        const end = text.lastIndexOf('/');
        return { k: 'regexp', source: text.slice(1, end), flags: text.slice(end + 1) };
      }
      case SyntaxKind.TemplateExpression:
        return this.evTemplate(node, env);
      case SyntaxKind.Identifier:
        return this.evIdentifier(node, env);
      case SyntaxKind.ThisKeyword:
        return env.thisValue ?? unknown('unresolved-value', node);
      case SyntaxKind.PropertyAccessExpression: {
        const pa = node.asKindOrThrow(SyntaxKind.PropertyAccessExpression);
        if (Node.isMetaProperty(pa.getExpression())) return this.importMeta(nameOf(pa)!, env);
        return this.api.get(this.ev(pa.getExpression(), env), nameOf(pa)!, node);
      }
      case SyntaxKind.ElementAccessExpression: {
        const ea = node.asKindOrThrow(SyntaxKind.ElementAccessExpression);
        const key = ea.getArgumentExpression();
        const k = key ? this.ev(key, env) : UNDEF;
        const target = this.ev(ea.getExpression(), env);
        if (k.k === 'str' || k.k === 'num') return this.api.get(target, String(k.v), node);
        return unknown('dynamic-method', node);
      }
      case SyntaxKind.ParenthesizedExpression:
      case SyntaxKind.AsExpression:
      case SyntaxKind.NonNullExpression:
      case SyntaxKind.TypeAssertionExpression:
      case SyntaxKind.SatisfiesExpression:
      case SyntaxKind.AwaitExpression:
        return this.ev((node as Node & { getExpression(): Node }).getExpression(), env);
      case SyntaxKind.CallExpression:
        return this.evCall(node, env);
      case SyntaxKind.NewExpression:
        return this.evNew(node, env);
      case SyntaxKind.ArrowFunction:
      case SyntaxKind.FunctionExpression:
        return this.fnValue(node, env);
      case SyntaxKind.ClassExpression:
        return this.classValue(node, env);
      case SyntaxKind.ObjectLiteralExpression:
        return this.evObject(node, env);
      case SyntaxKind.ArrayLiteralExpression: {
        const items: Value[] = [];
        const nodes: (Node | undefined)[] = [];
        for (const el of node.asKindOrThrow(SyntaxKind.ArrayLiteralExpression).getElements()) {
          if (Node.isSpreadElement(el)) {
            const s = this.ev(el.getExpression(), env);
            if (s.k === 'array') {
              items.push(...s.items);
              nodes.push(...s.items.map((_, i) => s.nodes?.[i]));
            } else {
              items.push(unknown('unresolved-value', el));
              nodes.push(el);
            }
          } else {
            const v = this.ev(el, env);
            this.argValues.set(el, v);
            items.push(v);
            nodes.push(el);
          }
        }
        return { k: 'array', items, nodes };
      }
      case SyntaxKind.BinaryExpression:
        return this.evBinary(node, env);
      case SyntaxKind.ConditionalExpression: {
        const c = node.asKindOrThrow(SyntaxKind.ConditionalExpression);
        const t = this.truthiness(this.ev(c.getCondition(), env));
        if (t === true) return this.ev(c.getWhenTrue(), env);
        if (t === false) return this.ev(c.getWhenFalse(), env);
        return alt([this.ev(c.getWhenTrue(), env), this.ev(c.getWhenFalse(), env)], 'conditional', c.getCondition().getText(), node);
      }
      case SyntaxKind.VoidExpression:
        return UNDEF;
      case SyntaxKind.TypeOfExpression:
        return typeOf(this.ev(node.asKindOrThrow(SyntaxKind.TypeOfExpression).getExpression(), env), node);
      case SyntaxKind.PrefixUnaryExpression: {
        const pu = node.asKindOrThrow(SyntaxKind.PrefixUnaryExpression);
        if (pu.getOperatorToken() !== SyntaxKind.ExclamationToken) return unknown('unresolved-value', node);
        const t = this.truthiness(this.ev(pu.getOperand(), env));
        return t === undefined ? unknown('conditional', node) : { k: 'bool', v: !t };
      }
      default:
        return unknown('unresolved-value', node);
    }
  }

  private evIdentifier(node: Node, env: Env): Value {
    const name = node.getText();
    const bound = env.lookup(name);
    if (bound) return bound;
    const file = env.moduleRecord.file;
    switch (name) {
      case 'undefined':
        return UNDEF;
      case '__dirname':
        return { k: 'str', v: path.dirname(file) };
      case '__filename':
        return { k: 'str', v: file };
      case 'module':
        return { k: 'object', props: new Map([['exports', env.moduleRecord.replaced ?? env.moduleRecord.exports]]) };
      case 'exports':
        return env.moduleRecord.exports;
      case 'process':
        return unknown('environment', node);
      case 'Object':
      case 'JSON':
      case 'Array':
      case 'Map':
      case 'Set':
      case 'Promise':
        return { k: 'builtin', name: 'global', member: [name] };
      default:
        return unknown('unresolved-value', node);
    }
  }

  /** `import.meta.url`, `.dirname`, `.filename` of the module being evaluated. */
  private importMeta(name: string, env: Env): Value {
    const file = env.moduleRecord.file;
    if (name === 'url') return { k: 'str', v: pathToFileURL(file).href };
    if (name === 'dirname') return { k: 'str', v: path.dirname(file) };
    if (name === 'filename') return { k: 'str', v: file };
    return UNDEF;
  }

  private evTemplate(node: Node, env: Env): Value {
    const t = node.asKindOrThrow(SyntaxKind.TemplateExpression);
    let out: Value = { k: 'str', v: t.getHead().getLiteralText() };
    for (const span of t.getTemplateSpans()) {
      const v = this.ev(span.getExpression(), env);
      out = concat(concat(out, v, span.getExpression()), { k: 'str', v: span.getLiteral().getLiteralText() }, node);
    }
    return out;
  }

  private evBinary(node: Node, env: Env): Value {
    const b = node.asKindOrThrow(SyntaxKind.BinaryExpression);
    const op = b.getOperatorToken().getKind();
    if (op === SyntaxKind.EqualsToken) {
      const value = this.ev(b.getRight(), env);
      this.assign(b.getLeft(), value, env);
      return value;
    }
    const left = this.ev(b.getLeft(), env);
    if (op === SyntaxKind.BarBarToken || op === SyntaxKind.QuestionQuestionToken) {
      const t = op === SyntaxKind.BarBarToken ? this.truthiness(left) : left.k === 'unknown' ? undefined : left.k !== 'undef' && left.k !== 'null';
      if (t === true) return left;
      const right = this.ev(b.getRight(), env);
      if (t === false) return right;
      // `process.env.P ?? '/api'`: the fallback is the one value known; the variable may differ.
      if (left.k === 'unknown' && left.reason === 'environment' && right.k !== 'unknown') return alt([right], 'environment', b.getLeft().getText(), node);
      if (left.k === 'alt' && left.reason === 'environment') return left;
      return unknown(left.k === 'unknown' ? left.reason : 'conditional', b.getLeft());
    }
    if (op === SyntaxKind.AmpersandAmpersandToken) {
      const t = this.truthiness(left);
      if (t === false) return left;
      return t === true ? this.ev(b.getRight(), env) : this.withCondition(b.getLeft().getText(), () => this.ev(b.getRight(), env));
    }
    const right = this.ev(b.getRight(), env);
    if (op === SyntaxKind.PlusToken) {
      if (left.k === 'num' && right.k === 'num') return { k: 'num', v: left.v + right.v };
      return concat(left, right, node);
    }
    if (op === SyntaxKind.EqualsEqualsEqualsToken || op === SyntaxKind.ExclamationEqualsEqualsToken || op === SyntaxKind.EqualsEqualsToken || op === SyntaxKind.ExclamationEqualsToken) {
      if ((left.k === 'str' || left.k === 'num' || left.k === 'bool') && left.k === right.k) {
        const eq = left.v === (right as { v: unknown }).v;
        return { k: 'bool', v: op === SyntaxKind.EqualsEqualsEqualsToken || op === SyntaxKind.EqualsEqualsToken ? eq : !eq };
      }
    }
    return unknown('unresolved-value', node);
  }

  /** Known truthiness of a value, or undefined when it depends on run time. */
  truthiness(v: Value): boolean | undefined {
    switch (v.k) {
      case 'unknown':
        return undefined;
      case 'str':
        return v.v !== '';
      case 'num':
        return v.v !== 0;
      case 'bool':
        return v.v;
      case 'undef':
      case 'null':
        return false;
      case 'alt':
        return undefined;
      default:
        return true;
    }
  }

  private assign(target: Node, value: Value, env: Env): void {
    if (Node.isIdentifier(target)) {
      const name = target.getText();
      const owner = env.owner(name);
      // Every branch being walked remembers the value before its first assignment (see journaled).
      if (owner) for (const j of this.journals) if (!j.get(owner)?.has(name)) j.set(owner, (j.get(owner) ?? new Map()).set(name, owner.lookup(name) ?? UNDEF));
      return void env.assign(name, value);
    }
    if (Node.isPropertyAccessExpression(target) || Node.isElementAccessExpression(target)) {
      const objNode = target.getExpression();
      const key = Node.isPropertyAccessExpression(target) ? target.getName() : this.keyOf(target, env);
      if (key === null) return;
      if (objNode.getText() === 'module' && key === 'exports' && !env.lookup('module')) {
        env.moduleRecord.replaced = value;
        return;
      }
      const holder = this.ev(objNode, env);
      this.api.set(holder, key, value, target);
    }
  }

  private keyOf(target: Node, env: Env): string | null {
    const arg = target.asKindOrThrow(SyntaxKind.ElementAccessExpression).getArgumentExpression();
    const k = arg ? this.ev(arg, env) : UNDEF;
    return k.k === 'str' || k.k === 'num' ? String(k.v) : null;
  }

  private evObject(node: Node, env: Env): Value {
    const out = obj();
    for (const p of node.asKindOrThrow(SyntaxKind.ObjectLiteralExpression).getProperties()) {
      if (Node.isPropertyAssignment(p)) {
        const nameNode = p.getNameNode();
        const key = Node.isComputedPropertyName(nameNode) ? this.ev(nameNode.getExpression(), env) : { k: 'str' as const, v: p.getName().replace(/^['"]|['"]$/g, '') };
        if (key.k === 'str' || key.k === 'num') out.props.set(String(key.v), this.ev(p.getInitializerOrThrow(), env));
        else (out.opaque ??= []).push({ node: nameNode, value: key });
      } else if (Node.isShorthandPropertyAssignment(p)) out.props.set(p.getName(), env.lookup(p.getName()) ?? unknown('unresolved-value', p));
      else if (Node.isSpreadAssignment(p)) {
        const s = this.ev(p.getExpression(), env);
        if (s.k === 'object') {
          // Its own run-time parts come along; a spread among them may also replace what was set before this one.
          const before = s.opaque ? new Map(out.props) : null;
          for (const [k, v] of s.props) out.props.set(k, v);
          if (before) (out.opaque ??= []).push(...s.opaque!.map((o) => (o.shadows ? { ...o, shadows: new Map([...before, ...o.shadows]) } : o)));
        } else if (s.k !== 'undef' && s.k !== 'null') (out.opaque ??= []).push({ node: p.getExpression(), value: s, shadows: new Map(out.props) });
      } else if (Node.isMethodDeclaration(p)) out.props.set(p.getName(), this.fnValue(p, env));
    }
    return out;
  }

  // ── functions and classes ──────────────────────────────────────────────────

  /** A TypeScript enum as an object of its members: string initialisers as written, numbers counted on. */
  private enumValue(en: Node, env: Env): ObjectValue {
    const value = obj();
    let next = 0;
    for (const m of en.asKindOrThrow(SyntaxKind.EnumDeclaration).getMembers()) {
      const init = m.getInitializer();
      const v: Value = init ? this.ev(init, env) : { k: 'num', v: next };
      if (v.k === 'num') next = v.v + 1;
      value.props.set(m.getName(), v);
    }
    return value;
  }

  fnValue(node: Node, env: Env): FnValue {
    return { k: 'fn', node, env, bound: false };
  }

  private classValue(node: Node, env: Env): ClassValue {
    const cls = node as Node & { getExtends?(): { getExpression(): Node } | undefined };
    const statics = new Map<string, Value>();
    const value: ClassValue = { k: 'class', node, env, statics };
    const ext = Node.isClassDeclaration(node) || Node.isClassExpression(node) ? node.getExtends() : cls.getExtends?.();
    if (ext) value.parent = this.ev(ext.getExpression(), env);
    if (Node.isClassDeclaration(node) || Node.isClassExpression(node)) {
      for (const m of node.getStaticMethods()) statics.set(m.getName(), { k: 'fn', node: m, env, bound: false, method: true });
    }
    return value;
  }

  /** Calls a function value with argument values; returns what it returns (or unknown). */
  invoke(fn: FnValue, args: Value[], site: Node): Value {
    const node = fn.node;
    const running = this.active.get(node) ?? 0;
    if (this.depth >= MAX_CALL_DEPTH || running >= MAX_RECURSION_PER_FUNCTION) return unknown('recursion', site);
    if (!(Node.isFunctionDeclaration(node) || Node.isFunctionExpression(node) || Node.isArrowFunction(node) || Node.isMethodDeclaration(node) || Node.isGetAccessorDeclaration(node) || Node.isConstructorDeclaration(node))) return unknown('call-expression', site);
    const self = Node.isArrowFunction(node) ? null : fn.self ?? null;
    const env = new Env(fn.env as Env, self, null, site);
    node.getParameters().forEach((p, i) => {
      if (p.isRestParameter()) return void this.bindPattern(p.getNameNode(), { k: 'array', items: args.slice(i) }, env);
      let v = args[i] ?? UNDEF;
      const init = p.getInitializer();
      if (v.k === 'undef' && init) v = this.ev(init, env);
      this.bindPattern(p.getNameNode(), v, env);
    });
    this.depth++;
    this.active.set(node, running + 1);
    try {
      const body = node.getBody();
      if (!body) return UNDEF;
      if (!Node.isBlock(body)) return this.ev(body, env);
      this.hoist(body.getStatements(), env);
      const c = this.execBlock(body.getStatements(), env);
      return c?.type === 'return' ? c.value : UNDEF;
    } finally {
      this.depth--;
      this.active.set(node, running);
    }
  }

  private evCall(node: Node, env: Env): Value {
    const call = node.asKindOrThrow(SyntaxKind.CallExpression);
    const calleeNode = call.getExpression();
    const argNodes = call.getArguments();
    if (calleeNode.getKind() === SyntaxKind.ImportKeyword) return this.evDynamicImport(call, env);
    if (Node.isIdentifier(calleeNode) && calleeNode.getText() === 'require' && !env.lookup('require')) {
      const spec = argNodes[0] ? this.ev(argNodes[0], env) : UNDEF;
      if (spec.k === 'str') return this.requireValue(spec.v, env.moduleRecord.file, call);
      this.diagnose('dynamic-import', 'warning', `require() with a computed specifier (${argNodes[0]?.getText() ?? ''}) cannot be followed`, call);
      return unknown('dynamic-import', call);
    }
    let receiver: Value | undefined;
    let callee: Value;
    if (Node.isPropertyAccessExpression(calleeNode)) {
      receiver = this.ev(calleeNode.getExpression(), env);
      callee = this.api.get(receiver, nameOf(calleeNode)!, calleeNode);
    } else callee = this.ev(calleeNode, env);
    this.argValues.set(calleeNode, callee);
    // Spread arguments expand in place; `nodes[i]` stays the expression that produced `args[i]`.
    const args: Value[] = [];
    const nodes: Node[] = [];
    for (const a of argNodes) {
      if (Node.isSpreadElement(a)) {
        const s = this.ev(a.getExpression(), env);
        if (s.k === 'array') {
          args.push(...s.items);
          nodes.push(...s.items.map((_, i) => s.nodes?.[i] ?? a));
        } else {
          args.push(unknown('unresolved-value', a));
          nodes.push(a);
        }
        continue;
      }
      const v = this.ev(a, env);
      this.argValues.set(a, v);
      args.push(v);
      nodes.push(a);
    }
    this.frames.push(argumentOrigins(args, nodes));
    const before = this.api.layers;
    try {
      return this.api.call(callee, args, nodes, call, receiver);
    } finally {
      this.frames.pop();
      if (callee.k === 'fn' && this.api.layers === before && looksLikeRegistration(args)) {
        this.diagnose('custom-registrar', 'warning', `\`${calleeNode.getText().slice(0, 40)}(…)\` takes a path and a handler but registers nothing when called: the routes it leads to, if any, are decided at run time`, call);
      }
    }
  }

  /**
   * The innermost call of a project function being evaluated whose function holds `site` in its
   * body: the registrar that runs a registration written inside it (`function crud(router, ctrl) {
   * router.get('/', ctrl.list) }` called as `crud(users, usersController)`).
   */
  registrarOf(site: Node): { site: Node; fn: Node } | undefined {
    const file = site.getSourceFile();
    for (let i = this.calls.length - 1; i >= 0; i--) {
      const c = this.calls[i];
      if (c.fn.getSourceFile() === file && c.fn.getPos() <= site.getPos() && site.getEnd() <= c.fn.getEnd()) return c;
    }
    return undefined;
  }

  /**
   * The expression a function value was written as at the outermost call that passed it in, so a
   * handler registered through a forwarding registrar (`register(r, 'get', '/x', h)`) is named as
   * at that call (`h`), not as the registrar's parameter (`fn`).
   */
  originOf(v: Value | undefined): Node | undefined {
    if (!v || (v.k !== 'fn' && v.k !== 'pkg')) return undefined;
    for (const frame of this.frames) {
      const node = frame.get(v);
      if (node) return node;
    }
    return undefined;
  }

  private evDynamicImport(call: Node, env: Env): Value {
    const arg = call.asKindOrThrow(SyntaxKind.CallExpression).getArguments()[0];
    const spec = arg ? this.ev(arg, env) : UNDEF;
    if (spec.k === 'str') return this.namespaceValue(spec.v, env.moduleRecord.file, call);
    this.diagnose('dynamic-import', 'warning', `import() with a computed specifier (${arg?.getText() ?? ''}) cannot be followed`, call);
    return unknown('dynamic-import', call);
  }

  private evNew(node: Node, env: Env): Value {
    const ne = node.asKindOrThrow(SyntaxKind.NewExpression);
    const ctor = this.ev(ne.getExpression(), env);
    const argNodes = ne.getArguments();
    const args = argNodes.map((a) => this.ev(a, env));
    // `new Map([[k, v], …])` and `new Set([…])` iterate like the array they were built from.
    if (ctor.k === 'builtin' && ctor.name === 'global' && (ctor.member[0] === 'Map' || ctor.member[0] === 'Set') && (args[0]?.k === 'array' || !args.length)) return args[0] ?? { k: 'array', items: [] };
    // `new Promise((resolve) => app.listen(port, resolve))`: the executor runs at once, synchronously (ECMA-262 Promise(executor)).
    if (ctor.k === 'builtin' && ctor.name === 'global' && ctor.member[0] === 'Promise' && args[0]?.k === 'fn') {
      this.invoke(args[0], [unknown('call-expression', node), unknown('call-expression', node)], node);
      return unknown('call-expression', node);
    }
    if (ctor.k !== 'class') return this.api.call(ctor, args, argNodes, node);
    return this.construct(ctor, args, node);
  }

  /** `new Class(args)`: fields, then the constructor (inherited when absent), with `this` bound. */
  construct(cls: ClassValue, args: Value[], site: Node): Value {
    const instance: Value = { k: 'instance', cls, props: new Map() };
    this.initialise(cls, instance, args, site);
    return instance;
  }

  private initialise(cls: ClassValue, instance: Value, args: Value[], site: Node): void {
    const node = cls.node;
    if (!(Node.isClassDeclaration(node) || Node.isClassExpression(node))) return;
    const parent = cls.parent?.k === 'class' ? cls.parent : null;
    const ctor = node.getConstructors()[0];
    const fieldEnv = new Env(cls.env as Env, instance);
    const initFields = () => {
      for (const p of node.getInstanceProperties()) {
        if (!Node.isPropertyDeclaration(p)) continue;
        const init = p.getInitializer();
        if (init && instance.k === 'instance') instance.props.set(p.getName(), this.ev(init, fieldEnv));
      }
    };
    if (!ctor) {
      if (parent) this.initialise(parent, instance, args, site);
      initFields();
      return;
    }
    if (!parent) initFields();
    const superEnv = new Env(cls.env as Env, instance);
    if (parent) {
      // `super(...)` runs the parent's initialisation, then this class's fields.
      superEnv.declare('super', { k: 'fn', node: ctor, env: superEnv, bound: true, self: instance });
      for (const call of ctor.getDescendantsOfKind(SyntaxKind.CallExpression)) {
        if (call.getExpression().getKind() === SyntaxKind.SuperKeyword) {
          this.initialise(parent, instance, call.getArguments().map((a) => this.ev(a, superEnv)), site);
          break;
        }
      }
      initFields();
    }
    // Constructor parameter properties (`constructor(private router: Router)`).
    ctor.getParameters().forEach((p, i) => {
      if (p.getScope() || p.isReadonly()) if (instance.k === 'instance') instance.props.set(p.getName(), args[i] ?? UNDEF);
    });
    this.invoke({ k: 'fn', node: ctor, env: cls.env, self: instance, bound: true }, args, site);
  }

  /** Finds a method or getter named `name` on a class or its ancestors. */
  findMember(cls: ClassValue, name: string): Node | null {
    const node = cls.node;
    if (Node.isClassDeclaration(node) || Node.isClassExpression(node)) {
      const m = node.getInstanceMethod(name) ?? node.getGetAccessor(name);
      if (m && !(Node.isMethodDeclaration(m) && m.isStatic())) return m;
    }
    return cls.parent?.k === 'class' ? this.findMember(cls.parent, name) : null;
  }

  /** Router factories of other packages: `Router()` of express-promise-router and the like. */
  routerPackage(v: Value): string | null {
    if (v.k !== 'pkg') return null;
    const allowed = ROUTER_PACKAGES[v.name];
    if (!allowed) return null;
    const member = v.member.filter((m) => m !== 'default');
    return allowed.some((a) => (a.member === null ? member.length === 0 : member.length === 1 && member[0] === a.member)) ? v.name : null;
  }
}

/** Thrown when an input would take the evaluator past its step budget. */
export class BudgetExceeded extends Error {
  constructor(readonly node: Node) {
    super('evaluation budget exceeded');
  }
}

/** Largest JSON module read (bytes): configs are small; a data file folds to nothing useful. */
const JSON_MODULE_LIMIT = 256 * 1024;

/**
 * A JSON module as `require('./config.json')` gives it: its object (importBinding gives it whole as
 * the default import); unknown when it is not an object, does not parse, or is larger than
 * JSON_MODULE_LIMIT.
 */
function jsonModule(file: string, site: Node): Value {
  try {
    if (statSync(file).size > JSON_MODULE_LIMIT) return unknown('json-module', site);
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return unknown('json-module', site);
    return fromJson(parsed);
  } catch {
    return unknown('json-module', site);
  }
}

/** A parsed JSON value as the evaluator's Value. */
function fromJson(json: unknown): Value {
  if (json === null) return { k: 'null' };
  if (typeof json === 'string') return { k: 'str', v: json };
  if (typeof json === 'number') return { k: 'num', v: json };
  if (typeof json === 'boolean') return { k: 'bool', v: json };
  if (Array.isArray(json)) return { k: 'array', items: json.map(fromJson) };
  return obj(Object.entries(json as Record<string, unknown>).map(([k, v]) => [k, fromJson(v)]));
}
