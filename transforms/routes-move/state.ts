/**
 * What the routes plan knows of one route as its steps go (read-route.ts fills it, settle.ts and
 * native-hooks.ts add to it, assemble.ts turns it into file entries and items).
 */
import type { ASTPath } from 'jscodeshift';
import type { Route } from '../../analyzer/model.js';
import type { HandlerOptions, HandlerRewrite } from '../handler-rewrite/rewrite.js';
import type { Anchor } from '../lib/anchor.js';
import type { Node } from '../lib/ast.js';
import type { RouteStatement } from '../lib/route-statement.js';
import type { Blocker } from '../model.js';
import type { PluginRoute } from './model.js';

/** One route in the plan. */
export interface RouteState {
  route: Route;
  /** Why it stays; empty while it moves. */
  blockers: Blocker[];
  /** Registration statement key (`file:firstLine`), when found. */
  statementKey?: string;
  statement?: RouteStatement;
  /** Handler definition key (`file:line:column`) for handlers defined outside the registration. */
  handlerKey?: string;
  /** The Fastify route it becomes (set once nothing blocks it after reading). */
  pluginRoute?: PluginRoute;
  /** The rewrite of a handler defined elsewhere (`helpers`: the helpers it may hand `request` to). */
  rewrite?: { file: string; fn: ASTPath<Node>; options: HandlerOptions; helpers: string[] };
  /** Framework-default ids its rewrite causes (`redirect-body`). */
  deltas: string[];
  /** Default imports its rewrite needs (`encodeUrl` from 'encodeurl'). */
  imports: Array<{ local: string; from: string }>;
  /** Functions of the generated fastify-like-express module its handler calls (`sendLikeExpress`): imported in the handler's file. */
  likeExpress: string[];
  /** Where the handler function is (file and source range), to tell which helper calls move with it. */
  handlerRange?: { file: string; range: [number, number] };
  /** Helper functions that take `req` or `res` from the handler, rewritten with it (role `helper`); `references`: every place that calls one (offsets and lines in their files). */
  helpers: Array<{ file: string; fn: ASTPath<Node>; options: HandlerOptions; names: string[]; references: Array<{ file: string; at: number; line: number }> }>;
  /** Fastify plugins the rewritten handler needs in its context (`@fastify/view`). */
  plugins: string[];
  /** Local route middleware referenced by name: candidates for a native Fastify hook (`index` in the hooks). */
  middleware: Array<{ index: number; text: string; definition: { file: string; line: number; column: number } }>;
  /** Where the TODO of a route that stays goes when its statement could not be read as a registration. */
  todoAt?: { anchor: Anchor; key: string };
  /** Inline param callbacks to name where they are registered (`router.param('id', (…) => …)`). */
  nameCallbacks: Array<{ statement: Anchor; name: string }>;
  /** Whether a file the move rewrites is TypeScript (its imports need types). */
  typescript: boolean;
  /**
   * Handler wrappers that only forward, which go (issue 17): `call` is where one is applied outside
   * the registration (`const list = asyncHandler(async (req, res) => …)`), replaced by its argument;
   * null for one applied in the registration, which goes with it. `local`: the name the file calls
   * the wrapper by (`asyncHandler`, `utils` of `utils.asyncHandler`), whose import goes once unused.
   */
  unwraps: Array<{ file: string; call: ASTPath<Node> | null; local: string | null }>;
}

/** A fresh state for `route`: nothing read, nothing blocking. */
export function newState(route: Route, typescript: boolean): RouteState {
  return { route, blockers: [], deltas: [], imports: [], likeExpress: [], plugins: [], helpers: [], middleware: [], nameCallbacks: [], typescript, unwraps: [] };
}

/** Adds what a rewrite of the route's handler (or of a helper it calls) brings: its imports, deltas and plugins. */
export function collect(state: RouteState, rewrite: HandlerRewrite): void {
  state.imports.push(...rewrite.imports);
  state.likeExpress.push(...rewrite.likeExpress.filter((f) => !state.likeExpress.includes(f)));
  state.deltas.push(...rewrite.deltas);
  state.plugins.push(...rewrite.plugins);
}
