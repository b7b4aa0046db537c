/**
 * Describes one function at a registration site (middleware, handler, param callback): its name
 * per the fixture naming rules (fixtures/analyzer/README.md), provenance (local or npm package),
 * wrappers (`asyncHandler(fn)` → `fn` wrapped by `asyncHandler`), `Function.length` and `async`.
 */
import { Node, SyntaxKind, type ts } from 'ts-morph';
import { textOf } from './syntax.js';
import { adapterOf } from './adapters.js';
import type { Env, Evaluator } from './evaluate.js';
import type { EntryRef, WrappingRef } from './graph.js';
import { handlerWrapperOf, type HandlerWrapper } from '../rules/catalogue/middleware.js';
import { wrapperShape } from './wrapper-shape.js';
import type { Reason } from './model.js';
import type { Value } from './values.js';

/** Name of an expression: references as written, calls without argument lists. */
export function expressionName(node: Node): string {
  if (Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isNonNullExpression(node) || Node.isAwaitExpression(node)) return expressionName(node.getExpression());
  if (Node.isCallExpression(node)) {
    const callee = node.getExpression();
    // `fn.bind(this)` names `fn`.
    if (Node.isPropertyAccessExpression(callee) && callee.getName() === 'bind') return expressionName(callee.getExpression());
    return expressionName(callee);
  }
  if (Node.isNewExpression(node)) return expressionName(node.getExpression());
  if (Node.isPropertyAccessExpression(node)) return `${expressionName(node.getExpression())}.${node.getName()}`;
  if (Node.isFunctionExpression(node) || Node.isFunctionDeclaration(node) || Node.isMethodDeclaration(node)) return node.getName() ?? '<anonymous>';
  if (Node.isArrowFunction(node)) return '<anonymous>';
  return node.getText().replace(/\s+/g, '');
}

const FUNCTION_KINDS = new Set([SyntaxKind.ArrowFunction, SyntaxKind.FunctionExpression, SyntaxKind.FunctionDeclaration, SyntaxKind.MethodDeclaration]);

/** `Function.length`: parameters before the first one with a default or rest (TS `this` excluded). */
export function functionLength(fn: Node): number | null {
  if (!FUNCTION_KINDS.has(fn.getKind())) return null;
  // Read from the compiler nodes: wrapping every parameter of every handler was a sizeable part of evaluation.
  const text = textOf(fn);
  let n = 0;
  for (const p of (fn.compilerNode as ts.SignatureDeclaration).parameters) {
    if (text(p.name) === 'this') continue;
    if (p.dotDotDotToken || p.initializer) break;
    n++;
  }
  return n;
}

function isAsync(fn: Node): boolean {
  return (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn) || Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) && fn.isAsync();
}

/**
 * Builds the entry for argument `node` whose evaluated value is `value`. A call whose argument is
 * a function is treated as a wrapper around it (`asyncHandler(fn)`, `catchAsync(async …)`); a
 * call without function arguments is a factory (`helmet()`, `requireRole('admin')`) whose result
 * is described.
 */
export function describeEntry(ev: Evaluator, node: Node, value: Value | undefined): EntryRef {
  const one = describeOne(ev, node, value?.k === 'alt' ? value.items.find((i) => i.k !== 'undef') : value);
  const adapter = adapterOf(ev, node, value, (n, v) => describeEntry(ev, n, v));
  const entry = adapter ? { ...one, adapter } : one;
  if (value?.k !== 'alt') return entry;
  // `dev ? devLogger : prodLogger`, or a variable assigned in both branches of an if: described by
  // its first candidate, marked as decided at run time.
  const reason: Reason = { code: 'conditional', message: `\`${clip(node.getText())}\` is one of several functions, chosen by \`${clip(value.text)}\``, location: ev.ctx.location(node) };
  return { ...entry, reasons: [...entry.reasons, reason], resolution: entry.resolution === 'exact' ? 'partial' : entry.resolution };
}

function describeOne(ev: Evaluator, node: Node, value: Value | undefined): EntryRef {
  const wrappers: string[] = [];
  const wrapping: WrappingRef[] = [];
  let site = node;
  let current = value;
  for (let depth = 0; depth < 8; depth++) {
    const inner = wrappedArgument(ev, site) ?? forwardedCall(ev, current, site) ?? packageWrapped(ev, current, site);
    if (!inner) break;
    const name = inner.wrapper ?? (inner.forward ? null : inner.package ? `${expressionName(site)} [${inner.package}]` : expressionName(site));
    if (name !== null) {
      wrappers.push(name);
      wrapping.push({ name, ...inner.shape! });
    }
    site = inner.node;
    current = inner.value;
  }
  const reasons: Reason[] = [];
  const base = { name: expressionName(ev.originOf(current) ?? site), site, wrappers, ...(wrapping.length ? { wrapping } : {}), reasons };
  if (!current || current.k === 'unknown') {
    const reason = current?.k === 'unknown' ? current.reason : 'unresolved-value';
    reasons.push({ code: reason, message: `\`${clip(site.getText())}\` could not be resolved (${reason})`, location: ev.ctx.location(current?.k === 'unknown' && current.node ? current.node : site) });
    return { ...base, origin: 'unknown', async: false, arity: null, resolution: 'unresolved' };
  }
  if (current.k === 'fn') {
    const fn = current.node;
    if (current.method && !current.bound && Node.isPropertyAccessExpression(site) && fn.getDescendantsOfKind(SyntaxKind.ThisKeyword).length > 0) {
      ev.diagnose('unbound-method', 'warning', `\`${base.name}\` is a method passed without binding; \`this\` is undefined when Express calls it`, site);
    }
    return { ...base, name: Node.isFunctionExpression(site) || Node.isArrowFunction(site) ? expressionName(site) : base.name, origin: 'local', fn, async: isAsync(fn), arity: functionLength(fn), resolution: 'exact' };
  }
  if (current.k === 'pkg') {
    const factory = ev.api.factoryOf(current);
    return { ...base, origin: 'package', package: current.name, async: false, arity: null, resolution: 'exact', ...(factory ? { factory } : {}) };
  }
  if (current.k === 'express') return { ...base, origin: 'package', package: 'express', async: false, arity: null, resolution: 'exact' };
  if (current.k === 'router') return { ...base, origin: 'local', async: false, arity: 3, resolution: 'exact' };
  reasons.push({ code: 'unresolved-value', message: `\`${clip(site.getText())}\` is not a function (${current.k})`, location: ev.ctx.location(site) });
  return { ...base, origin: 'unknown', async: false, arity: null, resolution: 'unresolved' };
}

interface Inner {
  node: Node;
  value: Value | undefined;
  /** Package of the wrapper (`express-async-handler`), when it is one. */
  package?: string;
  /** Set when the outer function only forwards its arguments to `node`. */
  forward?: boolean;
  /** Set when the outer function is a wrapper made elsewhere (`catchAsync(…)` applied where the handler is defined): its maker's name. */
  wrapper?: string;
  /** For a wrapper: what it was read to do, and where it is applied and made (WrappingRef without its name). */
  shape?: Omit<WrappingRef, 'name'>;
}

/**
 * A function that only forwards its parameters to another — `(req, res, next) =>
 * ctrl.show(req, res, next)`, also as `{ return …; }` — stands for its target, evaluated in the
 * forwarding function's scope (analyzer-patterns.md §3 P45). When the target is a parameter of
 * the function that made the forwarder — `const catchAsync = (fn) => (req, res, next) =>
 * Promise.resolve(fn(req, res, next)).catch(next)`, applied where the handler is defined
 * (`const create = catchAsync(async (req, res) => …)`) — the forwarder is a wrapper named after
 * its maker, and the handler is the function it was given (§3 P44).
 */
function forwardedCall(ev: Evaluator, value: Value | undefined, site: Node): Inner | null {
  if (value?.k !== 'fn' || !(Node.isArrowFunction(value.node) || Node.isFunctionExpression(value.node))) return null;
  const fn = value.node;
  const body = fn.getBody();
  if (Node.isBlock(body) && body.getStatements().length > 2) return null;
  const params = fn.getParameters().map((p) => p.getName());
  const forwards = (call: Node) => {
    if (!Node.isCallExpression(call) || !isReference(call.getExpression())) return false;
    const args = call.getArguments().map((a) => a.getText());
    return args.length >= 2 && args.length <= params.length && args.every((a, i) => a === params[i]);
  };
  // Only references are evaluated again (`ctrl.show`, `fn`), never calls, which could register routes twice.
  const calls = [body, ...body.getDescendantsOfKind(SyntaxKind.CallExpression)].filter(forwards);
  // One forwarding call only: `cond ? a(req, res, next) : b(req, res, next)` picks at run time.
  const call = calls.length === 1 ? calls[0] : undefined;
  if (!call || !Node.isCallExpression(call)) return null;
  const callee = call.getExpression();
  const target = ev.ev(callee, value.env as Env);
  if (target.k !== 'fn' && target.k !== 'pkg') return null;
  const maker = Node.isIdentifier(callee) ? makerOf(fn, callee.getText()) : undefined;
  if (!maker) return { node: callee, value: target, forward: true };
  const applied = appliedCall(ev, value.env as Env, maker.node);
  return { node: site, value: target, wrapper: maker.name, shape: { ...wrapperShape(maker.node), ...(applied ? { applied } : {}), definition: maker.node } };
}

/**
 * A catalogued package wrapper applied where the handler is defined (`const list =
 * asyncHandler(async (req, res) => …)` with express-async-handler): the function it was given,
 * found through the call that made the package value (ExpressApi.factoryOf).
 */
function packageWrapped(ev: Evaluator, value: Value | undefined, site: Node): Inner | null {
  if (value?.k !== 'pkg' || !value.called) return null;
  const catalogued = handlerWrapperOf(value.name, value.member);
  const made = catalogued ? ev.api.factoryOf(value) : undefined;
  const i = made ? made.args.findIndex((a) => a.k === 'fn') : -1;
  if (!catalogued || !made || i < 0) return null;
  const applied = made.args.length === 1 ? { applied: made.site } : {};
  const wrapped = made.args[i];
  return { node: site, value: wrapped, wrapper: `${expressionName(made.site)} [${value.name}]`, shape: { ...catalogueShape(catalogued, wrapped.k === 'fn' ? wrapped.node : undefined), ...applied } };
}

/**
 * What the catalogue says a package wrapper does, as a WrappingRef reads it; `fn`: the function it
 * is given, when known. A wrapper that runs generators (co.wrap) given anything but a generator
 * function resolves with what that function returns, which Express ignored and a Fastify route
 * would send (co 4.6.0 index.js: `if (!gen || typeof gen.next !== 'function') return resolve(gen)`).
 */
function catalogueShape(catalogued: HandlerWrapper, fn: Node | undefined): Pick<WrappingRef, 'kind' | 'beyond'> {
  if ('does' in catalogued) return { kind: 'other', beyond: catalogued.does };
  if ('runs' in catalogued) {
    if (fn && (Node.isFunctionExpression(fn) || Node.isFunctionDeclaration(fn)) && fn.isGenerator()) return { kind: 'runs-generator' };
    return { kind: 'other', beyond: 'runs generator functions, and is given one that is not a generator (or one the analysis cannot see): it resolves with what that function returns, which Express ignored and a Fastify route would send' };
  }
  return { kind: catalogued.forwards === 'always' ? 'forwards' : 'forwards-promise' };
}

/** The function enclosing `fn` that declares the parameter `name`, and its name (`catchAsync` for `(fn) => (req, res, next) => fn(…)`). */
function makerOf(fn: Node, name: string): { name: string; node: Node } | undefined {
  const maker = fn.getFirstAncestor((n) => Node.isArrowFunction(n) || Node.isFunctionExpression(n) || Node.isFunctionDeclaration(n));
  if (!maker || !(Node.isArrowFunction(maker) || Node.isFunctionExpression(maker) || Node.isFunctionDeclaration(maker))) return undefined;
  if (!maker.getParameters().some((p) => p.getName() === name)) return undefined;
  const holder = maker.getParent();
  const named = Node.isFunctionDeclaration(maker) ? maker.getName() : Node.isVariableDeclaration(holder) ? holder.getName() : undefined;
  return { name: named ?? '<anonymous>', node: maker };
}

/**
 * The call that applied the wrapper `maker` made in the scope `env` (`catchAsync(async (req, res)
 * => …)` where the handler is defined): the evaluator's call scope, when that call has one argument
 * and its callee is `maker`.
 */
function appliedCall(ev: Evaluator, env: Env, maker: Node): Node | undefined {
  let scope: Env | null = env;
  while (scope && !scope.call) scope = scope.parent;
  const call = scope?.call;
  if (!call || !Node.isCallExpression(call) || call.getArguments().length !== 1) return undefined;
  const callee = ev.argValues.get(call.getExpression());
  return callee?.k === 'fn' && callee.node === maker ? call : undefined;
}

function isReference(node: Node): boolean {
  return Node.isIdentifier(node) || (Node.isPropertyAccessExpression(node) && isReference(node.getExpression())) || node.getKind() === SyntaxKind.ThisKeyword;
}

/** For a wrapper call `w(fn)`, the argument that is a function, with its value. */
function wrappedArgument(ev: Evaluator, node: Node): Inner | null {
  const call = Node.isCallExpression(node) ? node : null;
  if (!call) return null;
  const callee = call.getExpression();
  if (Node.isPropertyAccessExpression(callee) && callee.getName() === 'bind') return null;
  const wrapper = ev.argValues.get(callee);
  // Package calls taking a function are options callbacks (`cors(delegate)`) unless the package
  // exists to wrap handlers (the catalogue's handlerWrapper).
  const catalogued = wrapper?.k === 'pkg' ? handlerWrapperOf(wrapper.name, wrapper.member) : undefined;
  if (wrapper?.k === 'pkg' && !catalogued) return null;
  if (wrapper?.k !== 'pkg' && wrapper?.k !== 'fn') return null;
  const args = call.getArguments();
  const arg = args.find((a) => FUNCTION_KINDS.has(a.getKind()) || ev.argValues.get(a)?.k === 'fn');
  if (!arg) return null;
  const argValue = ev.argValues.get(arg);
  const given = FUNCTION_KINDS.has(arg.getKind()) ? arg : argValue?.k === 'fn' ? argValue.node : undefined;
  const read = wrapper.k === 'fn' ? wrapperShape(wrapper.node) : catalogueShape(catalogued!, given);
  const shape = { ...read, ...(args.length === 1 ? { applied: call } : {}), ...(wrapper.k === 'fn' ? { definition: wrapper.node } : {}) };
  return { node: arg, value: argValue, ...(wrapper.k === 'pkg' ? { package: wrapper.name } : {}), shape };
}

/** Source text on one line, at most 60 characters, for messages. */
export function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? flat.slice(0, 57) + '...' : flat;
}
