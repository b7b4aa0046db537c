/**
 * An Express error or 404 handler function → Fastify's signature: `(err, req, res, next)` →
 * `(err, request, reply)` for `setErrorHandler`, `(req, res)` → `(request, reply)` for
 * `setNotFoundHandler`, with every `req`/`res`/`next` use rewritten through the tables of
 * transforms/lib/reply-api.ts.
 *
 * `planHandlerRewrite` looks at the function once and returns the reasons it cannot move (empty
 * when it can) and an `apply()` that rewrites it: the plan calls it to decide, the transform to
 * act, so both decide alike. Nothing is changed unless `apply()` is called.
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import { applyReplySteps, convertReplyChain, convertRequestUse, replyChainAt, type Expr, type FormContext, type ValueKind } from '../lib/reply-api.js';

/** Any AST node. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = any;

/** What the rewrite needs to know beyond the function itself. */
export interface HandlerOptions {
  role: 'error' | 'not-found';
  /**
   * `next(err)` becomes `reply.send(err)`. In an error handler that is Fastify's default error
   * handler, which is where `next(err)` from the last Express error handler went once the shim put
   * Fastify behind the app; false when another error handler follows (a chain) or the shim's
   * `--parity express` error page is the parent. In a 404 handler (`next(createError(404))`, as
   * express-generator writes it) it is Fastify's error handler: true when no app-level error
   * middleware stays on Express. When false, `next` refuses.
   */
  nextToDefault: boolean;
  /** The app sets 'json spaces' / 'json replacer' / 'json escape'. */
  jsonSettings: boolean;
  /** The file is TypeScript: typed parameters become FastifyRequest / FastifyReply. */
  typescript: boolean;
}

/** The outcome of looking at a handler. */
export interface HandlerRewrite {
  /** Why it cannot move, one reason per kind of blocker; empty when it can. */
  refusals: string[];
  /** The Fastify type names the rewritten function uses (`FastifyRequest`, `FastifyReply`); import them. */
  types: string[];
  /** Type names the rewrite removes from the function (`Request`, `Response`, `NextFunction`, `ApiError` of `Response<ApiError>`): their imports may go. */
  droppedTypes: string[];
  /** Rewrites the function in place. Only call when `refusals` is empty. */
  apply(): void;
}

/** Express's types for whole handlers (`const h: ErrorRequestHandler = (err, req, res, next) => …`). */
const EXPRESS_HANDLER_TYPES = new Set(['ErrorRequestHandler', 'RequestHandler']);

/** Body-parser error types and the Fastify error code for the same failure (mapping §2.12). */
const BODY_PARSER_CODES: Record<string, string> = {
  'entity.parse.failed': 'FST_ERR_CTP_INVALID_JSON_BODY',
  'entity.too.large': 'FST_ERR_CTP_BODY_TOO_LARGE',
};

interface Edit {
  /** Size of the node the edit replaces (innermost first, so outer edits see inner results). */
  size: number;
  run(): void;
}

/**
 * Looks at the handler function at `fn` (a FunctionDeclaration, FunctionExpression or
 * ArrowFunctionExpression path) and prepares its rewrite.
 */
export function planHandlerRewrite(j: JSCodeshift, fn: ASTPath<Node>, options: HandlerOptions): HandlerRewrite {
  const refusals = new Set<string>();
  const edits: Edit[] = [];
  const params: Node[] = fn.node.params;
  const expected = options.role === 'error' ? [4] : [2, 3];
  if (!expected.includes(params.length)) refusals.add(`it takes ${params.length} parameters (an Express ${options.role === 'error' ? 'error handler takes 4' : 'handler takes 2 or 3'})`);
  if (params.some((p) => p.type !== 'Identifier')) refusals.add('it destructures its parameters or gives them defaults');
  if (refusals.size) return { refusals: [...refusals], types: [], droppedTypes: [], apply: () => undefined };

  const [errParam, reqParam, resParam, nextParam] = options.role === 'error' ? params : [null, ...params];
  const taken = namesIn(j, fn);
  const requestName = freeName(reqParam.name.startsWith('_') ? '_request' : 'request', taken, reqParam.name);
  const replyName = freeName(resParam.name.startsWith('_') ? '_reply' : 'reply', taken, resParam.name);
  if (j(fn).find(j.Identifier, { name: 'arguments' }).filter((p) => isReference(p)).size()) refusals.add('it reads `arguments`');

  const ctxBase = { j, jsonSettings: options.jsonSettings, scope: 'app' as const, setsContentType: false };
  const resChains = referencesOf(j, fn, resParam.name).map((ref) => replyChainAt(ref));
  ctxBase.setsContentType = resChains.some((c) => c.links.some(setsContentType));
  for (const chain of resChains) {
    if (!chain.links.length) {
      refusals.add(`it passes \`${resParam.name}\` on as a value (Express's response object has no Fastify counterpart)`);
      continue;
    }
    if (fn.node.async && insideNestedFunction(chain.top, fn)) refusals.add('it is async and answers from a callback (Fastify would answer first with an empty 200)');
    const ctx: FormContext = { ...ctxBase, kindOf: (e) => kindOf(j, chain.top, e) };
    const result = convertReplyChain(chain.links, ctx);
    if ('refuse' in result) {
      refusals.add(result.refuse);
      continue;
    }
    edits.push({
      size: sizeOf(chain.top.node),
      run: () => {
        // Converted again when applied: inner edits (err.status in an argument) are in place by then.
        const now = convertReplyChain(chain.links, ctx);
        if (!('refuse' in now)) applyReplySteps(j, chain.links, now.links);
      },
    });
  }

  for (const ref of referencesOf(j, fn, reqParam.name)) {
    const use = memberUse(ref);
    if (!use) {
      refusals.add(`it passes \`${reqParam.name}\` on as a value (Express's request object is not Fastify's)`);
      continue;
    }
    if (use.written) {
      refusals.add(`it writes req.${use.member}`);
      continue;
    }
    const ctx: FormContext = { ...ctxBase, kindOf: () => 'unknown' };
    const result = convertRequestUse(use.member, use.args, j.identifier(requestName), ctx);
    if ('refuse' in result) refusals.add(result.refuse);
    // `req.method` → `request.method`: renaming the parameter is the whole edit.
    else if (!isSameMember(result.expression, use)) edits.push({ size: sizeOf(use.top.node), run: () => use.top.replace(result.expression) });
  }

  if (nextParam) {
    for (const ref of referencesOf(j, fn, nextParam.name)) {
      const isCall = ref.parent.node.type === 'CallExpression' && ref.parent.node.callee === ref.node;
      const args = isCall ? ref.parent.node.arguments : [];
      if (options.nextToDefault && isCall && args.length === 1) {
        const call = ref.parent.node;
        edits.push({ size: sizeOf(call), run: () => void (call.callee = j.memberExpression(j.identifier(replyName), j.identifier('send'))) });
      } else if (options.role === 'not-found') refusals.add(isCall && args.length === 1 ? "it passes an error on with next(err) to error middleware that stays on Express" : 'it calls next(): a Fastify not-found handler must answer');
      else if (isCall && args.length === 1) refusals.add('it passes errors on with next(err) to another error handler');
      else refusals.add(isCall ? `it calls next(${args.length ? '…' : ''}) without an error` : 'it passes `next` on as a value');
    }
  }

  if (errParam) edits.push(...errorReadEdits(j, fn, errParam, options));

  const types: string[] = [];
  // In TypeScript every parameter gets a type: an inline `app.use((req, res) => …)` was typed by
  // Express's overloads, and standing alone as a Fastify handler it would be an implicit any.
  const typedParams = options.typescript;
  const declarator = fn.parent.node.type === 'VariableDeclarator' && fn.parent.node.init === fn.node ? fn.parent : null;
  const handlerType = declarator?.node.id.typeAnnotation?.typeAnnotation;
  if (handlerType && !isExpressHandlerType(handlerType)) refusals.add('it is typed with a type the codemod does not know');
  if (typedParams || handlerType) types.push('FastifyReply', 'FastifyRequest');

  const droppedTypes = [reqParam, resParam, nextParam, declarator?.node.id].flatMap((n) => (n?.typeAnnotation ? typeNamesIn(j, n.typeAnnotation) : []));

  return {
    refusals: [...refusals],
    types,
    droppedTypes: [...new Set(droppedTypes)],
    apply() {
      for (const edit of edits.sort((a, b) => a.size - b.size)) edit.run();
      renameParam(j, fn, reqParam.name, requestName);
      renameParam(j, fn, resParam.name, replyName);
      const request = j.identifier(requestName);
      const reply = j.identifier(replyName);
      if (handlerType) {
        declarator!.node.id.typeAnnotation = null;
        if (errParam && !errParam.typeAnnotation) errParam.typeAnnotation = j.tsTypeAnnotation(j.tsAnyKeyword());
        request.typeAnnotation = j.tsTypeAnnotation(j.tsTypeReference(j.identifier('FastifyRequest')));
        reply.typeAnnotation = j.tsTypeAnnotation(j.tsTypeReference(j.identifier('FastifyReply')));
      } else if (typedParams) {
        if (errParam && !errParam.typeAnnotation) errParam.typeAnnotation = j.tsTypeAnnotation(j.tsAnyKeyword());
        request.typeAnnotation = j.tsTypeAnnotation(j.tsTypeReference(j.identifier('FastifyRequest')));
        reply.typeAnnotation = j.tsTypeAnnotation(j.tsTypeReference(j.identifier('FastifyReply')));
      }
      fn.node.params = errParam ? [errParam, request, reply] : [request, reply];
    },
  };
}

/** `err.status` reads → `err.status ?? err.statusCode`; `err.type === 'entity.parse.failed'` → `… || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'`. */
function errorReadEdits(j: JSCodeshift, fn: ASTPath<Node>, errParam: Node, options: HandlerOptions): Edit[] {
  const edits: Edit[] = [];
  const reads = referencesOf(j, fn, errParam.name).map((ref) => {
    // `(err as { status?: number }).status`: the member's object is the cast around the reference.
    let object = ref;
    while (['TSAsExpression', 'TSNonNullExpression', 'TSTypeAssertion', 'TSSatisfiesExpression'].includes(object.parent.node.type)) object = object.parent;
    const member = object.parent.node.type === 'MemberExpression' && object.parent.node.object === object.node && !object.parent.node.computed ? object.parent : null;
    return { ref, object, member, name: member?.node.property.name as string | undefined };
  });
  // A handler that reads err.statusCode already handles errors that carry only statusCode (Fastify's).
  const readsStatusCode = reads.some((r) => r.name === 'statusCode');
  const typed = options.typescript && errParam.typeAnnotation && errParam.typeAnnotation.typeAnnotation.type !== 'TSAnyKeyword';
  // `err.statusCode`; in TypeScript, where `err` has a type, `(err as { statusCode?: number }).statusCode`
  // (parsed from text, so recast prints it on one line with its parentheses).
  const access = (object: Node, prop: string, type: 'number' | 'string') =>
    typed || object.type !== 'Identifier'
      ? j(`(${errParam.name} as { ${prop}?: ${type} }).${prop}`).find(j.MemberExpression).paths()[0].node
      : j.memberExpression(j.identifier(errParam.name), j.identifier(prop));
  for (const r of reads) {
    if (!r.member) continue;
    if (r.name === 'status' && !readsStatusCode && !isWritten(r.member) && !guardedByInstanceof(r.member, errParam.name, fn)) {
      const member = r.member;
      edits.push({ size: sizeOf(member.node), run: () => member.replace(j.logicalExpression('??', member.node, access(r.object.node, 'statusCode', 'number'))) });
    }
    if (r.name === 'type') {
      const comparison = r.member.parent;
      const cmp = comparison.node;
      if (cmp.type !== 'BinaryExpression' || !['===', '==', '!==', '!='].includes(cmp.operator)) continue;
      const literal = cmp.left === r.member.node ? cmp.right : cmp.right === r.member.node ? cmp.left : null;
      const code = literal?.type === 'StringLiteral' ? BODY_PARSER_CODES[literal.value] : undefined;
      if (!code) continue;
      const negated = cmp.operator.startsWith('!');
      edits.push({
        size: sizeOf(cmp),
        run: () => comparison.replace(j.logicalExpression(negated ? '&&' : '||', comparison.node, j.binaryExpression(cmp.operator, access(r.object.node, 'code', 'string'), j.stringLiteral(code)))),
      });
    }
  }
  return edits;
}

/** Whether `member` sits where `err instanceof X` holds: the consequent of an `if`/`?:` testing it, or the right of `&&`. */
function guardedByInstanceof(member: ASTPath<Node>, errName: string, fn: ASTPath<Node>): boolean {
  const tests = (node: Node): boolean =>
    !!node &&
    ((node.type === 'BinaryExpression' && node.operator === 'instanceof' && node.left.type === 'Identifier' && node.left.name === errName) ||
      (node.type === 'LogicalExpression' && node.operator === '&&' && (tests(node.left) || tests(node.right))));
  for (let p: ASTPath<Node> = member; p.parent && p !== fn; p = p.parent) {
    const parent = p.parent.node;
    if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && parent.consequent === p.node && tests(parent.test)) return true;
    if (parent.type === 'LogicalExpression' && parent.operator === '&&' && parent.right === p.node && tests(parent.left)) return true;
  }
  return false;
}

/** Whether a member path is assigned to or updated. */
function isWritten(member: ASTPath<Node>): boolean {
  const parent = member.parent.node;
  return (parent.type === 'AssignmentExpression' && parent.left === member.node) || parent.type === 'UpdateExpression';
}

/** `req.member` or `req.member(…)` at one reference; null when `req` is used otherwise. */
function memberUse(ref: ASTPath<Node>): { member: string; args: Expr[] | null; top: ASTPath<Node>; written: boolean } | null {
  const parent = ref.parent;
  if (parent.node.type !== 'MemberExpression' || parent.node.object !== ref.node || parent.node.computed) return null;
  const member = parent.node.property.name as string;
  const grand = parent.parent;
  if (grand.node.type === 'CallExpression' && grand.node.callee === parent.node) return { member, args: grand.node.arguments, top: grand, written: false };
  return { member, args: null, top: parent, written: isWritten(parent) };
}

function isSameMember(expression: Node, use: { member: string; args: Expr[] | null }): boolean {
  return use.args === null && expression.type === 'MemberExpression' && expression.object.type === 'Identifier' && !expression.computed && expression.property.name === use.member;
}

function setsContentType(link: { member: string; args: Expr[] | null }): boolean {
  if (link.member === 'type' || link.member === 'contentType') return true;
  if ((link.member === 'set' || link.member === 'header') && link.args?.length) {
    const first = link.args[0];
    if (first.type === 'StringLiteral') return first.value.toLowerCase() === 'content-type';
    return first.type !== 'ObjectExpression' || first.properties.some((p: Node) => /^content-type$/i.test(p.key?.name ?? p.key?.value ?? ''));
  }
  return false;
}

/**
 * What a value is, as far as a reader can tell without running it: literals, templates, string
 * concatenation, conditionals of one kind, and `const` names bound to those.
 */
function kindOf(j: JSCodeshift, at: ASTPath<Node>, expr: Node, depth = 0): ValueKind {
  if (!expr || depth > 4) return 'unknown';
  switch (expr.type) {
    case 'ObjectExpression':
    case 'ArrayExpression':
      return 'object';
    case 'StringLiteral':
    case 'TemplateLiteral':
      return 'string';
    case 'NullLiteral':
      return 'nullish';
    case 'NumericLiteral':
      return 'number';
    case 'BinaryExpression':
      return expr.operator === '+' && (kindOf(j, at, expr.left, depth + 1) === 'string' || kindOf(j, at, expr.right, depth + 1) === 'string') ? 'string' : 'unknown';
    case 'ConditionalExpression': {
      const a = kindOf(j, at, expr.consequent, depth + 1);
      return a === kindOf(j, at, expr.alternate, depth + 1) ? a : 'unknown';
    }
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'TSSatisfiesExpression':
      return kindOf(j, at, expr.expression, depth + 1);
    case 'CallExpression':
      return expr.callee.type === 'Identifier' && expr.callee.name === 'String' ? 'string' : 'unknown';
    case 'Identifier': {
      if (expr.name === 'undefined') return 'nullish';
      const scope = at.scope?.lookup(expr.name);
      const bindings = scope?.getBindings()[expr.name];
      if (!bindings || bindings.length !== 1) return 'unknown';
      const declarator = bindings[0].parent;
      const declaration = declarator?.parent;
      if (declarator?.node.type !== 'VariableDeclarator' || declarator.node.id !== bindings[0].node || declaration?.node.kind !== 'const') return 'unknown';
      return kindOf(j, declarator, declarator.node.init, depth + 1);
    }
    default:
      return 'unknown';
  }
}

/** Names of the types a type annotation refers to (`Response<ApiError>` → Response, ApiError). */
function typeNamesIn(j: JSCodeshift, annotation: Node): string[] {
  const names: string[] = [];
  j(annotation)
    .find(j.TSTypeReference)
    .forEach((p) => {
      const name = p.node.typeName;
      names.push(name.type === 'Identifier' ? name.name : (name as Node).left.name);
    });
  return names;
}

function isExpressHandlerType(type: Node): boolean {
  if (type.type !== 'TSTypeReference' || type.typeParameters) return false;
  const name = type.typeName.type === 'Identifier' ? type.typeName.name : type.typeName.right?.name;
  return EXPRESS_HANDLER_TYPES.has(name);
}

/** Identifier paths in `fn` that refer to its parameter `name` (not shadowed, not property keys). */
export function referencesOf(j: JSCodeshift, fn: ASTPath<Node>, name: string): Array<ASTPath<Node>> {
  const param = fn.node.params.find((p: Node) => p.type === 'Identifier' && p.name === name);
  return j(fn.get('body'))
    .find(j.Identifier, { name })
    .filter((p) => isReference(p) && p.node !== param && p.scope?.lookup(name) === fn.scope)
    .paths();
}

/** Whether an Identifier path reads a binding (not a property name, key, label or type name). */
function isReference(p: ASTPath<Node>): boolean {
  const parent = p.parent?.node;
  if (!parent) return true;
  if ((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') && parent.property === p.node && !parent.computed) return false;
  if ((parent.type === 'ObjectProperty' || parent.type === 'ClassProperty' || parent.type === 'ObjectMethod') && parent.key === p.node && !parent.computed && !(parent.shorthand && parent.value === p.node)) return false;
  if (parent.type === 'LabeledStatement' || parent.type === 'BreakStatement' || parent.type === 'ContinueStatement') return false;
  if (/^TS/.test(parent.type) && parent.type !== 'TSAsExpression' && parent.type !== 'TSNonNullExpression' && parent.type !== 'TSSatisfiesExpression' && parent.type !== 'TSTypeAssertion') return false;
  return true;
}

function renameParam(j: JSCodeshift, fn: ASTPath<Node>, from: string, to: string): void {
  if (from === to) return;
  for (const ref of referencesOf(j, fn, from)) ref.node.name = to;
}

/** Every identifier name used in `fn` (to keep new names free of collisions). */
function namesIn(j: JSCodeshift, fn: ASTPath<Node>): Set<string> {
  const names = new Set<string>();
  j(fn).find(j.Identifier).forEach((p) => void names.add(p.node.name));
  return names;
}

/** `base`, else `fastify<Base>`, else `base2`, `base3`, … — whichever `taken` does not hold (`own` is the name being replaced). */
function freeName(base: string, taken: Set<string>, own: string): string {
  const free = (n: string) => n === own || !taken.has(n);
  if (free(base)) return base;
  const prefixed = `fastify${base.replace(/^_/, '')[0].toUpperCase()}${base.replace(/^_/, '').slice(1)}`;
  if (free(prefixed)) return prefixed;
  for (let i = 2; ; i++) if (free(`${base}${i}`)) return `${base}${i}`;
}

function insideNestedFunction(p: ASTPath<Node>, fn: ASTPath<Node>): boolean {
  for (let q = p.parent; q && q !== fn; q = q.parent) if (/Function|ObjectMethod|ClassMethod/.test(q.node.type)) return true;
  return false;
}

function sizeOf(node: Node): number {
  return typeof node.start === 'number' && typeof node.end === 'number' ? node.end - node.start : Number.MAX_SAFE_INTEGER;
}
