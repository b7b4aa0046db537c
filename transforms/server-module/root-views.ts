/**
 * The app's views, registered once at the root of the generated Fastify app (`plugins` stage,
 * issue 18 item 4). The routes stage registers @fastify/view in `movedRoutes` when a moved route
 * renders (moved-routes.ts, plugin-registrations/view.ts): the `reply.locals` decorator, the
 * registration with the app's engine, `app.get('views')` and `app.locals`, and the
 * `reply.renderLikeExpress` decorator when the app replaced res.render. Registered there, only the
 * moved routes render; at the root, every context does — the not-found and error handlers, and
 * routes that move later (the routes stage adds no second registration once the module imports
 * @fastify/view, so Fastify never throws FST_ERR_DEC_ALREADY_PRESENT). The statements move as
 * they are (their comments with them), before the registration of the moved routes, so the
 * decorators exist before those plugins load; `app` is buildFastify's own parameter there, and
 * movedRoutes stops taking it when nothing else in it reads it.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import { RENDER_LIKE_EXPRESS } from '../handler-rewrite/view-render.js';
import type { Node } from '../lib/ast.js';
import { importedLocal } from '../lib/imports.js';
import { buildFastifyOf } from './build-fastify.js';
import { dropMovedRoutesOption } from './moved-routes.js';

/** The statements of movedRoutes that register the app's views (in order), or none. */
export function viewsInMovedRoutes(j: JSCodeshift, root: Collection): Node[] {
  const moved = movedRoutesOf(j, root);
  const view = importedLocal(j, root, '@fastify/view', { kind: 'default' });
  if (!moved || !view) return [];
  const instance = moved.params[0]?.name;
  return moved.body.body.filter((s: Node) => {
    const call = s.type === 'ExpressionStatement' && s.expression.type === 'CallExpression' ? s.expression : null;
    if (call?.callee.type !== 'MemberExpression' || call.callee.object.name !== instance) return false;
    const [first] = call.arguments;
    if (call.callee.property.name === 'register') return first?.type === 'Identifier' && first.name === view;
    return call.callee.property.name === 'decorateReply' && (first?.value === 'locals' || first?.value === RENDER_LIKE_EXPRESS);
  });
}

/**
 * Moves the views registration of movedRoutes (viewsInMovedRoutes) to buildFastify, right before
 * the statement that registers movedRoutes (directly, or in the plugin around it once the Express
 * app runs in hooks).
 * @returns whether the module changed (false when movedRoutes registers no views).
 * @throws Error when buildFastify or its registration of movedRoutes is missing, or when its
 *   instance and app are not named as movedRoutes names them (`fastify`, `app`): the statements
 *   would read other names than they were written for
 */
export function viewsAtRoot(j: JSCodeshift, root: Collection): boolean {
  const statements = viewsInMovedRoutes(j, root);
  if (!statements.length) return false;
  const moved = movedRoutesOf(j, root)!;
  const build = buildFastifyOf(j, root, 'register @fastify/view');
  const at = build.body.findIndex((s) => j(s).find(j.Identifier, { name: 'movedRoutes' }).size() > 0);
  if (at < 0) throw new Error('buildFastify does not register movedRoutes, before which the views go');
  if (build.instance !== moved.params[0]?.name || build.app !== 'app') throw new Error(`buildFastify names its instance ${build.instance} and its app ${build.app}, and the views registration is written for \`${moved.params[0]?.name}\` and \`app\``);
  moved.body.body = moved.body.body.filter((s: Node) => !statements.includes(s));
  build.body.splice(at, 0, ...statements);
  if (!j(moved.body).find(j.Identifier, { name: 'app' }).size()) dropMovedRoutesOption(j, root, 'app');
  return true;
}

/** The module's `function movedRoutes`, or undefined. */
function movedRoutesOf(j: JSCodeshift, root: Collection): Node | undefined {
  return root.find(j.FunctionDeclaration, { id: { name: 'movedRoutes' } }).paths()[0]?.node;
}
