/**
 * Express `req` → Fastify `request`: one converter per member the rewrite has a form for, keyed by
 * the member's catalogue row (rules/catalogue/api.ts: `shape`, and `rewrite.where`, which says
 * whether the form holds in every handler or only after the bridge). In an error or 404 handler the
 * app's Express middleware has run too (the bridge), but the route Fastify matched is the bridge's:
 * the request data is read where Express put it, on `request.raw`. On a moved
 * route the request data is Fastify's and equal to Express's — params, query (the shim gives
 * Fastify the app's query parser), body (parsed by the app's parsers) — and what Express
 * middleware set on Express's request (cookie-parser's objects, `req.session`, `req.user`) is read
 * on `request.raw`, where it put it.
 */
import { memberRow, noFormReason, type Expr, type FormContext } from './forms.js';

/**
 * What `req.<member>` becomes: an expression, `onRaw` (the same member read, written or called
 * on Express's own request, `request.raw`, where Express middleware put it), or a refusal.
 */
export type RequestResult = { expression: Expr } | { onRaw: true } | { refuse: string };

/** Builds what `req.<member>` (or `req.<member>(…)`) becomes on the request identifier `request`. */
type Convert = (request: Expr, args: Expr[], ctx: FormContext) => RequestResult;

function stringArg(args: Expr[], i: number): string | null {
  const a = args[i];
  return a && a.type === 'StringLiteral' ? a.value : null;
}

/** `request.headers['name']`, with Express's Referer/Referrer aliasing (lib/request.js `header`). */
function header(request: Expr, args: Expr[], ctx: FormContext): RequestResult {
  const { j } = ctx;
  const name = stringArg(args, 0);
  if (args.length !== 1 || name === null) return { refuse: 'req.get(…) with a header name known only at run time' };
  const lower = name.toLowerCase();
  const headers = () => j.memberExpression(request, j.identifier('headers'));
  const at = (key: string) => j.memberExpression(headers(), j.stringLiteral(key), true);
  if (lower === 'referer' || lower === 'referrer') return { expression: j.logicalExpression('||', at('referrer'), at('referer')) };
  return { expression: at(lower) };
}

const same =
  (name: string): Convert =>
  (request, _args, ctx) => ({ expression: ctx.j.memberExpression(request, ctx.j.identifier(name)) });

/** Read on `request.raw`: the value Express middleware (cookie-parser) set in the bridge. */
const onRaw: Convert = () => ({ onRaw: true });

/** The converters, by catalogue row (`req.header` is an alias of the `req.get` row). */
export const REQUEST_CONVERTERS: Readonly<Record<string, Convert>> = {
  'req.method': same('method'),
  'req.originalUrl': same('originalUrl'),
  'req.headers': same('headers'),
  'req.url': (request, args, ctx) => (ctx.scope === 'app' ? same('url')(request, args, ctx) : { refuse: 'req.url inside a router is relative to its mount path' }),
  'req.path': (request, _args, ctx) => {
    if (ctx.scope !== 'app') return { refuse: 'req.path inside a router is relative to its mount path' };
    const { j } = ctx;
    const split = j.callExpression(j.memberExpression(j.memberExpression(request, j.identifier('url')), j.identifier('split')), [j.stringLiteral('?')]);
    return { expression: j.memberExpression(split, j.numericLiteral(0), true) };
  },
  'req.get': header,
  'req.params': same('params'),
  'req.query': same('query'),
  'req.body': same('body'),
  'req.baseUrl': (_request, _args, ctx) => (ctx.scope === 'app' ? { expression: ctx.j.stringLiteral('') } : { refuse: 'req.baseUrl inside a router is its mount path, which a Fastify request does not carry' }),
  'req.app': onRaw,
  'req.accepts': onRaw,
  'req.is': onRaw,
  'req.cookies': onRaw,
  // Express's getters, read on its request after the bridge: the app's trust proxy setting gives the same values (express 4.x/5.x lib/request.js).
  'req.ip': onRaw,
  'req.ips': onRaw,
  'req.protocol': onRaw,
  'req.secure': onRaw,
  'req.hostname': onRaw,
  'req.xhr': onRaw,
  'req.signedCookies': onRaw,
};

/** The request data Fastify parses for its own route: Express's values outside one (FormContext.fastifyRoute). */
const ROUTE_DATA = new Set(['req.query', 'req.body']);

/**
 * Members that must not be read on `request.raw`: the router sets `req.next` to its own `next`,
 * which on a moved route is the bridge's; `req.raw` is Fastify's (reading it on a handler that
 * was already rewritten would give `request.raw.raw`).
 */
const ROUTER_MEMBERS: Record<string, string> = {
  next: "req.next is Express's next() for the request; on a moved route it would be the bridge's",
  raw: 'req.raw is not set by Express (is the function already a Fastify handler?)',
};

/**
 * What `req.<member>` becomes, or why it cannot move. On a moved route (ctx.bridged) a member
 * that is not part of Express's own request API — what middleware set on Express's request
 * (`req.session`, `req.user`, `req.logout()`: catalogue rows with `addedBy`), or Node's own — stays
 * on `request.raw` (`onRaw`); an Express API member without a converter refuses with the
 * catalogue's reason.
 */
export function convertRequestUse(member: string, args: Expr[] | null, request: Expr, ctx: FormContext): RequestResult {
  const row = memberRow('req', member);
  // An error or 404 handler: the route Fastify matched is the bridge's, the request data Express's (FormContext.fastifyRoute).
  if (ctx.bridged && !ctx.fastifyRoute && row?.api === 'req.params') return { refuse: "req.params in an app-level error or 404 handler: Express's layer there has no params, and after the bridge the raw request's are gone; use {}" };
  if (ctx.bridged && !ctx.fastifyRoute && row && ROUTE_DATA.has(row.api)) return args === null ? { onRaw: true } : { refuse: `req.${member} used as a function` };
  const convert = row && Object.hasOwn(REQUEST_CONVERTERS, row.api) && (row.rewrite?.where === 'everywhere' || ctx.bridged) ? REQUEST_CONVERTERS[row.api] : undefined;
  if (!convert) {
    if (!ctx.bridged) return { refuse: `req.${member} has no Fastify form in this codemod yet (data set by Express middleware stays on the raw request until that middleware moves)` };
    if (Object.hasOwn(ROUTER_MEMBERS, member)) return { refuse: ROUTER_MEMBERS[member] };
    if (!row || row.addedBy) return { onRaw: true };
    return { refuse: noFormReason({ ...row, api: `req.${member}` }).refuse };
  }
  if ((row!.shape?.use === 'call') !== (args !== null)) return { refuse: `req.${member} used as a ${args === null ? 'value' : 'function'}` };
  return convert(request, args ?? [], ctx);
}
