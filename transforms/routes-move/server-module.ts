/**
 * The generated server module (`fastify-server.*`) learns the moved routes: a `movedRoutes`
 * plugin, registered in `buildFastify` before `return fastify` (so after the bridge, whose Express
 * middleware then runs first for them, as it did in Express), that registers each router's plugin
 * under each of its mount paths (`prefix`) — a router mounted twice is one plugin registered twice.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import { addImport } from '../errors-handler/fastify-module.js';
import type { Node } from '../errors-handler/source-files.js';
import type { RegisterEntry } from './model.js';

type Quote = 'single' | 'double';

/**
 * Adds what `entry` registers; no change for registrations already there.
 * @returns whether the module changed.
 * @throws Error when the module has no `function buildFastify` returning its instance (edited by hand)
 */
export function registerPlugins(j: JSCodeshift, root: Collection, entry: RegisterEntry, quote: Quote): boolean {
  const q = quote === 'double' ? '"' : "'";
  let changed = false;
  let moved = root.find(j.FunctionDeclaration, { id: { name: 'movedRoutes' } }).paths()[0];
  if (!moved) {
    moved = addMovedRoutes(j, root, entry, q);
    changed = true;
  }
  const body: Node[] = moved.node.body.body;
  for (const plugin of entry.plugins) {
    const local = addImport(j, root, { specifier: plugin.specifier, form: { kind: 'named', name: plugin.name }, local: plugin.name, module: entry.module }, quote);
    for (const prefix of plugin.prefixes) {
      const text = prefix ? `fastify.register(${local}, { prefix: ${q}${prefix}${q} });` : `fastify.register(${local});`;
      const statement = j(text).find(j.ExpressionStatement).paths()[0].node;
      if (body.some((s) => j(s).toSource() === text)) continue;
      if (!body.some((s) => s.type === 'ExpressionStatement' && (s.comments ?? []).length)) statement.comments = [j.commentLine(` Routes of ${plugin.from}, under the router's mount path.`, true, false)];
      body.push(statement);
      changed = true;
    }
  }
  return changed;
}

/** `async function movedRoutes(fastify) {…}` at the end of the module, and its registration in buildFastify. */
function addMovedRoutes(j: JSCodeshift, root: Collection, entry: RegisterEntry, q: string) {
  const build = root.find(j.FunctionDeclaration, { id: { name: 'buildFastify' } }).paths()[0];
  const statements: Node[] | undefined = build?.node.body.body;
  const last = statements?.[statements.length - 1];
  if (!build || last?.type !== 'ReturnStatement' || last.argument?.type !== 'Identifier') throw new Error('the generated module has no function buildFastify ending in `return fastify` to register the moved routes in');
  const instance = last.argument.name;
  const register = j(`${instance}.register(movedRoutes);`).find(j.ExpressionStatement).paths()[0].node;
  register.comments = [j.commentLine(' Routes moved to Fastify (`migrate run --stage routes`): after the bridge, so the', true, false), j.commentLine(" app's Express middleware runs first for them, as it did in Express.", true, false)];
  statements!.splice(statements!.length - 1, 0, register);
  addImport(j, root, { specifier: entry.hooksSpecifier, form: { kind: 'named', name: 'bodyLikeExpress' }, local: 'bodyLikeExpress', module: entry.module }, q === '"' ? 'double' : 'single');
  const t = (s: string) => (entry.typescript ? s : '');
  const fn = j(
    [
      '/**',
      ' * The routes moved off Express, each router as a plugin under its mount path (prefix). Their',
      " * handlers see the body Express's parsers gave (bodyLikeExpress).",
      ' */',
      `async function movedRoutes(fastify${t(': FastifyInstance')}) {`,
      `  fastify.addHook(${q}preHandler${q}, bodyLikeExpress);`,
      '}',
    ].join('\n'),
  )
    .find(j.FunctionDeclaration)
    .paths()[0];
  const program = root.find(j.Program).paths()[0].node;
  const exportsAt = program.body.findIndex((s: Node) => s.type === 'ExpressionStatement' && /module\.exports\s*=/.test(j(s).toSource()));
  const node = fn.parent.node.type === 'Program' ? fn.node : fn.node;
  node.comments = fn.node.comments ?? fn.parent.node.comments;
  if (exportsAt >= 0) program.body.splice(exportsAt, 0, node);
  else program.body.push(node);
  return root.find(j.FunctionDeclaration, { id: { name: 'movedRoutes' } }).paths()[0];
}
