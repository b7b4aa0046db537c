/**
 * Routes made by a registrar of the app's own that closes over its variables (issue 17 item 3):
 * `module.exports = function (app, passport) { const pauth = …; app.get('/auth/github',
 * pauth('github'), users.signin) }` called as `require('./routes')(app, passport)`, or
 * `function crud(router, ctrl) { router.get('/', ctrl.list) }` called once per router. Such a
 * registration cannot move into a plugin at the top of its module (it reads the function's
 * variables), so the registrar moves whole, rewritten once for every route it makes: its receiver
 * parameter takes the Fastify instance (`fastify`), each registration in it becomes the Fastify
 * route in place, and each call of it moves into the plugin of the router it was given, in the
 * calling module, with `fastify` for that argument — `function appRoutes(fastify) {
 * require('./routes')(fastify, passport); }` — registered under that router's mount path (or
 * handed to buildFastify from the file that starts the app, start-file.ts).
 *
 * Timing: the registrar then runs when Fastify loads the plugins (after the module that called it
 * has run to its end, before the server answers) instead of when the Express app was built. So it
 * moves only when that cannot change what it does: its body only declares (functions, variables
 * that do not read the receiver) and registers routes, each of which moves; the receiver is used
 * for nothing else; each call is a statement of its own whose other arguments are names,
 * member reads, literals or `require(…)`; the function is called nowhere else. A plugin defined
 * inside the registrar and handed over at run time would keep it running when the app is built,
 * but Fastify would need to be told, at run time, under which mount path each router it was given
 * is mounted — Express routers do not know it.
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import type { Location, Route } from '../../analyzer/model.js';
import type { HandlerOptions } from '../handler-rewrite/rewrite.js';
import { anchorOf, findByAnchor, notFound, type Anchor } from '../lib/anchor.js';
import { functionAt, startsAt, statementPaths, textOf, type Node } from '../lib/ast.js';
import { placementOf } from '../lib/exports.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import { otherUses } from '../lib/references.js';
import type { RouteStatement } from '../lib/route-statement.js';
import { usesOnlyModuleScope } from '../lib/route-statement.js';
import { memoOn } from '../lib/memo.js';
import type { PlanContext } from '../model.js';
import type { PluginCall, RegistrarEntry } from './model.js';
import type { RouteState } from './state.js';
import { routeLines } from './route-lines.js';
import { movedHandler } from './unwrap.js';
import { tableLoop } from './route-table.js';

/** A registrar that moves, as one route reads it: the function, its receiver parameter, and the call that made the route. */
export interface RegistrarRead {
  /** `file:line:column` of the function: the routes of one registrar move together. */
  key: string;
  file: string;
  fn: Anchor;
  /** The receiver parameter (`app`, `router`) and its position. */
  param: { name: string; index: number };
  /** The call that registered this route: its statement, and the name the router has there. */
  call: { file: string; statement: ASTPath<Node>; receiver: string };
}

/**
 * The registrar of `route` (registered by `statement` inside a function the analyzer saw called:
 * Route.registrar), when it must move whole; null when the routes it makes read nothing of the
 * function but its receiver (they move into a plugin at the top of their module, as a top-level
 * registration does), or when no registrar ran the route. A refusal says what keeps it on Express.
 */
export function registrarOf(ctx: PlanContext, route: Route, parsed: ParsedFiles, statement: RouteStatement): RegistrarRead | { refuse: string } | null {
  const at = route.registrar;
  const def = at ? parsed(at.definition.file) : null;
  const fn = at && def ? functionAt(def.j, def.root, at.definition, def.source) : null;
  if (!at || !def || !fn || !isInside(statement.statement, fn)) return null;
  const body = readBody(ctx, parsed, fn, def, at.definition, statement.receiver);
  if (!body) return null;
  if ('refuse' in body) return body;
  const call = readCall(route, parsed, body.param.index);
  if ('refuse' in call) return call;
  return { key: `${at.definition.file}:${at.definition.line}:${at.definition.column}`, file: at.definition.file, fn: anchorOf(fn), param: body.param, call };
}

type Body = { param: { name: string; index: number } } | { refuse: string } | null;

/** What the registrar's body allows, once per function: null when none of its registrations reads its variables. */
function readBody(ctx: PlanContext, parsed: ParsedFiles, fn: ASTPath<Node>, def: NonNullable<ReturnType<ParsedFiles>>, at: Location, receiver: string): Body {
  return memoOn(fn.node, `registrar:${receiver}`, (): Body => {
    const { j } = def;
    const name = nameOf(fn);
    const index = (fn.node.params as Node[]).findIndex((p) => p.type === 'Identifier' && p.name === receiver);
    if (index < 0 || fn.node.body.type !== 'BlockStatement') return { refuse: `it is registered inside ${name} that reads its own variables, on ${receiver}, which is not one of its parameters` };
    const registrations = (fn.node.body.body as Node[]).filter((s) => registers(ctx, at.file, s, def.source));
    const receivers = (s: Node) => j(s).find(j.Identifier, { name: receiver }).nodes();
    const paths = j(fn).find(j.Statement).filter((p) => registrations.includes(p.node)).paths();
    if (paths.every((p) => usesOnlyModuleScope(j, p, receivers(p.node)))) return null;
    const busy = (fn.node.body.body as Node[]).find((s) => !registrations.includes(s) && s.type !== 'FunctionDeclaration' && !(s.type === 'VariableDeclaration' && !receivers(s).length));
    if (busy) return { refuse: `it is registered inside ${name} that reads its own variables and also runs \`${firstLine(busy)}\`: moved to Fastify whole, that would run there, when Fastify loads` };
    const stray = j(fn.node.body)
      .find(j.Identifier, { name: receiver })
      .filter((p) => !isCalleeObject(p) && !(p.parent.node.type === 'MemberExpression' && p.parent.node.property === p.node && !p.parent.node.computed))
      .paths()[0];
    if (stray) return { refuse: `it is registered inside ${name} that reads its own variables and uses ${receiver} for more than registering routes (line ${stray.node.loc?.start.line})` };
    const placement = placementOf(j, def.root, fn);
    const binding = placement.kind === 'nested' ? null : placement.name || null;
    // Its calls that registered routes move with it; any other use would still hand it an Express app or router.
    const calls = ctx.inventory.routes.filter((r) => r.registrar && sameLocation(r.registrar.definition, at)).flatMap((r) => callSite(parsed, r));
    const elsewhere = otherUses(ctx, { file: at.file, binding, form: placement.kind === 'exported' ? placement.form : null, range: [fn.node.start, fn.node.end] }, calls);
    if (elsewhere.length) return { refuse: `it is registered inside ${name} that reads its own variables and is also used where it registers no route (${elsewhere.map((u) => `${u.file}:${u.line}`).join(', ')})` };
    return { param: { name: receiver, index } };
  });
}

/**
 * The call of the registrar that made `route`: a statement of its own, at the top of its module (or
 * reading only what is there), with the router as a plain name at the receiver's position and
 * arguments that read the same when Fastify loads the plugin.
 */
function readCall(route: Route, parsed: ParsedFiles, index: number): RegistrarRead['call'] | { refuse: string } {
  const at = route.registrar!;
  const file = parsed(at.call.file);
  const statement = callStatement(parsed, route);
  const call = statement?.node.type === 'ExpressionStatement' ? statement.node.expression : null;
  if (!file || !statement || call?.type !== 'CallExpression' || !startsAt(call, at.call, file.source)) return { refuse: `the call of the function that registers it (${at.call.file}:${at.call.line}) is not a statement of its own` };
  const args: Node[] = call.arguments;
  const receiver = args[index];
  if (receiver?.type !== 'Identifier') return { refuse: `the call of the function that registers it (${at.call.file}:${at.call.line}) does not pass the router by name` };
  const odd = args.find((a, i) => i !== index && !sameWhenLoaded(a));
  if (odd) return { refuse: `the call of the function that registers it (${at.call.file}:${at.call.line}) passes \`${textOf(odd)}\`, which would be evaluated again when Fastify loads the plugin` };
  if (statement.parent.node.type !== 'Program' && !usesOnlyModuleScope(file.j, statement, [receiver])) return { refuse: `the call of the function that registers it (${at.call.file}:${at.call.line}) is inside a function and reads its variables` };
  return { file: at.call.file, statement, receiver: receiver.name };
}

/** Whether statement `s` of `file` holds a registration of the inventory (the statement itself, or a loop around it). */
function registers(ctx: PlanContext, file: string, s: Node, source: string): boolean {
  return ctx.inventory.routes.some((r) => r.registration.file === file && r.statement && startsAt(s, r.statement.start, source)) || ctx.inventory.routes.some((r) => r.registration.file === file && r.statement && s.loc && r.statement.start.line > s.loc.start.line && r.statement.end.line <= s.loc.end.line && /^For|ExpressionStatement/.test(s.type));
}

/** A name, a member read of names, a literal or `require('…')`: what reads the same at the call and when Fastify loads. */
function sameWhenLoaded(n: Node): boolean {
  if (n.type === 'Identifier' || n.type === 'ThisExpression' || /Literal$/.test(n.type)) return true;
  if (n.type === 'MemberExpression') return !n.computed && sameWhenLoaded(n.object);
  return n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments.length === 1 && /Literal$/.test(n.arguments[0].type);
}

function isCalleeObject(p: ASTPath<Node>): boolean {
  const member = p.parent.node;
  return member.type === 'MemberExpression' && member.object === p.node && p.parent.parent.node.type === 'CallExpression' && p.parent.parent.node.callee === member;
}

function isInside(inner: ASTPath<Node>, outer: ASTPath<Node>): boolean {
  return inner.node.start >= outer.node.start && inner.node.end <= outer.node.end;
}

function nameOf(fn: ASTPath<Node>): string {
  const id = fn.node.id?.name ?? (fn.parent.node.type === 'VariableDeclarator' ? fn.parent.node.id.name : null);
  return id ? `the function ${id}` : 'a function';
}

function firstLine(n: Node): string {
  return (textOf(n) ?? '').split('\n')[0].slice(0, 60);
}

function sameLocation(a: Location, b: Location): boolean {
  return a.file === b.file && a.line === b.line && a.column === b.column;
}

/** The statement that holds the registrar call that made `route`. */
function callStatement(parsed: ParsedFiles, route: Route): ASTPath<Node> | undefined {
  const at = route.registrar;
  const file = at?.statement ? parsed(at.call.file) : null;
  return file ? statementPaths(file.j, file.root).find((p) => startsAt(p.node, at!.statement!.start, file.source)) : undefined;
}

/** The registrar call of `route` as a site whose uses of the registrar do not count (it moves with it). */
function callSite(parsed: ParsedFiles, route: Route): Array<{ file: string; range: [number, number] }> {
  const statement = callStatement(parsed, route);
  return statement ? [{ file: route.registrar!.call.file, range: [statement.node.start, statement.node.end] }] : [];
}

/**
 * The transform's part in the calling module: the registrar's call (found by its anchor among
 * `statements`, or an error), and the rewrite that gives it `fastify` in place of the router.
 * @throws Error when the call is not where the plan found it
 */
export function registrarCall(j: JSCodeshift, statements: Array<ASTPath<Node>>, file: string, call: PluginCall): { statement: ASTPath<Node>; rewrite: () => void } {
  const statement = findByAnchor(statements, call.call) ?? notFound(file, "the registrar's call to move", call.call);
  return { statement, rewrite: () => void (statement.node.expression.arguments[call.index] = j.identifier('fastify')) };
}

/**
 * The transform's part where the registrar is defined: the inline handlers of its registrations
 * (to rewrite to request/reply in place, as the caller does for a plugin's), the rewrites of its
 * loops over route tables, and `apply`, which writes each registration statement as its Fastify
 * routes and gives the receiver parameter the Fastify instance: named `fastify` (unless the function
 * already uses that name), typed FastifyInstance in TypeScript (`dropped`: the Express type it had,
 * whose import goes once unused).
 * @throws Error when a planned node is not where the plan found it
 */
export function registrarRewrite(j: JSCodeshift, functions: Array<ASTPath<Node>>, statements: Array<ASTPath<Node>>, file: string, entry: RegistrarEntry): { handlers: Array<{ fn: ASTPath<Node>; anchor: Anchor; options: HandlerOptions; helpers?: string[] }>; loops: Array<() => void>; apply: () => boolean; dropped: string[] } {
  const fn = findByAnchor(functions, entry.fn) ?? notFound(file, 'the registrar to rewrite', entry.fn);
  const param = (fn.node.params as Node[]).find((p) => p.type === 'Identifier' && p.name === entry.param) ?? notFound(file, `the parameter ${entry.param} of the registrar`, entry.fn);
  const receiver = j(fn).find(j.Identifier, { name: 'fastify' }).size() ? entry.param : 'fastify';
  const handlers: Array<{ fn: ASTPath<Node>; anchor: Anchor; options: HandlerOptions; helpers?: string[] }> = [];
  const loops: Array<() => void> = [];
  const edits: Array<() => void> = [];
  for (const registration of entry.registrations) {
    if ('loop' in registration) {
      loops.push(tableLoop(j, statements, file, registration, receiver).rewrite);
      continue;
    }
    const statement = findByAnchor(statements, registration.statement) ?? notFound(file, "the registrar's registration to rewrite", registration.statement);
    const placeholders = new Map<string, Node>();
    const lines = registration.routes.flatMap((route, i) => {
      if ('reference' in route.handler) return routeLines(receiver, route, route.handler.reference, null);
      const inline = findByAnchor(functions, route.handler.inline) ?? notFound(file, 'the inline handler to rewrite', route.handler.inline);
      handlers.push({ fn: inline, anchor: route.handler.inline, options: route.handler.options, ...(route.handler.helpers?.length ? { helpers: route.handler.helpers } : {}) });
      const moved = movedHandler(inline, route.handler.options);
      placeholders.set(`MIGRATE_HANDLER_${i}`, moved.node);
      return routeLines(receiver, route, `MIGRATE_HANDLER_${i}`, moved.node.id?.name ?? 'handler');
    });
    edits.push(() => {
      // Written from one snippet (recast prints it as written); the handlers written inline take their placeholders' places.
      const replacement: Node[] = j(lines.join('\n')).find(j.Program).paths()[0].node.body;
      j(replacement)
        .find(j.Identifier)
        .filter((p) => placeholders.has(p.node.name))
        .forEach((p) => void p.replace(placeholders.get(p.node.name)));
      replacement[0].comments = statement.node.comments;
      statement.replace(...replacement);
    });
  }
  // The Express type the receiver had (`app: Express`, `router: Router`): its import goes when nothing else uses it.
  const annotation = param.typeAnnotation?.typeAnnotation;
  const dropped = entry.typescript && annotation?.type === 'TSTypeReference' && annotation.typeName.type === 'Identifier' ? [annotation.typeName.name as string] : [];
  const apply = () => {
    for (const edit of edits) edit();
    param.name = receiver;
    if (entry.typescript) param.typeAnnotation = j.tsTypeAnnotation(j.tsTypeReference(j.identifier('FastifyInstance')));
    return true;
  };
  return { handlers, loops, apply, dropped };
}

/**
 * Step 2b of the routes plan: a registrar's registration is rewritten once for every call, so the
 * routes it makes for different routers must become the same Fastify route (a param callback one
 * router has and the other has not would not). Blocks every route of a registrar whose
 * registrations would differ between its calls, and those whose handler the in-place rewrite does
 * not carry yet (an inline one calling the fastify-like-express module, a wrapped one).
 */
export function sameForEveryCall(states: Map<string, RouteState>): void {
  const byRegistration = new Map<string, RouteState[]>();
  for (const s of states.values()) {
    if (!s.registrar || !s.pluginRoute) continue;
    const key = `${s.statementKey}\0${s.route.method}`;
    byRegistration.set(key, [...(byRegistration.get(key) ?? []), s]);
  }
  for (const s of states.values()) {
    if (!s.registrar || s.blockers.length) continue;
    // Rewritten in place inside the registrar, an inline handler gets no import of its own, and a wrapper around a handler there is not taken off.
    if (s.likeExpress.length && !s.rewrite) s.blockers.push({ code: 'route-registrar', reason: `its handler, written in the function that registers it (${s.registrar.file}), calls the generated fastify-like-express module, which the function rewritten in place does not import yet` });
    else if (s.unwraps.some((u) => u.file === s.registrar!.file)) s.blockers.push({ code: 'route-registrar', reason: `its handler is wrapped in the function that registers it (${s.registrar.file}), which is rewritten in place without taking the wrapper off yet` });
  }
  for (const group of byRegistration.values()) {
    const forms = new Set(group.map((s) => JSON.stringify({ ...s.pluginRoute, comments: [] })));
    if (forms.size < 2) continue;
    for (const s of group) s.blockers.push({ code: 'route-registrar', reason: `the function that registers it (${s.registrar!.file}) is called for several routers, and its route would not be the same Fastify route for each (its hooks differ)` });
  }
}

/** A registration that reads its registrar's variables, moved into a plugin nested at the end of the registrar and handed over when it runs (server-module/handed-routes.ts). */
export interface NestedRead {
  /** `file:line:column` of the registrar: its routes of this kind share one nested plugin. */
  key: string;
  file: string;
  fn: Anchor;
  /** The app as the registrar names it (`app`): what the plugin is handed over for. */
  receiver: string;
  /** `fn` is a loop that stays (route-table.ts LoopStays): the plugin is handed over at the end of its body. */
  inLoop?: true;
}

/**
 * When the registrar of `route` cannot move whole (registrarOf refused), its registrations that read
 * its variables can still move into a plugin defined at the end of it, closing over them, which it
 * hands to the server module when it runs (`handRoutes(app, function …(fastify) {…})`); the
 * registrar keeps running on Express when the app is built. Only for routes registered on the app
 * itself, as a statement of the registrar's own body: a router's plugin would need its mount path,
 * which nothing knows at run time. Null when the route was not registered by a registrar.
 */
export function nestedOf(route: Route, parsed: ParsedFiles, statement: RouteStatement): NestedRead | { refuse: string } | null {
  const at = route.registrar;
  const def = at ? parsed(at.definition.file) : null;
  const fn = at && def ? functionAt(def.j, def.root, at.definition, def.source) : null;
  if (!at || !def || !fn || fn.node.body.type !== 'BlockStatement') return null;
  if (statement.statement.parent.node !== fn.node.body) return { refuse: 'its registration sits in a block or loop of that function, not where a plugin at its end could take it' };
  if (route.ownerId !== route.appId) return { refuse: "it registers on a router, whose mount path a plugin the function hands over when it runs could not know" };
  const body: Node[] = fn.node.body.body;
  const returns = def.j(fn.node.body).find(def.j.ReturnStatement).filter((p) => enclosingFunction(p) === fn.node).nodes();
  if (returns.some((r) => r !== body[body.length - 1])) return { refuse: 'that function returns before its end, where a plugin of its routes would be handed over' };
  return { key: `${at.definition.file}:${at.definition.line}:${at.definition.column}`, file: at.definition.file, fn: anchorOf(fn), receiver: statement.receiver };
}

function enclosingFunction(p: ASTPath<Node>): Node {
  let q: ASTPath<Node> | null = p.parent;
  while (q && !/Function/.test(q.node.type)) q = q.parent;
  return q?.node;
}
