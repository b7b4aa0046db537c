/**
 * Express `res` → Fastify `reply`: one converter per member the rewrite has a form for, keyed by
 * the member's catalogue row (rules/catalogue/api.ts, whose `shape` says how Express uses it and
 * `rewrite` what the converter writes; test/rules/catalogue.test.ts keeps the two in step). The
 * `errors` stage uses them for error and not-found handlers; the `routes` stage for moved route
 * handlers and route middleware (`FormContext.bridged`), where Express's own `res` is still
 * reachable as `reply.raw` (the app runs before them in the @fastify/express bridge), so the
 * `moved-routes` rows (redirects, `res.location`, `res.locals`, …) apply there only.
 *
 * Shapes: a use of `res` is a chain of links (`res.status(404).json(x)` is `status(404)`, then
 * `json(x)`); each link becomes one or more Fastify steps on `reply` (`reply.code(404).send(x)`;
 * `res.sendStatus(404)` becomes three), or a refusal. This module only decides and builds
 * expressions; finding the chains in a function is reply-chain.ts's and rewrite.ts's, so the plan
 * (which must know whether a handler can move) and the transform (which moves it) decide alike.
 */
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { ApiEntry } from '../../rules/catalogue/api.js';
import { expressContentType } from './content-type.js';
import { likeExpressOf, memberRow, noFormReason, type Expr, type FormContext, type FormNeed, type FormResult, type Refusal, type ReplyStep } from './forms.js';
import type { LikeExpressFunction } from '../server-module/like-express-template.js';
import { renderForm } from './view-render.js';

/**
 * Converts one link: `before` the members of the chain's earlier links (`['status']` for
 * `res.status(301).redirect(u)`), `after` the chain's later links (`res.attachment(n).send(s)`
 * gives attachment `[send(s)]`).
 */
type Convert = (args: Expr[], ctx: FormContext, before: string[], after: Array<{ member: string; args: Expr[] | null }>) => FormResult;

const refuse = (reason: string): { refuse: string } => ({ refuse: reason });
const call = (name: string, ...args: Expr[]): ReplyStep => ({ call: name, args });

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

function stringArg(args: Expr[], i: number): string | null {
  const a = args[i];
  return a && a.type === 'StringLiteral' ? a.value : null;
}

/** `res.set(name, value)` / `res.header(name, value)`. */
function setHeader(args: Expr[], ctx: FormContext): FormResult {
  const { j } = ctx;
  if (args.length === 1 && args[0].type === 'ObjectExpression') {
    const keys = args[0].properties.map((p: Expr) => (p.type === 'ObjectProperty' && !p.computed ? (p.key.type === 'Identifier' ? p.key.name : p.key.value) : null));
    if (keys.some((k: string | null) => k === null)) return refuse('res.set({…}) with computed or spread header names');
    if (keys.some((k: string) => String(k).toLowerCase() === 'content-type')) return refuse("res.set({…}) with a Content-Type: Express adds a charset to it, Fastify writes it as given");
    return { steps: [call('headers', args[0])] };
  }
  if (args.length !== 2) return refuse(`res.set with ${args.length} argument(s)`);
  const name = stringArg(args, 0);
  if (name === null) return refuse('res.set(name, …) with a header name known only at run time');
  if (name.toLowerCase() !== 'content-type') return { steps: [call('header', args[0], args[1])] };
  const value = stringArg(args, 1);
  const type = value === null ? null : expressContentType(value);
  if (type === null) return refuse("res.set('Content-Type', …) with a value known only at run time: Express adds a charset, Fastify writes it as given");
  return { steps: [call('header', args[0], j.stringLiteral(type))] };
}

/**
 * `res.setHeader(name, value)` (Node's): `reply.header(name, value)` for a literal name. Content-Type
 * is written as given, and Express's res.send gives it a charset when the body is a string (or JSON):
 * it converts only in a route handler whose every answer is `res.send(…)` or `res.json(…)` — each
 * through Express's own (`sendLikeExpress`, `jsonLikeExpress`), which does the same —, `res.end()` or
 * `res.sendStatus(…)` (FormContext.rawContentType).
 */
function setNodeHeader(args: Expr[], ctx: FormContext): FormResult {
  if (args.length !== 2) return refuse(`res.setHeader with ${args.length} argument(s)`);
  const name = stringArg(args, 0);
  if (name === null) return refuse('res.setHeader(name, …) with a header name known only at run time');
  if (name.toLowerCase() === 'content-type' && !(ctx.fastifyRoute && ctx.rawContentType === 'sends')) {
    return refuse("res.setHeader('Content-Type', …): Express's res.send adds a charset to it for a string body, Fastify writes it as given (it converts only in a moved route handler whose every answer is res.send(…), res.json(…), res.end() or res.sendStatus(…)); use res.type(…)");
  }
  return { steps: [call('header', args[0], args[1])] };
}

/** A call of a function of the generated fastify-like-express module, on a moved route (where the routes stage writes it). */
function likeExpress(name: LikeExpressFunction, args: Expr[], ctx: FormContext, reason: string): FormResult {
  if (!ctx.fastifyRoute) return refuse(reason);
  return { steps: [{ likeExpress: name, args }] };
}

/** `res.type(t)` / `res.contentType(t)`. */
function setType(args: Expr[], ctx: FormContext): FormResult {
  const value = stringArg(args, 0);
  const type = value === null ? null : expressContentType(value);
  if (type === null) return refuse(value === null ? 'res.type(…) with a type known only at run time' : `res.type('${value}'): Express resolves it through its mime table; write the full type`);
  return { steps: [call('type', ctx.j.stringLiteral(type))] };
}

/**
 * `res.send(body)`: Express picks the content type from the body (lib/response.js `send`). A value
 * whose kind is known only at run time (or a number, which Express 4 reads as a status and 5 as
 * JSON, or any value after a Content-Type set with res.setHeader) goes through `sendLikeExpress`
 * on a moved route: the choice Express's res.send makes, made at run time.
 */
function send(args: Expr[], ctx: FormContext): FormResult {
  if (args.length > 1) return refuse('res.send(body, status) (Express 4 signature)');
  if (ctx.throughExpress?.has('send')) return likeExpress('sendLikeExpress', args, ctx, 'res.send runs a replacement the app\'s middleware put on Express\'s response');
  if (args.length === 0) return { steps: [call('send')] };
  const kind = ctx.kindOf(args[0]);
  if (ctx.jsonReplaced && kind !== 'string' && kind !== 'nullish') return refuse(ctx.jsonReplaced);
  if (ctx.rawContentType === 'sends' || kind === 'unknown' || kind === 'number' || (kind === 'object' && ctx.jsonSettings)) {
    const reason = kind === 'number' ? 'res.send(number): Express 4 treats it as a status code, Express 5 as JSON' : 'res.send of a value whose type is known only at run time: Express picks the content type (HTML, JSON, binary) from it';
    return likeExpress('sendLikeExpress', [args[0]], ctx, kind === 'object' ? JSON_SETTINGS : reason);
  }
  switch (kind) {
    case 'object':
      // Express's res.send hands an object (not a Buffer) to res.json, with the app's JSON settings.
      return json(args, ctx);
    case 'string':
      // Express answers a string as text/html; Fastify as text/plain (mapping §1.4, probed).
      return { steps: ctx.setsContentType ? [call('send', args[0])] : [call('type', ctx.j.stringLiteral(HTML)), call('send', args[0])] };
    case 'nullish':
      // res.send(null): empty body without a content type; reply.send(null) would send "null" as JSON.
      return { steps: [call('send')] };
  }
}

/** Why res.json has no native form in an app with JSON print settings reply.send does not reproduce. */
const JSON_SETTINGS = "res.json (or res.send of an object) in an app that sets 'json replacer', 'json escape' or a 'json spaces' that is not a number: reply.send does not print the same text";

/**
 * `res.json(body)`: `reply.send(obj)` for an object, else the text Express prints with its type;
 * Express's own res.json (`jsonLikeExpress`) on a moved route where the app's JSON settings or a
 * replaced method (FormContext.throughExpress) or a type set with res.setHeader decide the answer.
 */
function json(args: Expr[], ctx: FormContext): FormResult {
  if (args.length > 1) return refuse('res.json(body, status) (Express 4 signature)');
  if (ctx.jsonSettings || ctx.throughExpress?.has('json') || ctx.rawContentType === 'sends') return likeExpress('jsonLikeExpress', args, ctx, ctx.jsonSettings ? JSON_SETTINGS : 'res.json after res.setHeader(\'Content-Type\', …)');
  const { j } = ctx;
  if (args.length === 1 && ctx.kindOf(args[0]) === 'object' && !ctx.jsonSpaces) return { steps: [call('send', args[0])] };
  // A string, a number, null or an Error (reply.send would send raw text or take the error path),
  // or any value under 'json spaces': print it as Express does (JSON.stringify(value, replacer,
  // spaces), lib/response.js `stringify`) with Express's type.
  const value = args.length ? args[0] : j.identifier('undefined');
  const body = j.callExpression(j.memberExpression(j.identifier('JSON'), j.identifier('stringify')), ctx.jsonSpaces ? [value, j.nullLiteral(), j.numericLiteral(ctx.jsonSpaces)] : [value]);
  return { steps: [call('type', j.stringLiteral(JSON_TYPE)), call('send', body)] };
}

/** `res.sendStatus(code)`: the status and its text as a text/plain body (Express's own through `sendStatusLikeExpress` where the app replaced res.send). */
function sendStatus(args: Expr[], ctx: FormContext): FormResult {
  if (ctx.throughExpress?.has('sendStatus')) return likeExpress('sendStatusLikeExpress', args, ctx, 'res.sendStatus runs a replacement the app\'s middleware put on Express\'s response');
  const code = args[0];
  if (!code || code.type !== 'NumericLiteral') return refuse('res.sendStatus(…) with a status known only at run time');
  const text = STATUS_CODES[code.value] ?? String(code.value);
  return { steps: [call('code', code), call('type', ctx.j.stringLiteral(TEXT)), call('send', ctx.j.stringLiteral(text))] };
}

/**
 * A URL as Express writes it into `Location` (lib/response.js `location`: `encodeUrl(String(url))`):
 * wrapped in encodeurl's default export, except a literal that `encodeURI` leaves unchanged. Such a
 * literal holds only characters encodeurl leaves too (encodeURI escapes `%`, spaces, quotes, `<>`,
 * `[]`, `{}`, `|`, `^`, backslash and non-ASCII; encodeurl escapes a subset of those), so
 * encodeurl returns it unchanged as well.
 */
function expressUrl(url: Expr, ctx: FormContext): { arg: Expr; needs: FormNeed[] } {
  const literal = staticString(url);
  if (literal !== null && encodeURI(literal) === literal) return { arg: url, needs: [] };
  // encodeurl leaves its own output as it is (it never re-encodes a valid %XX), so an encoded URL needs no second call.
  if (isEncodeUrlCall(url, ctx)) return { arg: url, needs: ['encodeurl'] };
  return { arg: ctx.j.callExpression(ctx.j.identifier(ctx.encodeUrl ?? 'encodeUrl'), [url]), needs: ['encodeurl'] };
}

/** `encodeUrl(…)` with the file's binding of encodeurl. */
function isEncodeUrlCall(node: Expr, ctx: FormContext): boolean {
  return node?.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === (ctx.encodeUrl ?? 'encodeUrl');
}

/** The value of a string literal or of a template literal without expressions; null otherwise. */
function staticString(node: Expr): string | null {
  if (node?.type === 'StringLiteral') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked ?? null;
  return null;
}

/** Express 4 reads the URL `'back'` as the Referrer (or `/`); Express 5 dropped that (mapping §1.4, §2.11). */
function isBack(url: Expr, ctx: FormContext): boolean {
  return ctx.expressMajor !== 5 && staticString(url) === 'back';
}

/** `res.location(url)` → `reply.header('location', encodeUrl(url))` (Express 4 and 5 `res.location`). */
function location(args: Expr[], ctx: FormContext): FormResult {
  if (!ctx.bridged) return refuse('res.location has no Fastify form in this codemod yet');
  if (args.length !== 1) return refuse(`res.location with ${args.length} arguments`);
  if (isBack(args[0], ctx)) return refuse("res.location('back'): Express 4 answers with the Referrer header; write `req.get('Referrer') || '/'` instead");
  const url = expressUrl(args[0], ctx);
  return { steps: [call('header', ctx.j.stringLiteral('location'), url.arg)], needs: url.needs };
}

/**
 * `res.redirect(…)` on a moved route → `redirectLikeExpress(reply, …)`: Express's own redirect
 * (fastify-like-express module), so Location, status, the 'Redirecting to' body and Vary: Accept
 * are what the app's Express writes, whatever the arguments' order, 'back' or a status set before.
 * Elsewhere (after the bridge, not a Fastify route):
 * `res.redirect([status,] url)` → `reply.redirect(url, status?)` (Fastify 5: url first), the URL
 * encoded as Express does. Express 4 also takes `(url, status)` and decides the order by
 * `typeof` of the first argument; Express 5 always reads two arguments as (status, url).
 * Express ignores a status set before (`res.status(301).redirect(u)` answers 302) where
 * Fastify's reply.redirect answers with it, so a chain or function that sets one refuses.
 * The body differs (Express: "Found. Redirecting to …", Fastify: empty): delta `redirect-body`.
 */
function redirect(args: Expr[], ctx: FormContext, before: string[]): FormResult {
  if (ctx.fastifyRoute && args.length >= 1 && args.length <= 2 && !args.some((a) => a.type === 'SpreadElement')) return { steps: [{ likeExpress: 'redirectLikeExpress', args }] };
  if (!ctx.bridged) return refuse("res.redirect: Fastify's reply.redirect sends an empty body where Express sends 'Found. Redirecting to …'");
  if (before.includes('status')) return refuse('res.status(…).redirect(…): Express ignores the status set before a redirect (it answers 302), Fastify answers with it; pass the status to res.redirect instead');
  if (ctx.statusSetApart) return refuse("res.redirect(…) in a function that sets a status apart (res.status(c); or res.statusCode = c): Fastify's reply.redirect would answer with that status where Express answers 302");
  const order = redirectOrder(args, ctx);
  if ('refuse' in order) return order;
  if (isBack(order.url, ctx)) return refuse("res.redirect('back'): Express 4 redirects to the Referrer header; write `req.get('Referrer') || '/'` instead");
  const url = expressUrl(order.url, ctx);
  return { steps: [call('redirect', ...(order.status ? [url.arg, order.status] : [url.arg]))], needs: url.needs, deltas: ['redirect-body'] };
}

/** Which argument of `res.redirect(a[, b])` is the URL and which the status, for the app's Express major. */
function redirectOrder(args: Expr[], ctx: FormContext): { url: Expr; status: Expr | null } | { refuse: string } {
  if (args.length === 1) return { url: args[0], status: null };
  if (args.length !== 2) return refuse(`res.redirect with ${args.length} arguments`);
  const [a, b] = args;
  if (a.type === 'NumericLiteral') return { url: b, status: a };
  if (ctx.expressMajor === 5) {
    if (b.type === 'NumericLiteral' || ctx.kindOf(a) === 'string' || isEncodeUrlCall(a, ctx)) return refuse('res.redirect(url, status): Express 5 reads two arguments as (status, url), so this call does not redirect as written');
    return { url: b, status: a };
  }
  if (ctx.expressMajor === 4 && b.type === 'NumericLiteral') return { url: a, status: b };
  return refuse(ctx.expressMajor === 4 ? 'res.redirect(a, b) with no numeric literal: Express 4 picks (status, url) or (url, status) by the type of the first argument at run time' : "res.redirect with two arguments in an app whose Express major is unknown (their order differs between Express 4 and 5)");
}

/**
 * `res.attachment(name)` on a moved route of an Express 4 app, the name a string or template
 * literal, chained right before `.send(<string>)`, `.send()` or `.type(…)` (which replaces the
 * type at once: then only the header is written). Express 4 (lib/response.js `attachment`) sets the type from the name's
 * extension (`res.type(extname(name))`) and `Content-Disposition` to content-disposition 0.5's
 * `contentDisposition(name)`; the Fastify form calls the same function from the catalogued
 * content-disposition (~0.5.4, rules/catalogue/versions.ts: the line Express 4 depends on, so the
 * header is the same for every name) and writes the type through expressContentType, with the
 * charset Express's `res.send(string)` adds. The name must fix its extension whatever its
 * expressions hold: a string literal, or a template whose last part holds `<x>.ext`
 * (`${id}-notes.csv`; in `notes-${day}.csv` a day ending in '/', a decoded %2F, leaves the last
 * segment `.csv`, which has no extension to path.extname).
 * A literal name with a Latin-1 letter (`café.csv`) refuses: content-disposition keeps it in the
 * quoted filename, and Node writes a non-ASCII header value as other bytes when the body is a
 * string (Fastify) than when it is a Buffer (Express's res.send), probed on Node 20; a template's
 * expressions may hold one too (not refused: the `set`/`header` rows share this caveat).
 * Express 5 refuses: 5.0–5.2 write the header with content-disposition 1.x (1.1 reads a backslash
 * as a path separator, 1.0 and 0.5 do not), 5.3 with 2.x after path.basename (token names
 * unquoted, `filename=report.csv`, Latin-1 names with a `filename*`); one catalogued package
 * cannot match them all and the codemod knows only the major.
 */
function attachment(args: Expr[], ctx: FormContext, _before: string[], after: Array<{ member: string; args: Expr[] | null }>): FormResult {
  if (!ctx.bridged) return refuse('res.attachment has no Fastify form in this codemod yet');
  if (ctx.expressMajor !== 4) return refuse(ctx.expressMajor === 5 ? 'res.attachment in an Express 5 app: Express 5.0–5.2 and 5.3 write Content-Disposition with different content-disposition majors (5.3 leaves token file names unquoted), so no one package gives the same header' : 'res.attachment in an app whose Express major is unknown (Express 4 and 5 write Content-Disposition differently)');
  if (args.length !== 1 || (args[0].type !== 'StringLiteral' && args[0].type !== 'TemplateLiteral')) return refuse('res.attachment without a file name written as a string or template literal');
  const next = after[0];
  const retyped = next?.member === 'type' || next?.member === 'contentType';
  const sendsText = next?.member === 'send' && next.args?.length === 1 && ctx.kindOf(next.args[0]) === 'string';
  if (!retyped && !sendsText && !(next?.member === 'send' && next.args?.length === 0)) return refuse('res.attachment(…) not chained right before .send(<string>), .send() or .type(…): what answers decides the Content-Type, and the codemod follows only the chain');
  if (/[\u0080-\u00ff]/.test(staticString(args[0]) ?? '')) return refuse('res.attachment(name) with a Latin-1 letter in the name: it stays in the header as is, and Node writes such a header with other bytes for Express (a Buffer body) than for Fastify (a string body)');
  const { j } = ctx;
  const header = call('header', j.stringLiteral('content-disposition'), j.callExpression(j.identifier(ctx.contentDisposition ?? 'contentDisposition'), [args[0]]));
  // The type the attachment sets is replaced right away.
  if (retyped) return { steps: [header], needs: ['content-disposition'] };
  const ext = extensionOf(args[0]);
  if (ext === null) return refuse("res.attachment(name) whose extension the name as written does not fix (a string literal does; a template must end in a fixed `<x>.ext`: with `${a}.csv` an `a` ending in '/' leaves Express no extension, and it answers application/octet-stream)");
  const type = expressContentType(ext);
  if (type === null) return refuse(`res.attachment(name) with the extension '.${ext}': Express resolves it through its mime table, which this codemod copies only for html, htm, json, txt, text, xml, css and csv`);
  // Express's res.send(string) sets the charset of the type the attachment set (utils setCharset).
  const sent = sendsText && !/;\s*charset\s*=/i.test(type) ? `${type}; charset=utf-8` : type;
  return { steps: [header, call('type', j.stringLiteral(sent))], needs: ['content-disposition'] };
}

/**
 * The extension (without the dot) `path.extname` gives for a file name written as a string
 * literal or a template, whatever the template's expressions hold: the last part must end in
 * `<x>.ext` where `x` is neither `/` nor `.` (then that dot is the last segment's extension dot);
 * null otherwise.
 */
function extensionOf(name: Expr): string | null {
  const whole = staticString(name);
  if (whole !== null) return path.posix.extname(whole).slice(1) || null;
  const tail: string | undefined = name.quasis[name.quasis.length - 1].value.cooked;
  const dot = tail?.lastIndexOf('.') ?? -1;
  if (!tail || dot < 1 || tail[dot - 1] === '/' || tail[dot - 1] === '.' || tail.includes('/', dot)) return null;
  return tail.slice(dot + 1) || null;
}

/** `res.append(name, value)`: `appendLikeExpress(reply, name, value)` for a literal name other than Content-Type (res.set adds a charset there). */
function append(args: Expr[], ctx: FormContext): FormResult {
  if (args.length !== 2) return refuse(`res.append with ${args.length} argument(s)`);
  const name = stringArg(args, 0);
  if (name === null) return refuse('res.append(name, …) with a header name known only at run time');
  if (name.toLowerCase() === 'content-type') return refuse("res.append('Content-Type', …): Express's res.set adds a charset (and throws for several values)");
  return likeExpress('appendLikeExpress', args, ctx, 'res.append has no Fastify form outside a moved route');
}

/** `res.vary(field)` → `varyLikeExpress(reply, field)` (the vary package, as Express calls it). */
function varyField(args: Expr[], ctx: FormContext): FormResult {
  if (args.length !== 1) return refuse(`res.vary with ${args.length} argument(s)`);
  return likeExpress('varyLikeExpress', args, ctx, 'res.vary has no Fastify form outside a moved route');
}

/** `res.links(links)` → `linksLikeExpress(reply, links)` (Express's Link format for the app's major). */
function linkHeader(args: Expr[], ctx: FormContext): FormResult {
  if (args.length !== 1) return refuse(`res.links with ${args.length} argument(s)`);
  return likeExpress('linksLikeExpress', args, ctx, 'res.links has no Fastify form outside a moved route');
}

/**
 * `res.cookie(name, value[, options])` → `cookieLikeExpress(reply, …)` and `res.clearCookie(name[,
 * options])` → `clearCookieLikeExpress(reply, …)` on a moved route: Express's own method on Express's
 * response, so the Set-Cookie header is Express's, signed ones included (like-express-template.ts
 * RAW_METHODS). Elsewhere (the app's error handlers) they wait for @fastify/cookie.
 */
function cookie(name: 'cookieLikeExpress' | 'clearCookieLikeExpress', api: string, counts: number[]): (args: Expr[], ctx: FormContext) => FormResult {
  return (args, ctx) => {
    if (!counts.includes(args.length)) return refuse(`${api} with ${args.length} argument(s)`);
    if (!ctx.fastifyRoute) return noFormReason(memberRow('res', api.slice(4))!, 'plugins');
    return { steps: [{ likeExpress: name, args }] };
  };
}

/**
 * `res.sendFile(path[, options])` without a callback → `sendFileLikeExpress(reply, path[, options])`
 * on a moved route: Express's own sendFile on Express's response (fastify-like-express module).
 * Options must be an object literal (a name could hold the callback). A directory, where Express
 * went on with next(), gives the error handler a 404 error: delta `send-file-directory`. Elsewhere,
 * and with a callback, it waits for the plugins stage (@fastify/static), as the catalogue row says.
 */
function sendFile(args: Expr[], ctx: FormContext): FormResult {
  const row = memberRow('res', 'sendFile')!;
  if (args.length < 1 || args.length > 2 || args.some((a) => a.type === 'SpreadElement') || (args.length === 2 && args[1].type !== 'ObjectExpression')) return noFormReason(row, 'plugins');
  return ctx.fastifyRoute ? { steps: [{ likeExpress: 'sendFileLikeExpress', args }], deltas: ['send-file-directory'] } : noFormReason(row, 'plugins');
}

/** `res.locals` on a moved route: the object Express's middleware filled, on the raw response. */
function locals(_args: Expr[], ctx: FormContext): FormResult {
  if (!ctx.bridged) return refuse('res.locals is filled by Express middleware; it has no Fastify counterpart until that middleware moves');
  return { steps: [{ property: ['locals'], raw: true }] };
}

/**
 * The converters, by catalogue row (`res.header` and `res.contentType` are aliases of the `res.set`
 * and `res.type` rows). A catalogued member without one refuses with the row's reason
 * (forms.ts noFormReason); a member the catalogue does not list refuses as having no form.
 */
export const REPLY_CONVERTERS: Readonly<Record<string, Convert>> = {
  'res.status': (args) => (args.length === 1 ? { steps: [call('code', args[0])] } : refuse('res.status without one argument')),
  'res.send': send,
  'res.json': json,
  'res.sendStatus': sendStatus,
  'res.set': setHeader,
  'res.setHeader': setNodeHeader,
  'res.getHeader': (args) => (args.length === 1 ? { steps: [call('getHeader', args[0])] } : refuse('res.getHeader without one argument')),
  'res.removeHeader': (args) => (args.length === 1 ? { steps: [call('removeHeader', args[0])] } : refuse('res.removeHeader without one argument')),
  'res.append': append,
  'res.vary': varyField,
  'res.links': linkHeader,
  'res.type': setType,
  'res.get': (args) => (args.length === 1 ? { steps: [call('getHeader', args[0])] } : refuse('res.get without one argument')),
  'res.end': (args) => (args.length === 0 ? { steps: [call('send')] } : refuse('res.end(data): Node sends it without a content type, reply.send adds text/plain')),
  'res.headersSent': () => ({ steps: [{ property: ['raw', 'headersSent'] }] }),
  'res.statusCode': () => ({ steps: [{ property: ['statusCode'] }] }),
  'res.render': renderForm,
  'res.redirect': redirect,
  'res.location': location,
  'res.attachment': attachment,
  'res.cookie': cookie('cookieLikeExpress', 'res.cookie', [2, 3]),
  'res.clearCookie': cookie('clearCookieLikeExpress', 'res.clearCookie', [1, 2]),
  'res.locals': locals,
  'res.sendFile': sendFile,
};

/** The catalogue row of `res.<member>` when it has a `shape` (the members the rewrite reads), else undefined. */
function replyRow(member: string): ApiEntry | undefined {
  const row = memberRow('res', member);
  return row?.shape ? row : undefined;
}

/**
 * What one `res` chain becomes: the Fastify steps of each link (same order as the links), the
 * modules, framework deltas and Fastify plugins they bring, or the first refusal.
 */
export function convertReplyChain(links: Array<{ member: string; args: Expr[] | null }>, ctx: FormContext): { links: ReplyStep[][]; needs: FormNeed[]; deltas: string[]; plugins: string[]; likeExpress: LikeExpressFunction[] } | Refusal {
  const out: ReplyStep[][] = [];
  const needs = new Set<FormNeed>();
  const deltas = new Set<string>();
  const plugins = new Set<string>();
  for (const [i, link] of links.entries()) {
    const row = replyRow(link.member);
    if (!row) return refuse(`res.${link.member} has no Fastify form in this codemod yet`);
    if ((row.shape!.use === 'call') !== (link.args !== null)) return refuse(`res.${link.member} used as a ${link.args === null ? 'value' : 'function'}`);
    if (i < links.length - 1 && !row.shape!.chainable) return refuse(`res.${link.member}(…) followed by .${links[i + 1].member}`);
    const convert = Object.hasOwn(REPLY_CONVERTERS, row.api) ? REPLY_CONVERTERS[row.api] : null;
    if (!convert) return noFormReason(row);
    const result = convert(link.args ?? [], ctx, links.slice(0, i).map((l) => l.member), links.slice(i + 1));
    if ('refuse' in result) return result;
    out.push(result.steps);
    result.needs?.forEach((n) => needs.add(n));
    result.deltas?.forEach((d) => deltas.add(d));
    result.plugins?.forEach((p) => plugins.add(p));
  }
  return { links: out, needs: [...needs], deltas: [...deltas], plugins: [...plugins], likeExpress: [...new Set(out.flatMap(likeExpressOf))] };
}

/** Whether the Express call returns `res`, so a chain goes on after it (`res.status(404).json(…)`). */
export function isChainable(member: string): boolean {
  return !!replyRow(member)?.shape?.chainable;
}

/**
 * Whether a chain's value is the response (its last link returns `res` or answers): `return
 * res.json(x)` returns the reply once converted, which Fastify does not send as a payload.
 */
export function returnsReply(links: Array<{ member: string }>): boolean {
  const shape = links.length ? replyRow(links[links.length - 1].member)?.shape : undefined;
  return !!shape && (!!shape.chainable || !!shape.answers);
}

/** Whether a chain's Fastify form answers after the call returns (`reply.view`): an async handler must return the reply. */
export function answersLater(links: Array<{ member: string }>): boolean {
  return links.length > 0 && !!replyRow(links[links.length - 1].member)?.rewrite?.answersLater;
}

/** Whether a chain answers the request (its last link sends: `res.status(401).json(…)`). */
export function answersRequest(links: Array<{ member: string }>): boolean {
  return links.length > 0 && !!replyRow(links[links.length - 1].member)?.shape?.answers;
}
