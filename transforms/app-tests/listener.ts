/**
 * `fastifyListener(app)` in the generated server module: the request listener of the Fastify server
 * in front of an Express app, for the app's own tests (`request(fastifyListener(app))`). Each
 * request goes to the server the file that starts the app built, once that file has run in the
 * test's process — the routes it registers itself are handed to that server only (`buildFastify(app,
 * { routes })`, routes-move/start-file.ts) —, else to one built for the tests, once per app. So
 * buildFastify records each server it builds (`builtServers.set(app, fastify)`), and the listener
 * looks it up per request: a test that holds a listener from before the start file ran (an agent
 * made at load, a start file that listens once a database connects) reaches it too. The servers are
 * kept in an array, not a WeakMap: the generated modules name only ES5 globals (template.ts RAW_URL).
 *
 * Added to the module once, after `requestListener`, and exported as the module exports the rest.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { restyle, type CodeStyle } from '../lib/style.js';
import { buildFastifyOf } from '../server-module/build-fastify.js';
import { LISTENER } from './model.js';

/** The array buildFastify records its servers in, the last first (`{ app, fastify, listener? }`). */
const BUILT = 'builtServers';

/**
 * Adds `fastifyListener` to the generated module `root` unless it has it: the record in
 * buildFastify, the function after `requestListener` (at the end when there is none) and its
 * export. TypeScript modules get types: the app typed as buildFastify's parameter.
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf (a module without `function buildFastify` returning its instance)
 */
export function addFastifyListener(j: JSCodeshift, root: Collection, typescript: boolean, style: CodeStyle): boolean {
  if (root.find(j.FunctionDeclaration, { id: { name: LISTENER } }).size()) return false;
  const build = buildFastifyOf(j, root, 'record the server it builds for the tests');
  const record = parse(j, [`// The app's tests reach the server built last for the app through ${LISTENER}(app).`, `${BUILT}.unshift({ ${build.app === 'app' ? 'app' : `app: ${build.app}`}, ${build.instance === 'fastify' ? 'fastify' : `fastify: ${build.instance}`} });`].join('\n'));
  build.body.splice(build.body.indexOf(build.returned), 0, ...record);
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const commonjs = program.some(isModuleExports);
  const appType = typescript ? appTypeOf(j, root) : null;
  const statements = parse(j, restyle(listenerSource(appType, !commonjs), style));
  const after = program.findIndex((s) => declares(s, 'requestListener'));
  const exports = program.findIndex(isModuleExports);
  program.splice(after >= 0 ? after + 1 : exports >= 0 ? exports : program.length, 0, ...statements);
  if (commonjs) exportFromCommonJs(j, program);
  return true;
}

/** The declarations, in the template's words (server-module/template.ts); `appType` for TypeScript. */
function listenerSource(appType: string | null, esm: boolean): string[] {
  const t = (annotation: string) => (appType ? annotation : '');
  return [
    '/** The Fastify servers buildFastify built, the last first, each with its Express app and, once made, its request listener. */',
    `const ${BUILT}${t(`: Array<{ app: ${appType}; fastify: FastifyInstance; listener?: http.RequestListener }>`)} = [];`,
    '',
    '/**',
    ' * The request listener of the Fastify server in front of `app`, for the app\'s own tests: they send',
    ' * their requests to it (`request(fastifyListener(app))`, written by `migrate run`) instead of to the',
    ' * Express app, which no longer has what later stages moved to Fastify. Each request goes to the',
    ' * server the file that starts the app built, once that file has run (the routes it hands to',
    ' * buildFastify are on that server), else to one built here, once per app.',
    ' */',
    `${esm ? 'export ' : ''}function ${LISTENER}(app${t(`: ${appType}`)})${t(': http.RequestListener')} {`,
    '  return (req, res) => {',
    `    if (!${BUILT}.some((b) => b.app === app)) buildFastify(app);`,
    `    const built = ${BUILT}.filter((b) => b.app === app)[0];`,
    '    if (!built.listener) built.listener = requestListener(built.fastify);',
    '    built.listener(req, res);',
    '  };',
    '}',
  ];
}

/** The type of buildFastify's first parameter as written (`ExpressApp`), or `Parameters<typeof buildFastify>[0]` when it has none. */
function appTypeOf(j: JSCodeshift, root: Collection): string {
  const param = root.find(j.FunctionDeclaration, { id: { name: 'buildFastify' } }).paths()[0]?.node.params[0] as Node;
  const annotation = param?.typeAnnotation?.typeAnnotation ?? param?.left?.typeAnnotation?.typeAnnotation;
  return annotation ? j(annotation).toSource() : 'Parameters<typeof buildFastify>[0]';
}

/** Whether a top-level statement declares function `name` (on its own or exported). */
function declares(statement: Node, name: string): boolean {
  const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
  return declaration?.type === 'FunctionDeclaration' && declaration.id?.name === name;
}

/** `module.exports = { … };` */
function isModuleExports(statement: Node): boolean {
  const e = statement.type === 'ExpressionStatement' ? statement.expression : null;
  return e?.type === 'AssignmentExpression' && e.left.type === 'MemberExpression' && e.left.object.name === 'module' && e.left.property.name === 'exports' && e.right.type === 'ObjectExpression';
}

/**
 * Adds the listener to `module.exports = { … }` (written again from one snippet, so it stays on one
 * line), or assigns `module.exports.fastifyListener` when the module exports some other way.
 */
function exportFromCommonJs(j: JSCodeshift, program: Node[]): void {
  const at = program.findIndex(isModuleExports);
  if (at < 0) {
    program.push(...parse(j, `module.exports.${LISTENER} = ${LISTENER};`));
    return;
  }
  const properties: Node[] = program[at].expression.right.properties;
  const names = [...properties.map((p) => j(p).toSource()), LISTENER];
  const [statement] = parse(j, `module.exports = { ${names.join(', ')} };`);
  statement.comments = program[at].comments;
  program.splice(at, 1, statement);
}

function parse(j: JSCodeshift, text: string): Node[] {
  return j(text).find(j.Program).paths()[0].node.body;
}
