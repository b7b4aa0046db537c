/**
 * What the generated server module's `movedRoutes` plugin must contain so that moved routes
 * render (`reply.view`, transforms/handler-rewrite/view-render.ts) exactly as the app's Express views did:
 * @fastify/view registered with the app's engine, views directory, locals and caching.
 *
 * The registration reads the Express app itself (`app`, which `buildFastify(app)` has), so it
 * holds what Express uses at run time, whatever the code that set it:
 * - `root: app.get('views')`: Express's views directory (its default `path.resolve('views')` too);
 * - `defaultContext: app.locals`: @fastify/view merges it under each render's data, as Express
 *   merges app.locals first (the object itself, so later changes show);
 * - `reply.locals` reads Express's `res.locals` (a getter on `reply.raw.locals`, which the app's
 *   middleware filled in the @fastify/express bridge): @fastify/view renders
 *   `Object.assign({}, defaultContext, reply.locals, data)`, Express's app.locals < res.locals < locals
 *   (express 4.x/5.x lib/application.js `render`). Declaring `locals` first also keeps @fastify/view
 *   from adding its own (index.js: only when `hasReplyDecorator('locals')` is false).
 * - `viewExt` when the app's extension is not the engine's name (`app.engine('html', ejs.renderFile)`);
 * - `production: app.enabled('view cache')` when the app sets 'view cache' (otherwise both cache
 *   exactly when NODE_ENV is production);
 * - `options`: what Express's engine compiles with besides the data: ejs reads
 *   `app.get('view options')`, and both engines read app.locals named like their compile options
 *   (`app.locals.pretty = true` for pug), see rules/catalogue/view-engines.ts.
 * Probed byte for byte on the url-shortener (pug) and legacy-cjs (ejs) views (view-engines.ts).
 *
 * It refuses what one registration cannot reproduce: no engine, several engines, an engine whose
 * rendering was not probed, a views setting that is not one string (Express tries each directory
 * of an array; @fastify/view takes arrays for nunjucks only), a custom 'view' class, or a 'view
 * engine' not known statically.
 *
 * Scope: the app's own routes and its routers. A sub-app (`express()` mounted in the app) renders
 * with its own locals and settings; its rendering routes are the caller's to keep on Express.
 */
import type { Inventory, Setting, ViewEngine } from '../../analyzer/model.js';
import { isVersioned, versionOf } from '../../rules/catalogue/versions.js';
import { VIEW_ENGINES, type ViewEngineFacts } from '../../rules/catalogue/view-engines.js';
import { identifierNames } from '../lib/ast.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import { RENDER_LIKE_EXPRESS } from '../handler-rewrite/view-render.js';

/** What `viewRegistration` reads. */
export interface ViewsInput {
  /** The app whose moved routes render (an inventory app id). */
  appId: string;
  /** The inventory's records; those of `appId` are read. */
  inventory: Pick<Inventory, 'viewEngines' | 'settings'>;
  /** The generated server module: TypeScript gets namespace imports of the engines and a typed getter. (Its module system and path change nothing here: the imports' form is the caller's, and the views directory comes from the app at run time.) */
  server: { typescript: boolean };
  /** The expression for the Express app where the statements run: movedRoutes must have it in scope (default `app`). */
  app?: string;
  /** Names already bound in the server module: the imports take free names (`fastifyView2`, …). */
  taken?: ReadonlySet<string>;
  /** The app's middleware replaces Express's res.render (`file:line` of each): the registration adds reply.renderLikeExpress (RENDER_LIKE_EXPRESS). */
  renderReplacedAt?: string[];
}

/** One import the statements use: `kind` default (`import x from` / `const x = require(…)`) or namespace (`import * as x from`). */
export interface ViewImport {
  local: string;
  from: string;
  kind: 'default' | 'namespace';
}

/**
 * The registration, or why none is exact. `statements` are source lines at the statement level
 * of movedRoutes' body (the caller indents them), single quotes, 2-space indentation inside,
 * to go before the routers' registrations; `renderLikeExpress` the lines of the reply decorator
 * that renders through the app's replacement of res.render (ViewsInput.renderReplacedAt), after
 * them, also where the views are registered already, and in TypeScript `renderLikeExpressType` the
 * lines of its type (a `declare module 'fastify'` at the top level of the server module, after its
 * imports); `dependencies` are package.json additions (package →
 * range, rules/catalogue/versions.ts): @fastify/view, and the engine's `@types` in TypeScript. The
 * engine package stays the app's own dependency.
 */
export type ViewRegistration = { imports: ViewImport[]; statements: string[]; renderLikeExpress?: string[]; renderLikeExpressType?: string[]; dependencies: Record<string, string> } | { refuse: string };

/**
 * viewRegistration for the app whose generated server module is `server`, read through the plan's
 * parsed files: the names that module binds are taken (the routes stage puts the statements in its
 * movedRoutes, the errors stage at the root of its buildFastify).
 */
export function viewRegistrationIn(parsed: ParsedFiles, server: { file: string; typescript: boolean }, input: Pick<ViewsInput, 'appId' | 'inventory' | 'renderReplacedAt'>): ViewRegistration {
  const module = parsed(server.file);
  return viewRegistration({ ...input, server: { typescript: server.typescript }, taken: module ? identifierNames(module.j, module.root) : new Set() });
}

/** Settings Express's rendering reads (express 4.x/5.x lib/application.js `render`, lib/view.js). */
const VIEW_SETTINGS = new Set(['view engine', 'views', 'view', 'view cache', 'view options']);

/** The registration of @fastify/view for the moved routes of `input.appId` (see the module comment). */
export function viewRegistration(input: ViewsInput): ViewRegistration {
  const settings = input.inventory.settings.filter((s) => s.appId === input.appId && s.ownerId === input.appId);
  const engine = engineOf(input.inventory.viewEngines.filter((v) => v.appId === input.appId), settings);
  if ('refuse' in engine) return engine;
  const problem = settingsProblem(settings);
  if (problem) return { refuse: problem };
  const app = input.app ?? 'app';
  const taken = new Set(input.taken ?? []);
  const view = freeName('fastifyView', taken);
  const engineLocal = freeName(engine.facts.package, taken);
  const options = engineOptions(engine.facts, settings, app);
  const register = [
    `fastify.register(${view}, {`,
    `  engine: { ${engineLocal === engine.facts.package ? engineLocal : `${engine.facts.package}: ${engineLocal}`} },`,
    `  root: ${app}.get('views'),`,
    ...(engine.ext !== engine.facts.defaultExtension ? [`  viewExt: '${engine.ext}',`] : []),
    `  defaultContext: ${app}.locals,`,
    ...(settings.some((s) => s.key === 'view cache' && s.kind !== 'read') ? [`  production: ${app}.enabled('view cache'),`] : []),
    ...(options.length ? [`  options: { ${options.join(', ')} },`] : []),
    '});',
  ];
  return {
    imports: [
      { local: view, from: '@fastify/view', kind: 'default' },
      // TypeScript without esModuleInterop has no default import of a CommonJS module (the shim's rule, transforms/server-module/template.ts).
      { local: engineLocal, from: engine.facts.package, kind: input.server.typescript ? 'namespace' : 'default' },
    ],
    statements: [
      `// res.render: @fastify/view renders the app's Express views (${engine.facts.package}, ${app}.get('views')) with`,
      "// app.locals < res.locals (Express's, filled by the app's middleware in the bridge) < the view's locals, as Express did.",
      ...localsGetter(input.server.typescript),
      ...register,
    ],
    ...(input.renderReplacedAt?.length ? { renderLikeExpress: renderLikeExpress(input.renderReplacedAt, input.server.typescript) } : {}),
    ...(input.renderReplacedAt?.length && input.server.typescript ? { renderLikeExpressType: RENDER_LIKE_EXPRESS_TYPE } : {}),
    dependencies: dependenciesOf(engine.facts, input.server.typescript),
  };
}

/** The app's one engine and extension, or why it has none @fastify/view reproduces. */
function engineOf(records: ViewEngine[], settings: Setting[]): { facts: ViewEngineFacts; ext: string } | { refuse: string } {
  const viewEngine = settings.filter((s) => s.key === 'view engine' && s.kind === 'set');
  if (viewEngine.some((s) => s.resolution !== 'exact' || typeof s.value !== 'string')) return { refuse: "the app's 'view engine' is known only at run time" };
  if (records.length === 0) return { refuse: "the app sets no 'view engine': Express picks the engine from each view's extension" };
  if (records.length > 1) return { refuse: `the app has several view engines (${records.map((r) => r.ext).join(', ')}); one @fastify/view registration renders with one` };
  const [record] = records;
  const facts = record.engine ? VIEW_ENGINES[record.engine] : undefined;
  if (!facts) return { refuse: `the app renders '.${record.ext}' views with ${record.engine ? `'${record.engine}'` : 'an engine function the codemod does not know'}; only ${Object.keys(VIEW_ENGINES).join(' and ')} were checked to render the same through @fastify/view` };
  return { facts, ext: record.ext };
}

/** Why the app's view settings cannot be given to @fastify/view, or null. */
function settingsProblem(settings: Setting[]): string | null {
  const set = settings.filter((s) => VIEW_SETTINGS.has(s.key) && s.kind === 'set');
  if (set.some((s) => s.key === 'view')) return "the app sets a custom 'view' class, which decides how Express finds and renders views";
  const views = set.filter((s) => s.key === 'views');
  // `path.join(__dirname, 'views')` / `path.resolve(…)` is one directory even when the analysis cannot fold it
  // (an ESM `__dirname` of its own); the registration reads app.get('views') at run time.
  // Nor is a concatenation with a string literal (`config.root + '/app/views'`): `+` with a string gives a string.
  const oneDirectory = (s: Setting) => (s.resolution === 'exact' && typeof s.value === 'string') || /^path\.(join|resolve)\(/.test(s.raw.trim()) || /\+\s*['"`]|['"`]\s*\+/.test(s.raw);
  if (!views.every(oneDirectory)) {
    return views.some((s) => Array.isArray(s.value))
      ? "the app's 'views' is a list of directories (Express tries each; @fastify/view takes one for ejs and pug)"
      : "the app's 'views' is not known statically to be one directory";
  }
  return null;
}

/**
 * The entries of @fastify/view's `options` (engine compile options), as source: ejs gets the
 * app's 'view options' (ejs 3 `renderFile` copies `settings['view options']`), then each
 * app.locals key the engine reads as an option (later wins, as in ejs's `shallowCopyFromList`;
 * pug compiles with the merged locals).
 */
function engineOptions(facts: ViewEngineFacts, settings: Setting[], app: string): string[] {
  const out: string[] = [];
  if (facts.readsViewOptions && settings.some((s) => s.key === 'view options' && s.kind === 'set')) out.push(`...${app}.get('view options')`);
  const keys = new Set(settings.filter((s) => s.kind === 'locals' && facts.options.includes(s.key)).map((s) => s.key));
  for (const key of [...keys].sort()) out.push(`${key}: ${app}.locals.${key}`);
  return out;
}

/** @fastify/view, and in TypeScript the engine's types (the engine package itself is the app's already). */
function dependenciesOf(facts: ViewEngineFacts, typescript: boolean): Record<string, string> {
  const types = `@types/${facts.package}`;
  return { '@fastify/view': versionOf('@fastify/view'), ...(typescript && isVersioned(types) ? { [types]: versionOf(types) } : {}) };
}

/**
 * `reply.renderLikeExpress(view, locals)` for moved routes while the app's middleware (at `where`)
 * replaces Express's res.render on the requests it runs for: the replacement (which adds to the
 * view's locals, then calls Express's own render) runs on Express's response, as in Express, with a
 * callback — Express's res.render hands the HTML to it (express 4.x/5.x lib/response.js `render`) —
 * that sends the HTML as Express's res.send typed it, or the error to Fastify's error handler
 * (Express's render called next(err)). A request the middleware did not run for renders with
 * reply.view. TypeScript: typed parameters (`this` the reply; Node's ServerResponse has no render,
 * so Express's response is read through a cast), and the own-property test in ES5's form (the
 * app's `lib` may predate Object.hasOwn); the decorator's type is RENDER_LIKE_EXPRESS_TYPE.
 */
function renderLikeExpress(where: string[], typescript: boolean): string[] {
  const t = (annotation: string) => (typescript ? annotation : '');
  return [
    `// The app's middleware replaces Express's res.render (${where.join(', ')}): moved routes render through that`,
    "// replacement on Express's response where it ran for the request, as Express did, and send the HTML it gives.",
    `fastify.decorateReply('${RENDER_LIKE_EXPRESS}', function (${t('this: FastifyReply, ')}view${t(': string')}, locals${t('?: object')}) {`,
    '  const reply = this;',
    typescript ? "  if (!Object.prototype.hasOwnProperty.call(reply.raw, 'render')) return reply.view(view, locals);" : "  if (!Object.hasOwn(reply.raw, 'render')) return reply.view(view, locals);",
    `  ${typescript ? '(reply.raw as any)' : 'reply.raw'}.render(view, locals, (err${t(': Error | null')}, html${t(': string')}) => (err ? reply.send(err) : reply.type('text/html; charset=utf-8').send(html)));`,
    '  return reply;',
    '});',
  ];
}

/**
 * The type of reply.renderLikeExpress for the TypeScript handlers that call it: Fastify's way to
 * type a reply decorator is to merge it into FastifyReply (Fastify docs, TypeScript "Plugins";
 * @fastify/view declares `reply.view` so), at the top level of the server module, which the app's
 * compilation includes with its other sources.
 */
const RENDER_LIKE_EXPRESS_TYPE = [
  "// reply.renderLikeExpress (registered in movedRoutes) for the moved handlers that render through the app's",
  "// replacement of Express's res.render.",
  "declare module 'fastify' {",
  '  interface FastifyReply {',
  `    ${RENDER_LIKE_EXPRESS}(view: string, locals?: object): FastifyReply;`,
  '  }',
  '}',
];

/** `reply.locals` as Express's `res.locals` (module comment); TypeScript reads it through a cast (Node's ServerResponse has no locals). */
function localsGetter(typescript: boolean): string[] {
  const read = typescript ? '(this.raw as { locals?: object }).locals' : 'this.raw.locals';
  return ["fastify.decorateReply('locals', {", '  getter() {', `    return ${read};`, '  },', '});'];
}

/** `base`, or `base2`, `base3`, … when taken; the name is then taken. */
function freeName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  taken.add(name);
  return name;
}
