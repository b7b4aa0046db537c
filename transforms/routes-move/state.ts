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
import type { PluginLoop, PluginRoute } from './model.js';
import type { NestedRead, RegistrarRead } from './registrars.js';

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
  /** The Fastify route it becomes, or the loop over its route table that moves (set once nothing blocks it after reading). */
  pluginRoute?: PluginRoute | PluginLoop;
  /** The rewrite of a handler defined elsewhere (`helpers`: the helpers it may hand `request` to). */
  rewrite?: { file: string; fn: ASTPath<Node>; options: HandlerOptions; helpers: string[] };
  /** Framework-default ids its rewrite causes (`next-non-error`, `send-file-directory`). */
  deltas: string[];
  /** Default imports its rewrite needs (`encodeUrl` from 'encodeurl'). */
  imports: Array<{ local: string; from: string }>;
  /** Functions of the generated fastify-like-express module its handler calls (`sendLikeExpress`): imported in the handler's file (its helpers' in theirs: `helpers`). */
  likeExpress: string[];
  /** Where the handler function is (file and source range), to tell which helper calls move with it. */
  handlerRange?: { file: string; range: [number, number] };
  /**
   * Helper functions that take `req` or `res` from the handler, rewritten with it (role `helper`); `references`: every place that calls one (offsets and lines in their files);
   * `likeExpress`: the functions of the generated fastify-like-express module it calls (imported in its file).
   */
  helpers: Array<{ file: string; fn: ASTPath<Node>; options: HandlerOptions; names: string[]; references: Array<{ file: string; at: number; line: number }>; likeExpress: string[] }>;
  /** Fastify plugins the rewritten handler needs in its context (`@fastify/view`). */
  plugins: string[];
  /** Local route middleware referenced by name: candidates for a native Fastify hook (`index` in the hooks). */
  middleware: Array<{ index: number; text: string; definition: { file: string; line: number; column: number } }>;
  /** Where the TODO of a route that stays goes when its statement could not be read as a registration. */
  todoAt?: { anchor: Anchor; key: string };
  /** Inline param callbacks to name where they are registered (`router.param('id', (…) => …)`). */
  nameCallbacks: Array<{ statement: Anchor; name: string }>;
  /** The registrar that moves whole with it (registrars.ts): its calls move into plugins, it is rewritten where it is. */
  registrar?: RegistrarRead;
  /** The registrar that stays, whose plugin nested at its end takes this route (registrars.ts nestedOf). */
  nested?: NestedRead;
  /** Whether a file the move rewrites is TypeScript (its imports need types). */
  typescript: boolean;
  /**
   * Handler wrappers that only forward, which go (issue 17): `call` is where one is applied outside
   * the registration (`const list = asyncHandler(async (req, res) => …)`), replaced by its argument;
   * null for one applied in the registration, which goes with it. `local`: the name the file calls
   * the wrapper by (`asyncHandler`, `utils` of `utils.asyncHandler`), whose import goes once unused.
   */
  unwraps: Array<{ file: string; call: ASTPath<Node> | null; local: string | null }>;
  /** Its registration stays in Express as a hand-over (`router.get('/:id', movedToFastify)`: hand-over.ts); Express runs its param callbacks there. */
  handOver?: boolean;
  /** settle.ts kept it on Express only for a later Express route that stays and matches its URLs, which a hand-over would stop Express before (plan.ts reads it again with one). */
  laterRouteStays?: boolean;
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
