/**
 * The root plugins in buildFastify (`plugins` stage, root-plugins.ts says which): one
 * `fastify.register(fastifyCors, { …options })` per middleware, in the app's order, at the root of
 * the server (fastify-plugin'd plugins: their onRequest hooks run for every request, those the
 * Express hook hands the app too), ahead of the Express hook's own statements so the module reads
 * in the order requests go.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import { MIDDLEWARE, type MiddlewareEntry } from '../../rules/catalogue/middleware.js';
import type { Node } from '../lib/ast.js';
import { addImport, importedLocal } from '../lib/imports.js';
import { restyle, type CodeStyle } from '../lib/style.js';
import { buildFastifyOf, chainStartOn, type BuildFastify } from './build-fastify.js';
import { jsLiteral } from '../lib/js-literal.js';
import { statements } from './hand-over.js';
import type { RootPlugin } from './root-plugins.js';

/** What the transform writes of a root plugin. */
export type RootPluginRegistration = Pick<RootPlugin, 'plugin' | 'options' | 'callee' | 'registration' | 'headers' | 'delegate'>;

/**
 * Registers `plugins` in buildFastify (module comment), importing each plugin. A plugin registered
 * already is left as it is (options included: a second run changes nothing).
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf (a module edited by hand)
 */
export function registerRootPlugins(j: JSCodeshift, root: Collection, plugins: RootPluginRegistration[], module: { module: 'esm' | 'commonjs'; typescript: boolean }, style: CodeStyle): boolean {
  const build = buildFastifyOf(j, root, 'register the root plugins');
  let at = insertionIndex(j, root, build);
  let changed = false;
  for (const p of plugins) {
    const imported = importedLocal(j, root, p.plugin.specifier, { kind: 'default' });
    if (imported && build.body.some((s) => registers(s, build.instance, imported))) continue;
    const local = imported ?? addImport(j, root, { specifier: p.plugin.specifier, form: { kind: 'default' }, local: p.plugin.local, module: module.module }, style.quote);
    const intro = [
      `// The app's ${p.callee} (${p.registration.file}:${p.registration.line}), as ${p.plugin.specifier} at the root: its onRequest hook runs for`,
      '// every request, those the Express app answers too (`migrate run --stage plugins`).',
    ];
    const register = (options: string) => `${build.instance}.register(${local}${options === '{}' ? '' : `, ${options}`})`;
    const lines = p.delegate
      ? [...intro, ...delegated(register, build.instance, p.options, p.delegate, module.typescript)]
      : [...intro, ...(p.headers ? headersAfter(register(p.options), build.instance, p.callee, p.plugin.specifier, p.headers) : [`${register(p.options)};`])];
    const added = statements(j, restyle(lines, style));
    build.body.splice(at, 0, ...added);
    at += added.length;
    changed = true;
  }
  return changed;
}

/**
 * `register` followed by a hook that sets `headers` on the reply (the Express hook copies them to an
 * answer of the Express app; a hook using nothing of Node's objects keeps a route free of Express:
 * express-free.ts), added once the plugin loaded (`.after`) so it runs right after the plugin's own
 * hooks, before any plugin registered later (cors's preflight answers).
 */
function headersAfter(register: string, instance: string, callee: string, specifier: string, headers: NonNullable<RootPluginRegistration['headers']>): string[] {
  return [
    `${register}.after(() => {`,
    `  // ${callee} ${headers.version} also sent ${Object.keys(headers.values).join(', ')}, which the newer ${callee} inside ${specifier} does not send.`,
    `  ${instance}.addHook('onRequest', (_request, reply, done) => {`,
    ...Object.entries(headers.values).map(([name, value]) => `    reply.header(${jsLiteral(name)}, ${jsLiteral(value)});`),
    '    done();',
    '  });',
    '});',
  ];
}

/** The set of the requests whose origin the app's origin function refused (delegated). */
const REFUSED = 'corsRefused';

/**
 * cors with the app's origin function (`callee`): @fastify/cors asks a delegator per request for
 * its options, which asks the function as cors did (`origin(requestOrigin, callback)`) and gives its
 * answer as the origin option — an error to the error handler, a refusal (falsy) no CORS at all.
 * @fastify/cors adds `Vary: Origin` to every answer of a delegator, where cors added it only for an
 * origin the function allowed: a hook after the plugin's takes it off the refused requests' again.
 */
function delegated(register: (options: string) => string, instance: string, options: string, callee: string, typescript: boolean): string[] {
  return [
    `const ${REFUSED} = new WeakSet${typescript ? '<object>' : ''}();`,
    `${register(`{\n  delegator: (request, callback) => {\n    ${callee}(request.headers.origin, (error, allowed) => {\n      if (error) return callback(error);\n      if (!allowed) ${REFUSED}.add(request);\n      callback(null, { ${options === '{}' ? '' : `${options.slice(1, -1).trim()}, `}origin: allowed || false });\n    });\n  },\n}`)}.after(() => {`,
    `  ${instance}.addHook('onRequest', (request, reply, done) => {`,
    `    if (${REFUSED}.has(request)) {`,
    "      const vary = String(reply.getHeader('vary') || '').split(',').map((token) => token.trim()).filter((token) => token && token.toLowerCase() !== 'origin');",
    "      if (vary.length) reply.header('vary', vary.join(', '));",
    "      else reply.removeHeader('vary');",
    '    }',
    '    done();',
    '  });',
    '});',
  ];
}

/**
 * Where the root plugins go: after those an earlier run registered (the app's order: one that moves
 * later came after them in Express, root-plugins.ts), else before the Express hook's statements (the
 * first that names them, or registers, hooks or sets a handler on the instance), else before `return`.
 */
function insertionIndex(j: JSCodeshift, root: Collection, build: BuildFastify): number {
  const locals = ROOT_PLUGINS.flatMap((specifier) => importedLocal(j, root, specifier, { kind: 'default' }) ?? []);
  const registered = build.body.filter((s) => locals.some((local) => registers(s, build.instance, local)));
  if (registered.length) return build.body.indexOf(registered.at(-1)) + 1;
  const bridge = build.body.findIndex((s) => s !== build.returned && (j(s).find(j.Identifier).some((p) => HOOK_NAMES.has(p.node.name)) || HOOK_CALLS.has(chainStartOn(s, build.instance)?.method ?? '')));
  return bridge < 0 ? build.body.indexOf(build.returned) : bridge;
}

/** The catalogue's root plugins (`@fastify/cors`, `@fastify/helmet`). */
const ROOT_PLUGINS = (Object.values(MIDDLEWARE) as MiddlewareEntry[]).filter((e) => e.rootPlugin).map((e) => e.fastify);

/** Names the plugins-bridge step's statements use (the Express hook and what it skips). */
const HOOK_NAMES = new Set(['throughExpress', 'expressFree', 'bodyParsers', 'expressHook']);
/** Calls on the instance that come after the root plugins. */
const HOOK_CALLS = new Set(['setNotFoundHandler', 'setErrorHandler', 'addHook', 'register']);

/** Whether `statement` is `<instance>.register(<plugin>, …)`, also followed by a chained call (`.after(…)`). */
function registers(statement: Node, instance: string, plugin: string): boolean {
  const call = chainStartOn(statement, instance);
  return call?.method === 'register' && call.args[0]?.type === 'Identifier' && call.args[0].name === plugin;
}
