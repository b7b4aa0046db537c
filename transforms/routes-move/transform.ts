/**
 * The `routes-move` transform, a recipe over the file's plan entries:
 *   1. find every planned node by its anchor, before anything changes;
 *   2. rewrite the handlers to (request, reply) — defined ones in place, inline ones before they move;
 *   3. build each moved route's `fastify.<method>(path, { preHandler: [...] }, handler)`;
 *   4. delete the Express registrations, unwrap the wrappers that only forwarded rejections, mark
 *      the routes that stay with a TODO(migrate);
 *   5. add the routes to the file's plugin (written at the end of the file and exported), or register
 *      the plugins in the generated server module, or write the hooks module;
 *   6. imports (adapters, Fastify types, what the rewrite needs); print in the file's style.
 * A planned node that is not found, or a rewrite that is no longer complete, throws: the runner then
 * writes nothing of the stage, so no route is ever half moved.
 */
import type { API, ASTPath, Collection, FileInfo, JSCodeshift } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { printEdited, RECAST_PARSE_TAB_WIDTH } from '../lib/print.js';
import { detectStyle, type CodeStyle } from '../lib/style.js';
import { addImport, importedSpecifiers, removeUnusedImport } from '../lib/imports.js';
import { complete, planHandlerRewrite, type HandlerOptions } from '../handler-rewrite/rewrite.js';
import { findByAnchor, notFound } from '../lib/anchor.js';
import { addTodo } from '../lib/todo.js';
import { functionPaths, jFor, pathsOfType, statementPaths, type Node } from '../lib/ast.js';
import type { TypeImport } from '../handler-rewrite/types.js';
import { addFastifyTypes, addTypeImports, dropUnusedImports } from '../lib/type-imports.js';
import { hooksModule, lacksChains, withChains, withHandOver, withNotFound } from '../server-module/hooks-template.js';
import { keepNotFoundHandler } from '../server-module/not-found-after-next.js';
import { addHandOver } from '../server-module/hand-over.js';
import { addMethodOverride } from '../server-module/method-override.js';
import { hasLikeExpressFunctions, likeExpressModule } from '../server-module/like-express-template.js';
import type { PluginEntry, RoutesEntry } from './model.js';
import { TODO_PREFIX } from './left.js';
import { registerPlugins } from '../server-module/moved-routes.js';
import { handRoutes } from './start-file.js';
import { tableLoop } from './route-table.js';
import { registrarCall, registrarRewrite } from './registrars.js';
import { routeLines } from './route-lines.js';
import { movedHandler } from './unwrap.js';
import { HAND_ROUTES } from '../../analyzer/generated.js';

/**
 * jscodeshift transform of `routes-move`: the new source, or null when nothing changes.
 * @throws Error when a planned node is not found or a planned rewrite no longer converts completely
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<RoutesEntry>): string | null {
  const entries = options.plan?.entries ?? [];
  if (!entries.length) return null;
  const style = detectStyle(file.source, file.path);
  const hooks = entries.find((e) => e.kind === 'hooks-module');
  // Written once; a later run adds what a route it moves needs: expressChain, the hand-over's functions, notFoundAfterNext.
  if (hooks) {
    if (!file.source.trim()) return hooksModule(hooks, style);
    const chained = lacksChains(hooks, file.source) ? withChains(hooks, file.source, style) : file.source;
    const handed = hooks.handOver ? (withHandOver(chained, hooks, style) ?? chained) : chained;
    const ending = hooks.notFound ? (withNotFound(handed, hooks, style) ?? handed) : handed;
    return ending === file.source ? null : ending;
  }
  const likeExpress = entries.find((e) => e.kind === 'like-express-module');
  if (likeExpress) return hasLikeExpressFunctions(file.source) ? null : likeExpressModule(likeExpress);

  const j = jFor(file.path);
  const root = j(file.source);
  const functions = functionPaths(j, root);
  const statements = root.find(j.Statement).paths();
  const types = new Set<string>();
  const dropped = new Set<string>();
  const needs: Array<{ local: string; from: string }> = [];
  const typeImports: TypeImport[] = [];
  const steps: Array<() => boolean> = [];
  // The local name of the hooks module's movedToFastify, once imported (below).
  let handOverName = 'movedToFastify';
  // Functions of the generated fastify-like-express module the rewrites call, by specifier.
  const likeImports = entries.flatMap((e) => ((e.kind === 'rewrite' || e.kind === 'plugin') && e.likeExpress ? [{ ...e.likeExpress, module: e.module }] : []));

  for (const entry of entries) {
    if (entry.kind === 'rewrite') {
      const fn = findByAnchor(functions, entry.fn) ?? notFound(file.path, 'the handler to rewrite', entry.fn);
      const rewrite = complete(planHandlerRewrite(j, fn, withHelperSet(entry.options, entry.helpers)), file.path, entry.fn);
      rewrite.types.forEach((t) => types.add(t));
      rewrite.droppedTypes.forEach((t) => dropped.add(t));
      needs.push(...rewrite.imports);
      typeImports.push(...rewrite.typeImports);
      steps.unshift(() => (rewrite.apply(), true));
    }
  }
  // One plugin per router: a file with two routers gets two.
  const plugins = entries.filter((e): e is PluginEntry => e.kind === 'plugin');
  for (const plugin of plugins) {
    const routes = plugin.routes.map((route) => {
      if ('loop' in route) {
        // A loop over a route table moves whole; its registration call is rewritten in it (route-table.ts).
        const loop = tableLoop(j, statements, file.path, route);
        steps.unshift(() => (loop.rewrite(), true));
        return { route, handler: loop.statement };
      }
      if ('index' in route) {
        // A registrar's call moves whole, `fastify` given in place of the router (registrars.ts).
        const call = registrarCall(j, statements, file.path, route);
        steps.unshift(() => (call.rewrite(), true));
        return { route, handler: call.statement };
      }
      if ('reference' in route.handler) return { route, handler: null as Node };
      const fn = findByAnchor(functions, route.handler.inline) ?? notFound(file.path, 'the inline handler to move', route.handler.inline);
      const rewrite = complete(planHandlerRewrite(j, fn, withHelperSet(route.handler.options, route.handler.helpers)), file.path, route.handler.inline);
      rewrite.types.forEach((t) => types.add(t));
      rewrite.droppedTypes.forEach((t) => dropped.add(t));
      needs.push(...rewrite.imports);
      typeImports.push(...rewrite.typeImports);
      steps.unshift(() => (rewrite.apply(), true));
      return { route, handler: movedHandler(fn, route.handler.options) };
    });
    let errorHandler: Node = null;
    // (A second run adds to an existing plugin: its routes only, the error handler came the first time.)
    if (plugin.errorHandler && 'inline' in plugin.errorHandler) {
      const fn = findByAnchor(functions, plugin.errorHandler.inline) ?? notFound(file.path, "the router's error handler to move", plugin.errorHandler.inline);
      const rewrite = complete(planHandlerRewrite(j, fn, plugin.errorHandler.options), file.path, plugin.errorHandler.inline);
      rewrite.types.forEach((t) => types.add(t));
      rewrite.droppedTypes.forEach((t) => dropped.add(t));
      steps.unshift(() => (rewrite.apply(), true));
      errorHandler = fn.node;
    } else if (plugin.errorHandler) errorHandler = j.identifier(plugin.errorHandler.reference);
    steps.push(() => addRoutes(j, root, plugin, routes, errorHandler, style.indent));
    if (plugin.typescript) types.add('FastifyInstance');
  }
  for (const entry of entries) {
    if (entry.kind === 'unregister') {
      const statement = findByAnchor(statements, entry.statement) ?? notFound(file.path, 'the registration to delete', entry.statement);
      steps.push(() => (statement.prune(), true));
    } else if (entry.kind === 'name-callback') {
      const statement = findByAnchor(statements, entry.statement) ?? notFound(file.path, 'the param callback to name', entry.statement);
      steps.unshift(() => nameCallback(j, statement, entry.name));
    } else if (entry.kind === 'todo') {
      const statement = findByAnchor(statements, entry.statement);
      if (statement) steps.push(() => addTodo(j, statement, entry.reason, TODO_PREFIX));
    } else if (entry.kind === 'hand-over') {
      const statement = findByAnchor(statements, entry.statement) ?? notFound(file.path, 'the registration to hand over', entry.statement);
      steps.push(() => handOver(j, statement, handOverName));
    } else if (entry.kind === 'registrar') {
      const registrar = registrarRewrite(j, functions, statements, file.path, entry);
      for (const r of registrar.handlers) {
        const rewrite = complete(planHandlerRewrite(j, r.fn, withHelperSet(r.options, r.helpers)), file.path, r.anchor);
        rewrite.types.forEach((t) => types.add(t));
        rewrite.droppedTypes.forEach((t) => dropped.add(t));
        needs.push(...rewrite.imports);
        typeImports.push(...rewrite.typeImports);
        steps.unshift(() => (rewrite.apply(), true));
      }
      for (const loop of registrar.loops) steps.unshift(() => (loop(), true));
      registrar.dropped.forEach((t) => dropped.add(t));
      steps.push(registrar.apply);
      if (entry.typescript) types.add('FastifyInstance');
    } else if (entry.kind === 'register') {
      steps.push(() => registerPlugins(j, root, entry, style.quote));
      if (entry.handOver) steps.push(() => addHandOver(j, root, { module: entry.module, hooksSpecifier: entry.hooksSpecifier }, style.quote));
      if (entry.notFoundAfterNext) steps.push(() => keepNotFoundHandler(j, root, style.quote));
      const override = entry.methodOverride;
      if (override) steps.push(() => addMethodOverride(j, root, override, style.quote));
      if (entry.typescript) types.add('FastifyInstance');
      if (entry.typescript && (entry.handed || entry.handedByApp)) types.add('FastifyPluginCallback');
    }
  }

  // Wrappers that only forwarded rejections go (unwrap.ts): the call gives way to its argument, the import goes once unused.
  const unwrapped = new Set<string>();
  for (const entry of entries) {
    if (entry.kind !== 'unwrap') continue;
    if (entry.local) unwrapped.add(entry.local);
    if (!entry.call) continue;
    const call = findByAnchor(pathsOfType(j, root, 'CallExpression'), entry.call) ?? notFound(file.path, 'the wrapper call to unwrap', entry.call);
    steps.push(() => (call.replace(call.node.arguments[0]), true));
  }

  const handed = entries.filter((e) => e.kind === 'hand-routes');
  if (handed.length) steps.push(() => handRoutes(j, root, handed, style.quote, file.path));

  const importsBefore = importedSpecifiers(j, root);
  // What the rewrites call (`encodeUrl`), imported under the name they use — before they use it,
  // so the name is still free.
  const module = plugins[0]?.module ?? entries.find((e) => e.kind === 'rewrite' || e.kind === 'registrar')?.module ?? 'esm';
  // Each package once, under the name the rewrites use (two rewrites of one file need it once).
  const needed = new Map(needs.filter((n) => !importsBefore.has(n.from)).map((n) => [n.from, n]));
  for (const need of needed.values()) addImport(j, root, { specifier: need.from, form: { kind: 'default' }, local: need.local, module }, style.quote);
  const likeAdded = addLikeExpressImports(j, root, likeImports, style.quote);
  const adapters = new Map([...plugins, ...entries.filter((e) => e.kind === 'registrar')].flatMap((p) => (p.adapters ? p.adapters.names.map((name) => [name, p] as const) : [])));
  const locals = new Map([...adapters].map(([name, p]) => [name, addImport(j, root, { specifier: p.adapters!.specifier, form: { kind: 'named', name }, local: name, module: p.module }, style.quote)]));
  handOverName = locals.get('movedToFastify') ?? 'movedToFastify';
  // A registrar that stays hands its plugin over through the server module (server-module/handed-routes.ts).
  // (The file that starts the app imports the server module already, for buildFastify: handRoutes joins that import.)
  const handing = plugins.find((p) => p.nested && !importsName(j, root, HAND_ROUTES));
  if (handing) addImport(j, root, { specifier: handing.nested!.specifier, form: { kind: 'named', name: HAND_ROUTES }, local: HAND_ROUTES, module: handing.module }, style.quote);
  let changed = needed.size > 0 || adapters.size > 0 || likeAdded || !!handing;
  for (const step of steps) changed = step() || changed;
  if (!changed) return null;
  for (const local of unwrapped) removeUnusedImport(j, root, local);
  addFastifyTypes(j, root, [...types]);
  addTypeImports(j, root, typeImports);
  dropUnusedImports(j, root, [...dropped]);
  const printed = printEdited(j, root, file.source, style, importsBefore);
  // recast puts an appended plugin (or movedRoutes, or the method override's functions) right under the statement before it (two of them on one line): a blank line sets each apart.
  const eol = style.eol;
  // Two requires added to a file that had none come out on one line (recast joins nodes of separate snippets): one a line.
  return printed
    .replace(/([^\r\n])[ \t]*(\r?\n)?(\/\*\*\r?\n \* (?:Fastify routes of the Express |The routes moved off Express,|Where overrideMethodForRouting keeps))/g, (_, end: string, _nl: string, doc: string) => `${end}${eol}${eol}${doc}`)
    .replace(/(= require\([^()\r\n]*\);)(const \{)/g, `$1${eol}$2`);
}

/**
 * Adds the routes to the plugin function `plugin.name`, written at the end of the file with its
 * export when a former run did not write it. New code is parsed from one snippet (recast keeps the
 * line breaks inside a snippet); inline handlers and the router's error handler take the place of
 * placeholders in it as nodes, so recast keeps their own text.
 */
function addRoutes(j: JSCodeshift, root: Collection, plugin: PluginEntry, routes: Array<{ route: PluginEntry['routes'][number]; handler: ASTPath<Node> | null }>, errorHandler: Node, indent: CodeStyle['indent']): boolean {
  const loops = new Map<string, Node>();
  const existing = (plugin.nested ? root.find(j.FunctionExpression, { id: { name: plugin.name } }) : root.find(j.FunctionDeclaration, { id: { name: plugin.name } })).paths()[0]?.node;
  const placeholders = new Map<string, Node>();
  const lines: string[] = [];
  // Names the file already uses, for the consts of handlers shared by several forms of one route.
  const taken = new Set<string>();
  root.find(j.Identifier).forEach((p) => void taken.add(p.node.name));
  if (errorHandler) {
    // The router's error middleware becomes the plugin's error handler (its routes only: encapsulation).
    lines.push('fastify.setErrorHandler(MIGRATE_ERROR_HANDLER);');
    placeholders.set('MIGRATE_ERROR_HANDLER', errorHandler);
  }
  routes.forEach(({ route, handler }, i) => {
    // A loop over a route table, or a registrar's call, moves in as a whole statement.
    if ('loop' in route || 'index' in route) {
      lines.push(...route.comments, `MIGRATE_LOOP_${i};`);
      loops.set(`MIGRATE_LOOP_${i}`, handler!.node);
      return;
    }
    const target = 'reference' in route.handler ? route.handler.reference : `MIGRATE_HANDLER_${i}`;
    if (handler) placeholders.set(target, handler.node);
    lines.push(...route.comments);
    // Express 5 optional groups: one Fastify route per form, sharing an inline handler (a const in the plugin, named apart from the file's names).
    let shared: string | null = null;
    if (handler && route.paths.length > 1) {
      const base: string = handler.node.id?.name ?? 'handler';
      let name = base;
      for (let k = 2; taken.has(name) && name !== handler.node.id?.name; k++) name = `${base}${k}`;
      taken.add(name);
      shared = name;
    }
    lines.push(...routeLines('fastify', route, target, shared));
  });
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  // Statements that will hold a whole handler get a blank line between them (a comment stays on its statement).
  const spaced = placeholders.size || loops.size ? lines.flatMap((l, i) => (i && !/^\s*(\/\/|\/\*| \*)/.test(lines[i - 1]) ? ['', l] : [l])) : lines;
  if (existing) existing.body.body.push(...j(spaced.join('\n')).find(j.Program).paths()[0].node.body);
  else if (plugin.nested) handPluginOver(j, root, plugin, inBody(spaced, indent));
  else program.push(...j(pluginText(plugin, inBody(spaced, indent))).find(j.Program).paths()[0].node.body);
  root
    .find(j.Identifier)
    .filter((p) => placeholders.has(p.node.name))
    .forEach((p) => void p.replace(placeholders.get(p.node.name)));
  root
    .find(j.ExpressionStatement, { expression: { type: 'Identifier' } })
    .filter((p) => loops.has((p.node.expression as Node).name))
    .forEach((p) => void p.replace(loops.get((p.node.expression as Node).name)));
  return true;
}

/** Whether the file imports `name` (`import { name } from …`, `const { name } = require(…)`). */
function importsName(j: JSCodeshift, root: Collection, name: string): boolean {
  if (root.find(j.ImportSpecifier, { imported: { name } }).size()) return true;
  return root
    .find(j.VariableDeclarator, { init: { type: 'CallExpression', callee: { type: 'Identifier', name: 'require' } } })
    .filter((d) => d.node.id.type === 'ObjectPattern' && (d.node.id.properties as Node[]).some((p) => p.key?.name === name))
    .size() > 0;
}

/**
 * The plugin of a registrar that stays (registrars.ts nestedOf), defined at its end (before a final
 * `return`) and handed over when it runs: `handRoutes(app, function <name>(fastify) {…});`.
 * @throws Error when the registrar is not where the plan found it
 */
function handPluginOver(j: JSCodeshift, root: Collection, plugin: PluginEntry, lines: string[]): void {
  const nested = plugin.nested!;
  const fn = nested.inLoop
    ? (findByAnchor(statementPaths(j, root), nested.fn) ?? notFound(plugin.name, 'the loop to hand its routes over from', nested.fn))
    : (findByAnchor(functionPaths(j, root), nested.fn) ?? notFound(plugin.name, 'the registrar to hand its routes over from', nested.fn));
  const param = plugin.typescript ? 'fastify: FastifyInstance' : 'fastify';
  const text = [
    nested.inLoop
      ? `// Its routes, on Fastify (\`migrate run --stage routes\`): handed to the server on each pass of the loop, which stays.`
      : `// Its routes that read its variables, on Fastify (\`migrate run --stage routes\`): handed to the server when it runs.`,
    `${HAND_ROUTES}(${nested.receiver}, function ${plugin.name}(${param}) {`,
    ...lines,
    '});',
  ].join('\n');
  // A loop's body: `for (…) {…}`, or the block of the callback of `table.forEach(…)`.
  const holder = nested.inLoop ? (fn.node.type === 'ForOfStatement' ? fn.node : fn.node.expression.arguments[0]) : fn.node;
  const body: Node[] = holder.body.body;
  const last = body[body.length - 1];
  body.splice(last?.type === 'ReturnStatement' ? body.length - 1 : body.length, 0, ...j(text).find(j.Program).paths()[0].node.body);
}

/** The plugin's declaration with its doc comment and export (ESM `export function`; CommonJS a `module.exports.<name> =` line after it). */
function pluginText(plugin: PluginEntry, lines: string[]): string {
  const param = plugin.typescript ? 'fastify: FastifyInstance' : 'fastify';
  return [
    '/**',
    ...(plugin.handed
      ? [
          ` * Fastify routes of the Express ${plugin.of}, written by \`migrate run --stage routes\`. This file hands`,
          " * the plugin to buildFastify, whose server registers it under the router's mount path (prefix),",
          " * after the bridge: the app's Express middleware still runs first for these routes, as it did in Express.",
        ]
      : [
          ` * Fastify routes of the Express ${plugin.of}, written by \`migrate run --stage routes\`. The server the`,
          " * shim generated registers this plugin under the router's mount path (prefix), after the bridge:",
          " * the app's Express middleware still runs first for these routes, as it did in Express.",
        ]),
    ' */',
    `${plugin.module === 'esm' && !plugin.handed ? 'export ' : ''}function ${plugin.name}(${param}) {`,
    ...lines,
    '}',
    ...(plugin.module === 'esm' || plugin.handed ? [] : ['', `module.exports.${plugin.name} = ${plugin.name};`]),
  ].join('\n');
}

/**
 * `lines` (written with two spaces a level) as the body of a function: two spaces a level, or in a
 * tab-indented file a tab a level, written as RECAST_PARSE_TAB_WIDTH spaces, which the print turns
 * into a tab (lib/print.ts), so that a handler recast moves in keeps its own lines' depth under it
 * (express-es6-rest-api's tabs came out `\t  reply.send(…)`, which its ESLint rejects as mixed).
 */
function inBody(lines: string[], indent: CodeStyle['indent']): string[] {
  const unit = ' '.repeat(indent.tabs ? RECAST_PARSE_TAB_WIDTH : 2);
  return lines.map((l) => {
    if (!l) return '';
    const depth = l.length - l.trimStart().length;
    return unit.repeat(1 + Math.floor(depth / 2)) + ' '.repeat(depth % 2) + l.trimStart();
  });
}

/**
 * The registration of moved routes as their hand-over: each method's functions (and the route
 * middleware before them) replaced by `name` (the hooks module's movedToFastify), the path kept —
 * `router.get('/:id', movedToFastify)`, `router.route('/x').get(movedToFastify).post(movedToFastify)`.
 * Its leading comments went with the routes into the plugin (a former TODO(migrate) goes).
 */
function handOver(j: JSCodeshift, statement: ASTPath<Node>, name: string): boolean {
  const verb = statement.node.expression;
  // `router.get(path, …)` keeps its path, as a new call: recast would keep the line breaks of the arguments it had.
  if (verb.callee.object.type === 'Identifier') statement.node.expression = j.callExpression(verb.callee, [verb.arguments[0], j.identifier(name)]);
  // A verb of a route() chain takes the functions only; the chain keeps its lines.
  else for (let call = verb; call?.type === 'CallExpression' && call.callee.type === 'MemberExpression' && call.callee.property.name !== 'route'; call = call.callee.object) call.arguments = [j.identifier(name)];
  statement.node.comments = (statement.node.comments ?? []).filter((c: Node) => !c.leading);
  return true;
}

/** `X.param('id', fn)` with `fn` written inline → `const <name> = fn;` above it and `X.param('id', <name>)`. */
function nameCallback(j: JSCodeshift, statement: ASTPath<Node>, name: string): boolean {
  const call = statement.node.expression;
  const fn = call.arguments[1];
  // Built, not parsed from a snippet: a snippet's positions next to the file's own confuse recast's spacing.
  const declaration = j.variableDeclaration('const', [j.variableDeclarator(j.identifier(name), fn)]);
  call.arguments[1] = j.identifier(name);
  const body: Node[] = statement.parent.node.body;
  body.splice(body.indexOf(statement.node), 0, declaration);
  return true;
}

/**
 * Imports the fastify-like-express functions the rewrites call, under their own names (the plan
 * refused a file that binds one of them otherwise), each once; those a former run imported stay.
 * @returns whether an import was added
 * @throws Error when a name is taken after all (the file changed since the plan)
 */
function addLikeExpressImports(j: JSCodeshift, root: Collection, imports: Array<{ specifier: string; names: string[]; module: 'esm' | 'commonjs' }>, quote: 'single' | 'double'): boolean {
  const bound = new Set<string>();
  root.find(j.ImportSpecifier).forEach((p) => void bound.add(String((p.node.local as Node)?.name ?? '')));
  root.find(j.VariableDeclarator, { id: { type: 'ObjectPattern' }, init: { callee: { name: 'require' } } }).forEach((p) => (p.node.id as Node).properties.forEach((q: Node) => q.value?.type === 'Identifier' && bound.add(q.value.name)));
  let added = false;
  for (const i of imports) {
    for (const name of i.names) {
      if (bound.has(name)) continue;
      const local = addImport(j, root, { specifier: i.specifier, form: { kind: 'named', name }, local: name, module: i.module }, quote);
      if (local !== name) throw new Error(`the name ${name} is taken in the file, where the rewrite calls the generated fastify-like-express module's ${name}; did the file change since the plan?`);
      bound.add(name);
      added = true;
    }
  }
  return added;
}

/** The options with the helpers a function may hand `request` to, as the Set the rewrite takes. */
function withHelperSet(options: HandlerOptions, helpers: string[] | undefined): HandlerOptions {
  return helpers?.length ? { ...options, helpers: new Set(helpers) } : options;
}
