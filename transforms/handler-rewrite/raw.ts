/**
 * How a moved route handler or hook reaches Express's own request and response, where Express
 * middleware left its data in the @fastify/express bridge (express-fastify-mapping.md §4.3):
 *
 * - JavaScript: `request.raw.<member>` and `reply.raw.locals`.
 * - TypeScript: `request.raw` is Node's IncomingMessage, so it is cast to the file's name for
 *   Express's `Request` once, in a const at the top of the function (`const expressRequest =
 *   request.raw as Request;`, then `expressRequest.user`): a cast written at every use
 *   (`(request.raw as Request).user`) is not a reference TypeScript narrows, so
 *   `if (!req.file) return; req.file.size` would stop type-checking. `res.locals` (a record of
 *   any) needs no narrowing: `(reply.raw as Response).locals` in place.
 * When the file has no name for Express's type, a type-only import is reported (`imports()`).
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import type { Expr } from './forms.js';
import type { Node } from '../lib/ast.js';
import { freeName } from './ast.js';
import { expressTypeRef, type ExpressTypeNames, type TypeImport } from './types.js';

/** The plan's access to the raw objects: builders for the edits, the declaration and the imports. */
export interface RawAccess {
  /** Records at plan time that the rewrite reaches Express's `Request` or `Response`. */
  use(kind: 'Request' | 'Response'): void;
  /** What replaces the `req` of a member the rewrite keeps on Express's request. */
  request(req: Expr): Expr;
  /** What a `raw` reply step reads on (`reply.raw`, cast in TypeScript). */
  response(res: Expr): Expr;
  /** Adds the TypeScript const for the raw request at the top of `fn` (after the other edits). */
  declare(fn: ASTPath<Node>, requestName: string): void;
  /** The type-only imports the casts need. */
  imports(): TypeImport[];
}

/**
 * Plans the raw access of one function. `names`: Express's type names in the file (null in
 * JavaScript); `fileNames`: identifiers used in the file (for a type import's local);
 * `fnNames`: identifiers used in the function (for the const's name).
 */
export function planRawAccess(j: JSCodeshift, names: ExpressTypeNames | null, fileNames: Set<string>, fnNames: Set<string>): RawAccess {
  const used = new Set<'Request' | 'Response'>();
  const refs = new Map<'Request' | 'Response', ReturnType<typeof expressTypeRef>>();
  const refOf = (kind: 'Request' | 'Response') => {
    if (!refs.has(kind)) refs.set(kind, expressTypeRef(kind, names!, new Set([...fileNames, ...[...refs.values()].map((r) => r.text)])));
    return refs.get(kind)!;
  };
  const typeNode = (text: string) => {
    const [left, right] = text.split('.');
    return j.tsTypeReference(right ? j.tsQualifiedName(j.identifier(left), j.identifier(right)) : j.identifier(left));
  };
  const alias = freeName('expressRequest', fnNames, '');
  return {
    use(kind) {
      used.add(kind);
      if (names) refOf(kind);
    },
    request(req) {
      return names ? j.identifier(alias) : j.memberExpression(req, j.identifier('raw'));
    },
    response(res) {
      const member = j.memberExpression(res, j.identifier('raw'));
      return names ? j.parenthesizedExpression(j.tsAsExpression(member, typeNode(refOf('Response').text))) : member;
    },
    declare(fn, requestName) {
      if (!names || !used.has('Request')) return;
      const declaration = j.variableDeclaration('const', [j.variableDeclarator(j.identifier(alias), j.tsAsExpression(j.memberExpression(j.identifier(requestName), j.identifier('raw')), typeNode(refOf('Request').text)))]);
      if (fn.node.body.type !== 'BlockStatement') {
        // An answer chain kept as an expression body: it becomes `{ const …; return <answer>; }`.
        fn.node.body = j.blockStatement([declaration, j.returnStatement(fn.node.body)]);
        if ('expression' in fn.node) fn.node.expression = false;
        return;
      }
      fn.node.body.body.unshift(declaration);
    },
    imports() {
      return names ? [...used].sort().flatMap((kind) => (refOf(kind).import ? [refOf(kind).import!] : [])) : [];
    },
  };
}
