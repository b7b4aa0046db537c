/**
 * The app's other error and 404 handlers defined in the module of the handler being planned, by
 * the name the module binds each to (`const handler = (err, req, res, next) => …`): a call of one
 * that hands the request and response on (handler-rewrite/forwards.ts, express-rest-boilerplate's
 * `return handler(err, req, res)`) moves with it, and a use of this handler inside one of them is
 * such a call, not a use by code that stays on Express (plan.ts Partner).
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Location } from '../../analyzer/model.js';
import type { PlanContext } from '../model.js';
import { functionAt, located, type Node } from '../lib/ast.js';

/** Another handler of the app in the same module. */
export interface Sibling {
  id: string;
  /** The module's binding of its function (a call can name it), else null (`exports.notFound = (req, res) => …`). */
  binding: string | null;
  /** How the inventory names it (`error.notFound`). */
  name: string;
  role: 'error' | 'not-found';
  /** Where its function starts and ends (recast's lines, 1-based columns). */
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/**
 * The Express error and 404 handlers of app `appId` other than `id` whose functions are defined in
 * `file`, with the name each is bound to there (a function declaration's, or a `const`'s).
 */
export function siblingsOf(ctx: PlanContext, id: string, appId: string, file: string, def: { j: JSCodeshift; root: Collection }, source: string): Sibling[] {
  const handlers = [
    ...ctx.inventory.errorHandlers.map((h) => ({ h, role: 'error' as const })),
    ...ctx.inventory.notFoundHandlers.map((h) => ({ h, role: 'not-found' as const })),
  ].filter(({ h }) => h.id !== id && h.appId === appId && h.framework !== 'fastify' && h.definition?.file === file);
  return handlers.flatMap(({ h, role }) => {
    const fn = functionAt(def.j, def.root, h.definition!, source);
    // An exported declaration's position is its export's (recast drops the declaration's own).
    const loc = fn ? located(fn)?.loc : null;
    if (!fn || !loc) return [];
    const { start, end } = loc;
    return [{ id: h.id, binding: bindingOf(fn.node, fn.parent?.node), name: h.name, role, start: { line: start.line, column: start.column + 1 }, end: { line: end.line, column: end.column + 1 } }];
  });
}

/** The sibling whose function holds `at`, if any. */
export function siblingAt(siblings: Sibling[], at: Location): Sibling | undefined {
  const before = (a: { line: number; column: number }, b: { line: number; column: number }) => a.line < b.line || (a.line === b.line && a.column <= b.column);
  return siblings.find((s) => before(s.start, at) && before(at, s.end));
}

function bindingOf(fn: Node, parent: Node): string | null {
  if (fn.type === 'FunctionDeclaration') return fn.id?.name ?? null;
  return parent?.type === 'VariableDeclarator' && parent.init === fn && parent.id.type === 'Identifier' ? parent.id.name : null;
}
