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
 * (`done(err)`) — as @fastify/express's hook did. The analyzer reads this form as the same bridge
 * (analyzer/fastify-api.ts addHook, setNotFoundHandler; fixture K8).
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { removeUnusedImport, importedLocal } from '../lib/imports.js';
import { addFastifyTypes } from '../lib/type-imports.js';
import { buildFastifyOf, bridgeOf } from './build-fastify.js';
import { statements } from './hand-over.js';

type Quote = 'single' | 'double';

/** The name of the hook buildFastify makes (`const throughExpress = expressHook(app)`). */
export const THROUGH_EXPRESS = 'throughExpress';
/** The function that makes it. */
export const EXPRESS_HOOK = 'expressHook';

/** What hookBridge needs of the module. */
export interface HookBridgeFacts {
  typescript: boolean;
}

/**
 * Replaces the `@fastify/express` registration of buildFastify with the hook form (see the module
 * comment), adds `function expressHook` after `expressBridge`, and drops the @fastify/express
 * import. No change when the module has no such registration (converted already).
 * New statements that end up next to each other are parsed from one snippet: recast joins new
 * statements of separate snippets on one line (build-fastify.ts).
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf, or when the module has no `function expressBridge` to call
 */
export function hookBridge(j: JSCodeshift, root: Collection, facts: HookBridgeFacts, quote: Quote): boolean {
  const bridge = bridgeOf(j, root);
  if (!bridge) return false;
  const build = buildFastifyOf(j, root, 'run the Express app in Fastify hooks');
  const expressBridge = root.find(j.FunctionDeclaration, { id: { name: 'expressBridge' } }).paths()[0];
  if (!expressBridge) throw new Error('the generated module has no function expressBridge for the hook to call');
  const q = quote === 'double' ? '"' : "'";
  const plugin = importedLocal(j, root, '@fastify/express', { kind: 'default' });
  const body = build.body;
  const at = body.indexOf(bridge.node);
  const end = body.indexOf(build.returned);
  const calls = notFoundCalls(body, build.instance);
  // Fastify's own 404 with the hook when no handler of the app's is registered at the top: before the first conditional one.
  const ownAt = calls.some(([block]) => block === body) ? -1 : calls.length ? body.findIndex((s) => s.consequent?.body === calls[0][0]) : end;
  // From the bridge to the return, written again as one snippet (see the function comment).
  const lines: string[] = [];
  for (let i = at; i < end; i++) {
    const s = body[i];
    if (i === ownAt) lines.push(...OWN_NOT_FOUND(build.instance));
    if (i === at) lines.push(...DECLARATION(build.app));
    else if (registersMovedRoutes(s, build.instance)) lines.push(...wrapped(j, s, build.instance, q));
    else {
      for (const [block, call] of calls) if (block === body ? call === s : s.consequent?.body === block) withPreHandler(j, block, call);
      lines.push(j(body[i]).toSource());
    }
  }
  if (ownAt === end) lines.push(...OWN_NOT_FOUND(build.instance));
  const own = ownAt >= 0;
  body.splice(at, end - at, ...statements(j, lines.join('\n')));
  // Before the bridge (a module edited by hand): in place.
  for (const [block, call] of notFoundCalls(body, build.instance)) if (!hasHook(call)) withPreHandler(j, block, call);
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const after = program.findIndex((s) => s === expressBridge.node || s.declaration === expressBridge.node);
  program.splice(after + 1, 0, ...statements(j, [expressHookSource(facts.typescript), ...(own ? ['', fastifyNotFoundSource(facts.typescript)] : [])].join('\n')));
  if (plugin) removeUnusedImport(j, root, plugin);
  if (facts.typescript) addFastifyTypes(j, root, ['FastifyReply', 'FastifyRequest', 'HookHandlerDoneFunction']);
  return true;
}

/** Whether a setNotFoundHandler call passes the hook already. */
function hasHook(call: Node): boolean {
  const options = call.expression.arguments[0];
  return options?.type === 'ObjectExpression' && options.properties.some((p: Node) => p.key?.name === 'preHandler' && p.value?.name === THROUGH_EXPRESS);
}

/** `const throughExpress = expressHook(app);` with why, where the registration was. */
const DECLARATION = (app: string) => [
  '// The Express app runs only where it still answers (`migrate run --stage plugins`): in the',
  '// preHandler of the not-found handler, for the requests Fastify has no route for, and of the',
  '// routes moved off Express whose requests still pass its middleware (movedRoutes).',
  `const ${THROUGH_EXPRESS} = ${EXPRESS_HOOK}(${app});`,
];

/** Fastify's own 404, with the hook, for an app that has no not-found handler of its own (fastifyNotFound). */
const OWN_NOT_FOUND = (instance: string) => [
  "// Fastify's own 404 for what the Express app leaves unanswered (the app has no handler of its own).",
  `${instance}.setNotFoundHandler({ preHandler: ${THROUGH_EXPRESS} }, ${FASTIFY_NOT_FOUND});`,
];

/** The function that answers as Fastify's own not-found handler does. */
const FASTIFY_NOT_FOUND = 'fastifyNotFound';

/** The lines of `fastify.register(movedRoutes[, options]);` inside a plugin whose preHandler runs the Express app first, its comments kept. */
function wrapped(j: JSCodeshift, statement: Node, instance: string, q: string): string[] {
  const inner = j(statement.expression).toSource().replace(new RegExp(`^${instance}\\.register\\(`), 'instance.register(');
  const comments = (statement.comments ?? []).filter((c: Node) => c.leading).map((c: Node) => (c.type === 'CommentBlock' ? `/*${c.value}*/` : `//${c.value}`));
  return [
    ...comments,
    `${instance}.register(function expressMiddlewareFirst(instance, _options, done) {`,
    `  instance.addHook(${q}preHandler${q}, ${THROUGH_EXPRESS});`,
    `  ${inner};`,
    '  done();',
    '});',
  ];
}

/** Whether `statement` is `<instance>.register(movedRoutes…);`. */
function registersMovedRoutes(statement: Node, instance: string): boolean {
  const e = statement?.type === 'ExpressionStatement' ? statement.expression : null;
  return e?.type === 'CallExpression' && e.callee.type === 'MemberExpression' && e.callee.object.name === instance && e.callee.property.name === 'register' && e.arguments[0]?.type === 'Identifier' && e.arguments[0].name === 'movedRoutes';
}

/** The `<instance>.setNotFoundHandler(…);` statements of buildFastify, at its top and in its `if` blocks, each with the statement list that holds it. */
function notFoundCalls(body: Node[], instance: string): Array<[Node[], Node]> {
  const blocks: Node[][] = [body, ...body.filter((s) => s.type === 'IfStatement' && s.consequent.type === 'BlockStatement').map((s) => s.consequent.body as Node[])];
  return blocks.flatMap((b) => b.filter((s) => isSetNotFound(s, instance)).map((s): [Node[], Node] => [b, s]));
}

/**
 * Gives a `setNotFoundHandler` call the hook as its preHandler. Without one at the top of
 * buildFastify, hookBridge adds `setNotFoundHandler({ preHandler: throughExpress })` before the
 * first conditional one (or the return): a later call with a handler replaces it, with its own
 * options (four-oh-four.js `_setNotFoundHandler`), so each carries the hook.
 */
function withPreHandler(j: JSCodeshift, body: Node[], call: Node): void {
  const e = call.expression;
  const args: Node[] = e.arguments;
  const hook = `preHandler: ${THROUGH_EXPRESS}`;
  const options = args.length === 2 && args[0].type === 'ObjectExpression' ? `{ ${[...args[0].properties.map((p: Node) => j(p).toSource()), hook].join(', ')} }` : `{ ${hook} }`;
  const handler = args.length ? j(args[args.length - 1]).toSource() : null;
  // Written again from one snippet: an object added to the call would print over several lines.
  const [statement] = statements(j, `${j(e.callee).toSource()}(${[options, ...(handler && args[args.length - 1].type !== 'ObjectExpression' ? [handler] : [])].join(', ')});`);
  statement.comments = (call.comments ?? []).map((c: Node) => (c.type === 'CommentBlock' ? j.commentBlock(c.value, c.leading, c.trailing) : j.commentLine(c.value, c.leading, c.trailing)));
  body.splice(body.indexOf(call), 1, statement);
}

/** `<instance>.setNotFoundHandler(…);` */
function isSetNotFound(s: Node, instance: string): boolean {
  const e = s?.type === 'ExpressionStatement' ? s.expression : null;
  return e?.type === 'CallExpression' && e.callee.type === 'MemberExpression' && e.callee.object.name === instance && e.callee.property.name === 'setNotFoundHandler';
}

/**
 * `text` (the printed module) with the shim's header brought up to date: it said the app runs at
 * @fastify/express's hook; after this step it runs at the not-found handler's. A header edited by
 * hand is left as it is.
 */
export function withHookHeader(text: string): string {
  return text.replace('// of @fastify/express; later stages move the routes, error handlers and middleware into Fastify.', "// of Fastify's not-found handler; later stages move the routes, error handlers and middleware into Fastify.");
}

/** The text of `function expressHook` (the module comment says what it does). */
export function expressHookSource(typescript: boolean): string {
  const t = (annotation: string) => (typescript ? annotation : '');
  return [
    '/**',
    " * The Express app as a Fastify hook (`migrate run --stage plugins`, in place of @fastify/express): a",
    ' * request the app answers ends there; one it leaves goes on to Fastify, an error to its error handler.',
    ' */',
    `function ${EXPRESS_HOOK}(app${t(': ExpressApp')}) {`,
    '  const bridge = expressBridge(app);',
    `  return function ${THROUGH_EXPRESS}(request${t(': FastifyRequest')}, reply${t(': FastifyReply')}, done${t(': HookHandlerDoneFunction')}) {`,
    `    bridge(request.raw, reply.raw, done${t(' as (error?: unknown) => void')});`,
    '  };',
    '}',
  ].join('\n');
}

/**
 * The text of `function fastifyNotFound`: Fastify's default not-found answer (fastify 5
 * lib/four-oh-four.js `basic404`), for the handler that carries the hook. Fastify's types take no
 * `setNotFoundHandler(options)` without a handler, though Fastify itself does.
 */
function fastifyNotFoundSource(typescript: boolean): string {
  const t = (annotation: string) => (typescript ? annotation : '');
  return [
    "/** Fastify's own 404 answer (its basic404), for the requests neither Fastify nor the Express app answers. */",
    `function ${FASTIFY_NOT_FOUND}(request${t(': FastifyRequest')}, reply${t(': FastifyReply')}) {`,
    '  const { url, method } = request.raw;',
    "  reply.code(404).send({ message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 });",
    '}',
  ].join('\n');
}

/** Whether the module runs the Express app in hooks already (this step ran). */
export function runsExpressInHooks(j: JSCodeshift, root: Collection): boolean {
  return root.find(j.FunctionDeclaration, { id: { name: EXPRESS_HOOK } }).size() > 0;
}

