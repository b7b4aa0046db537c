/**
 * TypeScript signatures of a moved route handler or route middleware (roles `route`/`hook` of
 * handler-rewrite/rewrite.ts), by Express's and Fastify's type declarations (@types/express 4/5,
 * fastify 5 `types/request.d.ts`, `types/hooks.d.ts`):
 *
 * - `req: Request<P, ResBody, ReqBody, Query>` → `request: FastifyRequest<{ Params: P; Body:
 *   ReqBody; Querystring: Query }>` with the members whose argument is given; ResBody has no
 *   request-side counterpart and goes. A member the handler reads (`request.params`, `.body`,
 *   `.query`) whose argument is not given gets a type close to Express's default, so the code
 *   still type-checks: `Record<string, string>` (ParamsDictionary), `Record<string, any>` for the
 *   body (Express's default is `any`, but Fastify turns `Body: any` into `unknown`:
 *   type-provider.d.ts `UndefinedToUnknown`; a body passed whole to a typed function then needs a
 *   cast) and `Record<string, any>` for the query (looser than qs's ParsedQs, which only a
 *   transitive dependency declares); with none of those read, bare `FastifyRequest`. An untyped `req` in a TypeScript
 *   file (an inline handler typed by Express's overloads) is treated as a bare `Request`.
 * - `res: Response` / `Response<X>` → `reply: FastifyReply`; `next: NextFunction` is dropped, or
 *   becomes `HookHandlerDoneFunction` for a callback-style hook that keeps it (which takes an
 *   Error: a caught `unknown` passed to it gets `as Error`).
 * - `const h: RequestHandler<P, ResBody, ReqBody, Query> = (req, res) => …` loses its type and
 *   its parameters get the same types from its arguments.
 * - A hook (route middleware) gets `FastifyRequest<any>` / `FastifyReply<any>`: it may run before
 *   routes of several route generics, and TypeScript checks it against each (a hook typed
 *   `FastifyRequest<{ Querystring: Q }>` does not fit a route without one; with bare
 *   `FastifyRequest` the route generic is inferred from the hook and a typed handler next to it no
 *   longer fits). As in Express's bare Request, its params, query and body are then untyped; the
 *   adapters of the routes stage's hooks module are typed the same way. Fastify resolves the
 *   params, query and body of `FastifyRequest<any>` to `unknown`, so each read in a hook is cast
 *   to what Express typed it (`(request.query as Record<string, any>).page`; a cast does not
 *   narrow, which Express's loose defaults rarely need).
 * - A type is Express's when the file imports it from 'express' (any local name) or writes it
 *   through the default/namespace import (`express.Request`); another type refuses.
 *
 * Also how to name Express's `Request`/`Response` for the casts of `request.raw`/`reply.raw`:
 * the file's own local name, or a type-only import the caller adds (lib/type-imports.ts
 * `addTypeImports`).
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import { textOf, type Node } from '../lib/ast.js';
import { memoOn } from '../lib/memo.js';
import { freeName, snippet, typeNamesIn } from './ast.js';

/** How a file names Express's types. */
export interface ExpressTypeNames {
  /** Named imports from 'express': local name → exported name (`Req` → `Request` for `import { Request as Req }`). */
  named: Map<string, string>;
  /** Locals of `import express from 'express'` / `import * as express from 'express'` (for `express.Request`). */
  namespaces: string[];
}

/** A type-only named import the caller must add: `import type { <name> as <local> } from '<from>'`. */
export interface TypeImport {
  name: string;
  local: string;
  from: string;
}

/** The request data members whose Fastify generic the signature must give when the handler reads them. */
export type RequestPart = 'params' | 'body' | 'query';

/** Express's type names in the file of `program` (a Program path). */
export function expressTypeNames(j: JSCodeshift, program: ASTPath<Node>): ExpressTypeNames {
  return memoOn(program.node, 'express-types', () => readExpressTypeNames(j, program));
}

function readExpressTypeNames(j: JSCodeshift, program: ASTPath<Node>): ExpressTypeNames {
  const names: ExpressTypeNames = { named: new Map(), namespaces: [] };
  j(program)
    .find(j.ImportDeclaration, { source: { value: 'express' } })
    .forEach((p) => {
      for (const s of (p.node.specifiers ?? []) as Node[]) {
        if (s.type === 'ImportSpecifier') names.named.set(s.local?.name ?? s.imported.name, s.imported.name);
        else names.namespaces.push(s.local.name);
      }
    });
  return names;
}

/** The Express export a type annotation's type names (`Request` and its type arguments), or null when it is not one of Express's. */
export function expressTypeOf(type: Node, names: ExpressTypeNames): { name: string; args: Node[] } | null {
  if (type?.type !== 'TSTypeReference') return null;
  const args: Node[] = type.typeParameters?.params ?? [];
  const ref = type.typeName;
  if (ref.type === 'Identifier') {
    const name = names.named.get(ref.name);
    return name ? { name, args } : null;
  }
  if (ref.type === 'TSQualifiedName' && ref.left.type === 'Identifier' && names.namespaces.includes(ref.left.name)) return { name: ref.right.name, args };
  return null;
}

/**
 * How to write Express's `Request` or `Response` type in the file: the local name it already has,
 * else a type-only import under `kind` (or `Express<kind>` when the file uses that name for
 * something else, such as the global fetch `Request`).
 */
export function expressTypeRef(kind: 'Request' | 'Response', names: ExpressTypeNames, taken: Set<string>): { text: string; import: TypeImport | null } {
  for (const [local, name] of names.named) if (name === kind) return { text: local, import: null };
  if (names.namespaces.length) return { text: `${names.namespaces[0]}.${kind}`, import: null };
  const local = taken.has(kind) ? freeName(`Express${kind}`, taken, '') : kind;
  return { text: local, import: { name: kind, local, from: 'express' } };
}

/** What planRouteTypes needs. */
export interface RouteTypesInput {
  typescript: boolean;
  /** Role `hook`: the hook may run before routes of any route generic. */
  hook: boolean;
  /** Null for a route handler declared without it (`() => { throw … }`); then so is `resParam`. */
  reqParam: Node | null;
  resParam: Node | null;
  nextParam: Node | null;
  /** A sync hook keeps `next` (as Fastify's done). */
  keepNext: boolean;
  /** The handler's reads of `req.params` / `.body` / `.query` (member expression paths, renamed in place by the rewrite). */
  reads: Array<{ part: RequestPart; path: ASTPath<Node> }>;
  names: ExpressTypeNames;
}

/** The signature types of a moved route/hook: refusals, Fastify type names to import, type names the rewrite removes, and the edit. */
export interface RouteTypesPlan {
  refusals: string[];
  types: string[];
  droppedTypes: string[];
  /** Puts the types on the new parameters (those the function declares) and takes the handler type off its `const`. */
  apply(request: Node | null, reply: Node | null, next: Node | null): void;
}

/** Plans the TypeScript signature of a moved route handler or hook (see the module comment). */
export function planRouteTypes(j: JSCodeshift, fn: ASTPath<Node>, input: RouteTypesInput): RouteTypesPlan {
  const refusals: string[] = [];
  const { reqParam, resParam, nextParam, names } = input;
  const declarator = fn.parent.node.type === 'VariableDeclarator' && fn.parent.node.init === fn.node ? fn.parent.node : null;
  const handlerType = declarator?.id.typeAnnotation?.typeAnnotation;
  let requestArgs: Node[] = [];
  if (handlerType) {
    const express = expressTypeOf(handlerType, names);
    if (express?.name === 'RequestHandler') requestArgs = express.args;
    else refusals.push(`it is typed \`${snippet(handlerType)}\`, which the codemod does not know as Express's RequestHandler`);
  }
  const expect = (param: Node | null, what: string, label: string): Node[] | null => {
    const type = param?.typeAnnotation?.typeAnnotation;
    if (!type) return null;
    const express = expressTypeOf(type, names);
    if (express?.name === what) return express.args;
    refusals.push(`its parameter \`${param.name}\` is typed \`${snippet(type)}\`, not Express's ${label}`);
    return null;
  };
  requestArgs = expect(reqParam, 'Request', 'Request') ?? requestArgs;
  expect(resParam, 'Response', 'Response');
  expect(nextParam, 'NextFunction', 'NextFunction');

  const typed = input.typescript || !!handlerType || [reqParam, resParam, nextParam].some((p) => p?.typeAnnotation);
  if (!typed) return { refusals, types: [], droppedTypes: [], apply: () => undefined };
  const keepNext = input.keepNext && !!nextParam;
  const parts = partTypes(requestArgs, new Set(input.reads.map((r) => r.part)));
  const members = [parts.params && `Params: ${parts.params}`, parts.body && `Body: ${parts.body}`, parts.query && `Querystring: ${parts.query}`].filter(Boolean);
  const requestType = input.hook ? 'FastifyRequest<any>' : members.length ? `FastifyRequest<{ ${members.join('; ')} }>` : 'FastifyRequest';
  const droppedTypes = [reqParam, resParam, nextParam, declarator?.id].flatMap((n) => (n?.typeAnnotation ? typeNamesIn(j, n.typeAnnotation) : []));
  return {
    refusals,
    types: [...(resParam ? ['FastifyReply'] : []), ...(reqParam ? ['FastifyRequest'] : []), ...(keepNext ? ['HookHandlerDoneFunction'] : [])],
    droppedTypes: [...new Set(droppedTypes)],
    apply(request, reply, next) {
      if (declarator && handlerType) declarator.id.typeAnnotation = null;
      if (request) request.typeAnnotation = annotation(j, requestType);
      if (reply) reply.typeAnnotation = annotation(j, input.hook ? 'FastifyReply<any>' : 'FastifyReply');
      // A hook's request data is `unknown` under FastifyRequest<any> (type-provider.d.ts): each read gets Express's type.
      if (input.hook) for (const read of input.reads) castInPlace(j, read.path.node, annotation(j, parts[read.part]!).typeAnnotation);
      if (next && keepNext) {
        next.typeAnnotation = annotation(j, 'HookHandlerDoneFunction');
        castCaughtErrors(j, fn, next.name);
      }
    },
  };
}

/**
 * The type of each of params, body and query from Express's Request type arguments (P, ResBody,
 * ReqBody, Query), or, for a member read without its argument, Express's default (see the module
 * comment); null for a member neither given nor read.
 */
function partTypes(args: Node[], reads: Set<RequestPart>): Record<RequestPart, string | null> {
  const text = (i: number) => (args[i] ? (textOf(args[i]) ?? null) : null);
  return {
    params: text(0) ?? (reads.has('params') ? 'Record<string, string>' : null),
    body: text(2) ?? (reads.has('body') ? 'Record<string, any>' : null),
    query: text(3) ?? (reads.has('query') ? 'Record<string, any>' : null),
  };
}

/**
 * Turns `node` itself into `(node as type)`: the node object stays where it is, so a parent the
 * rewrite rebuilt (`reply.send(JSON.stringify(request.body))`) still holds it, which a path
 * replace, done on the position the path had when planned, would miss.
 */
function castInPlace(j: JSCodeshift, node: Node, type: Node): void {
  const inner = { ...node };
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(node, j.parenthesizedExpression(j.tsAsExpression(inner, type)));
}

/**
 * `next(err)` with the parameter of a `catch (err)` (typed `unknown` under `strict`): Express's
 * NextFunction takes any value, Fastify's HookHandlerDoneFunction an Error, so the argument gets
 * `as Error` (a type assertion only; done() hands any value to the error handler as Express did).
 */
function castCaughtErrors(j: JSCodeshift, fn: ASTPath<Node>, nextName: string): void {
  j(fn.get('body'))
    .find(j.CallExpression, { callee: { type: 'Identifier', name: nextName } })
    .forEach((call) => {
      const [arg] = call.node.arguments as Node[];
      if (call.node.arguments.length !== 1 || arg.type !== 'Identifier') return;
      for (let p: ASTPath<Node> | null = call.parent; p && p !== fn; p = p.parent) {
        const param = p.node.type === 'CatchClause' ? p.node.param : null;
        if (param?.type === 'Identifier' && param.name === arg.name) {
          if (!param.typeAnnotation) call.node.arguments[0] = j.tsAsExpression(arg, j.tsTypeReference(j.identifier('Error')));
          return;
        }
        if (/Function/.test(p.node.type) && p.node.params.some((q: Node) => q.type === 'Identifier' && q.name === arg.name)) return;
      }
    });
}

/** A type annotation parsed from `type` (so recast prints it as written, on one line). */
function annotation(j: JSCodeshift, type: string): Node {
  return j(`let x: ${type};`).find(j.TSTypeAnnotation).paths()[0].node;
}
