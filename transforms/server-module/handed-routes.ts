/**
 * Routes that a function of the app registers with its own variables and that cannot move with it
 * (routes-move/registrars.ts, a nested plugin): the function keeps running on Express when the app is
 * built, and hands a plugin of those routes, defined inside it, to the server module —
 * `handRoutes(app, function routesRoutes(fastify) { … })` — which movedRoutes registers when
 * Fastify loads. The server module keeps what was handed per Express app; a hand-over after
 * movedRoutes took them (the function ran after the server started) throws, so a route is never
 * silently lost.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import { HAND_ROUTES, ROUTES_HANDED_BY } from '../../analyzer/generated.js';
import type { Node } from '../lib/ast.js';

/** The statements of movedRoutes that register what was handed over. */
export const HANDED_BY_APP_LOOP = [
  '// Routes a function of the app registers with its own variables, handed over when it ran (handRoutes).',
  `for (const plugin of ${ROUTES_HANDED_BY}(app)) fastify.register(plugin);`,
];

/** Whether movedRoutes (of a former run) registers what was handed over already. */
export function registersHandedByApp(j: JSCodeshift, moved: Node): boolean {
  return moved.body.body.some((st: Node) => j(st).toSource().includes(`${ROUTES_HANDED_BY}(`));
}

/**
 * Adds `handRoutes` and `routesHandedBy` to the server module (before movedRoutes), and exports
 * `handRoutes`, once.
 * @returns whether the module changed
 */
export function addHandRoutes(j: JSCodeshift, root: Collection, module: 'esm' | 'commonjs', typescript: boolean): boolean {
  if (root.find(j.FunctionDeclaration, { id: { name: HAND_ROUTES } }).size()) return false;
  const t = (s: string) => (typescript ? s : '');
  const exported = module === 'esm' ? 'export ' : '';
  const text = [
    '/**',
    ' * Routes that a function of the app registers with its own variables, handed over when it runs',
    " * (`migrate run --stage routes` wrote `handRoutes(app, plugin)` there), per Express app: movedRoutes",
    ' * registers them. A hand-over after the server loaded them would be lost, so it throws.',
    ' */',
    `const handedRoutes${t(': Array<{ app: object; plugins: FastifyPluginCallback[]; loaded: boolean }>')} = [];`,
    '',
    '/** What was handed over for `app` (an array, not a WeakMap: only ES5 globals in the generated modules). */',
    `function handedFor(app${t(': object')}) {`,
    '  let handed = handedRoutes.filter((h) => h.app === app)[0];',
    '  if (!handed) handedRoutes.push((handed = { app, plugins: [], loaded: false }));',
    '  return handed;',
    '}',
    '',
    '/** Hands `plugin`, routes of the Express `app`, to the Fastify server that serves it. */',
    `${exported}function ${HAND_ROUTES}(app${t(': object')}, plugin${t(': FastifyPluginCallback')}) {`,
    '  const handed = handedFor(app);',
    "  if (handed.loaded) throw new Error(`routes handed to Fastify after it loaded the app's moved routes (${plugin.name}): hand them over before the server starts`);",
    '  handed.plugins.push(plugin);',
    '}',
    '',
    '/** The plugins handed over for `app`; a later hand-over throws. */',
    `function ${ROUTES_HANDED_BY}(app${t(': object')}) {`,
    '  const handed = handedFor(app);',
    '  handed.loaded = true;',
    '  return handed.plugins;',
    '}',
  ].join('\n');
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const at = program.findIndex((s: Node) => (s.type === 'FunctionDeclaration' && s.id?.name === 'movedRoutes') || (s.type === 'ExpressionStatement' && /module\.exports\s*=/.test(j(s).toSource())));
  const nodes = j(text).find(j.Program).paths()[0].node.body;
  if (at >= 0) program.splice(at, 0, ...nodes);
  else program.push(...nodes);
  if (module === 'commonjs') {
    const exports = program.find((s: Node) => s.type === 'ExpressionStatement' && s.expression.type === 'AssignmentExpression' && /module\.exports$/.test(j(s.expression.left).toSource()) && s.expression.right.type === 'ObjectExpression');
    if (!exports) throw new Error('the generated module has no `module.exports = { … }` to export handRoutes from');
    const property = j.objectProperty(j.identifier(HAND_ROUTES), j.identifier(HAND_ROUTES));
    property.shorthand = true;
    exports.expression.right.properties.push(property);
  }
  return true;
}
