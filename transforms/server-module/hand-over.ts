/**
 * The generated server module learns the hand-over of moved routes (hooks-template.ts
 * handOverLines): the bridge (`expressBridge`, server-module/template.ts) calls
 * `keepFastifyContinuation(app, req, res, next)` before it runs the Express app, so that a moved
 * route's registration left in Express (`movedToFastify`) can go on to Fastify with the bridge's
 * `next`; `movedRoutes` (moved-routes.ts) marks the requests Fastify routed to a moved route
 * (`fastify.addHook('onRequest', markMovedRoute)`), the only ones handed over.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { addImport, importedLocal } from '../lib/imports.js';

type Quote = 'single' | 'double';

/** What addHandOver needs of the module: its system, and the specifier of the hooks module from it. */
export interface HandOverRegistration {
  module: 'esm' | 'commonjs';
  hooksSpecifier: string;
}

/** Where the bridge runs the Express app: the statement `app(req, res, next);` of the function `expressBridge` returns, and the names it uses. */
export interface BridgeCall {
  statement: ASTPath<Node>;
  /** `app`, `req`, `res`, `next` as the module names them. */
  names: [string, string, string, string];
}

/**
 * Why the module (`file`) cannot take a hand-over, or null: it has no `function expressBridge(app)`
 * whose returned function runs `app(req, res, next)` with its own parameters (edited by hand).
 */
export function handOverRefusal(j: JSCodeshift, root: Collection, file: string): string | null {
  return bridgeCall(j, root) ? null : `the bridge of ${file} (function expressBridge) does not run the Express app as the shim wrote it, \`app(req, res, next)\`, so a hand-over cannot go on to Fastify from it`;
}

/**
 * Adds what the hand-over needs: `keepFastifyContinuation(app, req, res, next);` before the
 * bridge runs the app, and `fastify.addHook('onRequest', markMovedRoute);` in movedRoutes (after
 * its other hooks), each once, with their imports from the hooks module.
 * @returns whether the module changed.
 * @throws Error when the module has no bridge call (handOverRefusal) or no movedRoutes
 */
export function addHandOver(j: JSCodeshift, root: Collection, entry: HandOverRegistration, quote: Quote): boolean {
  const bridge = bridgeCall(j, root);
  if (!bridge) throw new Error('the generated module has no bridge running `app(req, res, next)` to hand moved routes over from');
  const moved = root.find(j.FunctionDeclaration, { id: { name: 'movedRoutes' } }).paths()[0];
  if (!moved) throw new Error('the generated module has no function movedRoutes to mark the moved routes in');
  const q = quote === 'double' ? '"' : "'";
  const local = (name: string) => importedLocal(j, root, entry.hooksSpecifier, { kind: 'named', name }) ?? addImport(j, root, { specifier: entry.hooksSpecifier, form: { kind: 'named', name }, local: name, module: entry.module }, quote);
  let changed = false;
  const [app, req, res, next] = bridge.names;
  const keep = importedLocal(j, root, entry.hooksSpecifier, { kind: 'named', name: 'keepFastifyContinuation' });
  const body: Node[] = bridge.statement.parent.node.body;
  if (!keep || !body.some((s) => calls(s, keep))) {
    const text = [`// A moved route's registration in Express (movedToFastify) goes on to Fastify from where Express reaches it.`, `${local('keepFastifyContinuation')}(${app}, ${req}, ${res}, ${next});`].join('\n');
    body.splice(body.indexOf(bridge.statement.node), 0, ...statements(j, text));
    changed = true;
  }
  const fastify = moved.node.params[0]?.type === 'Identifier' ? moved.node.params[0].name : 'fastify';
  const mark = importedLocal(j, root, entry.hooksSpecifier, { kind: 'named', name: 'markMovedRoute' });
  const movedBody: Node[] = moved.node.body.body;
  if (!mark || !movedBody.some((s) => j(s).toSource().includes(`addHook(${q}onRequest${q}, ${mark})`))) {
    const text = ['// The requests Fastify routed here, which a hand-over in Express (movedToFastify) gives back to it.', `${fastify}.addHook(${q}onRequest${q}, ${local('markMovedRoute')});`].join('\n');
    const hooks = movedBody.map((s, i) => (/\.addHook\(/.test(j(s).toSource()) ? i : -1)).filter((i) => i >= 0);
    movedBody.splice(hooks.length ? hooks[hooks.length - 1] + 1 : 0, 0, ...statements(j, text));
    changed = true;
  }
  return changed;
}

/** The bridge's `app(req, res, next);`, or null. */
export function bridgeCall(j: JSCodeshift, root: Collection): BridgeCall | null {
  const bridge = root.find(j.FunctionDeclaration, { id: { name: 'expressBridge' } }).paths()[0];
  const app = bridge?.node.params[0];
  if (!bridge || app?.type !== 'Identifier') return null;
  const inner = j(bridge)
    .find(j.ReturnStatement)
    .paths()
    .map((p) => p.node.argument as Node)
    .find((f) => f?.type === 'FunctionExpression' || f?.type === 'ArrowFunctionExpression');
  const params: string[] = (inner?.params ?? []).map((p: Node) => (p.type === 'Identifier' ? p.name : ''));
  if (!inner || params.length !== 3 || params.includes('') || inner.body.type !== 'BlockStatement') return null;
  const passesOwn = (call: Node) => call.arguments.length === 3 && call.arguments.every((a: Node, i: number) => a.type === 'Identifier' && a.name === params[i]);
  const statement = j(inner.body)
    .find(j.ExpressionStatement)
    .filter((p) => p.parent.node === inner.body && calls(p.node, app.name) && passesOwn(p.node.expression))
    .paths()[0];
  return statement ? { statement, names: [app.name, params[0], params[1], params[2]] } : null;
}

/** Whether `statement` is a call of the function named `name` (`name(…);`). */
export function calls(statement: Node, name: string): boolean {
  const e = statement?.type === 'ExpressionStatement' ? statement.expression : null;
  return e?.type === 'CallExpression' && e.callee.type === 'Identifier' && e.callee.name === name;
}

export function statements(j: JSCodeshift, text: string): Node[] {
  return j(text).find(j.Program).paths()[0].node.body;
}

/** Statements as printed, with their leading comments (what the module would read). */
export function printed(j: JSCodeshift, nodes: Node[]): string {
  return nodes.map((n) => [...(n.comments ?? []).filter((c: Node) => c.leading).map((c: Node) => c.value.trim()), j(n).toSource()].join('\n')).join('\n');
}

/** Whether `statement` is `const <name> = …`. */
export function declares(statement: Node, name: string): boolean {
  return statement.type === 'VariableDeclaration' && statement.declarations.some((d: Node) => d.id?.type === 'Identifier' && d.id.name === name);
}
