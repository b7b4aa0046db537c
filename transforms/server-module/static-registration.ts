/**
 * The static mounts that leave the Express app, registered in buildFastify (`plugins` stage,
 * static-files.ts says which): one `fastify.register(fastifyStatic, { root, prefix, …options })`
 * per mount, in the app's order, before the moved routes' registration, and for a mount whose
 * folder is redirected (`/static` → `/static/`) the route `redirectToFolder` answers it with. A
 * file the folder lacks goes on to the Express app: @fastify/static calls the not-found handler
 * (`reply.callNotFound()`), whose preHandler hook runs the app (plugins-bridge). A mount's
 * `setHeaders`, the app's function, is imported (ESM) and called with `staticResponseLikeExpress(reply)`,
 * the response it was written for over Fastify's reply (static-files.ts SET_HEADERS_USES).
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { addImport, importedLocal } from '../lib/imports.js';
import { importAppFunction } from './app-functions.js';
import { restyle, type CodeStyle } from '../lib/style.js';
import { addFastifyTypes } from '../lib/type-imports.js';
import { jsLiteral } from '../lib/js-literal.js';
import { buildFastifyOf, callOn } from './build-fastify.js';
import { statements } from './hand-over.js';
import type { MovingMount } from './static-files.js';

/** The function of the module that redirects a static folder without its trailing slash. */
export const REDIRECT_TO_FOLDER = 'redirectToFolder';
/** The function of the module that gives an app's setHeaders the response it was written for. */
export const STATIC_RESPONSE = 'staticResponseLikeExpress';

/** What the transform needs of the module: its module system and language. */
export interface StaticModule {
  module: 'esm' | 'commonjs';
  typescript: boolean;
}

/**
 * Registers `mounts` in buildFastify (module comment), importing @fastify/static (and `node:path`,
 * `node:url` for the folders). A prefix registered already is left as it is, so a second run
 * changes nothing.
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf (a module edited by hand)
 */
export function registerStatic(j: JSCodeshift, root: Collection, mounts: MovingMount[], module: StaticModule, style: CodeStyle): boolean {
  const build = buildFastifyOf(j, root, 'register @fastify/static');
  const quote = style.quote;
  const imported = importedLocal(j, root, '@fastify/static', { kind: 'default' });
  const registered = new Set(imported ? build.body.flatMap((s) => prefixRegistered(s, build.instance, imported)) : []);
  const wanted = mounts.filter((m) => !registered.has(m.prefix));
  if (!wanted.length) return false;
  const plugin = imported ?? addImport(j, root, { specifier: '@fastify/static', form: { kind: 'default' }, local: 'fastifyStatic', module: module.module }, quote);
  const names = { plugin, path: '', url: '' };
  // node:path for `path.resolve` (a folder relative to the working directory) and CommonJS's `path.join(__dirname, …)`; ESM names its own folder with a URL.
  if (wanted.some((m) => 'fromCwd' in m.root || ('fromModule' in m.root && module.module !== 'esm'))) names.path = importedLocal(j, root, 'node:path', { kind: 'default' }) ?? importedLocal(j, root, 'path', { kind: 'default' }) ?? addImport(j, root, { specifier: 'node:path', form: { kind: 'default' }, local: 'path', module: module.module }, quote);
  if (module.module === 'esm' && wanted.some((m) => 'fromModule' in m.root)) names.url = importedLocal(j, root, 'node:url', { kind: 'named', name: 'fileURLToPath' }) ?? addImport(j, root, { specifier: 'node:url', form: { kind: 'named', name: 'fileURLToPath' }, local: 'fileURLToPath', module: 'esm' }, quote);
  for (const m of wanted) if (m.setHeaders?.import) importAppFunction(j, root, m.setHeaders.import, quote);
  const lines = wanted.flatMap((m) => registrationLines(build.instance, m, names, module.typescript));
  const at = build.body.findIndex((s) => j(s).find(j.Identifier, { name: 'movedRoutes' }).size() > 0);
  build.body.splice(at < 0 ? build.body.indexOf(build.returned) : at, 0, ...statements(j, restyle(lines, style)));
  if (wanted.some((m) => m.folderRedirect) && addAfterBuild(j, root, REDIRECT_TO_FOLDER, redirectToFolderLines(module.typescript), style) && module.typescript) addFastifyTypes(j, root, ['FastifyReply', 'FastifyRequest']);
  if (wanted.some((m) => m.setHeaders)) addAfterBuild(j, root, STATIC_RESPONSE, staticResponseLines(module.typescript), style);
  return true;
}

/**
 * Adds the function `name` (its `lines`) after buildFastify, exported (`export function buildFastify`,
 * ESM and TypeScript) or not, unless the module has it.
 * @returns whether it added it.
 */
function addAfterBuild(j: JSCodeshift, root: Collection, name: string, lines: string[], style: CodeStyle): boolean {
  if (root.find(j.FunctionDeclaration, { id: { name } }).size()) return false;
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const after = program.findIndex((s) => {
    const declared = s.type === 'ExportNamedDeclaration' ? s.declaration : s;
    return declared?.type === 'FunctionDeclaration' && declared.id?.name === 'buildFastify';
  });
  program.splice(after < 0 ? program.length : after + 1, 0, ...statements(j, restyle(lines, style)));
  return true;
}

/** The prefixes a statement registers @fastify/static at (`fastify.register(fastifyStatic, { prefix: '/static/' })`). */
function prefixRegistered(statement: Node, instance: string, plugin: string): string[] {
  const call = callOn(statement, instance);
  if (call?.method !== 'register' || call.args[0]?.name !== plugin) return [];
  const prefix = call.args[1]?.properties?.find((p: Node) => (p.key?.name ?? p.key?.value) === 'prefix');
  return typeof prefix?.value?.value === 'string' ? [prefix.value.value] : ['/'];
}

/**
 * The function @fastify/static calls, calling the app's setHeaders with what serve-static passed
 * it: the response, the file's path, its stats — in TypeScript no more than it declares
 * (`parameters`), which `tsc` checks: `(reply, file) => markPage(staticResponseLikeExpress(reply), file)`.
 */
function setHeadersCall(setHeaders: NonNullable<MovingMount['setHeaders']>, typescript: boolean): string {
  const count = typescript ? Math.min(Math.max(setHeaders.parameters, 1), 3) : 3;
  const args = [`${STATIC_RESPONSE}(reply)`, 'file', 'stat'].slice(0, count);
  return `(${['reply', 'file', 'stat'].slice(0, count).join(', ')}) => ${setHeaders.callee}(${args.join(', ')})`;
}

/** The registration of one mount, with where it came from, in the template's style. */
function registrationLines(instance: string, m: MovingMount, names: { plugin: string; path: string; url: string }, typescript: boolean): string[] {
  const from = `${m.registration.file}:${m.registration.line}`;
  return [
    `// Static files, served by @fastify/static as ${m.name} served them in Express (${from}); a file the`,
    "// folder lacks goes on to the Express app, through the not-found handler's hook.",
    `${instance}.register(${names.plugin}, {`,
    `  root: ${rootSource(m.root, names)},`,
    `  prefix: ${jsLiteral(m.prefix)},`,
    ...m.options.map(([k, v]) => `  ${k}: ${jsLiteral(v)},`),
    ...(m.setHeaders ? [`  // The app's setHeaders, ${m.setHeaders.where}, given the response it was written for.`, `  setHeaders: ${setHeadersCall(m.setHeaders, typescript)},`] : []),
    '});',
    ...(m.folderRedirect ? [`// serve-static redirected the folder itself (${m.folderRedirect}) to ${m.folderRedirect}/.`, `${instance}.get(${jsLiteral(m.folderRedirect)}, ${REDIRECT_TO_FOLDER});`] : []),
  ];
}

/** The folder as the module names it (MovingMount.root). */
function rootSource(root: MovingMount['root'], names: { path: string; url: string }): string {
  if ('absolute' in root) return jsLiteral(root.absolute);
  if ('fromCwd' in root) return `${names.path}.resolve(${jsLiteral(root.fromCwd)})`;
  // A URL relative to the module: `./public/`, `../public/` (not `./../public/`), `./` for its own folder.
  if (names.url) return `${names.url}(new URL(${jsLiteral(root.fromModule === '.' ? './' : root.fromModule.startsWith('../') ? `${root.fromModule}/` : `./${root.fromModule}/`)}, import.meta.url))`;
  return `${names.path}.join(__dirname, ${jsLiteral(root.fromModule)})`;
}

/**
 * `function staticResponseLikeExpress(reply)`: the response an app's serve-static `setHeaders` uses,
 * writing Fastify's reply headers (static-files.ts SET_HEADERS_USES): Node's setHeader, and
 * Express's `set`/`header` with a value as Express writes it (a string, or strings: lib/response.js).
 */
function staticResponseLines(typescript: boolean): string[] {
  const t = (annotation: string) => (typescript ? annotation : '');
  return [
    '/**',
    " * The response the app's serve-static setHeaders was written for, over Fastify's reply: Node's setHeader",
    " * and Express's res.set / res.header, each writing the reply's headers (which @fastify/static sends).",
    ' */',
    `function ${STATIC_RESPONSE}(reply${t(': any')})${t(': any')} {`,
    `  const set = (name${t(': string')}, value${t(': unknown')}) => {`,
    '    reply.header(name, Array.isArray(value) ? value.map(String) : String(value));',
    '    return response;',
    '  };',
    '  const response = {',
    `    setHeader: (name${t(': string')}, value${t(': unknown')}) => {`,
    '      reply.header(name, value);',
    '      return response;',
    '    },',
    '    set,',
    '    header: set,',
    '  };',
    '  return response;',
    '}',
  ];
}

/** `function redirectToFolder(request, reply)`: serve-static's 301 from a folder to `folder/`, the query kept (createRedirectDirectoryListener). */
function redirectToFolderLines(typescript: boolean): string[] {
  const t = (annotation: string) => (typescript ? annotation : '');
  return [
    '/**',
    ' * A static folder without its trailing slash (`/static`), which serve-static redirected to `/static/`',
    ' * (301, the query kept). Fastify routes `/static/` here too (it ignores a trailing slash), where the',
    ' * folder has no index: that request goes on to the Express app, as a missing file does.',
    ' */',
    `function ${REDIRECT_TO_FOLDER}(request${t(': FastifyRequest')}, reply${t(': FastifyReply')}) {`,
    '  const url = request.raw.url || \'/\';',
    "  const query = url.indexOf('?');",
    '  const pathname = query < 0 ? url : url.slice(0, query);',
    "  if (pathname.endsWith('/')) return reply.callNotFound();",
    "  return reply.redirect(`${pathname}/${query < 0 ? '' : url.slice(query)}`, 301);",
    '}',
  ];
}

