/**
 * The Express statement that registers a route — the one the analyzer located (Route.statement)
 * — read from the syntax tree: `router.get(path, ...middleware, handler)` or
 * `router.route(path).get(…).post(…)`, the verbs those Express creates (analyzer ROUTE_METHODS).
 * The plan takes the pieces (path, middleware and handler source) to build the Fastify route; the
 * transform deletes the statement once every route in it moved.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { ROUTE_METHODS } from '../../analyzer/express-api.js';
import type { Inventory, Route } from '../../analyzer/model.js';
import { startsAt, statementPaths, type Node } from './ast.js';

const span = (n: Node): [number, number] => [n.loc?.start.line ?? 0, n.loc?.end.line ?? 0];

/** One method's registration inside the statement. */
export interface MethodRegistration {
  method: string;
  /** The arguments before the handler (route middleware), as nodes. */
  middleware: Node[];
  /** The handler argument (the last). */
  handler: ASTPath<Node>;
}

/** A registration statement and what it registers. */
export interface RouteStatement {
  statement: ASTPath<Node>;
  /** First and last line of the statement. */
  lines: [number, number];
  /** The receiver (`router`, `app`) as written. */
  receiver: string;
  /** The path argument. */
  path: Node;
  methods: MethodRegistration[];
}

/**
 * The registration statement of `route` in its file (`root`, parsed from `source`): the statement
 * the analyzer located, when it is the registration itself (StatementSpan.own) — a verb call or a
 * `route()` chain as a statement of its own.
 * @returns the statement, or a reason it cannot be read (another shape, a spread argument, …)
 */
export function routeStatementOf(j: JSCodeshift, root: Collection, source: string, route: Pick<Route, 'statement'>): RouteStatement | { refuse: string; statement?: ASTPath<Node> } {
  const at = route.statement;
  const statement = at ? statementPaths(j, root).find((p) => startsAt(p.node, at.start, source)) : undefined;
  if (!at || !statement) return { refuse: 'its registration was not found where the analysis put it' };
  if (!at.own || statement.node.type !== 'ExpressionStatement') return { refuse: 'its registration is neither X.METHOD(path, …) nor X.route(path).METHOD(…) as a statement of its own', statement };
  const lines = span(statement.node);
  const expr = statement.get('expression');
  const verb = verbCall(expr);
  if (verb && expr.node.callee.object.type === 'Identifier') {
    const args: Node[] = expr.node.arguments;
    if (args.length < 2 || args.some((a) => a.type === 'SpreadElement')) return { refuse: 'its registration call has spread or too few arguments', statement };
    return { statement, lines, receiver: expr.node.callee.object.name, path: args[0], methods: [{ method: verb.toUpperCase(), middleware: args.slice(1, -1), handler: expr.get('arguments', args.length - 1) }] };
  }
  const methods: MethodRegistration[] = [];
  let call: ASTPath<Node> = expr;
  for (;;) {
    const name = verbCall(call);
    if (!name) break;
    const args: Node[] = call.node.arguments;
    if (!args.length || args.some((a) => a.type === 'SpreadElement')) return { refuse: 'its route() chain has a call with spread or no arguments', statement };
    methods.unshift({ method: name.toUpperCase(), middleware: args.slice(0, -1), handler: call.get('arguments', args.length - 1) });
    call = call.get('callee', 'object');
  }
  // `route(p).all(mw).get(h)`: all()'s functions run before every method's — they are not one route.
  if (methods.some((m) => m.method === 'ALL') && methods.length > 1) return { refuse: 'its route() chain has .all(…) functions that run before every method; Fastify has no per-path middleware: register them with each method', statement };
  const callee = call.node.type === 'CallExpression' ? call.node.callee : null;
  if (!methods.length || !callee || callee.type !== 'MemberExpression' || callee.computed || callee.property.name !== 'route' || callee.object.type !== 'Identifier' || call.node.arguments.length !== 1) {
    return { refuse: 'its registration is neither X.METHOD(path, …) nor X.route(path).METHOD(…) as a statement of its own', statement };
  }
  return { statement, lines, receiver: callee.object.name, path: call.node.arguments[0], methods };
}

/** The verb of `X.get(…)` / `….get(…)`, or null. */
function verbCall(p: ASTPath<Node>): string | null {
  const n = p.node;
  if (n.type !== 'CallExpression' || n.callee.type !== 'MemberExpression' || n.callee.computed) return null;
  const name = n.callee.property.name;
  if (!ROUTE_METHODS.has(name)) return null;
  // `router.route('/x').get(h)`: the verb's object is a call; `router.get(path, h)`: an identifier.
  return n.callee.object.type === 'Identifier' || n.callee.object.type === 'CallExpression' ? name : null;
}

/**
 * Whether every identifier `node` reads is bound at the top level of its module (or is a global):
 * only then can the expression move out of a function into the plugin at the end of the module.
 */
export function usesOnlyModuleScope(j: JSCodeshift, path: ASTPath<Node>, except: Node[] = []): boolean {
  let ok = true;
  j(path)
    .find(j.Identifier)
    .forEach((p) => {
      const parent = p.parent.node;
      if (parent.type === 'MemberExpression' && parent.property === p.node && !parent.computed) return;
      if ((parent.type === 'ObjectProperty' || parent.type === 'Property') && parent.key === p.node && !parent.computed && !parent.shorthand) return;
      if (except.includes(p.node)) return;
      const scope = p.scope?.lookup(p.node.name);
      if (!scope) return;
      if (!scope.isGlobal && !isInside(scope.path, path) && scope.path.node.type !== 'Program') ok = false;
      // ast-types scopes are per function: a `const` of a block or loop (`for (const r of routes) { … }`) is not the module's.
      const declared: ASTPath<Node> | undefined = scope.getBindings()[p.node.name]?.[0];
      if (scope.path.node.type === 'Program' && declared && !isInside(declared, path) && !atTopLevel(declared)) ok = false;
    });
  return ok;
}

/** Whether a declaring identifier belongs to a statement directly in the module's top level (or an export of one there). */
function atTopLevel(declared: ASTPath<Node>): boolean {
  let p: ASTPath<Node> | null = declared;
  while (p && !/Statement$|Declaration$/.test(p.node.type)) p = p.parent;
  const parent = p?.parent?.node;
  return parent?.type === 'Program' || (/^Export/.test(parent?.type ?? '') && p?.parent?.parent?.node.type === 'Program');
}

function isInside(inner: ASTPath<Node>, outer: ASTPath<Node>): boolean {
  for (let p: ASTPath<Node> | null = inner; p; p = p.parent) if (p === outer) return true;
  return false;
}

/**
 * Whether line `line` of `file` lies in the registration statement of a route the analyzer found
 * (Route.statement; a route without one, on its registration line): where a handler shared by
 * several routes is referenced by the other routes.
 */
export function inRouteStatement(inventory: Pick<Inventory, 'routes'>, file: string, line: number): boolean {
  return inventory.routes.some((r) => r.registration.file === file && (r.statement ? r.statement.start.line <= line && line <= r.statement.end.line : r.registration.line === line));
}
