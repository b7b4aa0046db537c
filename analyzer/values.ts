/**
 * Abstract values of the evaluator: what an expression of the user's app is known to be,
 * without running it. Anything not understood is `unknown` with the reason and the blocking node.
 */
import type { Node } from 'ts-morph';
import type { RouteLayer, RouterNode } from './graph.js';
import type { FastifyContext } from './fastify-graph.js';

export type Value =
  | { k: 'unknown'; reason: string; node?: Node }
  | { k: 'str'; v: string }
  | { k: 'num'; v: number }
  | { k: 'bool'; v: boolean }
  | { k: 'undef' }
  | { k: 'null' }
  | { k: 'regexp'; source: string; flags: string }
  /** `nodes[i]` is the expression that produced `items[i]`, when written as an array literal;
   * `fromFilesystem` is the directory listing call (`fs.readdirSync(dir)`) that produced it. */
  | { k: 'array'; items: Value[]; nodes?: (Node | undefined)[]; fromFilesystem?: Node }
  | ObjectValue
  | FnValue
  | ClassValue
  | { k: 'instance'; cls: ClassValue; props: Map<string, Value> }
  /** The `express` export, or a member path of it (`['Router']`, `['json']`). */
  | { k: 'express'; member: string[] }
  /** A value from an npm package other than express; `member` is the access path. */
  | { k: 'pkg'; name: string; member: string[]; called: boolean }
  /** A Node.js built-in module or member (`path.join`). */
  | { k: 'builtin'; name: string; member: string[] }
  | { k: 'router'; node: RouterNode }
  | { k: 'method'; target: RouterNode; name: string }
  | { k: 'routeChain'; layer: RouteLayer; router: RouterNode }
  | { k: 'routeChainMethod'; layer: RouteLayer; router: RouterNode; name: string }
  /** A Fastify instance: the app (`Fastify()`) or the encapsulated context a plugin receives. */
  | { k: 'fastify'; ctx: FastifyContext }
  /** A method read off a Fastify instance (`fastify.get`, `fastify.register`), not yet called. */
  | { k: 'fastifyMethod'; ctx: FastifyContext; name: string }
  /**
   * One of several values, decided at run time: the branches of a ternary whose condition is not
   * known (`conditional`), or the fallback of `process.env.X ?? '/api'` (`environment`: the only
   * value the analyzer can name; the variable may hold another).
   */
  | AltValue;

export interface AltValue {
  k: 'alt';
  items: Value[];
  reason: 'conditional' | 'environment';
  /** The expression that decides, as written (for messages). */
  text: string;
}

/** At most this many alternatives are tracked; beyond it the value is unknown. */
export const MAX_ALTERNATIVES = 8;

/** `alt` of `items` (nested alternatives flattened), or unknown when there are too many. */
export function alt(items: Value[], reason: AltValue['reason'], text: string, node?: Node): Value {
  const flat = items.flatMap((i) => (i.k === 'alt' ? i.items : [i]));
  if (flat.length > MAX_ALTERNATIVES) return unknown(reason, node);
  const nested = items.some((i) => i.k === 'alt' && i.reason === 'environment');
  return flat.length === 1 && reason === 'conditional' ? flat[0] : { k: 'alt', items: flat, reason: nested ? 'environment' : reason, text };
}

export interface ObjectValue {
  k: 'object';
  props: Map<string, Value>;
  /** Set on `app.locals`: assignments into it are settings of that app. */
  localsOf?: RouterNode;
  /**
   * Parts of the object literal whose keys are known only at run time, in order: a spread of a
   * value that is not a known object (`...options`; `shadows` holds the properties set before it,
   * which it may replace) or a computed key that could not be folded (`[name]: …`). `props` holds
   * the rest, as before.
   */
  opaque?: { node: Node; value: Value; shadows?: Map<string, Value> }[];
}

export interface FnValue {
  k: 'fn';
  node: Node;
  env: unknown;
  self?: Value;
  bound: boolean;
  /** Set for class methods: the class the method belongs to. */
  method?: boolean;
  /**
   * Properties set on the function (`fn.x = …`; CommonJS `module.exports = function (app) {…}`
   * followed by `module.exports.authRoutes = authRoutes`, as the routes stage writes a plugin next
   * to a registration function).
   */
  props?: Map<string, Value>;
}

export interface ClassValue {
  k: 'class';
  node: Node;
  env: unknown;
  statics: Map<string, Value>;
  parent?: Value;
}

/** The value `undefined`. */
export const UNDEF: Value = { k: 'undef' };

/** A value the evaluator could not determine; `reason` is a Reason code, `node` what blocked it. */
export function unknown(reason: string, node?: Node): Value {
  return { k: 'unknown', reason, node };
}

/** A fresh object value with the given properties. */
export function obj(entries: [string, Value][] = []): ObjectValue {
  return { k: 'object', props: new Map(entries) };
}

