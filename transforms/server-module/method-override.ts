/**
 * The generated server module applies the app's method-override (header form) before Fastify routes
 * (transforms/routes-move/method-override.ts): the request listener calls
 * `overrideMethodForRouting(req, header, methods)` before `fastify.routing(req, res)`, and the
 * bridge calls `restoreMethodForExpress(req)` before it runs the Express app, which then sees the
 * method as sent and applies its own method-override again — so the app's middleware, its
 * `req.originalMethod` and method-override's `Vary` header are Express's, and Fastify picks the
 * route Express picked. Both functions are written into the module, once (JavaScript modules:
 * a TypeScript one refuses).
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { bridgeCall, calls, statements } from './hand-over.js';

type Quote = 'single' | 'double';

/** The override the listener applies: the header (lower-cased, as Node keys it), the methods it applies to, where the app registers it. */
export interface MethodOverride {
  header: string;
  methods: string[];
  /** `src/config/express.js:31`, for the generated comment. */
  at: string;
}

const OVERRIDE = 'overrideMethodForRouting';
const RESTORE = 'restoreMethodForExpress';

/** Whether the generated module's source applies the app's method override before Fastify routes (its listener calls overrideMethodForRouting). */
export function appliesMethodOverride(source: string): boolean {
  return source.includes(`${OVERRIDE}(`);
}

/**
 * Why the module (`file`) cannot apply the override, or null: a TypeScript module, no
 * `function requestListener` returning `(req, res) => { … fastify.routing(req, res) … }` as the
 * shim wrote it, no bridge running `app(req, res, next)`, or no binding of `node:http`.
 */
export function methodOverrideRefusal(j: JSCodeshift, root: Collection, file: string): string | null {
  if (/\.[cm]?ts$/.test(file)) return `${file} is TypeScript, where the listener's method override is not written yet`;
  if (!listenerBody(j, root)) return `the request listener of ${file} (function requestListener) does not route as the shim wrote it, so the app's method override cannot be applied before Fastify routes`;
  if (!bridgeCall(j, root)) return `the bridge of ${file} (function expressBridge) does not run the Express app as the shim wrote it, \`app(req, res, next)\``;
  if (!httpBinding(j, root)) return `${file} does not import node:http, which the method override reads the known methods from`;
  return null;
}

/**
 * Adds the override to the listener and the restore to the bridge, each once, and the two
 * functions at the end of the module when it lacks them.
 * @returns whether the module changed.
 * @throws Error when methodOverrideRefusal would refuse.
 */
export function addMethodOverride(j: JSCodeshift, root: Collection, override: MethodOverride, quote: Quote): boolean {
  const listener = listenerBody(j, root);
  const bridge = bridgeCall(j, root);
  const http = httpBinding(j, root);
  if (!listener || !bridge || !http) throw new Error('the generated module has no request listener, bridge or node:http binding to apply the method override in');
  const q = quote === 'double' ? '"' : "'";
  let changed = false;
  const body: Node[] = listener.body;
  if (!body.some((s) => calls(s, OVERRIDE))) {
    const [req] = listener.params;
    const text = [
      `// The app's method-override (${override.at}) re-routes a request by a header before Express's routes match;`,
      '// Fastify routes before any middleware runs, so the override is applied here first.',
      `${OVERRIDE}(${req}, ${q}${override.header}${q}, [${override.methods.map((m) => `${q}${m}${q}`).join(', ')}]);`,
    ].join('\n');
    body.unshift(...statements(j, text));
    changed = true;
  }
  const bridgeBody: Node[] = bridge.statement.parent.node.body;
  if (!bridgeBody.some((s) => calls(s, RESTORE))) {
    const text = [`// Express sees the method as sent: the app's method-override applies the header again.`, `${RESTORE}(${bridge.names[1]});`].join('\n');
    bridgeBody.splice(bridgeBody.indexOf(bridge.statement.node), 0, ...statements(j, text));
    changed = true;
  }
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  if (!program.some((s) => s.type === 'FunctionDeclaration' && s.id?.name === OVERRIDE)) {
    const exportsAt = program.findIndex((s) => isModuleExports(s));
    program.splice(exportsAt === -1 ? program.length : exportsAt, 0, ...statements(j, functions(http, q)));
    changed = true;
  }
  return changed;
}

/** The listener's returned `(req, res) => { … }`: its statements and parameter names. */
function listenerBody(j: JSCodeshift, root: Collection): { body: Node[]; params: [string, string] } | null {
  const listener = root.find(j.FunctionDeclaration, { id: { name: 'requestListener' } }).paths()[0];
  if (!listener) return null;
  const inner = j(listener)
    .find(j.ReturnStatement)
    .paths()
    .map((p) => p.node.argument as Node)
    .find((f) => f?.type === 'FunctionExpression' || f?.type === 'ArrowFunctionExpression');
  const params: string[] = (inner?.params ?? []).map((p: Node) => (p.type === 'Identifier' ? p.name : ''));
  if (!inner || params.length !== 2 || params.includes('') || inner.body.type !== 'BlockStatement') return null;
  if (!j(inner.body).toSource().includes(`.routing(${params[0]}, ${params[1]})`)) return null;
  return { body: inner.body.body, params: [params[0], params[1]] };
}

/** The module's local name for `node:http` (`import http from 'node:http'`, `const http = require('node:http')`), or null. */
function httpBinding(j: JSCodeshift, root: Collection): string | null {
  for (const p of root.find(j.ImportDeclaration).paths()) {
    if (!/^(node:)?http$/.test(String(p.node.source.value))) continue;
    const s: Node = (p.node.specifiers ?? []).find((x: Node) => x.type === 'ImportDefaultSpecifier' || x.type === 'ImportNamespaceSpecifier');
    if (s?.local?.type === 'Identifier') return s.local.name as string;
  }
  for (const p of root.find(j.VariableDeclarator).paths()) {
    const init = p.node.init as Node;
    if (p.node.id.type === 'Identifier' && init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' && /^(node:)?http$/.test(String(init.arguments[0]?.value))) return p.node.id.name;
  }
  return null;
}

function isModuleExports(s: Node): boolean {
  const e = s.type === 'ExpressionStatement' ? s.expression : null;
  return e?.type === 'AssignmentExpression' && e.left.type === 'MemberExpression' && e.left.object.type === 'Identifier' && e.left.object.name === 'module' && e.left.property.name === 'exports';
}

/** The two functions, as method-override 3.0.0 decides (index.js `methodOverride`, `createHeaderGetter`, `supports`). */
function functions(http: string, q: string): string {
  return [
    '/**',
    ' * Where overrideMethodForRouting keeps the method a request was sent with (a string key: only ES5',
    ' * globals in the generated modules).',
    ' */',
    `const METHOD_AS_SENT = ${q}_migrateMethodAsSent${q};`,
    '',
    '/**',
    " * method-override's header form, applied before Fastify routes as the app's middleware applied it",
    " * before Express's routes matched (method-override 3.0.0): on a request sent with one of `methods`,",
    " * the first comma-separated value of the header, trimmed, upper-cased, when it names a method Node",
    ' * knows. The method as sent is kept for restoreMethodForExpress.',
    ' */',
    `function ${OVERRIDE}(req, header, methods) {`,
    '  if (methods.indexOf(req.method) === -1) return;',
    '  const value = req.headers[header];',
    '  if (!value) return;',
    `  const comma = value.indexOf(${q},${q});`,
    '  const method = comma !== -1 ? value.substr(0, comma).trim() : value.trim();',
    `  if (!method || ${http}.METHODS.map((m) => m.toLowerCase()).indexOf(method.toLowerCase()) === -1) return;`,
    '  req[METHOD_AS_SENT] = req.method;',
    '  req.method = method.toUpperCase();',
    '}',
    '',
    '/** Gives the Express app the method the request was sent with: its own method-override applies the header again. */',
    `function ${RESTORE}(req) {`,
    '  if (req[METHOD_AS_SENT] === undefined) return;',
    '  req.method = req[METHOD_AS_SENT];',
    '  req[METHOD_AS_SENT] = undefined;',
    '}',
  ].join('\n');
}
