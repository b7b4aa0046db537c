/**
 * The server module's hand-over of routes (generated.ts HAND_ROUTES): a function of the app hands a
 * plugin over for its Express app when it runs — `handRoutes(app, function (fastify) {…})` —
 * and movedRoutes registers `routesHandedBy(app)`. Recognised by provenance (function declarations of
 * those names in the module the shim wrote) and followed as the module does it at run time: the
 * plugins kept per app, in the order they were handed, so the routes in them are Fastify routes of
 * the server that serves the app.
 */
import { Node } from 'ts-morph';
import { generatedKindOf, HAND_ROUTES, ROUTES_HANDED_BY } from './generated.js';
import type { RouterNode } from './graph.js';
import { nameOf } from './syntax.js';
import { UNDEF, type FnValue, type Value } from './values.js';

/** The plugins handed over per Express app, in the order they were handed. */
export type HandedRoutes = WeakMap<RouterNode, Value[]>;

/**
 * What calling `fn` with `args` returns when it is the server module's `handRoutes` (it keeps the
 * plugin for the app) or `routesHandedBy` (the plugins kept for the app); undefined for any other
 * function.
 */
export function handedRoutesCall(handed: HandedRoutes, fn: FnValue, args: Value[]): Value | undefined {
  if (!Node.isFunctionDeclaration(fn.node) || generatedKindOf(fn.node.getSourceFile().compilerNode) !== 'server-module') return undefined;
  const name = nameOf(fn.node);
  const app = args[0]?.k === 'router' ? args[0].node : null;
  if (name === HAND_ROUTES) {
    if (app && args[1]) handed.set(app, [...(handed.get(app) ?? []), args[1]]);
    return UNDEF;
  }
  if (name === ROUTES_HANDED_BY) return { k: 'array', items: app ? [...(handed.get(app) ?? [])] : [] };
  return undefined;
}
