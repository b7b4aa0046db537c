/**
 * TypeScript signatures of a moved route handler or route middleware (roles `route`/`hook` of
 * handler-function.ts), by Express's and Fastify's type declarations (@types/express 4/5,
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
 *   becomes `HookHandlerDoneFunction` for a callback-style hook that keeps it.
 * - `const h: RequestHandler<P, ResBody, ReqBody, Query> = (req, res) => …` loses its type and
 *   its parameters get the same types from its arguments.
 * - A type is Express's when the file imports it from 'express' (any local name) or writes it
 *   through the default/namespace import (`express.Request`); another type refuses.
 *
 * Also how to name Express's `Request`/`Response` for the casts of `request.raw`/`reply.raw`:
 * the file's own local name, or a type-only import the caller adds (type-imports.ts
 * `addTypeImports`).
 */
import type { ASTPath, JSCodeshift } from 'jscodeshift';
import { textOf } from './source-files.js';
import { freeName, snippet, typeNamesIn, type Node } from './handler-ast.js';

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
  reqParam: Node;
  resParam: Node;
  nextParam: Node | null;
  /** A sync hook keeps `next` (as Fastify's done). */
  keepNext: boolean;
  /** Which of request.params/body/query the handler reads. */
  reads: Set<RequestPart>;
  names: ExpressTypeNames;
}

/** The signature types of a moved route/hook: refusals, Fastify type names to import, type names the rewrite removes, and the edit. */
export interface RouteTypesPlan {
  refusals: string[];
  types: string[];
  /** The route generic of the request type (`{ Params: { id: string }; Body: Product }`), or null for a bare FastifyRequest / no types. */
  routeGeneric: string | null;
  droppedTypes: string[];
  /** Puts the types on the new parameters and takes the handler type off its `const`. */
  apply(request: Node, reply: Node, next: Node | null): void;
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
  if (!typed) return { refusals, types: [], routeGeneric: null, droppedTypes: [], apply: () => undefined };
  const keepNext = input.keepNext && !!nextParam;
  const routeGeneric = routeGenericText(requestArgs, input.reads);
  const requestType = routeGeneric ? `FastifyRequest<${routeGeneric}>` : 'FastifyRequest';
  const droppedTypes = [reqParam, resParam, nextParam, declarator?.id].flatMap((n) => (n?.typeAnnotation ? typeNamesIn(j, n.typeAnnotation) : []));
  return {
    refusals,
    types: ['FastifyReply', 'FastifyRequest', ...(keepNext ? ['HookHandlerDoneFunction'] : [])],
    routeGeneric,
    droppedTypes: [...new Set(droppedTypes)],
    apply(request, reply, next) {
      if (declarator && handlerType) declarator.id.typeAnnotation = null;
      request.typeAnnotation = annotation(j, requestType);
      reply.typeAnnotation = annotation(j, 'FastifyReply');
      if (next && keepNext) next.typeAnnotation = annotation(j, 'HookHandlerDoneFunction');
    },
  };
}

/** `{ Params: …; Body: …; Querystring: … }` from Express's Request type arguments and the members read; null when none applies. */
function routeGenericText(args: Node[], reads: Set<RequestPart>): string | null {
  const text = (i: number) => (args[i] ? (textOf(args[i]) ?? null) : null);
  const members: string[] = [];
  const params = text(0) ?? (reads.has('params') ? 'Record<string, string>' : null);
  const body = text(2) ?? (reads.has('body') ? 'Record<string, any>' : null);
  const query = text(3) ?? (reads.has('query') ? 'Record<string, any>' : null);
  if (params) members.push(`Params: ${params}`);
  if (body) members.push(`Body: ${body}`);
  if (query) members.push(`Querystring: ${query}`);
  return members.length ? `{ ${members.join('; ')} }` : null;
}

/** A type annotation parsed from `type` (so recast prints it as written, on one line). */
function annotation(j: JSCodeshift, type: string): Node {
  return j(`let x: ${type};`).find(j.TSTypeAnnotation).paths()[0].node;
}
