/**
 * The handler's rewrite, with the helper functions it hands `req` to (`ownOrder(req)`) rewritten too
 * when each is a function of the same module whose uses all convert (role `helper`): then the call
 * passes `request`. The helpers' moves and the places that refer to them go to `state`, so the
 * route moves only when every one of those places moves with it (settle).
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { planHandlerRewrite, type HandlerOptions, type HandlerRewrite } from '../handler-rewrite/rewrite.js';
import type { Node } from '../lib/ast.js';
import { collect, type RouteState } from './state.js';

/** The rewrite of the handler at `fn` (in `file`), and the names of the helpers rewritten with it (empty: none). */
export function withHelpers(state: RouteState, file: string, parsedFile: { j: JSCodeshift; root: Collection }, fn: ASTPath<Node>, options: HandlerOptions): { rewrite: HandlerRewrite; helpers: string[] } {
  const first = planHandlerRewrite(parsedFile.j, fn, options);
  if (!first.helperCalls.length) return { rewrite: first, helpers: [] };
  const names = new Set(first.helperCalls);
  const found = first.helperCalls.map((name) => moduleFunction(parsedFile, name));
  if (found.some((f) => !f)) return { rewrite: first, helpers: [] };
  const rewrite = planHandlerRewrite(parsedFile.j, fn, { ...options, helpers: names });
  for (const [i, helper] of found.entries()) {
    const helperOptions: HandlerOptions = { ...options, role: 'helper', helpers: names };
    const own = planHandlerRewrite(parsedFile.j, helper!.fn, helperOptions);
    if (own.refusals.length) return { rewrite: { ...rewrite, refusals: [...rewrite.refusals, `its helper ${first.helperCalls[i]} ${own.refusals.join('; ')}`], waitsFor: undefined }, helpers: [] };
    collect(state, own);
    state.helpers.push({ file, fn: helper!.fn, options: { ...options, role: 'helper' }, names: [...names], references: helper!.references });
  }
  return { rewrite, helpers: [...names] };
}

/** A function declared at the top level of the module under `name`, and the places that refer to it (start offsets). */
function moduleFunction(file: { j: JSCodeshift; root: Collection }, name: string): { fn: ASTPath<Node>; references: number[] } | null {
  const declaration = file.root.find(file.j.FunctionDeclaration, { id: { name } }).filter((p) => p.parent.node.type === 'Program' || /^Export/.test(p.parent.node.type)).paths()[0];
  if (!declaration) return null;
  const references = file.root
    .find(file.j.Identifier, { name })
    .filter((p) => p.node !== declaration.node.id && !(p.parent.node.type === 'MemberExpression' && p.parent.node.property === p.node && !p.parent.node.computed))
    .nodes()
    .map((n) => (n as Node).start as number);
  return { fn: declaration, references };
}
