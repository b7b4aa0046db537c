/**
 * Routes an app registers from a table (issue 17 item 3): a loop over a literal collection whose
 * body is one registration call, as real apps write it —
 * `for (const r of routes) router[r.method](r.path, ...(r.middleware || []), r.handler)`,
 * `routes.forEach(({ method, path, handler }) => router[method](path, handler))` — which the
 * analyzer unrolls into one route per element (docs/analyzer.md, section D). The table stays as
 * data; the loop moves into the router's plugin whole, its registration rewritten once for every
 * route it makes: the receiver becomes `fastify`, the middleware arguments its `preHandler` hooks
 * (flattened as Express flattens them), and each element's handler is rewritten where it is
 * written. Read from the syntax tree at the place the analyzer located the registration.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { ROUTE_METHODS } from '../../analyzer/express-api.js';
import type { Route } from '../../analyzer/model.js';
import { anchorOf, findByAnchor, notFound } from '../lib/anchor.js';
import { pathsOfType, patternNames, startsAt, type Node } from '../lib/ast.js';
import type { RouteStatement } from '../lib/route-statement.js';
import type { PlanContext } from '../model.js';
import type { PluginLoop } from './model.js';
import type { NestedRead } from './registrars.js';
import { fastifyPaths } from './paths.js';
import { ownChain } from './route-blockers.js';

/** A route table's loop read as a registration statement: the loop is the statement that moves. */
export interface TableStatement extends RouteStatement {
  table: {
    /** The registration call inside the loop, rewritten in place. */
    call: ASTPath<Node>;
    /** Source range of the table's array literal in this file (its elements name the handlers), when the loop goes over one written here. */
    range?: [number, number];
  };
}

/**
 * A loop that does more than register (`for (const [url, file] of assets) { if (exists(…)) throw …;
 * const h = …; app.head(url, h); app.get(url, h); hash(url); }`): moved whole, its other statements
 * would run when Fastify loads the plugin. It stays where it is, running when it ran, and each
 * registration of it (a statement of its body) goes into a plugin defined at the end of its body,
 * closing over the iteration's bindings, which it hands to the server module on every iteration
 * (`handRoutes(app, function …(fastify) {…})`, server-module/handed-routes.ts; read-route.ts
 * gives the route its plugin). The registration, read as a statement of its own, moves as any other.
 */
export interface LoopStays {
  stays: ASTPath<Node>;
}

/**
 * The loop that registers `route` (from `root`, parsed from `source`), when its registration sits in
 * one: the loop as its statement, the loop that stays and hands its routes over (LoopStays), or why
 * neither can be. Null when the registration is not in a loop (lib/route-statement.ts reads it).
 */
export function tableStatementOf(j: JSCodeshift, root: Collection, source: string, route: Pick<Route, 'registration'>): TableStatement | LoopStays | { refuse: string; statement?: ASTPath<Node> } | null {
  const call = pathsOfType(j, root, 'CallExpression').find((p) => p.node.loc?.start.line === route.registration.line && startsAt(p.node, route.registration, source) && isRegistrationCall(p.node));
  if (!call) return null;
  const loop = loopAround(call);
  if (!loop) return null;
  const refuse = (reason: string) => ({ refuse: reason, statement: loop.statement });
  const args: Node[] = call.node.arguments;
  if (args.length < 2 || args[0].type === 'SpreadElement' || args[args.length - 1].type === 'SpreadElement') return refuse('its registration in a loop has a spread path or handler, or too few arguments');
  const busy = loop.others.find((s) => !isPlainDeclaration(j, s));
  if (busy) {
    // The loop stays and runs as before; its registrations are handed over from it (LoopStays).
    const stays = whyLoopCannotHandOver(j, loop, call);
    return stays ? refuse(`its loop also runs \`${j(busy).toSource().split('\n')[0].slice(0, 60)}\`, which would run on Fastify, when it loads the plugin, if the loop moved whole; and it cannot stay and hand its routes over: ${stays}`) : { stays: loop.statement };
  }
  const collection = loop.collection;
  if (collection.type !== 'Identifier' && collection.type !== 'ArrayExpression') return refuse(`its loop goes over \`${j(collection).toSource()}\`, which would be evaluated again when Fastify loads the plugin; loop over a table (an array of routes)`);
  const table = collection.type === 'Identifier' ? tableBinding(j, root, loop.statement, collection.name) : { range: [(collection as Node).start, (collection as Node).end] as [number, number] };
  if ('refuse' in table) return refuse(table.refuse);
  const lines: [number, number] = [loop.statement.node.loc?.start.line ?? 0, loop.statement.node.loc?.end.line ?? 0];
  const method = verbOf(call.node);
  return {
    statement: loop.statement,
    lines,
    receiver: (call.node.callee as Node).object.name,
    path: args[0],
    methods: [{ method: method ?? '', middleware: args.slice(1, -1), handler: call.get('arguments', args.length - 1) }],
    table: { call, ...(table.range ? { range: table.range } : {}) },
  };
}

/**
 * Why the loop around `call` cannot stay and hand its registration over from the end of its body,
 * or null when it can: the loop is a statement at the top of its module (a loop inside a function
 * runs when that function runs, which nothing hands over yet); the registration is a statement of
 * the loop's body; nothing in the body skips its end (`continue`, `break`, `return`), where the
 * plugin is handed over; and what the registration reads from the loop when it runs (its path, its
 * handler and middleware expressions; not what the functions it is given read when called) is the
 * same when Fastify loads the plugin as when the loop ran: a `const` of the iteration (a `let` or a
 * parameter assigned in the loop, or a `var`, which every iteration shares, would be read as it is
 * later).
 */
function whyLoopCannotHandOver(j: JSCodeshift, loop: Loop, call: ASTPath<Node>): string | null {
  if (loop.statement.parent.node.type !== 'Program') return 'the loop is not at the top of its module';
  const own = call.parent;
  const body = own.parent;
  if (own.node.type !== 'ExpressionStatement' || body.node.type !== 'BlockStatement' || own.node.expression !== call.node) return 'its registration is not a statement of the loop\'s body';
  const outsideFunctions = (p: ASTPath<Node>) => {
    for (let q: ASTPath<Node> | null = p.parent; q && q !== body; q = q.parent) if (/Function/.test(q.node.type)) return false;
    return true;
  };
  const skip = ['ContinueStatement', 'BreakStatement', 'ReturnStatement'].flatMap((type) => j(body).find(j[type as 'ContinueStatement']).filter(outsideFunctions).paths())[0];
  // (No line number: the TODO above the loop moves it, and a second run must write the same words.)
  if (skip) return `its body has \`${j(skip).toSource()}\`, which would skip the end of the body, where its routes are handed over`;
  // The bindings of the loop: its head's (or the forEach callback's parameters) and its body's.
  const bindings = new Map<string, string>();
  const head: Node = loop.statement.node.type === 'ForOfStatement' ? loop.statement.node.left : null;
  if (head?.type === 'VariableDeclaration') for (const d of head.declarations) for (const name of patternNames(d.id)) bindings.set(name, head.kind);
  if (!head) for (const param of (body.parent.node.params ?? []) as Node[]) for (const name of patternNames(param)) bindings.set(name, 'param');
  for (const st of body.node.body as Node[]) if (st.type === 'VariableDeclaration') for (const d of st.declarations) for (const name of patternNames(d.id)) bindings.set(name, st.kind);
  const assigned = new Set<string>();
  j(loop.statement).find(j.AssignmentExpression).forEach((p) => j(p.get('left')).find(j.Identifier).forEach((q) => void assigned.add(q.node.name)));
  j(loop.statement).find(j.AssignmentExpression, { left: { type: 'Identifier' } }).forEach((p) => void assigned.add((p.node.left as Node).name));
  j(loop.statement).find(j.UpdateExpression, { argument: { type: 'Identifier' } }).forEach((p) => void assigned.add((p.node.argument as Node).name));
  // Read when the registration runs: not inside a function it is given (a handler reads its closure when it is called, on either side).
  const whenRegistered = (p: ASTPath<Node>) => {
    for (let q: ASTPath<Node> | null = p.parent; q && q !== call; q = q.parent) if (/Function/.test(q.node.type)) return false;
    return true;
  };
  const read = j(call)
    .find(j.Identifier)
    .filter((p) => whenRegistered(p) && bindings.has(p.node.name) && !(p.parent.node.type === 'MemberExpression' && p.parent.node.property === p.node && !p.parent.node.computed) && !(p.parent.node.type === 'ObjectProperty' && p.parent.node.key === p.node && !p.parent.node.computed))
    .nodes()
    .map((n) => n.name as string);
  const changing = read.find((name) => bindings.get(name) === 'var' || (bindings.get(name) !== 'const' && assigned.has(name)));
  if (changing) return `its registration reads ${changing}, ${bindings.get(changing) === 'var' ? 'a `var` every iteration shares' : 'which the loop assigns'}, and would read it as it is when Fastify loads the plugin`;
  return null;
}

/**
 * How the routes of a loop that stays reach Fastify (LoopStays), for `route` registered by
 * `statement` in `loop`: in a plugin handed over for the app at the end of the loop's body
 * (registrars.ts NestedRead, `inLoop`). Only on the app itself (a router's plugin would need its
 * mount path, which nothing knows at run time), and only when the routes the loop makes at that
 * registration differ by method and path (Express answers a repeated one with the first; Fastify
 * refuses to start on a duplicate route).
 */
export function loopHandOver(ctx: PlanContext, route: Route, loop: ASTPath<Node>, statement: RouteStatement): NestedRead | { refuse: string } {
  if (route.ownerId !== route.appId) return { refuse: 'its loop stays on Express (it does more than register), and it registers on a router, whose mount path a plugin the loop hands over when it runs could not know' };
  const at = route.registration;
  const same = ctx.inventory.routes.filter((r) => r.registration.file === at.file && r.registration.line === at.line && r.registration.column === at.column);
  const keys = same.map((r) => `${r.method} ${r.path.full}`);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice) return { refuse: `its loop registers ${twice} more than once: Express answers with the first, Fastify would not start` };
  const start = loop.node.loc?.start;
  return { key: `${at.file}:${start?.line}:${(start?.column ?? 0) + 1}`, file: at.file, fn: anchorOf(loop), receiver: statement.receiver, inLoop: true };
}

/** `X[expr](…)` or `X.get(…)` (an Express verb) on an identifier. */
function isRegistrationCall(n: Node): boolean {
  const callee = n.callee;
  if (callee?.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return false;
  return callee.computed || ROUTE_METHODS.has(callee.property.name);
}

function verbOf(n: Node): string | null {
  return n.callee.computed ? null : String(n.callee.property.name).toUpperCase();
}

/** The loop around a registration call: the statement that holds it, the collection it goes over, and the other statements of its body. */
interface Loop {
  statement: ASTPath<Node>;
  collection: Node;
  others: Node[];
}

/**
 * `for (const r of table) <call>;` (the call alone, or in a block of declarations), or
 * `table.forEach((r) => <call>)` as a statement (an expression body, or a block as for `for`).
 */
function loopAround(call: ASTPath<Node>): Loop | null {
  const parent = call.parent;
  // `table.forEach((r) => router[r.method](…))`
  if (parent.node.type === 'ArrowFunctionExpression' && parent.node.body === call.node) return forEachAround(parent, []);
  if (parent.node.type !== 'ExpressionStatement') return null;
  const own = parent;
  const block = own.parent.node.type === 'BlockStatement' ? own.parent : null;
  const holder = block ? block.parent : own.parent;
  const others = block ? (block.node.body as Node[]).filter((s) => s !== own.node) : [];
  if (holder.node.type === 'ForOfStatement' && !holder.node.await) return { statement: holder, collection: holder.node.right, others };
  if (block && /Function/.test(holder.node.type)) return forEachAround(holder, others);
  return null;
}

/** The statement `table.forEach(fn)` whose callback is `fn`. */
function forEachAround(fn: ASTPath<Node>, others: Node[]): Loop | null {
  const call = fn.parent;
  const callee = call.node.type === 'CallExpression' && call.node.arguments[0] === fn.node ? call.node.callee : null;
  if (!callee || callee.type !== 'MemberExpression' || callee.computed || callee.property.name !== 'forEach' || call.parent.node.type !== 'ExpressionStatement') return null;
  return { statement: call.parent, collection: callee.object, others };
}

/**
 * `const { method, path, handler } = route;`, `const show = (req, res) => …;`: a declaration that
 * only reads or defines (no call, assignment, `new` or `await` outside the functions it defines).
 */
function isPlainDeclaration(j: JSCodeshift, statement: Node): boolean {
  if (statement.type !== 'VariableDeclaration') return false;
  const busy = ['CallExpression', 'NewExpression', 'AssignmentExpression', 'UpdateExpression', 'AwaitExpression', 'YieldExpression'];
  const inFunction = (p: ASTPath<Node>) => {
    for (let q: ASTPath<Node> | null = p.parent; q && q.node !== statement; q = q.parent) if (/Function/.test(q.node.type)) return true;
    return false;
  };
  return !busy.some((type) => j(statement).find(j[type as 'CallExpression']).filter((p) => !inFunction(p)).size() > 0);
}

/**
 * The table a loop goes over by name: an array literal bound at the top of the module and used
 * nowhere but in the loop (elsewhere its handlers could be called with Express's signature), or a
 * binding from another module (no range: uses of its handlers there count as uses of their own).
 */
function tableBinding(j: JSCodeshift, root: Collection, loop: ASTPath<Node>, name: string): { range?: [number, number] } | { refuse: string } {
  const declarator = root.find(j.VariableDeclarator, { id: { type: 'Identifier', name } }).filter((p) => p.parent.parent.node.type === 'Program' || p.parent.parent.node.type === 'ExportNamedDeclaration').paths()[0];
  if (!declarator) return {};
  if (declarator.parent.parent.node.type === 'ExportNamedDeclaration') return { refuse: `its route table ${name} is exported, so its handlers may be called elsewhere with Express's signature` };
  const init = declarator.node.init?.type === 'TSAsExpression' || declarator.node.init?.type === 'TSSatisfiesExpression' ? declarator.node.init.expression : declarator.node.init;
  if (init?.type !== 'ArrayExpression') return { refuse: `its loop goes over ${name}, which is not an array of routes written here` };
  const inLoop = (n: Node) => n.start >= loop.node.start && n.end <= loop.node.end;
  const elsewhere = root
    .find(j.Identifier, { name })
    .filter((p) => p.node !== declarator.node.id && !inLoop(p.node) && !(p.parent.node.type === 'MemberExpression' && p.parent.node.property === p.node && !p.parent.node.computed) && !(p.parent.node.type === 'ObjectProperty' && p.parent.node.key === p.node && !p.parent.node.shorthand))
    .paths()[0];
  if (elsewhere) return { refuse: `its route table ${name} is also used outside the loop (line ${elsewhere.node.loc?.start.line}), where its handlers may be called with Express's signature` };
  return { range: [(init as Node).start, (init as Node).end] };
}

/**
 * How the loop's registration gives `route` its hooks on Fastify, one form for every route of the
 * table: no middleware arguments (`none`); each argument a function (`each`: one
 * `expressMiddleware(…)` per argument); or spreads and arrays (`flat`: flattened as Express
 * flattens a route's arguments, express 4.x lib/router/route.js, 5.x router/lib/route.js, then each
 * through `expressMiddleware`). The reason when the route needs a hook or path of its own that one
 * registration for the whole table cannot give it (a param callback, an Express 5 wildcard or
 * optional group, Express 4's wildcard or optional parameters), else the form.
 */
export function tableMiddleware(route: Route, statement: TableStatement): { form: 'none' | 'each' | 'flat' } | { refuse: string } {
  const own = ownChain(route, statement.lines);
  if (own.params.length) return { refuse: `a param callback runs before it (${own.params.map((p) => p.name).join(', ')}), which one registration for the whole table cannot give to the routes with that parameter only` };
  const forms = fastifyPaths(route);
  if ('paths' in forms && (forms.paths.length !== 1 || forms.paths[0] !== route.path.raw || forms.wildcard || forms.express4)) return { refuse: `its path ${route.path.raw} takes another form on Fastify, which one registration for the whole table cannot give it alone` };
  const args = statement.methods[0].middleware;
  if (!args.length) return { form: 'none' };
  const plain = args.every((a) => a.type !== 'SpreadElement' && a.type !== 'ArrayExpression') && own.middleware.length === args.length;
  return { form: plain ? 'each' : 'flat' };
}

/**
 * The transform's part: the planned loop (found by its anchors among `statements`, or an error)
 * and the rewrite of its registration call on `receiver` (`fastify`; a registrar's parameter) — `router[r.method](r.path, ...mw, r.handler)`
 * → `fastify[r.method](r.path, { preHandler: [...mw].flat(Infinity).map((fn) => expressMiddleware(fn)) }, r.handler)`
 * (`each`: `[expressMiddleware(a), …]`; `none`: no options), to run once every node is found.
 * @throws Error when the loop or its call is not where the plan found them
 */
export function tableLoop(j: JSCodeshift, statements: Array<ASTPath<Node>>, file: string, loop: PluginLoop, receiver = 'fastify'): { statement: ASTPath<Node>; rewrite: () => void } {
  const statement = findByAnchor(statements, loop.loop) ?? notFound(file, 'the loop over a route table to move', loop.loop);
  const call = findByAnchor(j(statement).find(j.CallExpression).paths(), loop.call) ?? notFound(file, 'the registration in the loop', loop.call);
  const rewrite = () => {
    const node = call.node;
    const [path, ...rest] = node.arguments as Node[];
    const handler = rest.pop();
    const middleware = rest.map((_, i) => `MIGRATE_MIDDLEWARE_${i}`);
    const hooks = loop.form === 'each' ? `[${middleware.map((m) => `expressMiddleware(${m})`).join(', ')}]` : `[${middleware.join(', ')}].flat(Infinity).map((fn) => expressMiddleware(fn))`;
    const method = node.callee.computed ? '[MIGRATE_METHOD]' : `.${node.callee.property.name}`;
    // Written from one snippet (recast prints it as written); the app's own expressions take the placeholders' places.
    const text = `${receiver}${method}(MIGRATE_PATH, ${loop.form === 'none' ? '' : `{ preHandler: ${hooks} }, `}MIGRATE_HANDLER)`;
    const replacement = j(text).find(j.CallExpression).paths()[0];
    const nodes = new Map<string, Node>([['MIGRATE_PATH', path], ['MIGRATE_HANDLER', handler], ['MIGRATE_METHOD', node.callee.property], ...rest.map((m, i): [string, Node] => [middleware[i], m])]);
    j(replacement)
      .find(j.Identifier)
      .filter((p) => nodes.has(p.node.name))
      .forEach((p) => void p.replace(nodes.get(p.node.name)));
    call.replace(replacement.node);
  };
  return { statement, rewrite };
}
