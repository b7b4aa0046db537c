/**
 * Editing `buildFastify`, the function of the generated server module (server-module/template.ts)
 * that builds the Fastify instance in front of the Express app and ends in `return fastify`.
 * Every stage edits it through this module, which finds it and its `return` one way:
 * - `registerHandler`: `fastify.setErrorHandler(h)` / `fastify.setNotFoundHandler(h)`, or a chain of
 *   error handlers run in turn (errors stage);
 * - `registerPlugin`, `movePluginRegistration`, `removePluginRegistration`: `fastify.register(p, options)`
 *   after the bridge (Express middleware still runs first for the routes it registers) or before
 *   it (it runs for the requests the bridge hands on too: plugins stage);
 * - `addHook`: `fastify.addHook('<hook>', fn)`;
 * - `registerViews`: @fastify/view as the app's Express views, at the root (errors stage);
 * - `bridgeOf`, `replaceBridge`, `removeBridge`: the `@fastify/express` registration that runs the
 *   Express app (`fastify.register(fastifyExpress, …).after(() => fastify.use(expressBridge(app)))`).
 * The moved routes' plugin (`movedRoutes`) is server-module/moved-routes.ts's.
 *
 * New statements are parsed from one snippet per place: recast keeps the line breaks inside a
 * snippet and joins nodes of separate snippets on one line.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { FastifyHook } from '../../analyzer/model.js';
import type { Node } from '../lib/ast.js';
import { addImport, addNamespaceImport, importedLocal, removeUnusedImport, type ImportRequest } from '../lib/imports.js';

type Quote = 'single' | 'double';

/** `buildFastify` as found: its statements (the array itself, to edit), its last `return <instance>` statement, and that instance's name. */
export interface BuildFastify {
  body: Node[];
  returned: Node;
  /** The name of the Fastify instance it returns (`fastify`). */
  instance: string;
  /** The name of its parameter, the Express app (`app`). */
  app: string;
}

/**
 * The generated module's `function buildFastify` and its last `return <identifier>` (statements
 * may follow it: a function declaration someone added by hand).
 * @param purpose what the caller is about to do, for the error (`register src/error.js's handler`)
 * @throws Error when the module has no `function buildFastify` ending in `return <identifier>` (it
 *   was edited by hand): what the stage moves would be taken from Express and registered nowhere
 */
export function buildFastifyOf(j: JSCodeshift, root: Collection, purpose: string): BuildFastify {
  const build = root.find(j.FunctionDeclaration, { id: { name: 'buildFastify' } }).paths()[0];
  if (!build) throw new Error(`the generated module has no function buildFastify to ${purpose} in`);
  const body: Node[] = build.node.body.body;
  const returned = [...body].reverse().find((s) => s.type === 'ReturnStatement' && s.argument?.type === 'Identifier');
  if (!returned) throw new Error(`buildFastify in the generated module does not end in \`return <fastify instance>\`, where the stage would ${purpose}`);
  const app = build.node.params[0]?.type === 'Identifier' ? build.node.params[0].name : 'app';
  return { body, returned, instance: returned.argument.name, app };
}

/** What `registerHandler` registers: the Fastify method, the handler's import, and where it came from (for the comment above the call). */
export interface HandlerRegistration {
  method: 'setErrorHandler' | 'setNotFoundHandler';
  import: ImportRequest;
  /**
   * The error handlers Express ran after it, in order (a chain: `app.use(errorConverter);
   * app.use(errorHandler)`, issue 16). Then `import` is the first, every handler but the last takes
   * Express's `next` as its fourth parameter, and the registration runs them in turn: `next(err)`
   * in one calls the next one with `err`, as Express does.
   */
  then?: ImportRequest[];
  /**
   * The app's 404 handler, which Express ran when the last error handler called `next()` (only it
   * came after; issue 16): the last handler keeps `next`, and the registration hands `next()` to it
   * and `next(err)` to Fastify's default (`reply.send(err)`), as Express's finalhandler was after
   * the shim. (Fastify's reply.callNotFound() cannot serve: requests Express answers are in its
   * 404 context already, where it sends a bare 404.)
   */
  notFound?: ImportRequest;
  /** The module is TypeScript: the chain's function gets typed parameters. */
  typescript?: boolean;
  /**
   * The handler is a package's Express error middleware that answers on Node's request and
   * response (rules/catalogue/middleware.ts `answersErrorsOnRaw`): `import` is the package's
   * factory, `args` the source of the arguments the app called it with (`{ log: false }`, or '').
   * It is registered as `fastify.setErrorHandler(expressErrorMiddleware(errorhandler(args)))`, which
   * runs it on `request.raw`/`reply.raw` after `reply.hijack()`, as it ran behind the bridge.
   */
  onRaw?: { args: string };
  /**
   * The handlers' module requires the generated module while it loads (it starts the app through
   * it), so a CommonJS generated module cannot require it back at its top: each handler is
   * required when a request comes (`(request, reply) => require('./app').notFound(request, reply)`),
   * by then the module has loaded.
   */
  lazy?: boolean;
  /**
   * The condition the app registered the handler under (lib/guard.ts, e.g.
   * `(process.env.NODE_ENV === 'development')`): the registration goes inside `if (guard) { … }`.
   */
  guard?: string;
  /**
   * Error handlers only: the app registered the handler late, inside a start-up callback
   * (lib/guard.ts registeredLate), where it now sets this Express setting (`app.enable(flag)`).
   * Fastify forbids setErrorHandler once ready, so the handler is registered at build time and
   * answers only once the flag is set; before, `reply.send(error)` gives Fastify's default
   * answer, where Express's unhandled errors went behind the shim.
   */
  flag?: string;
  /** The file the handler came from (`src/middleware/error.js`). */
  from: string;
}

/** Name of the function that runs a chain of error handlers (also how a second run recognises it). */
const CHAIN_FUNCTION = 'appErrorHandlers';

/**
 * Registers the app's error or 404 handler in `buildFastify`: imports it (reusing an import of the
 * same module; in CommonJS, `require('./errors').errorHandler` where it is registered, so the
 * handler's module loads when buildFastify runs, as late as the app loaded it), replaces a handler
 * registered for the same method before (the shim's
 * `--parity express` page), and adds `fastify.<method>(handler)` before `return fastify` — for a
 * chain (`entry.then`), `fastify.setErrorHandler(function appErrorHandlers(error, request, reply)
 * { first(error, request, reply, (err1) => second(err1, request, reply)); })`.
 * @returns whether the module changed (false when that call is there already).
 * @throws Error as buildFastifyOf
 */
export function registerHandler(j: JSCodeshift, root: Collection, entry: HandlerRegistration, quote: Quote): boolean {
  const build = buildFastifyOf(j, root, `register ${entry.from}'s handler`);
  const chain = [entry.import, ...(entry.then ?? [])];
  const imported = chain.map((imp) => importedLocal(j, root, imp.specifier, imp.form));
  // Registrations of the method at the top of buildFastify and inside its `if (guard) { … }` blocks.
  const calls = buildStatements(build).map(([, s]) => s).filter((s) => callOn(s, build.instance)?.method === entry.method);
  const q = quote === 'double' ? '"' : "'";
  // A CommonJS export key that is no identifier (`'on-error'`) is read with brackets.
  const member = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${q}${name}${q}]`);
  const requireOf = (imp: ImportRequest) => `require(${q}${imp.specifier}${q})${imp.form.kind === 'named' ? member(imp.form.name) : ''}`;
  const required = chain.map(requireOf);
  const composed = chain.length > 1 || !!entry.notFound || !!entry.flag;
  // CommonJS requires the handlers' modules when buildFastify runs, not when the generated module loads: the shim
  // requires it at the top of the file that starts the app, before the app's own set-up (models registered, …) ran.
  const atBuild = !entry.lazy && !entry.onRaw && entry.import.module === 'commonjs' && !entry.typescript;
  const byRequire = entry.lazy || atBuild;
  const sameSource = (node: Node, text: string) => j(node).toSource().replace(/"/g, "'") === text.replace(/"/g, "'");
  const registered = (s: Node) => {
    // The handler is the last argument: the plugins stage puts `{ preHandler: throughExpress }` before it.
    const arg = s.expression.arguments[s.expression.arguments.length - 1];
    if (atBuild && !composed) return !!arg && sameSource(arg, required[0]);
    if (entry.onRaw) return arg?.type === 'CallExpression' && arg.callee.type === 'Identifier' && arg.callee.name === RAW_ADAPTER && !!imported[0] && j(arg).toSource().includes(`${imported[0]}(`);
    if (composed) return arg?.type === 'FunctionExpression' && arg.id?.name === CHAIN_FUNCTION;
    return entry.lazy ? arg?.type === 'ArrowFunctionExpression' && arg.body?.type === 'CallExpression' && sameSource(arg.body.callee, required[0]) : arg?.type === 'Identifier' && arg.name === imported[0];
  };
  if ((byRequire || imported.every(Boolean)) && calls.some(registered)) return false;
  // One registered before, unconditionally (the shim's --parity express page), is replaced; the
  // options it had (the plugins stage's hook that runs the Express app for what no route matched)
  // go on the new call.
  const replaced = calls.filter((c) => build.body.includes(c));
  const options = replaced.map((c) => c.expression.arguments[0]).find((a) => a?.type === 'ObjectExpression');
  for (const call of replaced) build.body.splice(build.body.indexOf(call), 1);
  const locals = byRequire ? required : chain.map((imp, i) => imported[i] ?? addImport(j, root, imp, quote));
  const notFound = entry.notFound ? (byRequire ? requireOf(entry.notFound) : (importedLocal(j, root, entry.notFound.specifier, entry.notFound.form) ?? addImport(j, root, entry.notFound, quote))) : null;
  const comment =
    entry.method === 'setNotFoundHandler'
      ? ` The app's 404 handler (${entry.from}): requests the Express app leaves unanswered reach it through the bridge.`
      : chain.length > 1
        ? ` The app's error handlers (${entry.from}), run in turn as Express ran them: next(err) in one hands the error to the next. Errors of the routes still on Express reach them through the bridge (next(err)).`
        : ` The app's error handler (${entry.from}): errors of the routes still on Express reach it through the bridge (next(err)).`;
  if (entry.onRaw) locals[0] = `${addExpressErrorMiddleware(j, root, entry.typescript ?? false)}(${locals[0]}(${entry.onRaw.args}))`;
  const [call] =
    composed
      ? parseStatements(j, chainRegistration(build.instance, locals, entry.typescript ?? false, notFound, entry.flag ? { app: build.app, setting: entry.flag } : null))
      : entry.lazy
        ? parseStatements(j, lazyRegistration(build.instance, entry.method, locals[0], entry.typescript ?? false))
        : atBuild
          ? parseStatements(j, `${build.instance}.${entry.method}(${locals[0]});`)
          : [j.expressionStatement(j.callExpression(j.memberExpression(j.identifier(build.instance), j.identifier(entry.method)), [j.identifier(locals[0])]))];
  if (options) call.expression.arguments.unshift(options);
  const statement = entry.guard ? j.ifStatement(parseStatements(j, `${entry.guard};`)[0].expression, j.blockStatement([call])) : call;
  const when = entry.guard ? ` Registered as the app registered it: only if ${entry.guard}.` : entry.flag ? ` The app registers it in a start-up callback: it answers once ${build.app}.enable('${entry.flag}') ran there (before, Fastify's default answers).` : '';
  statement.comments = [j.commentLine(`${comment}${when}`, true, false)];
  build.body.splice(build.body.indexOf(build.returned), 0, statement);
  return true;
}

/** The adapter that runs a package's Express error middleware on Node's request and response (HandlerRegistration.onRaw). */
const RAW_ADAPTER = 'expressErrorMiddleware';

/** Adds `function expressErrorMiddleware(middleware) {…}` at the end of the module unless it is there; returns its name. */
function addExpressErrorMiddleware(j: JSCodeshift, root: Collection, typescript: boolean): string {
  if (root.find(j.FunctionDeclaration, { id: { name: RAW_ADAPTER } }).size()) return RAW_ADAPTER;
  const t = (annotation: string) => (typescript ? annotation : '');
  const text = [
    '/**',
    " * Runs a package's Express error middleware (errorhandler) as the Fastify error handler, as it ran",
    " * behind the bridge: on Node's request and response, which it answers itself.",
    ' */',
    `function ${RAW_ADAPTER}(middleware${t(': (err: any, req: any, res: any, next: (err?: unknown) => void) => void')}) {`,
    `  return function expressErrorHandler(error${t(': any')}, request${t(': FastifyRequest')}, reply${t(': FastifyReply')}) {`,
    '    reply.hijack();',
    '    // It never hands the error on; if it did, the connection is closed rather than left open.',
    '    middleware(error, request.raw, reply.raw, () => reply.raw.destroy());',
    '  };',
    '}',
  ].join('\n');
  root.find(j.Program).paths()[0].node.body.push(...parseStatements(j, text));
  return RAW_ADAPTER;
}

/** `instance.method((…) => handler(…))`: a handler required when a request comes (HandlerRegistration.lazy). */
function lazyRegistration(instance: string, method: HandlerRegistration['method'], handler: string, typescript: boolean): string {
  const t = (annotation: string) => (typescript ? annotation : '');
  const params = method === 'setErrorHandler' ? [`error${t(': any')}`, `request${t(': FastifyRequest')}`, `reply${t(': FastifyReply')}`] : [`request${t(': FastifyRequest')}`, `reply${t(': FastifyReply')}`];
  const args = method === 'setErrorHandler' ? 'error, request, reply' : 'request, reply';
  return `${instance}.${method}((${params.join(', ')}) => ${handler}(${args}));`;
}

/** `instance.setErrorHandler(function appErrorHandlers(…) { … })` running `locals` in turn (see registerHandler), behind `flag` when given (HandlerRegistration.flag). */
function chainRegistration(instance: string, locals: string[], typescript: boolean, notFound: string | null, flag: { app: string; setting: string } | null): string {
  const t = (annotation: string) => (typescript ? annotation : '');
  const last = locals.length - 1;
  const own = last === 0 ? 'error' : `err${last}`;
  // The last one's next(): the app's 404 handler; next(err): Fastify's default, where Express's final handler was after the shim.
  let call = notFound ? `${locals[last]}(${own}, request, reply, (err${last + 1}${t(': any')}) => (err${last + 1} ? reply.send(err${last + 1}) : ${notFound}(request, reply)))` : `${locals[last]}(${own}, request, reply)`;
  for (let i = last - 1; i >= 0; i--) call = `${locals[i]}(${i === 0 ? 'error' : `err${i}`}, request, reply, (err${i + 1}${t(': any')}) => ${call})`;
  // Registered late (HandlerRegistration.flag): until the app's callback set the flag, Fastify's default answers.
  // Its answer returned, so that Fastify awaits an async handler's promise.
  const gate = flag ? [`  if (!${flag.app}.enabled('${flag.setting}')) return reply.send(error);`] : [];
  return [`${instance}.setErrorHandler(function ${CHAIN_FUNCTION}(error${t(': any')}, request${t(': FastifyRequest')}, reply${t(': FastifyReply')}) {`, ...gate, `  ${flag ? 'return ' : ''}${call};`, '});'].join('\n');
}

/**
 * @fastify/view as the app's Express views, for the error and 404 handlers that render
 * (plugin-registrations/view.ts gives `imports` and `statements`, written for an instance named
 * `fastify`): the statements go before `return fastify`, at the root, so `reply.view` and
 * `reply.locals` serve every context — the moved routes' too (moved-routes.ts then adds none).
 * @returns whether the module changed (false when it imports @fastify/view already).
 * @throws Error as buildFastifyOf, or when the instance is not named `fastify`
 */
export function registerViews(j: JSCodeshift, root: Collection, views: ViewsRegistration, quote: Quote): boolean {
  const build = buildFastifyOf(j, root, 'register @fastify/view');
  if (registersViews(j, root)) return false;
  if (build.instance !== 'fastify') throw new Error(`buildFastify names its instance ${build.instance}, and the views registration is written for \`fastify\``);
  for (const i of views.imports) {
    if (i.kind === 'default') addImport(j, root, { specifier: i.from, form: { kind: 'default' }, local: i.local, module: views.module }, quote);
    else addNamespaceImport(j, root, i.local, i.from);
  }
  insertAt(build, parseStatements(j, views.statements.map((l) => inQuote(l, quote)).join('\n')), 'after-bridge', -1);
  return true;
}

/** A generated line in the file's quotes: string quotes change, a comment's apostrophes do not. */
export function inQuote(line: string, quote: Quote): string {
  return quote === 'double' && !line.trimStart().startsWith('//') ? line.replace(/'/g, '"') : line;
}

/** What registerViews writes: plugin-registrations/view.ts's imports and statements, and the module's system. */
export interface ViewsRegistration {
  imports: Array<{ local: string; from: string; kind: 'default' | 'namespace' }>;
  statements: string[];
  module: 'esm' | 'commonjs';
}

/** Whether the generated module imports @fastify/view (registered at its root by registerViews). */
export function registersViews(j: JSCodeshift, root: Collection): boolean {
  return importedLocal(j, root, '@fastify/view', { kind: 'default' }) !== null;
}

/**
 * Where a registration goes in buildFastify: `after-bridge` (before `return fastify`: in the
 * bridge's phase the Express app runs first, and what is registered here runs only for the
 * requests Express hands on — Fastify's routes) or `before-bridge` (ahead of the `@fastify/express`
 * registration: its hooks of that phase run before the Express app, for every request, those
 * Express answers too). Proved at run time in test/transforms/server-module.test.ts. Once the plugins
 * stage ran the Express app in hooks (server-module/express-hook.ts) there is no registration:
 * both go before `return`, and a hook there runs before the app for every request (the root's
 * hooks run before those of the not-found handler and of the moved routes' plugin).
 */
export type Placement = 'after-bridge' | 'before-bridge';

/** A plugin registration: the plugin's import, its options as source text (`{ origin: true }`), a comment line for above it. */
export interface PluginRegistration {
  import: ImportRequest;
  /** Source of the options object, or absent for none. */
  options?: string;
  /** One line for a `//` comment above the registration (why it is there), without the `//`. */
  comment?: string;
  placement: Placement;
}

/**
 * Adds `fastify.register(<plugin>[, <options>]);` to buildFastify at `placement`, importing the
 * plugin. A registration of the same plugin already there is left as it is (options included: a
 * second run changes nothing).
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf
 */
export function registerPlugin(j: JSCodeshift, root: Collection, entry: PluginRegistration, quote: Quote): boolean {
  const build = buildFastifyOf(j, root, `register ${entry.import.specifier}`);
  const imported = importedLocal(j, root, entry.import.specifier, entry.import.form);
  if (imported && registrationsOf(build, imported).length) return false;
  const local = imported ?? addImport(j, root, entry.import, quote);
  const q = quote === 'double' ? '"' : "'";
  const text = [...(entry.comment ? [`// ${entry.comment.replace(/'/g, q)}`] : []), `${build.instance}.register(${local}${entry.options ? `, ${entry.options}` : ''});`].join('\n');
  insertAt(build, parseStatements(j, text), entry.placement, bridgeIndex(j, root, build));
  return true;
}

/**
 * Moves the registration of the plugin imported from `specifier` to `placement`.
 * @returns whether the module changed (false when it is there already or not registered).
 * @throws Error as buildFastifyOf
 */
export function movePluginRegistration(j: JSCodeshift, root: Collection, specifier: string, placement: Placement): boolean {
  const build = buildFastifyOf(j, root, `move the registration of ${specifier}`);
  const local = importedLocal(j, root, specifier, { kind: 'default' });
  const [statement] = local ? registrationsOf(build, local) : [];
  const bridge = bridgeIndex(j, root, build);
  if (!statement || bridge < 0) return false;
  const at = build.body.indexOf(statement);
  if ((placement === 'before-bridge') === at < bridge) return false;
  build.body.splice(at, 1);
  insertAt(build, [statement], placement, bridgeIndex(j, root, build));
  return true;
}

/**
 * Deletes the registrations of the plugin imported from `specifier` (and the import, when nothing
 * else uses it).
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf
 */
export function removePluginRegistration(j: JSCodeshift, root: Collection, specifier: string): boolean {
  const build = buildFastifyOf(j, root, `remove the registration of ${specifier}`);
  const local = importedLocal(j, root, specifier, { kind: 'default' });
  const found = local ? registrationsOf(build, local) : [];
  for (const statement of found) build.body.splice(build.body.indexOf(statement), 1);
  if (found.length) removeUnusedImport(j, root, local!);
  return found.length > 0;
}

/** A hook: the Fastify hook name and the hook function's import. */
export interface HookRegistration {
  hook: FastifyHook | 'onSend' | 'onResponse' | 'onError' | 'onTimeout' | 'onRequestAbort';
  import: ImportRequest;
  placement: Placement;
}

/**
 * Adds `fastify.addHook('<hook>', <fn>);` at `placement`, importing the function; no change when
 * that hook is added already.
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf
 */
export function addHook(j: JSCodeshift, root: Collection, entry: HookRegistration, quote: Quote): boolean {
  const build = buildFastifyOf(j, root, `add the ${entry.hook} hook ${entry.import.local}`);
  const imported = importedLocal(j, root, entry.import.specifier, entry.import.form);
  const added = (s: Node) => {
    const call = callOn(s, build.instance);
    return call?.method === 'addHook' && call.args[0]?.value === entry.hook && call.args[1]?.type === 'Identifier' && call.args[1].name === imported;
  };
  if (imported && build.body.some(added)) return false;
  const local = imported ?? addImport(j, root, entry.import, quote);
  const q = quote === 'double' ? '"' : "'";
  insertAt(build, parseStatements(j, `${build.instance}.addHook(${q}${entry.hook}${q}, ${local});`), entry.placement, bridgeIndex(j, root, build));
  return true;
}

/**
 * The statement that registers `@fastify/express` (the bridge to the Express app), or null when
 * the module has none (it was removed: nothing is left on Express).
 * @throws Error as buildFastifyOf
 */
export function bridgeOf(j: JSCodeshift, root: Collection): ASTPath<Node> | null {
  const build = buildFastifyOf(j, root, 'find the @fastify/express bridge');
  const index = bridgeIndex(j, root, build);
  if (index < 0) return null;
  return root.find(j.ExpressionStatement).filter((p) => p.node === build.body[index]).paths()[0] ?? null;
}

/**
 * Replaces the bridge statement with `statements` (source text, parsed as one snippet): how a
 * stage changes where or how the Express app runs.
 * @returns whether the module changed (false without a bridge).
 * @throws Error as buildFastifyOf
 */
export function replaceBridge(j: JSCodeshift, root: Collection, statements: string): boolean {
  const build = buildFastifyOf(j, root, 'change the @fastify/express bridge');
  const index = bridgeIndex(j, root, build);
  if (index < 0) return false;
  build.body.splice(index, 1, ...parseStatements(j, statements));
  return true;
}

/**
 * Deletes the bridge statement and the `@fastify/express` import (unshim: nothing is left on Express).
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf
 */
export function removeBridge(j: JSCodeshift, root: Collection): boolean {
  const build = buildFastifyOf(j, root, 'remove the @fastify/express bridge');
  const index = bridgeIndex(j, root, build);
  if (index < 0) return false;
  const local = importedLocal(j, root, EXPRESS_PLUGIN, { kind: 'default' });
  build.body.splice(index, 1);
  if (local) removeUnusedImport(j, root, local);
  return true;
}

/** The package of the bridge. */
const EXPRESS_PLUGIN = '@fastify/express';

/** Index in buildFastify's body of the statement registering @fastify/express (`fastify.register(<its import>, …)…`), or -1. */
function bridgeIndex(j: JSCodeshift, root: Collection, build: BuildFastify): number {
  const plugin = importedLocal(j, root, EXPRESS_PLUGIN, { kind: 'default' });
  if (!plugin) return -1;
  return build.body.findIndex((s) => {
    let call = s.type === 'ExpressionStatement' ? s.expression : null;
    // `fastify.register(fastifyExpress, …).after(…)`: the register call is the callee's object.
    while (call?.type === 'CallExpression' && call.callee.type === 'MemberExpression' && call.callee.property.name !== 'register') call = call.callee.object;
    return call?.type === 'CallExpression' && call.callee.object?.name === build.instance && call.arguments[0]?.type === 'Identifier' && call.arguments[0].name === plugin;
  });
}

/** The statements of buildFastify at its top and inside its `if (…) { … }` blocks, each with the list that holds it. */
export function buildStatements(build: BuildFastify): Array<[Node[], Node]> {
  const blocks: Node[][] = [build.body, ...build.body.filter((s) => s.type === 'IfStatement' && s.consequent.type === 'BlockStatement').map((s) => s.consequent.body as Node[])];
  return blocks.flatMap((block) => block.map((s): [Node[], Node] => [block, s]));
}

/** The `<instance>.setNotFoundHandler(…);` statements among buildStatements. */
export function notFoundCalls(build: BuildFastify): Array<[Node[], Node]> {
  return buildStatements(build).filter(([, s]) => isSetNotFound(s, build.instance));
}

/** Whether `statement` is `<instance>.setNotFoundHandler(…);`. */
export function isSetNotFound(statement: Node, instance: string): boolean {
  return callOn(statement, instance)?.method === 'setNotFoundHandler';
}

/** `<instance>.<method>(…args)` when `statement` is that call as a statement of its own. */
export function callOn(statement: Node, instance: string): { method: string; args: Node[] } | null {
  return callOf(statement?.type === 'ExpressionStatement' ? statement.expression : null, instance);
}

/** callOn for the first call of a chain the statement is (`fastify.register(p).after(…)`: the register call). */
export function chainStartOn(statement: Node, instance: string): { method: string; args: Node[] } | null {
  let e = statement?.type === 'ExpressionStatement' ? statement.expression : null;
  while (e?.type === 'CallExpression' && e.callee.type === 'MemberExpression' && e.callee.object.type === 'CallExpression') e = e.callee.object;
  return callOf(e, instance);
}

/** `<instance>.<method>(…args)` when `e` is that call. */
function callOf(e: Node | null, instance: string): { method: string; args: Node[] } | null {
  if (e?.type !== 'CallExpression' || e.callee.type !== 'MemberExpression' || e.callee.object.type !== 'Identifier' || e.callee.object.name !== instance) return null;
  return { method: e.callee.property.name, args: e.arguments };
}

/** The statements of buildFastify that register `local` (`fastify.register(local, …)`). */
function registrationsOf(build: BuildFastify, local: string): Node[] {
  return build.body.filter((s) => {
    const call = callOn(s, build.instance);
    return call?.method === 'register' && call.args[0]?.type === 'Identifier' && call.args[0].name === local;
  });
}

function insertAt(build: BuildFastify, statements: Node[], placement: Placement, bridge: number): void {
  const at = placement === 'before-bridge' && bridge >= 0 ? bridge : build.body.indexOf(build.returned);
  build.body.splice(at, 0, ...statements);
}

function parseStatements(j: JSCodeshift, text: string): Node[] {
  return j(text).find(j.Program).paths()[0].node.body;
}
