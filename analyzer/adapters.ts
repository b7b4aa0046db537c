/**
 * The adapters of the hooks module the `routes` stage writes (model.ts Adapter), recognised at a
 * registration by provenance: the function called (`expressMiddleware(requireAuth)`) or passed
 * (`addHook('preHandler', bodyLikeExpress)`) is a function declaration of that name in a file
 * whose first line carries ROUTES_HOOKS_MARK, however it was imported.
 */
import { Node, type ts } from 'ts-morph';
import type { Evaluator } from './evaluate.js';
import type { AdapterRef, EntryRef } from './graph.js';
import type { Adapter, Location } from './model.js';
import { generatedKindOf } from './generated.js';
import { nameOf } from './syntax.js';
import type { Value } from './values.js';

type Locate = (node: Node | ts.Node) => Location;

/**
 * The hooks module's exports: which adapter each is, where its Express function and parameter name
 * are among the arguments; `call`: a factory without either (called at the registration), `passed`:
 * a hook passed as it is.
 */
const ADAPTERS = new Map<string, { kind: Adapter['kind']; wraps?: number; param?: number; call?: true; passed?: true }>([
  ['expressMiddleware', { kind: 'express-middleware', wraps: 0 }],
  ['expressParam', { kind: 'express-param', wraps: 1, param: 0 }],
  ['expressWildcard', { kind: 'express-wildcard', param: 0 }],
  ['bodyLikeExpress', { kind: 'express-body' }],
  ['bodyLeftToExpress', { kind: 'express-body' }],
  // fastify-like-express.* (Express 4 paths): a hook passed as it is, and a factory of the parameter names.
  ['wildcardLikeExpress', { kind: 'express-wildcard', passed: true }],
  ['paramsLikeExpress', { kind: 'express-params', call: true }],
]);

/**
 * The adapter at registration argument `node` (value `value`), or undefined: a call of one of the
 * hooks module's factories (its Express function described with `describe`), or one of its body
 * functions passed as it is.
 */
export function adapterOf(ev: Evaluator, node: Node, value: Value | undefined, describe: (node: Node, value: Value | undefined) => EntryRef): AdapterRef | undefined {
  if (Node.isCallExpression(node)) {
    const spec = hooksModuleFunction(ev.argValues.get(node.getExpression()));
    if (!spec || (spec.wraps === undefined && spec.param === undefined && !spec.call)) return undefined;
    const args = node.getArguments();
    const inner = spec.wraps === undefined ? undefined : args[spec.wraps];
    const name = spec.param === undefined ? undefined : args[spec.param] && ev.argValues.get(args[spec.param]);
    return { kind: spec.kind, ...(inner ? { wraps: describe(inner, ev.argValues.get(inner)) } : {}), ...(name?.k === 'str' ? { param: name.v } : {}) };
  }
  const spec = hooksModuleFunction(value);
  return spec?.kind === 'express-body' || spec?.passed ? { kind: spec.kind } : undefined;
}

/** The Inventory form of an adapter: its Express function as a chain entry names it. */
export function adapterRecord(a: AdapterRef, locate: Locate): Adapter {
  const w = a.wraps;
  return {
    kind: a.kind,
    ...(w ? { wraps: { name: w.name, origin: w.origin, ...(w.package ? { package: w.package } : {}), ...(w.fn ? { definition: locate(w.fn) } : {}) } } : {}),
    ...(a.param !== undefined ? { param: a.param } : {}),
  };
}

/**
 * A moved route registered with arrays of functions (routes-move/chains.ts): `fastify.post(path,
 * expressChain(chain[, hooks]))`, where the hooks module's `expressChain` makes the route's options —
 * `hooks`, then every function of `chain` but the last run through expressMiddleware, as preHandler
 * hooks; the last function is the handler. Undefined when `node` is not a call of `expressChain`.
 */
export function expressChainOf(ev: Evaluator, node: Node, describe: (node: Node, value: Value | undefined) => EntryRef): { hooks: EntryRef[]; handler: EntryRef | null } | undefined {
  if (!Node.isCallExpression(node)) return undefined;
  const fn = ev.argValues.get(node.getExpression());
  if (fn?.k !== 'fn' || !Node.isFunctionDeclaration(fn.node) || nameOf(fn.node) !== 'expressChain' || generatedKindOf(fn.node.getSourceFile().compilerNode) !== 'hooks-module') return undefined;
  const [chainNode, hooksNode] = node.getArguments();
  const items = (n: Node | undefined): Array<{ value: Value; node: Node }> => {
    const v = n && ev.argValues.get(n);
    return v?.k === 'array' ? v.items.map((value, i) => ({ value, node: v.nodes?.[i] ?? n! })) : [];
  };
  const chain = items(chainNode);
  const last = chain[chain.length - 1];
  const middleware = chain.slice(0, -1).map(({ value, node: at }) => {
    const inner = describe(at, value);
    return { ...inner, wrappers: ['expressMiddleware', ...inner.wrappers], adapter: { kind: 'express-middleware' as const, wraps: inner } };
  });
  return { hooks: [...items(hooksNode).map(({ value, node: at }) => describe(at, value)), ...middleware], handler: last ? describe(last.node, last.value) : null };
}

/** The adapter a function value is, when it is one of the hooks module's functions. */
function hooksModuleFunction(v: Value | undefined) {
  if (v?.k !== 'fn' || !Node.isFunctionDeclaration(v.node)) return undefined;
  const spec = ADAPTERS.get(nameOf(v.node) ?? '');
  return spec && generatedKindOf(v.node.getSourceFile().compilerNode) === 'hooks-module' ? spec : undefined;
}
