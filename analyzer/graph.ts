/**
 * The routing graph the evaluator records while it interprets the app: apps and routers with
 * their stacks of layers in registration order, exactly as Express keeps them (a router's stack
 * is live: a layer added after the router was mounted still runs at the router's position).
 */
import type { Node } from 'ts-morph';
import type { PathSpec } from './path.js';
import type { Adapter, ArgumentSlot, Reason, Resolution } from './model.js';
import type { Value } from './values.js';

/** The call a package's factory made a value with (`express.json({ limit: '1mb' })`): the call, its argument values and the expressions written for them. */
export interface FactoryRecord {
  site: Node;
  args: Value[];
  argNodes: Node[];
}

/** An adapter of the generated hooks module at a registration (model.ts Adapter), before locations. */
export interface AdapterRef {
  kind: Adapter['kind'];
  /** The Express function the adapter runs, described like any registration argument. */
  wraps?: EntryRef;
  param?: string;
}

/** A function (or package value) as found at a registration site, before ids are assigned. */
export interface EntryRef {
  name: string;
  origin: 'local' | 'package' | 'unknown';
  package?: string;
  /** The innermost function's node, when it is in the project. */
  fn?: Node;
  /** Set when `fn` is a controller method (routing-controllers, tsoa) that the library's own
   * `(req, res, next)` function calls: its parameters are not Express's. */
  action?: boolean;
  /** The argument expression at the registration site. */
  site: Node;
  wrappers: string[];
  /** What reading each of `wrappers` found (model.ts Handler.wrapping), in the same order; absent without wrappers. */
  wrapping?: WrappingRef[];
  async: boolean;
  arity: number | null;
  resolution: Resolution;
  reasons: Reason[];
  /** For a package value made by a call (`express.json(opts)`, also far from the registration): that call. */
  factory?: FactoryRecord;
  /** Set when the argument is an adapter of the generated hooks module (adapters.ts). */
  adapter?: AdapterRef;
}

/** A wrapper as read (model.ts Wrapping), its places still nodes. */
export interface WrappingRef {
  name: string;
  kind: 'forwards' | 'forwards-promise' | 'runs-generator' | 'other';
  beyond?: string;
  applied?: Node;
  definition?: Node;
}

interface LayerBase {
  seq: number;
  /** The registration call. */
  site: Node;
  paths: PathSpec[];
  conditions: string[];
  reasons: Reason[];
}

export interface RouteLayer extends LayerBase {
  type: 'route';
  kind: 'verb' | 'route-chain' | 'all';
  /** The call of a project function whose body holds the registration, when one ran it (Evaluator.registrarOf). */
  registrar?: { site: Node; fn: Node };
  /** Route-level functions in order; for `route()` chains, each with the method it was added for
   * and the verb call that added it. */
  entries: { method: string; entry: EntryRef; site?: Node; slot?: ArgumentSlot }[];
}

export interface UseLayer extends LayerBase {
  type: 'use';
  entry: EntryRef;
  errorHandler: boolean;
  /** Set for `express.static`/`serve-static`: directory (absolute) and options text. */
  static?: { dir: string | null; options: string | null; package: string };
}

export interface MountLayer extends LayerBase {
  type: 'mount';
  child: RouterNode;
}

export interface ParamLayer extends LayerBase {
  type: 'param';
  names: string[];
  entry: EntryRef;
}

export type Layer = RouteLayer | UseLayer | MountLayer | ParamLayer;

export interface SettingRecord {
  key: string;
  value: unknown;
  raw: string;
  kind: 'set' | 'enable' | 'disable' | 'locals' | 'read';
  site: Node;
  resolved: boolean;
  /** The values it may have when it depends on a run-time choice (`hops` is 1 or 0). */
  alternatives?: unknown[];
}

export interface EngineRecord {
  ext: string;
  engine: string | null;
  site: Node;
}

/** An Express app (`express()`) or router (`express.Router()`, promise-router, …). */
export interface RouterNode {
  uid: number;
  kind: 'app' | 'router';
  name: string;
  package: string;
  /** The creating expression. */
  site: Node;
  options: { mergeParams?: boolean; caseSensitive?: boolean; strict?: boolean };
  stack: Layer[];
  settings: SettingRecord[];
  engines: EngineRecord[];
  listen: { site: Node; args: string[] }[];
  /** Node servers made for this app: `http.createServer([options,] app)`, `new https.Server(opts, app)`, …; `appArgument` is the index of the app among the call's arguments. */
  servers: { site: Node; appArgument: number }[];
  mountedBy: MountLayer[];
}
