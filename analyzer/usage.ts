/**
 * How handlers and middleware use the request and reply: `req.*`, `res.*` and `next(…)` uses of
 * a function's first three parameters, also inside the helpers it passes `req` or `res` to
 * (analyzer-patterns.md §3 P52), and how error handlers look at their error. Syntactic: the
 * parameters are followed by name, with a scope walk for shadowing; no type checker.
 */
import { Node, SyntaxKind, ts } from 'ts-morph';
import type { EntryRef } from './graph.js';
import type { HelperLookup, FunctionNode } from './helpers.js';
import type { ApiUse, Location, Route } from './model.js';
import { importBindingOf } from './bindings.js';
import { descendants, descendantsWhere, textOf, type Text } from './syntax.js';
import { FUNCTION_KINDS, isWritten, shadowed } from './scope-walk.js';
import { requestHandOffs } from './request-hand-offs.js';

/** Where a node starts; usage passes compiler nodes, to spare them ts-morph wrappers. */
type Locate = (node: Node | ts.Node) => Location;

/** Usage of an entry's function, computed once per function (see usageCache); `handedOn` as unfollowedUses. */
export type Usage = ((e: EntryRef) => Route['usage']) & { handedOn: (fn: Node) => HandedOn[] };

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
  const params = parametersOf(fn);
  params.slice(0, 2).forEach((p, i) => {
    const list = i === 0 ? usage.req : usage.res;
    const prefix = i === 0 ? 'req' : 'res';
    collectUses(fn, p, prefix, list, locate);
    for (const use of helperUses(fn, p, prefix, locate, helpers, HELPER_DEPTH, new Set([fn]))) if (!list.some((u) => u.api === use.api)) list.push(use);
  });
  // `req` handed on as a value to a project function: what that function reads counts as the handler's own use, made there.
  const handOffs = params[0] && params.length <= 3 ? requestHandOffs(fn, params[0], locate, helpers) : [];
  for (const handOff of handOffs) {
    for (const read of handOff.reads) {
      const api = `req.${read.member}`;
      if (!usage.req.some((u) => u.api === api)) usage.req.push({ api, location: read.location, via: handOff.location, ...(read.write ? { write: true } : {}) });
    }
  }
  if (handOffs.length) usage.handOffs = handOffs;
  const next = params[2];
  if (next && ts.isIdentifier(next.name)) {
    const text = textOf(fn);
    const name = text(next.name);
    const seen = new Set<string>();
    for (const call of usageNodesWhere(fn, (c): c is ts.CallExpression => ts.isCallExpression(c) && text(c.expression) === name)) {
      const [arg] = call.arguments;
      const api = !arg ? 'next()' : ts.isStringLiteral(arg) ? `next('${arg.text}')` : 'next(err)';
      if (seen.has(api)) continue;
      seen.add(api);
      usage.next.push({ api, location: locate(call), ...(nestedIn(call, fn.compilerNode, text) ? { inCallback: true } : {}) });
    }
  }
  return usage;
}

/**
 * Uses of parameter `p` inside the project functions `fn` passes it to (`validate(req)`,
 * `pages.send(res, 'home')`), each with `via` = the call in `fn`; helpers of helpers up to `depth`.
 */
function helperUses(fn: FunctionNode, p: ts.ParameterDeclaration, prefix: string, locate: Locate, helpers: HelperLookup, depth: number, seen: Set<Node>): ApiUse[] {
  if (depth === 0 || !ts.isIdentifier(p.name)) return [];
  const text = textOf(fn);
  const name = text(p.name);
  const uses: ApiUse[] = [];
  for (const call of usageNodesWhere(fn, (c): c is ts.CallExpression => ts.isCallExpression(c) && c.arguments.some((a) => ts.isIdentifier(a) && a.text === name))) {
    if (shadowed(call, fn.compilerNode, name, text)) continue;
    const helper = helpers(call, fn.getSourceFile());
    if (!helper || seen.has(helper)) continue;
    const index = call.arguments.findIndex((a) => text(a) === name);
    const param = parametersOf(helper)[index];
    if (!param) continue;
    const inner: ApiUse[] = [];
    collectUses(helper, param, prefix, inner, locate);
    inner.push(...helperUses(helper, param, prefix, locate, helpers, depth - 1, new Set([...seen, helper])));
    const via = locate(call);
    const inCallback = nestedIn(call, fn.compilerNode, text);
    for (const use of inner) if (!uses.some((u) => u.api === use.api)) uses.push({ ...use, via, ...(inCallback ? { inCallback: true } : {}) });
  }
  return uses;
}

/** The parameters of a function, as compiler nodes. */
function parametersOf(fn: FunctionNode): readonly ts.ParameterDeclaration[] {
  return (fn.compilerNode as ts.SignatureDeclaration).parameters;
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
    return { req: usage.req.map(copy), res: usage.res.map(copy), next: usage.next.map(copy), ...(usage.handOffs ? { handOffs: structuredClone(usage.handOffs) } : {}) };
  };
  return Object.assign((e: EntryRef) => usageOf(e, usesOf), { handedOn: (fn: Node) => ('getParameters' in fn ? unfollowedUses(fn as FunctionNode, locate, helpers) : []) });
}

/**
 * The handler's uses, plus the `next(…)` calls of the route's own middleware (`next('route')` is
 * usually there: a guard that skips to the next route), and the package middleware they run
 * themselves (`calls`).
 */
export function routeUsage(handler: EntryRef, routeMiddleware: EntryRef[], usageOf: Usage, locate: Locate): Route['usage'] {
  const usage = usageOf(handler);
  for (const m of routeMiddleware) {
    for (const use of usageOf(m).next) if (!usage.next.some((u) => u.api === use.api)) usage.next.push(use);
  }
  // Package middleware the handler or the route's own middleware runs itself (`uploadImage(req, res, cb)`).
  const calls = [handler, ...routeMiddleware].filter((e) => e.origin === 'local').flatMap((e) => innerMiddlewareCalls(e, locate));
  return calls.length ? { ...usage, calls } : usage;
}

/**
 * Middleware a local middleware runs itself with its own arguments — `lusca.csrf()(req, res, next)`,
 * `upload.single('f')(req, res, next)` — tagged with the package the callee comes from.
 */
export function innerMiddlewareCalls(e: EntryRef, locate: Locate): ApiUse[] {
  const fn = e.fn;
  if (!fn || e.action || !('getParameters' in fn)) return [];
  const names = (fn as Node & { getParameters(): Node[] }).getParameters().slice(0, 2).map((p) => (Node.isParameterDeclaration(p) ? p.getName() : ''));
  if (names.length < 2 || names.some((n) => !n)) return [];
  // `(req, res, next)` or `(req, res, callback)`: the first two arguments are the function's own req and res.
  // Tested on compiler nodes; only the matches get ts-morph wrappers (this runs for every route's handler).
  const passesReqRes = (c: ts.Node): c is ts.CallExpression => ts.isCallExpression(c) && c.arguments.length === 3 && c.arguments.slice(0, 2).every((a, i) => ts.isIdentifier(a) && a.text === names[i]);
  return descendantsWhere(fn, passesReqRes)
    .flatMap((call) => {
      const inner = call.getExpression();
      const callee = Node.isCallExpression(inner) ? inner.getExpression().getText() : inner.getText();
      const tagged = withPackage(callee, rootOf(callee, fn), fn);
      // A local function called with (req, res, next) is the app's own code (usage follows it); only package middleware is listed.
      return Node.isCallExpression(inner) || tagged !== callee ? [{ api: tagged, location: locate(call) }] : [];
    });
}

/**
 * The expression a local name stands for, followed through `const` initialisers in the function or at the top of the file
 * (`const uploadImage = upload.single('image')`, `const upload = multer({ … })` → `multer`), so the
 * package a middleware comes from is found where it was built.
 */
function rootOf(expression: string, fn: Node): string {
  const file = fn.getSourceFile();
  let root = expression;
  for (let i = 0; i < 4; i++) {
    const name = root.split(/[.(]/)[0];
    // A `const` inside the function (`const upload = multer({ … })` in a route middleware), else at the top of the file.
    const local = fn.getDescendantsOfKind(SyntaxKind.VariableDeclaration).find((d) => d.getName() === name);
    const init = (local ?? file.getVariableDeclaration(name))?.getInitializer();
    if (!init || (Node.isCallExpression(init) && init.getExpression().getText() === 'require')) break;
    root = init.getText();
  }
  return root;
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
  collectUses(fn as FunctionNode, err.compilerNode, 'err', reads, locate);
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
  const binding = importBindingOf(fn.getSourceFile(), expression.split(/[.(\s]/)[0]);
  return binding ? packageTag(api, binding.specifier) : api;
}

/** `api [pkg]` for a bare package specifier (`multer`, `@scope/x/sub` → `@scope/x`); local paths stay untagged. */
function packageTag(api: string, specifier: string): string {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return api;
  const parts = specifier.split('/');
  return `${api} [${specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]}]`;
}

/** Property uses of parameter `p` of `fn` as `<prefix>.<name>` (destructured names too), sorted by API. */
function collectUses(fn: FunctionNode, p: ts.ParameterDeclaration, prefix: string, list: ApiUse[], locate: Locate): void {
  const text = textOf(fn);
  const seen = new Set<string>();
  // One record per API, write and callback flag: a later use in a callback is not hidden by an earlier one in the body.
  const add = (api: string, node: ts.Node, write: boolean, as?: ApiUse['as']) => {
    const inCallback = nestedIn(node, fn.compilerNode, text);
    const key = `${api}${write ? '=' : ''}${inCallback ? '@cb' : ''}${as ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    const call = node.parent;
    const first = ts.isCallExpression(call) && call.expression === node ? call.arguments[0] : undefined;
    const arg = first && text(first).slice(0, 60);
    list.push({ api, location: locate(node), ...(write ? { write: true } : {}), ...(inCallback ? { inCallback: true } : {}), ...(as ? { as } : {}), ...(arg !== undefined ? { arg } : {}) });
  };
  const addBindings = (pattern: ts.Node) => {
    if (!ts.isObjectBindingPattern(pattern)) return;
    for (const el of pattern.elements) add(`${prefix}.${text(el.propertyName ?? el.name)}`, el, false);
  };
  if (ts.isObjectBindingPattern(p.name)) addBindings(p.name);
  else {
    const name = text(p.name);
    for (const pa of usageNodesWhere(fn, (c): c is ts.PropertyAccessExpression => ts.isPropertyAccessExpression(c) && text(c.expression) === name)) {
      if (shadowed(pa, fn.compilerNode, name, text)) continue;
      add(`${prefix}.${text(pa.name)}`, pa, isWritten(pa), valueUse(pa, text));
      // Chained calls (`res.status(500).json(…)`): Express returns `res`, so `.json` is `res.json` too.
      // Only when the use is the callee: in `res.status(err.status).json(…)`, `err.status` is an
      // argument and `.json` belongs to `res`, not to `err`.
      for (let callee: ts.Node = pa, call = pa.parent; ts.isCallExpression(call) && call.expression === callee && ts.isPropertyAccessExpression(call.parent); ) {
        const next = call.parent;
        add(`${prefix}.${text(next.name)}`, next, false);
        callee = next;
        call = next.parent;
      }
    }
    // `const { status = 500 } = err`
    for (const decl of usageNodesWhere(fn, (c): c is ts.VariableDeclaration => ts.isVariableDeclaration(c) && !!c.initializer && text(c.initializer) === name)) addBindings(decl.name);
  }
  list.sort((a, b) => a.api.localeCompare(b.api) || Number(a.write ?? false) - Number(b.write ?? false));
}

/** The kinds of node the usage queries look for in a function. */
const USAGE_KINDS = new Set([SyntaxKind.PropertyAccessExpression, SyntaxKind.CallExpression, SyntaxKind.VariableDeclaration]);
/** Per function, its descendants of USAGE_KINDS in document order (a function is queried up to seven times). */
const usageNodes = new WeakMap<ts.Node, ts.Node[]>();

/** The nodes of USAGE_KINDS in function `fn` that pass `match`, in document order; the walk is done once per function. */
function usageNodesWhere<T extends ts.Node>(fn: Node, match: (c: ts.Node) => c is T): T[] {
  let nodes = usageNodes.get(fn.compilerNode);
  if (!nodes) usageNodes.set(fn.compilerNode, (nodes = descendants(fn.compilerNode, (c): c is ts.Node => USAGE_KINDS.has(c.kind))));
  return nodes.filter(match);
}

/** Operators that test presence whatever the other operand: `x.p || d`, `x.p ?? d`, `x.p == null`, `x.p != null`. */
const PRESENCE_TESTS = new Set([SyntaxKind.BarBarToken, SyntaxKind.QuestionQuestionToken, SyntaxKind.EqualsEqualsToken, SyntaxKind.ExclamationEqualsToken]);
/** Operators that test presence against `null` or `undefined` only. */
const STRICT_EQUALITY = new Set([SyntaxKind.EqualsEqualsEqualsToken, SyntaxKind.ExclamationEqualsEqualsToken]);

/** Whether `x.p` is tested for presence (`!x.p`, `x.p || d`, `x.p == null`, `if (x.p)`) or dereferenced (`x.p.q`, `const { q } = x.p`). */
function valueUse(pa: ts.Node, text: Text): ApiUse['as'] {
  const parent = pa.parent;
  if (ts.isPrefixUnaryExpression(parent) && parent.operator === SyntaxKind.ExclamationToken) return 'tested';
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    if (PRESENCE_TESTS.has(op) || (STRICT_EQUALITY.has(op) && /^(null|undefined)$/.test(text(parent.left === pa ? parent.right : parent.left)))) return 'tested';
  }
  if ((ts.isIfStatement(parent) && parent.expression === pa) || (ts.isConditionalExpression(parent) && parent.condition === pa)) return 'tested';
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === pa) return 'dereferenced';
  if (ts.isVariableDeclaration(parent) && parent.initializer === pa && ts.isObjectBindingPattern(parent.name)) return 'dereferenced';
  return undefined;
}

/**
 * Whether `node` sits in a function nested inside `fn`. The branches of `res.format({ … })` do not
 * count: Express calls them before `format` returns.
 */
function nestedIn(node: ts.Node, fn: ts.Node, text: Text): boolean {
  for (let n = node.parent; n && n !== fn; n = n.parent) {
    if (FUNCTION_KINDS.has(n.kind) && !isFormatBranch(n, text)) return true;
  }
  return false;
}

function isFormatBranch(fn: ts.Node, text: Text): boolean {
  const holder = ts.isPropertyAssignment(fn.parent) ? fn.parent.parent : ts.isMethodDeclaration(fn) ? fn.parent : undefined;
  const call = holder && ts.isObjectLiteralExpression(holder) ? holder.parent : undefined;
  return !!call && ts.isCallExpression(call) && /\.format$/.test(text(call.expression));
}

/** A place where a function hands its `req` or `res` parameter on as a value the analyzer does not follow. */
export interface HandedOn {
  parameter: 'req' | 'res';
  location: Location;
}

/**
 * Where `fn` hands its first two parameters (`req`, `res`) on as values the analyzer does not
 * follow: every reference but `p.member`, a destructuring `const { a } = p`, and an argument of a
 * call to a project function (helperUses follows that one): an unresolved call (`check(req)`,
 * `hooks.forEach((h) => h(req))`), an alias (`const r = req`), a computed member (`req[name]`), a
 * return. Empty when it only reads and writes their members. A stage that hands such a function
 * objects other than Express's own cannot tell what those objects need.
 */
function unfollowedUses(fn: FunctionNode, locate: Locate, helpers: HelperLookup): HandedOn[] {
  const text = textOf(fn);
  const out: HandedOn[] = [];
  parametersOf(fn)
    .slice(0, 2)
    .forEach((p, i) => {
      if (!ts.isIdentifier(p.name)) return;
      const name = p.name.text;
      for (const id of descendants(fn.compilerNode, (c): c is ts.Identifier => ts.isIdentifier(c) && c.text === name)) {
        if (id === p.name || shadowed(id, fn.compilerNode, name, text) || followed(id, fn, helpers)) continue;
        out.push({ parameter: i === 0 ? 'req' : 'res', location: locate(id) });
      }
    });
  return out;
}

/** Whether the identifier `id` is a use usage follows: a member read or write, a destructuring, an argument of a project function, or no reference at all (a property name). */
function followed(id: ts.Identifier, fn: FunctionNode, helpers: HelperLookup): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent)) return true;
  if (ts.isPropertyAssignment(parent) && parent.name === id) return true;
  if (ts.isVariableDeclaration(parent) && parent.initializer === id && ts.isObjectBindingPattern(parent.name)) return true;
  if (ts.isCallExpression(parent) && parent.arguments.includes(id)) return !!helpers(parent, fn.getSourceFile());
  return false;
}
