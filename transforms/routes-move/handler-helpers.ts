/**
 * The handler's rewrite, with the helper functions it hands `req` or `res` to rewritten too (role
 * `helper`): `ownOrder(req)`, `await sendLink(user, req)`, `generateToken(res, user._id)` — a
 * function of the handler's module, or one it imports from another module of the project (its
 * import resolved as the analyzer resolved it, the function found by its export) — when every use
 * the helper makes of them converts. The call then passes `request` / `reply`, at the same position.
 * The helpers' moves and every place that calls them go to `state`, so the route moves only when
 * each of those places is a handler that moves with it (settle); otherwise nothing is rewritten.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { planHandlerRewrite, type HandlerOptions, type HandlerRewrite } from '../handler-rewrite/rewrite.js';
import { functionPaths, isTypeScript, pathsOfType, type Node } from '../lib/ast.js';
import { placementOf, type ImportForm } from '../lib/exports.js';
import { parsedFiles } from '../lib/parsed-files.js';
import { otherUseNodes } from '../lib/references.js';
import type { PlanContext } from '../model.js';
import { collect, type RouteState } from './state.js';
import { requestHandOffsIn } from './request-hand-offs.js';

/** A parsed module: what the helpers are looked up in. */
type Parsed = { j: JSCodeshift; root: Collection };

/** A helper function found for a callee name: its module, node, and the places that call it (offsets in their files). */
interface HelperDefinition {
  file: string;
  parsed: Parsed;
  fn: ASTPath<Node>;
  references: Array<{ file: string; at: number; line: number }>;
}

/**
 * The rewrite of the handler at `fn` (in `file`), and the names of the helpers rewritten with it
 * (empty: none). A helper that is not found leaves the handler's refusal ("passes `req` on as a
 * value") as it is; one whose rewrite refuses adds its reasons to the handler's.
 */
export function withHelpers(ctx: PlanContext, state: RouteState, file: string, parsedFile: Parsed, fn: ASTPath<Node>, options: HandlerOptions): { rewrite: HandlerRewrite; helpers: string[] } {
  const first = planHandlerRewrite(parsedFile.j, fn, options);
  if (!first.helperCalls.length) return { rewrite: first, helpers: [] };
  const names = new Set(first.helperCalls);
  const found = first.helperCalls.map((name) => helperDefinition(ctx, file, parsedFile, name));
  if (found.some((f) => !f)) return { rewrite: first, helpers: [] };
  const rewrite = planHandlerRewrite(parsedFile.j, fn, { ...options, helpers: names });
  const refuse = (name: string, reasons: string[], waitsFor?: 'plugins') => ({
    rewrite: { ...rewrite, refusals: [...rewrite.refusals, `it calls its helper ${name}: ${reasons.join('; ')}`], waitsFor: waitsFor && (!rewrite.refusals.length || rewrite.waitsFor === waitsFor) ? waitsFor : undefined },
    helpers: [],
  });
  for (const [i, helper] of found.entries()) {
    const name = first.helperCalls[i];
    const at = first.helperArguments[name];
    if (at.request.length > 1 || at.reply.length > 1) return refuse(name, ['is called with the request or response at different positions']);
    const helperParams = { ...(at.request.length ? { request: at.request[0] } : {}), ...(at.reply.length ? { reply: at.reply[0] } : {}) };
    // A helper of the same module may hand them on to the handler's other helpers; one of another module to none.
    const sameModule = helper!.file === file;
    const helperOptions: HandlerOptions = { ...options, role: 'helper', helperParams, typescript: isTypeScript(helper!.file), requestHandOffs: requestHandOffsIn(ctx, state.route, helper!.file).requestHandOffs };
    const own = planHandlerRewrite(helper!.parsed.j, helper!.fn, sameModule ? { ...helperOptions, helpers: names } : helperOptions);
    if (own.refusals.length) return refuse(name, own.refusals, own.waitsFor);
    // The like-express functions it calls are imported where it is, not in the handler's file.
    collect(state, { ...own, likeExpress: [] });
    state.helpers.push({ file: helper!.file, fn: helper!.fn, options: helperOptions, names: sameModule ? [...names] : [], references: helper!.references, likeExpress: own.likeExpress });
  }
  return { rewrite, helpers: [...names] };
}

/** The function a callee name in `file` stands for: a top-level function of the module, or one it imports from a project module. */
function helperDefinition(ctx: PlanContext, file: string, parsed: Parsed, name: string): HelperDefinition | null {
  const local = moduleFunction(parsed, name);
  const imported = local ? null : importedFunction(ctx, file, parsed, name);
  const where = local ? { file, parsed, fn: local } : imported;
  if (!where) return null;
  const placement = placementOf(where.parsed.j, where.parsed.root, where.fn);
  const binding = placement.kind === 'nested' ? null : placement.name || null;
  // Nested in something else: there is no telling who calls it.
  if (placement.kind === 'nested') return null;
  const uses = otherUseNodes(ctx, { file: where.file, binding, form: placement.kind === 'exported' ? placement.form : null, range: [where.fn.node.start, where.fn.node.end] }, []);
  return { ...where, references: uses.map((u) => ({ file: u.file, at: u.node.start as number, line: u.node.loc?.start.line as number })) };
}

/** A function declared at the top level of the module under `name` (`function name`, `const name = (…) => …`). */
function moduleFunction(file: Parsed, name: string): ASTPath<Node> | null {
  const top = (p: ASTPath<Node>) => p.parent.node.type === 'Program' || /^Export/.test(p.parent.node.type);
  const declaration = pathsOfType(file.j, file.root, 'FunctionDeclaration').find((p) => p.node.id?.name === name && top(p));
  if (declaration) return declaration;
  const declarator = pathsOfType(file.j, file.root, 'VariableDeclarator').find((p) => p.node.id.type === 'Identifier' && p.node.id.name === name && top(p.parent));
  const init = declarator?.get('init');
  return init && /^(FunctionExpression|ArrowFunctionExpression)$/.test(init.node?.type) ? init : null;
}

/**
 * The function `name` is imported as in `file` (`import { fmt } from './fmt'`, `import token from
 * './token'`, `const token = require('./token')`, `const { fmt } = require('./fmt')`), found in its
 * module by how that module exports it; null for a package, an unresolved module or another value.
 */
function importedFunction(ctx: PlanContext, file: string, parsed: Parsed, name: string): { file: string; parsed: Parsed; fn: ASTPath<Node> } | null {
  const binding = importBinding(parsed, name);
  const target = binding && ctx.inventory.files.find((f) => f.file === file)?.imports.find((i) => i.specifier === binding.specifier)?.resolved;
  if (!binding || !target || ctx.readFile(target) === null) return null;
  const module = parsedFiles(ctx)(target);
  if (!module) return null;
  const fn = functionPaths(module.j, module.root).find((p) => {
    const placement = placementOf(module.j, module.root, p);
    return placement.kind === 'exported' && sameForm(placement.form, binding.form);
  });
  return fn ? { file: target, parsed: module, fn } : null;
}

/** How `name` is bound to an import of a relative module: its specifier and the export it takes. */
function importBinding(parsed: Parsed, name: string): { specifier: string; form: ImportForm } | null {
  const { j, root } = parsed;
  const relative = (s: unknown): s is string => typeof s === 'string' && s.startsWith('.');
  for (const p of pathsOfType(j, root, 'ImportDeclaration')) {
    if (!relative(p.node.source.value)) continue;
    for (const s of (p.node.specifiers ?? []) as Node[]) {
      if (s.local.name !== name) continue;
      if (s.type === 'ImportDefaultSpecifier') return { specifier: p.node.source.value, form: { kind: 'default' } };
      if (s.type === 'ImportSpecifier') return { specifier: p.node.source.value, form: { kind: 'named', name: s.imported.name } };
    }
  }
  for (const p of pathsOfType(j, root, 'VariableDeclarator')) {
    const init = p.node.init as Node;
    const from = init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' ? init.arguments[0]?.value : undefined;
    if (!relative(from) || p.parent.parent.node.type !== 'Program') continue;
    // `const token = require('./token')`: the module's `module.exports = function …`.
    if (p.node.id.type === 'Identifier' && p.node.id.name === name) return { specifier: from, form: { kind: 'default' } };
    if (p.node.id.type === 'ObjectPattern') {
      const prop = (p.node.id.properties as Node[]).find((q) => q.type === 'ObjectProperty' && q.value?.type === 'Identifier' && q.value.name === name && q.key.type === 'Identifier');
      if (prop) return { specifier: from, form: { kind: 'named', name: prop.key.name } };
    }
  }
  return null;
}

function sameForm(a: ImportForm, b: ImportForm): boolean {
  return a.kind === b.kind && (a.kind === 'default' || (b.kind === 'named' && a.name === b.name));
}
