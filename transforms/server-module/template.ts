/**
 * The text of the module the `shim` stage generates next to the file that listens: Fastify in
 * front of the untouched Express app. Why each piece is there was measured (docs/design/shim-bridge.md):
 * - `@fastify/express` at the `preHandler` hook, with a bridge function that undoes what the plugin
 *   sets on the raw request and response (its own Express 5 prototypes, `res.send` answering as
 *   text/plain, decoded `req.url`, Fastify's `req.ip`/`hostname`), so the app's own Express major
 *   answers exactly as before — the plugin ≥ 4.0.5 runs Express 5 and `fastify.use(app)` would
 *   re-prototype an Express 4 app (issue 7).
 * - Fastify leaves the body stream unread for requests Express answers (its own body parsers read
 *   it in the bridge, and their errors reach the app's error middleware as before); routes that
 *   move to Fastify later get their bodies parsed by the app's own parsers.
 * - `rewriteUrl` routes an undecodable URL (`/%zz`) escaped instead of Fastify's 400, and the bridge
 *   gives Express the URL as it came: Express answered it before, and what it leaves goes to Fastify's
 *   not-found and error handlers like any other request (so the handlers the errors stage moves apply).
 * - `listen(fastify, ...args)` takes `app.listen`'s arguments unchanged: same port, host (all
 *   interfaces when none, as Express; Fastify's own `listen` would default to localhost),
 *   callback and returned `http.Server`.
 */
import { SHIM_MARK } from '../../analyzer/generated.js';
import type { ParityPolicy } from '../model.js';
import { restyle, type CodeStyle as Style } from '../lib/style.js';

/** What the generated module depends on; all of it read from the inventory by `plan.ts`. */
export interface ServerFacts {
  module: 'esm' | 'commonjs';
  typescript: boolean;
  /** TypeScript that tsc compiles to CommonJS (the analyzer's moduleSystem of the file that starts the app): a called CommonJS package is imported with `import x = require(…)`. */
  compiledToCommonJs?: boolean;
  expressMajor: 4 | 5;
  /** `case sensitive routing` / `strict routing` app settings (Express defaults: false). */
  caseSensitive: boolean;
  strict: boolean;
  /** Fastify's `trustProxy` as source text (the app's `trust proxy`), or null when not trusted. */
  trustProxy: string | null;
  /** Source of Fastify's `querystringParser` for the app's `query parser`, or null for Fastify's own. */
  queryParser: { source: string; imports: Import[] } | null;
  /** The app's body parsers, in registration order, as construction expressions (`express.json({ limit: '1mb' })`). */
  bodyParsers: { sources: string[]; imports: Import[] };
  parity: ParityPolicy;
}

/** One import the module needs: `default` name from `from`. */
export interface Import {
  name: string;
  from: string;
}


/** The module text in the file's style (quotes, semicolons, indentation, line endings). */
export function serverModule(facts: ServerFacts, style: Style): string {
  const lines = [...header(), ...imports(facts), '', ...buildFunction(facts), '', ...listenFunctions(facts), '', ...bridgeFunctions(facts)];
  if (facts.module === 'commonjs') lines.push('', 'module.exports = { buildFastify, listen, requestListener };');
  return restyle(lines, style);
}

/** The header's line that names where the Express app runs (the plugins stage rewrites it: express-hook.ts). */
export const HEADER_BRIDGE_LINE = '// of @fastify/express; later stages move the routes, error handlers and middleware into Fastify.';

function header(): string[] {
  return [`// Fastify in front of the Express app: ${SHIM_MARK} (express-to-fastify migrate).`, '// Requests Fastify has no route for run through the Express app, unchanged, at the preHandler hook', HEADER_BRIDGE_LINE];
}

function imports(f: ServerFacts): string[] {
  const list: Import[] = [
    { name: 'http', from: 'node:http' },
    { name: 'Fastify', from: 'fastify' },
    { name: 'fastifyExpress', from: '@fastify/express' },
    ...settingsImports(f),
    ...(f.parity === 'express' ? [{ name: 'finalhandler', from: 'finalhandler' }] : []),
  ];
  const unique = list.filter((imp, i) => list.findIndex((o) => o.name === imp.name) === i);
  const lines = unique.map((imp) => importLine(imp, f));
  if (f.typescript) {
    lines.push("import type { Express } from 'express';", "import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';");
  }
  return f.module === 'commonjs' ? ["'use strict';", '', ...lines] : lines;
}

/** The statement that imports `imp` into a module written from `f`. */
export function importLine(imp: Import, f: ServerFacts): string {
  if (f.module === 'commonjs' && !f.typescript) return `const ${imp.name} = require('${imp.from}');`;
  // finalhandler is a function: TypeScript compiled to CommonJS calls it through `import = require`, with or without esModuleInterop.
  if (f.typescript && f.compiledToCommonJs && CALLED_MODULES.has(imp.from)) return `import ${imp.name} = require('${imp.from}');`;
  // TypeScript without esModuleInterop has no default import of a CommonJS module; a namespace
  // import works with and without it. fastify and @fastify/express export a real `default`.
  const namespace = f.typescript && !HAS_DEFAULT_EXPORT.has(imp.from);
  return namespace ? `import * as ${imp.name} from '${imp.from}';` : `import ${imp.name} from '${imp.from}';`;
}

/**
 * Packages imported by default in TypeScript too: fastify and @fastify/express export a real
 * `default`; finalhandler is a function (a namespace import cannot be called): TypeScript compiled
 * to CommonJS imports it with `import finalhandler = require('finalhandler')` (CALLED_MODULES),
 * which needs no esModuleInterop; an ES module TypeScript app imports it by default.
 */
const HAS_DEFAULT_EXPORT = new Set(['fastify', '@fastify/express', 'finalhandler']);

/** CommonJS packages whose export is the function the module calls (see HAS_DEFAULT_EXPORT). */
const CALLED_MODULES = new Set(['finalhandler']);

const exported = (f: ServerFacts) => (f.module === 'esm' ? 'export ' : '');
const typed = (f: ServerFacts, annotation: string) => (f.typescript ? annotation : '');

/**
 * The parts of the module written from the app's settings, each as the source text the template
 * writes: the Fastify options `routerOptions.caseSensitive`, `routerOptions.ignoreTrailingSlash`,
 * `routerOptions.querystringParser` and `trustProxy` (null: the option is left out), and the
 * parsers array of `parseBodyLikeExpress([…])`. A re-run of the shim compares a module's with
 * these (server-module/fastify-options.ts) and rewrites only them.
 */
export interface SettingsSource {
  caseSensitive: string;
  ignoreTrailingSlash: string;
  querystringParser: string | null;
  trustProxy: string | null;
  bodyParsers: string;
}

/** The name of a settings-derived part (SettingsSource). */
export type SettingsKey = keyof SettingsSource;

/** What `f` gives each settings-derived part of the module. */
export function settingsSource(f: ServerFacts): SettingsSource {
  return {
    caseSensitive: String(f.caseSensitive),
    ignoreTrailingSlash: String(!f.strict),
    querystringParser: f.queryParser?.source ?? null,
    trustProxy: f.trustProxy,
    bodyParsers: `[${f.bodyParsers.sources.join(', ')}]`,
  };
}

/** The comments above the settings-derived options (their text after `//`), which say what they copy. */
export function settingsComments(f: ServerFacts): { matching: string; queryParser: string; trustProxy: string } {
  return {
    matching: ` Express's matching: ${f.caseSensitive ? "case-sensitive ('case sensitive routing')" : 'case-insensitive'}, ${f.strict ? "trailing slash significant ('strict routing')" : 'a trailing slash optional'}.`,
    queryParser: ` The app's query parser (Express ${f.expressMajor}), for the routes Fastify answers.`,
    trustProxy: " The app's 'trust proxy' setting.",
  };
}

/** The packages the settings-derived parts use (the query parser's, the body parsers'). */
export function settingsImports(f: ServerFacts): Import[] {
  return [...(f.queryParser?.imports ?? []), ...f.bodyParsers.imports];
}

function buildFunction(f: ServerFacts): string[] {
  const v = settingsSource(f);
  const comment = settingsComments(f);
  const options = [
    '    routerOptions: {',
    `      //${comment.matching}`,
    `      caseSensitive: ${v.caseSensitive},`,
    `      ignoreTrailingSlash: ${v.ignoreTrailingSlash},`,
    ...(v.querystringParser ? [`      //${comment.queryParser}`, `      querystringParser: ${v.querystringParser},`] : []),
    '    },',
    ...(v.trustProxy ? [`    //${comment.trustProxy}`, `    trustProxy: ${v.trustProxy},`] : []),
    '    // Fastify cannot route an undecodable URL (`/%zz`) and would answer 400 before any hook: route it',
    '    // escaped, so it reaches Express (which answered it) with the URL as it came (see expressBridge).',
    '    rewriteUrl: routableUrl,',
  ];
  return [
    '/**',
    ' * Builds the Fastify server in front of `app`, an Express application. Requests reach Fastify',
    ' * first; those it has no route for run through `app` exactly as before.',
    ' */',
    `${exported(f)}function buildFastify(app${typed(f, ': ExpressApp')})${typed(f, ': FastifyInstance')} {`,
    '  const fastify = Fastify({',
    ...options,
    '  });',
    "  // Express parses the bodies of the requests it answers; Fastify parses them with the app's own",
    '  // body parsers only for the routes it answers.',
    '  fastify.removeAllContentTypeParsers();',
    `  fastify.addContentTypeParser('*', parseBodyLikeExpress(${v.bodyParsers}));`,
    "  fastify.register(fastifyExpress, { expressHook: 'preHandler' }).after(() => {",
    '    fastify.use(expressBridge(app));',
    '  });',
    ...(f.parity === 'express' ? expressPages(f) : []),
    '  return fastify;',
    '}',
  ];
}

/** `--parity express`: what the app leaves unanswered gets Express's own 404 and error pages (finalhandler, as Express does). */
function expressPages(f: ServerFacts): string[] {
  return [
    "  // --parity express: Express's own 404 and error pages (finalhandler) for what the app leaves unanswered.",
    `  fastify.setNotFoundHandler((request${typed(f, ': FastifyRequest')}, reply${typed(f, ': FastifyReply')}) => {`,
    '    reply.hijack();',
    "    finalhandler(request.raw, reply.raw, { env: app.get('env') })(undefined);",
    '  });',
    `  fastify.setErrorHandler((error${typed(f, ': Error')}, request${typed(f, ': FastifyRequest')}, reply${typed(f, ': FastifyReply')}) => {`,
    '    reply.hijack();',
    "    const env = app.get('env');",
    "    if (env !== 'test') console.error(error.stack || error.toString());",
    '    finalhandler(request.raw, reply.raw, { env })(error);',
    '  });',
  ];
}

function listenFunctions(f: ServerFacts): string[] {
  const expressFiveCallback =
    f.expressMajor === 5
      ? ['  // Express 5 hands listen errors to the callback.', '  const callback = args[args.length - 1];', "  if (typeof callback === 'function') server.once('error', callback);"]
      : [];
  return [
    '/**',
    ' * Starts `fastify` the way `app.listen(...args)` started the Express app: a Node `http.Server` with',
    " * Node's defaults (as Express's), bound at once with the same arguments (port, host — all interfaces",
    ' * when none is given —, backlog, callback) and returned; requests wait until Fastify is ready.',
    ' */',
    `${exported(f)}function listen(fastify${typed(f, ': FastifyInstance')}, ...args${typed(f, ': any[]')}) {`,
    '  const server = http.createServer(requestListener(fastify));',
    ...expressFiveCallback,
    '  return server.listen(...args);',
    '}',
    '',
    '/**',
    ' * A request listener for `http.createServer(…)` in place of the Express app: answers through `fastify`',
    ' * once it is ready. A Fastify that cannot start (a plugin\'s error) is reported once, on stderr, and',
    ' * requests then get a 500 instead of waiting for ever.',
    ' */',
    `${exported(f)}function requestListener(fastify${typed(f, ': FastifyInstance')}) {`,
    '  const ready = fastify.ready();',
    `  ready.then(undefined, (error${typed(f, ': unknown')}) => console.error('Fastify could not start:', error));`,
    `  return (req${typed(f, ': http.IncomingMessage')}, res${typed(f, ': http.ServerResponse')}) => {`,
    '    ready.then(() => fastify.routing(req, res), () => res.writeHead(500).end());',
    '  };',
    '}',
  ];
}

function bridgeFunctions(f: ServerFacts): string[] {
  const types = f.typescript
    ? [
        '/** The Express app as the bridge calls it: a request handler that falls through to `next`, with its settings. */',
        'type ExpressApp = Express & ((req: http.IncomingMessage, res: http.ServerResponse, next?: (error?: unknown) => void) => void);',
        'type Loose<T> = T & Record<string | symbol, any>;',
        '',
      ]
    : [];
  return [
    ...types,
    '/**',
    ' * Where routableUrl keeps a URL Fastify could not route as it came. A string key, as Express keeps',
    " * its own (`_parsedUrl`): the generated modules name no global newer than ES5 (no Symbol, Reflect,",
    " * WeakMap), so an app whose ESLint knows only ES5 globals (`env: node` without `es6`) still passes.",
    ' */',
    "const RAW_URL = '_migrateRawUrl';",
    '',
    '/** The URL Fastify routes: the request\'s own, or, when it does not decode, the same with every `%` escaped. */',
    `function routableUrl(req${typed(f, ': Loose<http.IncomingMessage>')})${typed(f, ': string')} {`,
    `  const url = req.url${typed(f, ' as string')};`,
    '  try {',
    '    decodeURI(url);',
    '    return url;',
    '  } catch (_error) {',
    '    req[RAW_URL] = url;',
    "    return url.replace(/%/g, '%25');",
    '  }',
    '}',
    '',
    '/**',
    ' * The Express app as @fastify/express middleware. The plugin runs its own Express (5.x) in front and',
    " * puts Fastify's view of the request on the raw objects; undo that so the app's own Express answers",
    ' * as before: its prototypes, its `res.send` (content type, ETag), `req.ip`/`hostname` from its',
    " * 'trust proxy', the raw `req.url` and `originalUrl`. What it does not answer goes on to Fastify (`next`).",
    ' */',
    `function expressBridge(app${typed(f, ': ExpressApp')}) {`,
    `  return function expressApp(req${typed(f, ': Loose<http.IncomingMessage>')}, res${typed(f, ': Loose<http.ServerResponse>')}, next${typed(f, ': (error?: unknown) => void')}) {`,
    '    Object.setPrototypeOf(req, http.IncomingMessage.prototype);',
    '    Object.setPrototypeOf(res, http.ServerResponse.prototype);',
    "    for (const own of ['hostname', 'ip', 'ips']) delete req[own];",
    "    for (const own of ['send', 'headersSent']) delete res[own];",
    '    req.url = req[RAW_URL] || req.originalUrl;',
    '    req.originalUrl = req.url;',
    '    app(req, res, next);',
    '  };',
    '}',
    '',
    '/**',
    " * Fastify's body parsing: a request Express answers keeps its body stream unread (the app's own",
    ' * parsers read it in the bridge, and their errors reach its error middleware); a route Fastify',
    " * answers gets the body the app's parsers would have given it.",
    ' */',
    `function parseBodyLikeExpress(parsers${typed(f, ': Array<(req: any, res: any, next: (error?: unknown) => void) => void>')}) {`,
    `  return (request${typed(f, ': FastifyRequest')}, _payload${typed(f, ': unknown')}, done${typed(f, ': (error: Error | null, body?: unknown) => void')}) => {`,
    '    if (request.is404) return done(null);',
    '    const raw = request.raw' + typed(f, ' as Loose<http.IncomingMessage>') + ';',
    '    let index = 0;',
    `    const next = (error${typed(f, '?: unknown')}) => {`,
    `      if (error || index === parsers.length) return done(${f.typescript ? '(error as Error) || null' : 'error || null'}, raw.body);`,
    '      parsers[index++](raw, null, next);',
    '    };',
    '    next();',
    '  };',
    '}',
  ];
}

