/**
 * The `plugins` stage's bridge (issue 18): the Express app runs in Fastify hooks instead of
 * `@fastify/express`. The shim registered the plugin at the root with its `preHandler` hook, so
 * every request ran @fastify/express's own Express instance and then the app. Here the app runs
 * only where Express still answers:
 * - the not-found handler's `preHandler` (`setNotFoundHandler({ preHandler: throughExpress }, …)`):
 *   the requests Fastify has no route for, after every hook of the root (four-oh-four.js
 *   `_setNotFoundHandler` concatenates the context's hooks and the option's);
 * - a `preHandler` of a plugin around `movedRoutes`: the moved routes' requests still pass the
 *   app's middleware first, as they did behind the bridge (the hand-over, `movedToFastify`, stops
 *   Express at the route's place).
 * `expressHook(app)` calls the shim's `expressBridge(app)`, which keeps the request as Express
 * leaves it (its URL as it came, Node's prototypes, the hand-over); a request the app answers ends
 * there, one it leaves goes on to Fastify (`done`), an error to Fastify's error handler
 * (`done(err)`) — as @fastify/express's hook did (express-hook-template.ts says what else it kept).
 * The analyzer reads this form as the same bridge (analyzer/fastify-api.ts; fixture K8).
 * listExpressFree then lists, in the hook's declaration, the moved routes that run no Express code
 * (express-free.ts says which).
 *
 * Where the hooks would not run where the bridge ran, the module keeps its bridge
 * (hookBridgeRefusal): a root `preHandler` hook registered after it ran after the Express app and
 * would now run before it; a not-found handler registered only under a condition would leave the
 * other case without the hook.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import type { ManualItem, PlanContext } from '../model.js';
import { removeUnusedImport, importedLocal } from '../lib/imports.js';
import { restyle, type CodeStyle } from '../lib/style.js';
import { addFastifyTypes } from '../lib/type-imports.js';
import { buildFastifyOf, bridgeOf, callOn, notFoundCalls } from './build-fastify.js';
import { BODY_PARSERS, declarationLines, EXCEPT_EXPRESS_FREE, exceptExpressFreeLines, EXPRESS_FREE, EXPRESS_HOOK, expressFreeDeclarationLines, expressHookLines, fastifyNotFoundLines, movedRoutesLines, ownNotFoundLines, ROUTE_KEY, THROUGH_EXPRESS } from './express-hook-template.js';
import type { ExpressFreeRoutes } from './express-free.js';
import { declares, printed, statements } from './hand-over.js';
import { HEADER_BRIDGE_LINE } from './template.js';

/** Why a module keeps its @fastify/express bridge: a stable code, the line (in the module) and a sentence. */
export interface HookBridgeRefusal {
  code: 'bridge-later-pre-handler' | 'bridge-conditional-not-found';
  line: number;
  reason: string;
}

/**
 * Why the module parsed in `root` cannot run the Express app in hooks exactly where the bridge
 * ran it (see the module comment), or null.
 * @throws Error as buildFastifyOf
 */
export function hookBridgeRefusal(j: JSCodeshift, root: Collection): HookBridgeRefusal | null {
  const bridge = bridgeOf(j, root);
  if (!bridge) return null;
  const build = buildFastifyOf(j, root, 'run the Express app in Fastify hooks');
  const later = build.body.slice(build.body.indexOf(bridge.node) + 1).find((s) => isRootHook(s, build.instance, 'preHandler'));
  if (later) return { code: 'bridge-later-pre-handler', line: later.loc?.start.line ?? 0, reason: `this preHandler hook, registered after the @fastify/express bridge, runs after the Express app; in a Fastify hook the app would run after it (Fastify runs a context's hooks first): move it before the bridge, or into the plugins that need it, then run the stage again` };
  const conditional = notFoundCalls(build).find(([block]) => block !== build.body);
  if (conditional && !notFoundCalls(build).some(([block]) => block === build.body)) {
    const [, call] = conditional;
    return { code: 'bridge-conditional-not-found', line: call.loc?.start.line ?? 0, reason: 'this not-found handler is registered only under a condition; Fastify allows one not-found handler per prefix, so the hook cannot be given to both cases: register it unconditionally (choosing inside it), then run the stage again' };
  }
  return null;
}

/**
 * Why the module at `file` (parsed in `root`) keeps its @fastify/express bridge, as ManualItems:
 * hookBridgeRefusal's reason, or its Fastify app's not-found handlers under a prefix — the requests
 * under that prefix that Express answers would reach them without the Express hook (only the root
 * one gets it). Empty when the bridge can move into hooks (or has).
 * @throws Error as buildFastifyOf
 */
export function bridgeKept(ctx: PlanContext, j: JSCodeshift, root: Collection, file: string): ManualItem[] {
  const refusal = hookBridgeRefusal(j, root);
  if (refusal) return [{ file, line: refusal.line, code: refusal.code, reason: refusal.reason }];
  return bridgeOf(j, root) ? prefixedNotFound(ctx, file) : [];
}

/** The not-found handlers under a prefix of the Fastify app the module at `file` builds, as ManualItems. */
function prefixedNotFound(ctx: PlanContext, file: string): ManualItem[] {
  const servers = new Set(ctx.inventory.apps.filter((a) => a.framework === 'fastify' && a.location.file === file).map((a) => a.id));
  return ctx.inventory.notFoundHandlers
    .filter((h) => h.framework === 'fastify' && servers.has(h.appId) && h.fullPath !== '/')
    .map((h) => ({
      file: h.registration.file,
      line: h.registration.line,
      code: 'bridge-prefixed-not-found' as const,
      reason: `the not-found handler ${h.name} under ${h.fullPath} would answer, without the Express app, the requests under it that Express answers (only the root not-found handler gets the Express hook): remove it or fold it into the root one, then run the stage again; the @fastify/express bridge stays until then`,
    }));
}

/**
 * Replaces the `@fastify/express` registration of buildFastify with the hook form (see the module
 * comment), adds `function expressHook` after `expressBridge` (and `fastifyNotFound` when the app
 * has no not-found handler), and drops the @fastify/express import; new code in `style`. No change
 * when the module has no such registration (converted already). The statements from the bridge to
 * the return are written again as one snippet: recast joins new statements of separate snippets on
 * one line (build-fastify.ts).
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf, when the module has no `function expressBridge` to call, or when
 *   hookBridgeRefusal gives a reason (the plan leaves such modules out)
 */
export function hookBridge(j: JSCodeshift, root: Collection, typescript: boolean, style: CodeStyle): boolean {
  const bridge = bridgeOf(j, root);
  if (!bridge) return false;
  const refusal = hookBridgeRefusal(j, root);
  if (refusal) throw new Error(`the bridge cannot move into Fastify hooks: ${refusal.reason}`);
  const build = buildFastifyOf(j, root, 'run the Express app in Fastify hooks');
  const expressBridge = root.find(j.FunctionDeclaration, { id: { name: 'expressBridge' } }).paths()[0];
  if (!expressBridge) throw new Error('the generated module has no function expressBridge for the hook to call');
  const plugin = importedLocal(j, root, '@fastify/express', { kind: 'default' });
  const text = (lines: string[]) => restyle(lines, style).replace(/\s+$/, '');
  for (const [block, call] of notFoundCalls(build)) withPreHandler(j, block, call);
  const own = !notFoundCalls(build).length;
  const body = build.body;
  const at = body.indexOf(bridge.node);
  const end = body.indexOf(build.returned);
  const lines: string[] = [];
  for (let i = at; i < end; i++) {
    // The blank lines between the statements are kept (the snippet is printed anew).
    if (i > at && firstLine(body[i]) - (body[i - 1].loc?.end.line ?? 0) > 1) lines.push('');
    if (i === at) lines.push(...declarationLines(build.app));
    else if (registersMovedRoutes(body[i], build.instance)) lines.push(...movedRoutesLines(build.instance, movedRoutesCall(j, body[i], build.instance), commentLines(body[i])));
    else lines.push(j(body[i]).toSource());
  }
  if (own) lines.push(...ownNotFoundLines(build.instance));
  // And the one before the return.
  if (end > at && firstLine(build.returned) - (body[end - 1].loc?.end.line ?? 0) > 1) lines.push('');
  body.splice(at, end - at, ...statements(j, text(lines)));
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const after = program.findIndex((s) => s === expressBridge.node || s.declaration === expressBridge.node);
  program.splice(after + 1, 0, ...statements(j, text([...expressHookLines(typescript), ...(own ? ['', ...fastifyNotFoundLines(typescript)] : [])])));
  if (plugin) removeUnusedImport(j, root, plugin);
  if (typescript) addFastifyTypes(j, root, ['FastifyReply', 'FastifyRequest', 'HookHandlerDoneFunction']);
  return true;
}

/**
 * The lines of buildFastify's registration of movedRoutes for a module whose Express app runs in
 * hooks (runsExpressInHooks), in the template's style: moved-routes.ts registers it so on a run of
 * the routes stage after this one.
 */
export function movedRoutesRegistration(instance: string, options: string | null): string[] {
  return movedRoutesLines(instance, `instance.register(movedRoutes${options ? `, ${options}` : ''})`, ["// Routes moved to Fastify (`migrate run --stage routes`): the app's Express middleware runs first for them, as it did in Express."]);
}

/** Whether the module runs the Express app in hooks already (this step ran). */
export function runsExpressInHooks(j: JSCodeshift, root: Collection): boolean {
  return root.find(j.FunctionDeclaration, { id: { name: EXPRESS_HOOK } }).size() > 0;
}

/**
 * Whether the module at `file` runs the Express app in Fastify hooks once this run of the plugins
 * stage is done: it does already, or plugins-bridge converts its bridge in this run (no bridgeKept
 * reason). What the later steps of the stage plan for.
 */
export function hookedAfterBridge(ctx: PlanContext, j: JSCodeshift, root: Collection, file: string): boolean {
  return runsExpressInHooks(j, root) || (!!bridgeOf(j, root) && !bridgeKept(ctx, j, root, file).length);
}

/** Whether `statement` is `<instance>.register(movedRoutes…);`. */
function registersMovedRoutes(statement: Node, instance: string): boolean {
  const call = callOn(statement, instance);
  return call?.method === 'register' && call.args[0]?.type === 'Identifier' && call.args[0].name === 'movedRoutes';
}

/** `instance.register(movedRoutes…)` from `<instance>.register(movedRoutes…);`. */
function movedRoutesCall(j: JSCodeshift, statement: Node, instance: string): string {
  return j(statement.expression).toSource().replace(new RegExp(`^${instance}\\.register\\(`), 'instance.register(');
}

/** The first line of `statement` in the original text, its leading comments included (Infinity for a new one). */
function firstLine(statement: Node): number {
  const lines = [statement.loc?.start.line, ...(statement.comments ?? []).filter((c: Node) => c.leading).map((c: Node) => c.loc?.start.line)].filter((n): n is number => typeof n === 'number');
  return lines.length ? Math.min(...lines) : Infinity;
}

/** The leading comments of `statement` as source lines. */
function commentLines(statement: Node): string[] {
  return (statement.comments ?? []).filter((c: Node) => c.leading).map((c: Node) => (c.type === 'CommentBlock' ? `/*${c.value}*/` : `//${c.value}`));
}

/** Whether `statement` is `<instance>.addHook('<hook>', …);`. */
function isRootHook(statement: Node, instance: string, hook: string): boolean {
  const call = callOn(statement, instance);
  return call?.method === 'addHook' && call.args[0]?.value === hook;
}

/**
 * Gives a `setNotFoundHandler` call the hook as its first preHandler (the bridge ran before the
 * handler's own preHandler option, which followed the root's hooks): `{ preHandler: throughExpress }`,
 * or `[throughExpress, …]` with a preHandler it had; its other options kept. Written again from one
 * snippet: an object added to the call would print over several lines.
 */
function withPreHandler(j: JSCodeshift, block: Node[], call: Node): void {
  const e = call.expression;
  const args: Node[] = e.arguments;
  const given = args[0]?.type === 'ObjectExpression' ? args[0] : null;
  if (given && hasHook(given)) return;
  const own = given?.properties.find((p: Node) => (p.key?.name ?? p.key?.value) === 'preHandler');
  const hooks = own ? (own.value.type === 'ArrayExpression' ? own.value.elements.map((x: Node) => j(x).toSource()) : [j(own.value).toSource()]) : [];
  const properties = [...(given?.properties ?? []).filter((p: Node) => p !== own).map((p: Node) => j(p).toSource()), `preHandler: ${hooks.length ? `[${[THROUGH_EXPRESS, ...hooks].join(', ')}]` : THROUGH_EXPRESS}`];
  const handler = args.length > (given ? 1 : 0) ? `, ${j(args[args.length - 1]).toSource()}` : '';
  const [statement] = statements(j, `${j(e.callee).toSource()}({ ${properties.join(', ')} }${handler});`);
  statement.comments = (call.comments ?? []).map((c: Node) => (c.type === 'CommentBlock' ? j.commentBlock(c.value, c.leading, c.trailing) : j.commentLine(c.value, c.leading, c.trailing)));
  block.splice(block.indexOf(call), 1, statement);
}

/** Whether an options object passes the hook already (alone or in an array). */
function hasHook(options: Node): boolean {
  const hook = options.properties.find((p: Node) => (p.key?.name ?? p.key?.value) === 'preHandler')?.value;
  const named = (n: Node) => n?.type === 'Identifier' && n.name === THROUGH_EXPRESS;
  return named(hook) || (hook?.type === 'ArrayExpression' && hook.elements.some(named));
}

/**
 * `text` (the printed module) with the shim's header brought up to date: it said the app runs at
 * @fastify/express's hook; after this step it runs at the not-found handler's. A header edited by
 * hand is left as it is.
 */
export function withHookHeader(text: string): string {
  return text.replace(HEADER_BRIDGE_LINE, HEADER_BRIDGE_LINE.replace('// of @fastify/express;', "// of Fastify's not-found handler;"));
}

/**
 * Writes the hook's declaration in buildFastify for `routes` (the plain `expressHook(app)` when
 * there are none), with `function exceptExpressFree` and `function routeKey` after `function
 * expressHook` while they are used, as this version writes them. No change when the module says
 * so already.
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf, or when buildFastify declares no `throughExpress` (the bridge
 *   step has not run on it: the plan leaves such modules out)
 */
export function listExpressFree(j: JSCodeshift, root: Collection, free: Pick<ExpressFreeRoutes, 'routes' | 'parsers'>, typescript: boolean, style: CodeStyle): boolean {
  const build = buildFastifyOf(j, root, 'list the routes that run no Express code');
  const at = build.body.findIndex((s) => declares(s, THROUGH_EXPRESS));
  if (at < 0) throw new Error(`buildFastify declares no ${THROUGH_EXPRESS} hook to list the routes that run no Express code in`);
  let from = at;
  while (from > 0 && (declares(build.body[from - 1], EXPRESS_FREE) || declares(build.body[from - 1], BODY_PARSERS))) from--;
  const text = (lines: string[]) => restyle(lines, style).replace(/\s+$/, '');
  const wanted = text(free.routes.length ? expressFreeDeclarationLines(build.app, free.parsers, free.routes, free.parsers.length) : declarationLines(build.app));
  const current = build.body.slice(from, at + 1);
  const declared = printed(j, current) !== printed(j, statements(j, wanted));
  if (declared) build.body.splice(from, at + 1 - from, ...statements(j, wanted));
  const helpers = root.find(j.FunctionDeclaration).filter((p) => p.node.id?.name === EXCEPT_EXPRESS_FREE || p.node.id?.name === ROUTE_KEY);
  if (!free.routes.length) {
    helpers.remove();
    return declared || helpers.size() > 0;
  }
  // The helpers as the template writes them (a module of an earlier version gets this version's).
  const helperText = text(exceptExpressFreeLines(typescript));
  if (printed(j, helpers.nodes()) === printed(j, statements(j, helperText))) return declared;
  helpers.remove();
  const hook = root.find(j.FunctionDeclaration, { id: { name: EXPRESS_HOOK } }).paths()[0];
  if (!hook) throw new Error(`the generated module has no function ${EXPRESS_HOOK} for ${EXCEPT_EXPRESS_FREE} to go after`);
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const after = program.findIndex((s) => s === hook.node || s.declaration === hook.node);
  program.splice(after + 1, 0, ...statements(j, helperText));
  return true;
}

