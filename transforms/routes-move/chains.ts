/**
 * Routes registered with arrays of functions, which Express flattens into one chain (Express 4
 * lib/router/route.js `flatten(slice.call(arguments))`, Express 5 router `flatten.call(…, Infinity)`):
 * a controller given as an array — the MDN tutorial's `exports.author_create_post = [body('first_name')
 * .trim()…, (req, res, next) => {…}]` registered as `router.post('/author/create', ctrl.author_create_post)`
 * — or middleware held in an array (`const articleAuth = [requiresLogin, hasAuthorization]`,
 * `app.get('/articles/:id/edit', articleAuth, articles.edit)`).
 *
 * Such a route becomes `fastify.post(path, expressChain(ctrl.author_create_post))`, or with
 * several arguments `expressChain([auth, ...articleAuth, handler], [hooks])`: the hooks module's
 * `expressChain` reads the array when the route is registered, runs every function but the last
 * through `expressMiddleware` (after `hooks`: param callbacks, Express 5 wildcards) and gives the
 * last — rewritten to `(request, reply)` where it is defined — as the handler. Reading the array at
 * run time keeps the route exact when the app's developers edit the array later.
 *
 * The analyzer says where each function stands (model.ts ArgumentSlot); this module checks that the
 * registration's arguments are those functions, one level of arrays deep.
 */
import type { ChainEntry, Handler } from '../../analyzer/model.js';
import { textOf, type Node } from '../lib/ast.js';
import type { MethodRegistration } from '../lib/route-statement.js';

/** A route's chain as `expressChain` takes it (PluginRoute.chain). */
export interface ArrayChain {
  /** Source text of each registration argument after the path, in order, arrays spread (`...articleAuth`); the handler's own argument, when it is not in an array, left out. */
  elements: string[];
  /** The handler is the last element of the last argument, an array. */
  handlerInArray: boolean;
}

/**
 * The chain of a route whose registration gives functions in arrays; null when it gives none
 * (every function an argument of its own); a refusal when the arguments cannot be matched to the
 * analyzed functions, or an array is written in a way `expressChain` cannot take.
 * `own`: the route's own middleware in order (route-blockers.ts ownChain).
 */
export function arrayChain(own: ChainEntry[], handler: Handler, registration: MethodRegistration): ArrayChain | { refuse: string } | null {
  const slots = [...own.map((e) => e.slot), handler.slot];
  if (!slots.some((s) => s?.element)) return null;
  if (slots.some((s) => !s)) return { refuse: 'its registration gives functions in arrays that the analysis did not place' };
  if (slots.some((s) => (s!.element?.length ?? 0) > 1)) return { refuse: 'its registration nests arrays of functions in arrays; flatten them into one array' };
  const args = [...registration.middleware, registration.handler.node];
  if (handler.slot!.argument !== args.length - 1) return { refuse: 'its handler is not where the analysis put it in its registration' };
  const elements: string[] = [];
  let handlerInArray = false;
  for (const [i, node] of args.entries()) {
    const mine = slots.filter((s) => s!.argument === i);
    const last = i === args.length - 1;
    if (!mine.some((s) => s!.element)) {
      if (mine.length !== 1) return { refuse: `the analysis lists ${mine.length} functions for argument ${i + 2} of its registration, which is not an array` };
      if (!last) elements.push(textOf(node) ?? '');
      continue;
    }
    // Every element, in order: an error handler among them (left out of the chain by the analysis) leaves a gap.
    if (!mine.every((s, k) => s!.element?.[0] === k)) return { refuse: `the array at argument ${i + 2} of its registration holds something other than middleware (an error handler?)` };
    const spread = arrayElements(node);
    if ('refuse' in spread) return spread;
    elements.push(...spread.texts);
    handlerInArray = last;
  }
  return { elements, handlerInArray };
}

/** `...name` for an array held in a variable or property; the elements of an array written in place, when each is a reference or a call (a function written there would stay behind in the deleted registration). */
function arrayElements(node: Node): { texts: string[] } | { refuse: string } {
  if (node.type === 'Identifier' || node.type === 'MemberExpression') return { texts: [`...${textOf(node)}`] };
  if (node.type !== 'ArrayExpression') return { refuse: `its registration gives an array of functions as \`${textOf(node)}\`; name it (a variable or property)` };
  const elements: Node[] = node.elements;
  if (elements.some((e) => !e || /Function/.test(e.type))) return { refuse: 'its registration writes a function inside an array; give the function as an argument of its own' };
  return { texts: elements.map((e) => textOf(e) ?? '') };
}
