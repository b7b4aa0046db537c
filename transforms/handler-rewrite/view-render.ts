/**
 * The `res.render` form (reply-forms.ts; its row in rules/catalogue/api.ts): on a moved route handler whose plugin
 * context registers @fastify/view as the app's Express views (transforms/plugin-registrations/view.ts),
 * `res.render(view[, locals])` becomes `reply.view(view[, locals])`, arguments unchanged.
 *
 * Why that is the whole form (probed, see view-engines.ts): the registration gives @fastify/view
 * `defaultContext: app.locals` and makes `reply.locals` read Express's `res.locals` (which the
 * app's middleware filled in the bridge), and @fastify/view renders
 * `Object.assign({}, defaultContext, reply.locals, data)` — Express's app.locals < res.locals <
 * locals. Its content type is Express's (`text/html; charset=utf-8` unless one was set), a status
 * set before stays (`res.status(403).render(…)` → `reply.code(403).view(…)`), and a render error
 * goes to `reply.send(err)`: Fastify's error handler, where the errors stage put the app's.
 *
 * `reply.view` answers once the template is read (a promise), so an async handler must return
 * the reply (mapping §1.5.1): the row is `answersLater`, and handler-rewrite/flow.ts adds `return reply`.
 *
 * It refuses what would not answer the same: the callback form (Express hands the HTML to it,
 * @fastify/view would send it), a function that sets a Content-Type (Express adds a charset to
 * it), a view name that is not a literal relative name (Express resolves
 * an absolute name as a file path, @fastify/view joins every name to its root), and a locals
 * literal with a key Express's engine reads as a compile option (view-engines.ts).
 *
 * Where the app's middleware replaced Express's res.render (express-flash, a local flash that puts
 * the messages into every view), the call becomes `reply.renderLikeExpress(view[, locals])`, the
 * reply decorator plugin-registrations/view.ts registers with @fastify/view: it renders through the
 * replacement on Express's response when the middleware set one for this request, else it is
 * reply.view.
 */
import type { Expr, FormContext, FormResult } from './forms.js';
import { ENGINE_OPTION_LOCALS } from '../../rules/catalogue/view-engines.js';

/** The plugin a converted `res.render` needs registered in the route's context. */
export const VIEW_PLUGIN = '@fastify/view';

/** The reply decorator that renders through the app's replacement of res.render (module comment). */
export const RENDER_LIKE_EXPRESS = 'renderLikeExpress';

/** The refusal when the route's context has no @fastify/view (FormContext.views absent). */
export const RENDER_NEEDS_PLUGIN = 'res.render needs @fastify/view, which the plugins stage registers';

const refuse = (reason: string): { refuse: string } => ({ refuse: reason });

/** `res.render(view[, locals])` → `reply.view(view[, locals])`, or why not (see the module comment). */
export function renderForm(args: Expr[], ctx: FormContext): FormResult {
  if (ctx.views !== true) return typeof ctx.views === 'string' ? refuse(`res.render: ${ctx.views}`) : { refuse: RENDER_NEEDS_PLUGIN, waitsFor: 'plugins' };
  if (args.length === 0) return refuse('res.render without a view name');
  if (args.length > 2 || isFunction(args[1])) return refuse('res.render with a callback: Express hands it the HTML, reply.view would send it');
  // Express's res.send sets charset=utf-8 on a type set before (lib/response.js `send`); @fastify/view keeps it as set.
  if (ctx.setsContentType) return refuse('res.render in a function that sets a Content-Type: Express adds charset=utf-8 to it when it sends the HTML, reply.view keeps it as set');
  const nameProblem = viewNameProblem(args[0]);
  if (nameProblem) return refuse(nameProblem);
  if (args[1]) {
    const localsProblem = localsProblemOf(args[1], ctx);
    if (localsProblem) return refuse(localsProblem);
  }
  return { steps: [{ call: ctx.renderReplaced ? RENDER_LIKE_EXPRESS : 'view', args }], plugins: [VIEW_PLUGIN] };
}

function isFunction(node: Expr): boolean {
  return node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression';
}

/**
 * Why a view name cannot be given to reply.view as it is, or null: it must be a string literal or
 * a template whose first part fixes a relative start (`articles/${slug}`); Express 4/5
 * (lib/view.js `lookup`) resolves an absolute name as a path of its own, @fastify/view joins it to
 * its root.
 */
function viewNameProblem(name: Expr): string | null {
  const start = name?.type === 'StringLiteral' ? name.value : name?.type === 'TemplateLiteral' ? (name.quasis[0].value.cooked ?? '') : null;
  if (start === null) return 'res.render(view, …) with a view name known only at run time: Express reads an absolute name as a file path, reply.view joins every name to the views directory';
  if (start === '' && name.type === 'TemplateLiteral') return 'res.render(`${…}…`) with a view name whose start is known only at run time: Express reads an absolute name as a file path, reply.view joins every name to the views directory';
  if (/^([/\\]|[A-Za-z]:)/.test(start)) return `res.render('${start}…') with an absolute view name: Express renders that file, reply.view looks for it under the views directory`;
  return null;
}

/** Why the locals argument cannot go to reply.view as data, or null (see the module comment). */
function localsProblemOf(locals: Expr, ctx: FormContext): string | null {
  const kind = ctx.kindOf(locals);
  if (kind === 'string' || kind === 'number') return 'res.render(view, locals) with locals that are not an object';
  if (locals.type !== 'ObjectExpression') return null;
  const keys: string[] = locals.properties.flatMap((p: Expr) => (p.type === 'ObjectProperty' && !p.computed ? [p.key.type === 'Identifier' ? p.key.name : String(p.key.value)] : []));
  const option = keys.find((k) => ENGINE_OPTION_LOCALS.has(k));
  return option ? `res.render(view, { ${option}: … }): Express's view engine reads the local '${option}' as a compile option, @fastify/view passes it as data only` : null;
}
