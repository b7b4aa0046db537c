/**
 * The generated server module (`fastify-server.*`) learns the moved routes: a `movedRoutes`
 * plugin, registered in `buildFastify` before `return fastify` (so after the bridge, whose Express
 * middleware then runs first for them, as it did in Express), that registers each router's plugin
 * under each of its mount paths (`prefix`) — a router mounted twice is one plugin registered twice.
 *
 * New statements are parsed from one snippet per place (imports, registrations): recast keeps the
 * line breaks between nodes of one snippet, and joins nodes of separate snippets on one line.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { importedLocal } from '../lib/imports.js';
import { movedRoutesRegistration, runsExpressInHooks } from './express-hook.js';
import { buildFastifyOf, inQuote, registersViews } from './build-fastify.js';
import { RENDER_LIKE_EXPRESS } from '../handler-rewrite/view-render.js';
import { addHandRoutes, HANDED_BY_APP_LOOP, registersHandedByApp } from './handed-routes.js';

type Quote = 'single' | 'double';

/** What the routes stage registers in the generated server module. */
export interface MovedRoutesRegistration {
  /** Each router's plugin: its name, its import from the server module, the prefixes it is registered under, the file it is in. */
  plugins: Array<{ name: string; specifier: string; prefixes: string[]; from: string }>;
  module: 'esm' | 'commonjs';
  typescript: boolean;
  /** Specifier of the generated hooks module from the server module. */
  hooksSpecifier: string;
  /**
   * @fastify/view, registered in movedRoutes as the app's Express views (plugin-registrations/view.ts),
   * when a moved route renders: its imports and statements. movedRoutes then takes the Express app
   * (`fastify.register(movedRoutes, { app })`).
   */
  views?: { imports: Array<{ local: string; from: string; kind: 'default' | 'namespace' }>; statements: string[]; renderLikeExpress?: string[]; renderLikeExpressType?: string[] };
  /**
   * A file that starts the app registers routes of its own: it hands their plugins to buildFastify
   * (start-file.ts), since the module importing them back would be a cycle. buildFastify then takes
   * `{ routes }` and movedRoutes registers each `{ plugin, prefix }` of it with the others.
   */
  handed?: boolean;
  /**
   * The app's Express middleware that replaces `req.query` in the bridge, as a comment names it
   * (routes-move/query-hand-over.ts): movedRoutes then hands Express's query to `request.query`.
   */
  queryFrom?: string;
  /**
   * A function of the app hands over routes that read its variables when it runs (handed-routes.ts):
   * the module gains `handRoutes`, and movedRoutes takes the Express app and registers what was handed.
   */
  handedByApp?: boolean;
  /**
   * A moved route's handler is a package's Express function (routes-move/package-handler.ts): buildFastify
   * keeps the app's not-found handler for the hooks module's notFoundAfterNext (not-found-after-next.ts).
   */
  notFoundAfterNext?: boolean;
}

/**
 * Adds what `entry` registers; no change for registrations already there.
 * @returns whether the module changed.
 * @throws Error when the module has no `function buildFastify` returning its instance (edited by hand)
 */
export function registerPlugins(j: JSCodeshift, root: Collection, entry: MovedRoutesRegistration, quote: Quote): boolean {
  const q = quote === 'double' ? '"' : "'";
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const taken = new Set<string>();
  root.find(j.Identifier).forEach((p) => void taken.add(p.node.name));
  const imports: ImportLine[] = [];
  const localOf = (name: string, specifier: string) => {
    const existing = imports.find((i) => i.name === name && i.specifier === specifier) ?? importedLocal(j, root, specifier, { kind: 'named', name });
    if (existing) return typeof existing === 'string' ? existing : existing.local;
    let local = name;
    for (let i = 2; taken.has(local); i++) local = `${name}${i}`;
    taken.add(local);
    imports.push({ name, local, specifier, kind: 'named' });
    return local;
  };
  const moved = root.find(j.FunctionDeclaration, { id: { name: 'movedRoutes' } }).paths()[0]?.node;
  const body = moved ? null : { parser: localOf('bodyLeftToExpress', entry.hooksSpecifier), hook: localOf('bodyLikeExpress', entry.hooksSpecifier) };
  const lines: string[] = [];
  // CommonJS requires each router's module where movedRoutes registers it, when Fastify loads its plugins: a require at the
  // top would load it with the generated module, which the shim requires before the app's own set-up ran. An import of
  // an earlier run is kept.
  const pluginRef = (name: string, specifier: string) =>
    importedLocal(j, root, specifier, { kind: 'named', name }) ?? (entry.module === 'commonjs' && !entry.typescript ? `require(${q}${specifier}${q}).${name}` : localOf(name, specifier));
  for (const plugin of entry.plugins) {
    const local = pluginRef(plugin.name, plugin.specifier);
    for (const prefix of plugin.prefixes) {
      const text = prefix ? `fastify.register(${local}, { prefix: ${q}${prefix}${q} });` : `fastify.register(${local});`;
      if (!moved || !moved.body.body.some((s: Node) => j(s).toSource() === text)) lines.push(text);
    }
  }
  // @fastify/view as the app's Express views, once, when a moved route renders (plugin-registrations/view.ts).
  // Not when the errors stage registered it at the root for a rendering error or 404 handler (build-fastify.ts registerViews): it serves movedRoutes too.
  const views = entry.views && !registersViews(j, root) && !(moved && j(moved).toSource().includes("decorateReply('locals'")) ? entry.views : null;
  for (const i of views?.imports ?? []) imports.push({ name: i.local, local: i.local, specifier: i.from, kind: i.kind });
  // reply.renderLikeExpress once, also where the errors stage registered the views at the root (it reads reply.view).
  const decorator = entry.views?.renderLikeExpress && !j(root.find(j.Program).paths()[0]).toSource().includes(`decorateReply('${RENDER_LIKE_EXPRESS}'`) && !j(root.find(j.Program).paths()[0]).toSource().includes(`decorateReply("${RENDER_LIKE_EXPRESS}"`) ? entry.views.renderLikeExpress : [];
  const viewLines = [...(views?.statements ?? []), ...decorator].map((l) => inQuote(l, quote));
  const handing = !!entry.handed && !(moved && takes(moved, 'routes'));
  const query = entry.queryFrom && !(moved && handsQuery(j, moved)) ? queryHandOver(entry, q) : null;
  if (query && moved) {
    // After the body hand-over of a former run, as a first run writes it.
    const at = moved.body.body.findIndex((st: Node) => /addHook\([^,]+, bodyLikeExpress\w*\)/.test(j(st).toSource()));
    moved.body.body.splice(at + 1, 0, ...j(query).find(j.Program).paths()[0].node.body);
  }
  if (handing) lines.push(...HANDED_LOOP);
  const byApp = !!entry.handedByApp && !(moved && registersHandedByApp(j, moved));
  if (byApp) lines.push(...HANDED_BY_APP_LOOP);
  if (!lines.length && !viewLines.length && !query && moved) return false;
  if (!moved) addMovedRoutes(j, root, entry, body!, [...(query ? query.split('\n') : []), ...viewLines, ...lines], q, { app: !!views || byApp, routes: handing });
  else {
    if (viewLines.length) {
      const at = moved.body.body.findIndex((st: Node) => /\.register\(/.test(j(st).toSource()));
      moved.body.body.splice(at < 0 ? moved.body.body.length : at, 0, ...j(viewLines.join('\n')).find(j.Program).paths()[0].node.body);
    }
    if (lines.length) moved.body.body.push(...j(lines.join('\n')).find(j.Program).paths()[0].node.body);
    if (viewLines.length || handing || byApp) takeOptions(j, root, moved, entry, { app: viewLines.length > 0 || byApp || takes(moved, 'app'), routes: handing || takes(moved, 'routes') });
  }
  if (byApp) addHandRoutes(j, root, entry.module, entry.typescript);
  if (handing) takeHandedRoutes(j, root, entry);
  // The decorator's type (TypeScript) goes at the top level, after the imports.
  const types = decorator.length && entry.views?.renderLikeExpressType ? entry.views.renderLikeExpressType.map((l) => inQuote(l, quote)) : [];
  if (imports.length || types.length) insertAfterImports(j, program, [...(imports.length ? [importsText(entry, imports, q)] : []), ...(types.length ? ['', ...types] : [])].join('\n'));
  return true;
}

/**
 * The preHandler hook of movedRoutes that gives the moved routes Express's `req.query`: the app's
 * middleware (`entry.queryFrom`) replaced it in the bridge, after Fastify parsed `request.query`.
 * It runs after the bridge and before the routes' own hooks, like bodyLikeExpress.
 */
function queryHandOver(entry: MovedRoutesRegistration, q: string): string {
  return [
    "// The app's Express middleware replaces req.query after Fastify parsed its own: the moved handlers",
    `// read Express's, as they did on Express (${entry.queryFrom}).`,
    `fastify.addHook(${q}preHandler${q}, (request, _reply, done) => {`,
    `  request.query = ${entry.typescript ? '(request.raw as any)' : 'request.raw'}.query;`,
    '  done();',
    '});',
  ].join('\n');
}

/** Whether movedRoutes (of a former run) hands Express's query to the moved routes already. */
function handsQuery(j: JSCodeshift, moved: Node): boolean {
  return moved.body.body.some((st: Node) => /request\.query = \(?request\.raw\b/.test(j(st).toSource()));
}

/** The statements of movedRoutes that register the plugins the file starting the app handed to buildFastify. */
const HANDED_LOOP = [
  "// The routes of the file that starts the app, which hands their plugins to buildFastify (imported here, they",
  '// would be a cycle).',
  'for (const { plugin, prefix } of routes) fastify.register(plugin, { prefix });',
];

/** The type of the handed routes in TypeScript: each plugin under its prefix. */
const HANDED_TYPE = 'Array<{ plugin: FastifyPluginCallback; prefix?: string }>';

/** Which options movedRoutes takes (its second parameter's properties). */
interface MovedRoutesOptions {
  /** The Express app, when it registers the app's views or what functions of the app handed over. */
  app: boolean;
  /** The plugins the file starting the app handed to buildFastify. */
  routes: boolean;
}

/** Whether movedRoutes (of a former run) takes option `name` in its second parameter. */
function takes(moved: Node, name: keyof MovedRoutesOptions): boolean {
  const pattern = moved.params[1];
  return pattern?.type === 'ObjectPattern' && pattern.properties.some((p: Node) => p.key?.name === name);
}

/** One import the module gains: a named import (`{ name as local }`), a default or a namespace. */
interface ImportLine {
  name: string;
  local: string;
  specifier: string;
  kind: 'named' | 'default' | 'namespace';
}

/**
 * movedRoutes of a former run takes `options` now (the Express app once it registers the views, the
 * handed routes): its second parameter and the options of its registration in buildFastify are
 * written again with them.
 */
function takeOptions(j: JSCodeshift, root: Collection, moved: Node, entry: MovedRoutesRegistration, options: MovedRoutesOptions): void {
  moved.params.splice(1, 1, j(`function f(${optionsParam(entry, options)}) {}`).find(j.FunctionDeclaration).paths()[0].node.params[0]);
  root
    .find(j.CallExpression, { callee: { property: { name: 'register' } } })
    .filter((p) => (p.node.arguments[0] as Node)?.type === 'Identifier' && (p.node.arguments[0] as Node).name === 'movedRoutes')
    .forEach((p) => void p.node.arguments.splice(1, 1, j(`x(${optionsObject(options)})`).find(j.ObjectExpression).paths()[0].node));
}

/** The second parameter of movedRoutes for `options` (`{ app, routes }`, typed in TypeScript). */
function optionsParam(entry: MovedRoutesRegistration, options: MovedRoutesOptions): string {
  const names = optionNames(options);
  if (!entry.typescript) return `{ ${names.join(', ')} }`;
  const types = { app: 'app: ExpressApp', routes: `routes: ${HANDED_TYPE}` };
  return `{ ${names.join(', ')} }: { ${names.map((n) => types[n]).join('; ')} }`;
}

/** `{ app, routes }` as movedRoutes' registration passes them. */
function optionsObject(options: MovedRoutesOptions): string {
  return `{ ${optionNames(options).join(', ')} }`;
}

function optionNames(options: MovedRoutesOptions): Array<keyof MovedRoutesOptions> {
  return (['app', 'routes'] as const).filter((n) => options[n]);
}

/**
 * buildFastify takes the routes the file starting the app hands it — a second parameter
 * `{ routes = [] } = {}` — when it does not yet.
 */
function takeHandedRoutes(j: JSCodeshift, root: Collection, entry: MovedRoutesRegistration): void {
  const build = root.find(j.FunctionDeclaration, { id: { name: 'buildFastify' } }).paths()[0];
  if (!build || build.node.params.length > 1) return;
  const param = entry.typescript ? `{ routes = [] }: { routes?: ${HANDED_TYPE} } = {}` : '{ routes = [] } = {}';
  build.node.params.push(j(`function f(app, ${param}) {}`).find(j.FunctionDeclaration).paths()[0].node.params[1]);
}

/** The text of the imports (ESM) or requires (CommonJS) the module gains, one a line. */
function importsText(entry: MovedRoutesRegistration, imports: ImportLine[], q: string): string {
  return imports
    .map((i) => {
      const from = `${q}${i.specifier}${q}`;
      if (i.kind === 'namespace') return `import * as ${i.local} from ${from};`;
      if (i.kind === 'default') return entry.module === 'esm' ? `import ${i.local} from ${from};` : `const ${i.local} = require(${from});`;
      const binding = i.name === i.local ? i.name : entry.module === 'esm' ? `${i.name} as ${i.local}` : `${i.name}: ${i.local}`;
      return entry.module === 'esm' ? `import { ${binding} } from ${from};` : `const { ${binding} } = require(${from});`;
    })
    .join('\n');
}

/**
 * The statements of `text` after the module's last import (`import`, `const x = require(…)`,
 * TypeScript's `import x = require(…)`), in one snippet: recast keeps its line breaks.
 */
function insertAfterImports(j: JSCodeshift, program: Node[], text: string): void {
  const isImport = (s: Node) => s.type === 'ImportDeclaration' || s.type === 'TSImportEqualsDeclaration' || (s.type === 'VariableDeclaration' && s.declarations.some((d: Node) => d.init?.type === 'CallExpression' && d.init.callee.name === 'require'));
  let last = -1;
  program.forEach((s, i) => {
    if (isImport(s)) last = i;
  });
  program.splice(last + 1, 0, ...j(text).find(j.Program).paths()[0].node.body);
}

/** `function movedRoutes(fastify) {…}` before the module's exports, and its registration in buildFastify. */
function addMovedRoutes(j: JSCodeshift, root: Collection, entry: MovedRoutesRegistration, body: { parser: string; hook: string }, registrations: string[], q: string, options: MovedRoutesOptions): void {
  const given = optionNames(options).length > 0;
  const { body: statements, instance, returned } = buildFastifyOf(j, root, 'register the moved routes');
  // After the plugins stage the Express app runs in Fastify hooks: its preHandler comes first in a plugin around movedRoutes.
  const hooked = runsExpressInHooks(j, root);
  const register = j(
    (hooked
      ? movedRoutesRegistration(instance, given ? optionsObject(options) : null).map((line) => line.replace(/'preHandler'/, `${q}preHandler${q}`))
      : [
          '// Routes moved to Fastify (`migrate run --stage routes`), after the bridge: the app\'s Express',
          '// middleware runs first for them, as it did in Express.',
          `${instance}.register(movedRoutes${given ? `, ${optionsObject(options)}` : ''});`,
        ]
    ).join('\n'),
  )
    .find(j.Program)
    .paths()[0].node.body;
  statements.splice(statements.indexOf(returned), 0, ...register);
  const t = (s: string) => (entry.typescript ? s : '');
  const fn = j(
    [
      '/**',
      ' * The routes moved off Express, each router as a plugin under its mount path (prefix). Their bodies',
      " * are parsed by the app's Express body parsers in the bridge, in the app's middleware order, and",
      ' * handed to their handlers as request.body, until the plugins stage moves body parsing to Fastify.',
      ' */',
      `function movedRoutes(fastify${t(': FastifyInstance')}${given ? `, ${optionsParam(entry, options)}` : ''}) {`,
      '  fastify.removeAllContentTypeParsers();',
      `  fastify.addContentTypeParser(${q}*${q}, ${body.parser});`,
      `  fastify.addHook(${q}preHandler${q}, ${body.hook});`,
      ...registrations.map((r) => `  ${r}`),
      '}',
    ].join('\n'),
  )
    .find(j.Program)
    .paths()[0].node.body;
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const exportsAt = program.findIndex((s: Node) => s.type === 'ExpressionStatement' && /module\.exports\s*=/.test(j(s).toSource()));
  if (exportsAt >= 0) program.splice(exportsAt, 0, ...fn);
  else program.push(...fn);
}

/**
 * movedRoutes no longer takes option `name` (its statements that read it moved, root-views.ts):
 * the property leaves its second parameter (and that parameter's type in TypeScript) and the
 * options of its registration; a parameter or options object left empty goes too.
 */
export function dropMovedRoutesOption(j: JSCodeshift, root: Collection, name: keyof MovedRoutesOptions): void {
  const moved = root.find(j.FunctionDeclaration, { id: { name: 'movedRoutes' } }).paths()[0]?.node;
  const pattern = moved?.params[1];
  if (pattern?.type !== 'ObjectPattern') return;
  pattern.properties = pattern.properties.filter((p: Node) => p.key?.name !== name);
  const literal = pattern.typeAnnotation?.typeAnnotation;
  if (literal?.type === 'TSTypeLiteral') literal.members = literal.members.filter((m: Node) => m.key?.name !== name);
  if (!pattern.properties.length) moved.params.splice(1, 1);
  root
    .find(j.CallExpression, { callee: { property: { name: 'register' } } })
    .filter((p) => (p.node.arguments[0] as Node)?.type === 'Identifier' && (p.node.arguments[0] as Node).name === 'movedRoutes')
    .forEach((p) => {
      const options = p.node.arguments[1] as Node | undefined;
      if (options?.type !== 'ObjectExpression') return;
      options.properties = options.properties.filter((o: Node) => o.key?.name !== name);
      if (!options.properties.length) p.node.arguments.splice(1, 1);
    });
}
