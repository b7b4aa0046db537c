/**
 * How handlers and middleware use the request and reply: `req.*`, `res.*` and `next(…)` uses of
 * a function's first three parameters, also inside the helpers it passes `req` or `res` to
 * (analyzer-patterns.md §3 P52), and how error handlers look at their error. Syntactic: the
 * parameters are followed by name, with a scope walk for shadowing; no type checker.
 */
import { Node, SyntaxKind, ts, type CompilerNodeToWrappedType, type PropertyAccessExpression } from 'ts-morph';
import type { EntryRef } from './graph.js';
import type { HelperLookup, FunctionNode } from './helpers.js';
import type { ApiUse, Location, Route } from './model.js';

type Locate = (node: Node) => Location;

/** Usage of an entry's function, computed once per function (see usageCache). */
export type Usage = (e: EntryRef) => Route['usage'];

/** How deep helpers are followed (`handler → validate → checkBody`). */
const HELPER_DEPTH = 3;

/**
 * `req.*`, `res.*` and `next(…)` uses in the handler's body and in the project helpers it passes
 * `req` or `res` to (those carry `via`, the call in the handler): the first use of each API,
 * writes recorded apart, and whether a use sits in a nested function (a callback), which an async
 * handler on Fastify must not answer from. `usesOf` finds them in one function (parameterUses;
 * usageCache passes a memo of it).
 */
function usageOf(e: EntryRef, usesOf: (fn: FunctionNode) => Route['usage']): Route['usage'] {
  const fn = e.fn;
  // A controller action's parameters are bound by decorators, not (req, res, next).
  if (!fn || e.action || !('getParameters' in fn)) return { req: [], res: [], next: [] };
  return usesOf(fn as FunctionNode);
}

/** The uses of `fn`'s first three parameters as `req`, `res` and `next` (see usageOf). */
function parameterUses(fn: FunctionNode, locate: Locate, helpers: HelperLookup): Route['usage'] {
  const usage: Route['usage'] = { req: [], res: [], next: [] };
  const params = fn.getParameters();
  params.slice(0, 2).forEach((p, i) => {
    const list = i === 0 ? usage.req : usage.res;
    const prefix = i === 0 ? 'req' : 'res';
    collectUses(fn, p, prefix, list, locate);
    for (const use of helperUses(fn, p, prefix, locate, helpers, HELPER_DEPTH, new Set([fn]))) if (!list.some((u) => u.api === use.api)) list.push(use);
  });
  const next = params[2];
  if (next && Node.isParameterDeclaration(next) && Node.isIdentifier(next.getNameNode())) {
    const name = next.getName();
    const seen = new Set<string>();
    const text = textOf(fn);
    for (const call of descendantsWhere(fn, (c): c is ts.CallExpression => ts.isCallExpression(c) && text(c.expression) === name)) {
      const [arg] = call.getArguments();
      const api = !arg ? 'next()' : Node.isStringLiteral(arg) ? `next('${arg.getLiteralValue()}')` : 'next(err)';
      if (seen.has(api)) continue;
      seen.add(api);
      usage.next.push({ api, location: locate(call), ...(nestedIn(call, fn) ? { inCallback: true } : {}) });
    }
  }
  return usage;
}

/**
 * Uses of parameter `p` inside the project functions `fn` passes it to (`validate(req)`,
 * `pages.send(res, 'home')`), each with `via` = the call in `fn`; helpers of helpers up to `depth`.
 */
function helperUses(fn: Node, p: Node, prefix: string, locate: Locate, helpers: HelperLookup, depth: number, seen: Set<Node>): ApiUse[] {
  if (depth === 0 || !Node.isParameterDeclaration(p) || !Node.isIdentifier(p.getNameNode())) return [];
  const name = p.getName();
  const text = textOf(fn);
  const uses: ApiUse[] = [];
  for (const call of descendantsWhere(fn, (c): c is ts.CallExpression => ts.isCallExpression(c) && c.arguments.some((a) => ts.isIdentifier(a) && a.text === name))) {
    if (shadowed(call, fn, name)) continue;
    const helper = helpers(call);
    if (!helper || seen.has(helper)) continue;
    const index = call.getArguments().findIndex((a) => text(a.compilerNode) === name);
    const param = helper.getParameters()[index];
    if (!param) continue;
    const inner: ApiUse[] = [];
    collectUses(helper, param, prefix, inner, locate);
    inner.push(...helperUses(helper, param, prefix, locate, helpers, depth - 1, new Set([...seen, helper])));
    const via = locate(call);
    const inCallback = nestedIn(call, fn);
    for (const use of inner) if (!uses.some((u) => u.api === use.api)) uses.push({ ...use, via, ...(inCallback ? { inCallback: true } : {}) });
  }
  return uses;
}

/**
 * usageOf with parameterUses computed once per function (shared middleware runs on many routes);
 * every call returns its own copy, since callers add to the lists.
 */
export function usageCache(locate: Locate, helpers: HelperLookup): Usage {
  const known = new WeakMap<Node, Route['usage']>();
  const copy = (u: ApiUse): ApiUse => ({ ...u, location: { ...u.location }, ...(u.via ? { via: { ...u.via } } : {}) });
  const usesOf = (fn: FunctionNode) => {
    let usage = known.get(fn);
    if (!usage) known.set(fn, (usage = parameterUses(fn, locate, helpers)));
    return { req: usage.req.map(copy), res: usage.res.map(copy), next: usage.next.map(copy) };
  };
  return (e) => usageOf(e, usesOf);
}

/**
 * The handler's uses, plus the `next(…)` calls of the route's own middleware (`next('route')` is
 * usually there: a guard that skips to the next route).
 */
export function routeUsage(handler: EntryRef, routeMiddleware: EntryRef[], usageOf: Usage): Route['usage'] {
  const usage = usageOf(handler);
  for (const m of routeMiddleware) {
    for (const use of usageOf(m).next) if (!usage.next.some((u) => u.api === use.api)) usage.next.push(use);
  }
  return usage;
}

/**
 * Middleware a local middleware runs itself with its own arguments — `lusca.csrf()(req, res, next)`,
 * `upload.single('f')(req, res, next)` — tagged with the package the callee comes from.
 */
export function innerMiddlewareCalls(e: EntryRef, locate: Locate): ApiUse[] {
  const fn = e.fn;
  if (!fn || !('getParameters' in fn)) return [];
  const names = (fn as Node & { getParameters(): Node[] }).getParameters().slice(0, 3).map((p) => (Node.isParameterDeclaration(p) ? p.getName() : ''));
  if (names.length < 3) return [];
  return fn
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .filter((call) => Node.isCallExpression(call.getExpression()) && call.getArguments().length === 3 && call.getArguments().every((a, i) => a.getText() === names[i]))
    .map((call) => {
      const inner = call.getExpression();
      const callee = Node.isCallExpression(inner) ? inner.getExpression().getText() : inner.getText();
      return { api: withPackage(callee, callee, fn), location: locate(call) };
    });
}

/**
 * How an error handler looks at its error (first parameter): `err.*` reads, `err instanceof X`
 * and calls that take it (`isCelebrateError(err)`), which recognise errors by the package that
 * threw them.
 */
export function errorReadsOf(e: EntryRef, locate: Locate): ApiUse[] {
  const fn = e.fn;
  if (!fn || !('getParameters' in fn)) return [];
  const [err] = (fn as Node & { getParameters(): Node[] }).getParameters();
  const reads: ApiUse[] = [];
  if (!err || !Node.isParameterDeclaration(err)) return reads;
  collectUses(fn, err, 'err', reads, locate);
  if (!Node.isIdentifier(err.getNameNode())) return reads;
  const name = err.getName();
  for (const bin of fn.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
    if (bin.getOperatorToken().getKind() === SyntaxKind.InstanceOfKeyword && bin.getLeft().getText() === name) reads.push({ api: withPackage(`err instanceof ${bin.getRight().getText()}`, bin.getRight().getText(), fn), location: locate(bin) });
  }
  for (const call of fn.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression().getText();
    if (call.getArguments()[0]?.getText() === name && !/^(next|console\.\w+|res\.\w+|\w+\.(log|error|warn|info|debug))$/.test(callee)) reads.push({ api: withPackage(`${callee}(err)`, callee, fn), location: locate(call) });
  }
  return reads;
}

/**
 * `api [package]` when the root identifier of `expression` is imported from a package in the
 * handler's file (`import { ValidationError } from 'express-json-validator-middleware'`,
 * `const multer = require('multer')`), else `api`. Syntactic: no type checker.
 */
function withPackage(api: string, expression: string, fn: Node): string {
  const root = expression.split('.')[0];
  const file = fn.getSourceFile();
  for (const imp of file.getImportDeclarations()) {
    const names = [imp.getDefaultImport()?.getText(), imp.getNamespaceImport()?.getText(), ...imp.getNamedImports().map((n) => n.getAliasNode()?.getText() ?? n.getName())];
    if (names.includes(root)) return packageTag(api, imp.getModuleSpecifierValue());
  }
  for (const decl of file.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
    const init = decl.getInitializer();
    const spec = init && Node.isCallExpression(init) && init.getExpression().getText() === 'require' ? init.getArguments()[0] : undefined;
    if (!spec || !Node.isStringLiteral(spec)) continue;
    const nameNode = decl.getNameNode();
    const names = Node.isObjectBindingPattern(nameNode) ? nameNode.getElements().map((e) => e.getName()) : [nameNode.getText()];
    if (names.includes(root)) return packageTag(api, spec.getLiteralValue());
  }
  return api;
}

/** `api [pkg]` for a bare package specifier (`multer`, `@scope/x/sub` → `@scope/x`); local paths stay untagged. */
function packageTag(api: string, specifier: string): string {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return api;
  const parts = specifier.split('/');
  return `${api} [${specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]}]`;
}

/** Property uses of parameter `p` of `fn` as `<prefix>.<name>` (destructured names too), sorted by API. */
function collectUses(fn: Node, p: Node, prefix: string, list: ApiUse[], locate: Locate): void {
  if (!Node.isParameterDeclaration(p)) return;
  const seen = new Set<string>();
  // One record per API, write and callback flag: a later use in a callback is not hidden by an earlier one in the body.
  const add = (api: string, node: Node, write: boolean, as?: ApiUse['as']) => {
    const inCallback = nestedIn(node, fn);
    const key = `${api}${write ? '=' : ''}${inCallback ? '@cb' : ''}${as ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    const call = node.getParent();
    const arg = Node.isCallExpression(call) && call.getExpression() === node ? call.getArguments()[0]?.getText().slice(0, 60) : undefined;
    list.push({ api, location: locate(node), ...(write ? { write: true } : {}), ...(inCallback ? { inCallback: true } : {}), ...(as ? { as } : {}), ...(arg !== undefined ? { arg } : {}) });
  };
  const addBindings = (pattern: Node) => {
    if (!Node.isObjectBindingPattern(pattern)) return;
    for (const el of pattern.getElements()) add(`${prefix}.${el.getPropertyNameNode()?.getText() ?? el.getName()}`, el, false);
  };
  const nameNode = p.getNameNode();
  if (Node.isObjectBindingPattern(nameNode)) addBindings(nameNode);
  else {
    const name = p.getName();
    const text = textOf(fn);
    for (const pa of descendantsWhere(fn, (c): c is ts.PropertyAccessExpression => ts.isPropertyAccessExpression(c) && text(c.expression) === name)) {
      if (shadowed(pa, fn, name)) continue;
      add(`${prefix}.${pa.getName()}`, pa, isWritten(pa), valueUse(pa));
      // Chained calls (`res.status(500).json(…)`): Express returns `res`, so `.json` is `res.json` too.
      for (let call = pa.getParent(); Node.isCallExpression(call) && Node.isPropertyAccessExpression(call.getParent()); ) {
        const next = call.getParent() as PropertyAccessExpression;
        add(`${prefix}.${next.getName()}`, next, false);
        call = next.getParent();
      }
    }
    // `const { status = 500 } = err`
    for (const decl of descendantsWhere(fn, (c): c is ts.VariableDeclaration => ts.isVariableDeclaration(c) && !!c.initializer && text(c.initializer) === name)) addBindings(decl.getNameNode());
  }
  list.sort((a, b) => a.api.localeCompare(b.api) || Number(a.write ?? false) - Number(b.write ?? false));
}

/**
 * `fn.getDescendantsOfKind(kind).filter(…)` with the test run on compiler nodes, so that only the
 * matches get ts-morph wrappers: wrapping every property access of every handler dominated the
 * inventory of large apps. Same nodes, same (document) order; the wrappers come from ts-morph's
 * own factory (the internal method getDescendantsOfKind uses), so node identity holds.
 */
function descendantsWhere<T extends ts.Node>(fn: Node, match: (c: ts.Node) => c is T): CompilerNodeToWrappedType<T>[] {
  const wrapper = fn as unknown as { _getNodeFromCompilerNode(c: T): CompilerNodeToWrappedType<T> };
  const found: CompilerNodeToWrappedType<T>[] = [];
  const visit = (c: ts.Node): undefined => {
    if (match(c)) found.push(wrapper._getNodeFromCompilerNode(c));
    ts.forEachChild(c, visit);
  };
  ts.forEachChild(fn.compilerNode, visit);
  return found;
}

/** `getText()` of compiler nodes in `node`'s file, computed as ts-morph computes it. */
function textOf(node: Node): (c: ts.Node) => string {
  const file = node.getSourceFile().compilerNode;
  return (c) => file.text.substring(c.getStart(file), c.getEnd());
}

/**
 * Whether `name` at `node` is another binding than `fn`'s parameter: a nested function's parameter
 * (`.then((res) => res.json())`) or a variable declared in a block or function between them
 * (`const res = await fetch(url)` in a helper). Syntactic scope walk, no type checker.
 */
function shadowed(node: Node, fn: Node, name: string): boolean {
  for (let n = node.getParent(); n && n !== fn; n = n.getParent()) {
    if ((Node.isFunctionLikeDeclaration(n) || Node.isArrowFunction(n) || Node.isFunctionExpression(n)) && n.getParameters().some((p) => p.getName() === name)) return true;
    if (Node.isBlock(n) && n.getVariableStatements().some((v) => v.getDeclarations().some((d) => d.getName() === name))) return true;
  }
  return false;
}

/** Whether `x.p` is tested for presence (`!x.p`, `x.p || d`, `x.p == null`, `if (x.p)`) or dereferenced (`x.p.q`, `const { q } = x.p`). */
function valueUse(pa: Node): ApiUse['as'] {
  const parent = pa.getParent();
  if (!parent) return undefined;
  if (Node.isPrefixUnaryExpression(parent) && parent.getOperatorToken() === SyntaxKind.ExclamationToken) return 'tested';
  if (Node.isBinaryExpression(parent) && /^(\|\||\?\?|===?|!==?)$/.test(parent.getOperatorToken().getText()) && (parent.getOperatorToken().getText().length <= 2 || /^(null|undefined)$/.test((parent.getLeft() === pa ? parent.getRight() : parent.getLeft()).getText()))) return 'tested';
  if ((Node.isIfStatement(parent) || Node.isConditionalExpression(parent)) && (parent as Node & { getExpression?(): Node; getCondition?(): Node }).getExpression?.() === pa) return 'tested';
  if (Node.isConditionalExpression(parent) && parent.getCondition() === pa) return 'tested';
  if ((Node.isPropertyAccessExpression(parent) || Node.isElementAccessExpression(parent)) && parent.getExpression() === pa) return 'dereferenced';
  if (Node.isVariableDeclaration(parent) && parent.getInitializer() === pa && Node.isObjectBindingPattern(parent.getNameNode())) return 'dereferenced';
  return undefined;
}

/** `x.p = …`, `x.p += …`, `x.p.q = …` (a write into the object `x.p`), `delete x.p`. */
function isWritten(pa: Node): boolean {
  let node: Node = pa;
  while (Node.isPropertyAccessExpression(node.getParent()) || Node.isElementAccessExpression(node.getParent())) {
    const parent = node.getParent()!;
    if ((parent as Node & { getExpression(): Node }).getExpression() !== node) break;
    node = parent;
  }
  const parent = node.getParent();
  if (Node.isBinaryExpression(parent) && parent.getLeft() === node) return /^(=|\+=|-=|\|\|=|&&=|\?\?=)$/.test(parent.getOperatorToken().getText());
  return Node.isDeleteExpression(parent);
}

/**
 * Whether `node` sits in a function nested inside `fn`. The branches of `res.format({ … })` do not
 * count: Express calls them before `format` returns.
 */
function nestedIn(node: Node, fn: Node): boolean {
  for (let n = node.getParent(); n && n !== fn; n = n.getParent()) {
    if ((Node.isFunctionLikeDeclaration(n) || Node.isArrowFunction(n) || Node.isFunctionExpression(n)) && !isFormatBranch(n)) return true;
  }
  return false;
}

function isFormatBranch(fn: Node): boolean {
  const holder = Node.isPropertyAssignment(fn.getParent()) ? fn.getParent()!.getParent() : Node.isMethodDeclaration(fn) ? fn.getParent() : undefined;
  const call = holder && Node.isObjectLiteralExpression(holder) ? holder.getParent() : undefined;
  return !!call && Node.isCallExpression(call) && /\.format$/.test(call.getExpression().getText());
}
