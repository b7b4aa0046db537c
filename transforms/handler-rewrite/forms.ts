/**
 * Express `res` → Fastify `reply` and `req` → `request`, as a table of forms: one row per Express
 * member, saying what it becomes or why it cannot move yet. The `errors` stage uses it for error
 * and not-found handlers; the `routes` stage for moved route handlers and route middleware
 * (`FormContext.bridged`), where Express's own `req`/`res` are still reachable as
 * `request.raw`/`reply.raw` (the app runs before them in the @fastify/express bridge), so the
 * rows for request data, redirects, `res.location` and `res.locals` apply there only.
 *
 * Every row follows express-fastify-mapping.md §1.3/§1.4 (probed with Express 4.22/5.3 and Fastify
 * 5.12) and Express 4.x/5.x `lib/response.js`. A row converts only when the Fastify form answers with
 * the same status, content type and body (a body that differs by a catalogued framework default
 * is reported as a delta: `redirect-body`); otherwise it refuses with a reason a human can act on.
 *
 * Shapes: a use of `res` is a chain of links (`res.status(404).json(x)` is `status(404)`, then
 * `json(x)`); each link becomes one or more Fastify steps on `reply` (`reply.code(404).send(x)`;
 * `res.sendStatus(404)` becomes three), or a refusal. This module only decides and builds expressions;
 * finding the chains in a function is the caller's (transforms/handler-rewrite/rewrite.ts),
 * so the plan (which must know whether a handler can move) and the transform (which moves it) use
 * the same rows.
 */
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { JSCodeshift } from 'jscodeshift';
import { apiFor } from '../../rules/catalogue/api.js';
import { renderForm } from './view-render.js';

/** An expression node (jscodeshift's `ExpressionKind`, kept loose so rows stay readable). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Expr = any;

/** What the codemod can tell about a value statically: Express's `res.send` picks the content type from it. */
export type ValueKind = 'object' | 'string' | 'nullish' | 'number' | 'unknown';

/** What a row may consult. */
export interface FormContext {
  j: JSCodeshift;
  /** The kind of value an argument expression has (object literal, string, …). */
  kindOf(expr: Expr): ValueKind;
  /** Whether the function sets a content type (`res.type`, `res.set('Content-Type', …)`): then `res.send(string)` keeps it. */
  setsContentType: boolean;
  /**
   * Whether the app sets a JSON print setting this table cannot reproduce ('json replacer', 'json
   * escape', or 'json spaces' other than a number): `res.json` (and `res.send` of an object, which
   * Express hands to `res.json`) then refuses.
   */
  jsonSettings: boolean;
  /**
   * The app's 'json spaces' when it is a number (and jsonSettings is false): Express 4 and 5
   * `res.json` print `JSON.stringify(value, replacer, spaces)`, so the body is printed the same way
   * (`JSON.stringify(x, null, n)`). Absent or 0: Express prints without spaces, as `reply.send` does.
   */
  jsonSpaces?: number;
  /** Where the function runs: at the app (req.url is the full URL) or inside a router (Express strips the mount path). */
  scope: 'app' | 'router';
  /**
   * The function is a moved route handler or route middleware (roles `route`/`hook`): it runs
   * after the Express app in the @fastify/express bridge, so `request.raw`/`reply.raw` are
   * Express's own `req`/`res` with what middleware put on them, and the rows for redirects,
   * `res.location`, `res.locals` and the request data apply. Absent or false: the `errors`
   * stage's rows only.
   */
  bridged?: boolean;
  /** The app's Express major: `res.redirect(a, b)` means (status, url) in 5 and depends on typeof in 4. Unknown: such calls refuse. */
  expressMajor?: 4 | 5;
  /** The function sets a status apart from an answer (`res.status(c);` alone, `res.statusCode = c`): Fastify's reply.redirect would answer with it, Express with 302. */
  statusSetApart?: boolean;
  /** Local name of encodeurl's default export for the URLs of redirects and `res.location` (default `encodeUrl`). */
  encodeUrl?: string;
  /** Local name of content-disposition's default export for `res.attachment(name)` (default `contentDisposition`). */
  contentDisposition?: string;
  /**
   * A moved route handler (role `route`) whose plugin context registers @fastify/view as the app's
   * Express views (transforms/plugin-registrations/view.ts): `true` converts `res.render` (view-render.ts);
   * a string is why the app's views cannot be registered exactly, given as the refusal; absent:
   * `res.render` refuses (plugins stage).
   */
  views?: true | string;
}

/**
 * A module a converted form calls, by its npm name: the caller imports its default export
 * (`encodeurl` as FormContext.encodeUrl, `content-disposition` as FormContext.contentDisposition).
 */
export type FormNeed = 'encodeurl' | 'content-disposition';

/**
 * One Fastify step: a call on the reply (`code(404)`) or a property path (`raw.headersSent`);
 * with `raw`, the path is read on Express's own response (`reply.raw`, cast to Express's
 * `Response` in TypeScript by the caller's `rawOf`).
 */
export type ReplyStep = { call: string; args: Expr[] } | { property: string[]; raw?: true };

/**
 * What one link becomes: its steps, the modules they call (`needs`) and the framework-default ids
 * (rules/catalogue/framework-defaults.ts) the Fastify form shows (`deltas`, e.g. `redirect-body`),
 * and the Fastify plugins it needs registered in the route's context (`plugins`, e.g. `@fastify/view`).
 */
export type FormResult = { steps: ReplyStep[]; needs?: FormNeed[]; deltas?: string[]; plugins?: string[] } | { refuse: string };

/** A row of the `res` table. */
export interface ReplyForm {
  /** Called (`res.status(…)`) or read/written (`res.statusCode`). */
  use: 'call' | 'property';
  /** Whether the Express call returns `res`, so the chain goes on (`res.status(404).json(…)`). */
  chainable: boolean;
  /** Whether the call answers the request (`res.json(…)`, `res.redirect(…)`); its Fastify form returns the reply. */
  answers?: boolean;
  /** Whether its Fastify form answers after it returns (`reply.view` reads the template first): an async handler must return the reply. */
  answersLater?: boolean;
  /** The Fastify form, for docs (docs/stages/errors.md lists every row). */
  fastify: string;
  /**
   * `before`: the members of the chain's earlier links (`['status']` for `res.status(301).redirect(u)`);
   * `after`: the chain's later links (`res.attachment(n).send(s)` gives attachment `[send(s)]`).
   */
  convert(args: Expr[], ctx: FormContext, before: string[], after: Array<{ member: string; args: Expr[] | null }>): FormResult;
}

const refuse = (reason: string): { refuse: string } => ({ refuse: reason });
const call = (name: string, ...args: Expr[]): ReplyStep => ({ call: name, args });

/**
 * Charset Express appends to a `Content-Type` it sets (Express 4 `res.set` → mime 1.x
 * `charsets.lookup`: text types and JavaScript/JSON; Express 5 mime-types gives the same for these).
 */
function withCharset(type: string): string {
  if (/;\s*charset\s*=/i.test(type)) return type;
  return /^text\/|^application\/(javascript|json)/i.test(type.split(';')[0].trim()) ? `${type}; charset=utf-8` : type;
}

/**
 * `res.type(ext)` resolves a file extension through mime; only the extensions whose type Express 4
 * and 5 agree on are expanded here (others refuse rather than guess).
 */
const EXTENSION_TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  json: 'application/json',
  txt: 'text/plain',
  text: 'text/plain',
  xml: 'application/xml',
  css: 'text/css',
  csv: 'text/csv',
};

/** The full content type Express sets for `res.type(t)` / `res.set('Content-Type', t)`, or null when it depends on mime tables we do not copy. */
export function expressContentType(t: string): string | null {
  const bare = t.replace(/^\./, '');
  if (t.includes('/')) return withCharset(t);
  const type = EXTENSION_TYPES[bare.toLowerCase()];
  return type ? withCharset(type) : null;
}

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

/** `res.type(t)` / `res.contentType(t)`. */
function setType(args: Expr[], ctx: FormContext): FormResult {
  const value = stringArg(args, 0);
  const type = value === null ? null : expressContentType(value);
  if (type === null) return refuse(value === null ? 'res.type(…) with a type known only at run time' : `res.type('${value}'): Express resolves it through its mime table; write the full type`);
  return { steps: [call('type', ctx.j.stringLiteral(type))] };
}

/** `res.send(body)`: Express picks the content type from the body (lib/response.js `send`). */
function send(args: Expr[], ctx: FormContext): FormResult {
  if (args.length > 1) return refuse('res.send(body, status) (Express 4 signature)');
  if (args.length === 0) return { steps: [call('send')] };
  const kind = ctx.kindOf(args[0]);
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
    case 'number':
      return refuse('res.send(number): Express 4 treats it as a status code, Express 5 as JSON');
    default:
      return refuse('res.send of a value whose type is known only at run time: Express picks the content type (HTML, JSON, binary) from it');
  }
}

/** `res.json(body)`. */
function json(args: Expr[], ctx: FormContext): FormResult {
  if (ctx.jsonSettings) return refuse("res.json (or res.send of an object) in an app that sets 'json replacer', 'json escape' or a 'json spaces' that is not a number: reply.send does not print the same text");
  if (args.length > 1) return refuse('res.json(body, status) (Express 4 signature)');
  const { j } = ctx;
  if (args.length === 1 && ctx.kindOf(args[0]) === 'object' && !ctx.jsonSpaces) return { steps: [call('send', args[0])] };
  // A string, a number, null or an Error (reply.send would send raw text or take the error path),
  // or any value under 'json spaces': print it as Express does (JSON.stringify(value, replacer,
  // spaces), lib/response.js `stringify`) with Express's type.
  const value = args.length ? args[0] : j.identifier('undefined');
  const body = j.callExpression(j.memberExpression(j.identifier('JSON'), j.identifier('stringify')), ctx.jsonSpaces ? [value, j.nullLiteral(), j.numericLiteral(ctx.jsonSpaces)] : [value]);
  return { steps: [call('type', j.stringLiteral(JSON_TYPE)), call('send', body)] };
}

/** `res.sendStatus(code)`: the status and its text as a text/plain body. */
function sendStatus(args: Expr[], ctx: FormContext): FormResult {
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
 * `res.redirect([status,] url)` → `reply.redirect(url, status?)` (Fastify 5: url first), the URL
 * encoded as Express does. Express 4 also takes `(url, status)` and decides the order by
 * `typeof` of the first argument; Express 5 always reads two arguments as (status, url).
 * Express ignores a status set before (`res.status(301).redirect(u)` answers 302) where
 * Fastify's reply.redirect answers with it, so a chain or function that sets one refuses.
 * The body differs (Express: "Found. Redirecting to …", Fastify: empty): delta `redirect-body`.
 */
function redirect(args: Expr[], ctx: FormContext, before: string[]): FormResult {
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

/** `res.locals` on a moved route: the object Express's middleware filled, on the raw response. */
function locals(_args: Expr[], ctx: FormContext): FormResult {
  if (!ctx.bridged) return refuse('res.locals is filled by Express middleware; it has no Fastify counterpart until that middleware moves');
  return { steps: [{ property: ['locals'], raw: true }] };
}

/** Rows that refuse, with the stage or plugin that brings them. */
const NEEDS = (reason: string): ReplyForm['convert'] => () => refuse(reason);

/**
 * The `res` table: Express member → Fastify form. Rows absent from the table refuse with
 * "res.<member> has no Fastify form in this codemod yet".
 */
export const REPLY_FORMS: Record<string, ReplyForm> = {
  status: { use: 'call', chainable: true, fastify: 'reply.code(c)', convert: (args) => (args.length === 1 ? { steps: [call('code', args[0])] } : refuse('res.status without one argument')) },
  send: { use: 'call', chainable: true, answers: true, fastify: "reply.send(x); a string gets reply.type('text/html; charset=utf-8') first; res.send(null) → reply.send()", convert: send },
  json: { use: 'call', chainable: true, answers: true, fastify: "reply.send(obj) for an object; otherwise reply.type('application/json; charset=utf-8').send(JSON.stringify(x))", convert: json },
  sendStatus: { use: 'call', chainable: true, answers: true, fastify: "reply.code(c).type('text/plain; charset=utf-8').send('<status text>')", convert: sendStatus },
  set: { use: 'call', chainable: true, fastify: "reply.header(k, v) / reply.headers({…}); a literal Content-Type gets Express's charset", convert: setHeader },
  header: { use: 'call', chainable: true, fastify: 'as res.set', convert: setHeader },
  type: { use: 'call', chainable: true, fastify: "reply.type('<full type>; charset=utf-8') (html, json, txt, text, xml, css, csv or a full type)", convert: setType },
  contentType: { use: 'call', chainable: true, fastify: 'as res.type', convert: setType },
  get: { use: 'call', chainable: false, fastify: 'reply.getHeader(k)', convert: (args) => (args.length === 1 ? { steps: [call('getHeader', args[0])] } : refuse('res.get without one argument')) },
  end: {
    use: 'call',
    chainable: false,
    answers: true,
    fastify: 'reply.send() (no body only)',
    convert: (args) => (args.length === 0 ? { steps: [call('send')] } : refuse('res.end(data): Node sends it without a content type, reply.send adds text/plain')),
  },
  headersSent: { use: 'property', chainable: false, fastify: 'reply.raw.headersSent', convert: () => ({ steps: [{ property: ['raw', 'headersSent'] }] }) },
  statusCode: { use: 'property', chainable: false, fastify: 'reply.statusCode (read and write)', convert: () => ({ steps: [{ property: ['statusCode'] }] }) },
  render: { use: 'call', chainable: false, answers: true, answersLater: true, fastify: 'reply.view(view, locals) on a moved route whose context registers @fastify/view (transforms/plugin-registrations/view.ts); otherwise — (plugins stage)', convert: renderForm },
  redirect: { use: 'call', chainable: false, answers: true, fastify: "reply.redirect(encodeUrl(url), status?) on a moved route (body differs: delta redirect-body); refuses in error handlers", convert: redirect },
  location: { use: 'call', chainable: true, fastify: "reply.header('location', encodeUrl(url)) on a moved route", convert: location },
  attachment: {
    use: 'call',
    chainable: true,
    fastify: "reply.header('content-disposition', contentDisposition(name)).type('<type of the extension>') on a moved route of an Express 4 app, chained before .send(<string>)/.send()/.type(…)",
    convert: attachment,
  },
  cookie: { use: 'call', chainable: true, fastify: '— (needs @fastify/cookie: plugins stage)', convert: NEEDS('res.cookie needs @fastify/cookie, which the plugins stage registers') },
  clearCookie: { use: 'call', chainable: true, fastify: '— (needs @fastify/cookie: plugins stage)', convert: NEEDS('res.clearCookie needs @fastify/cookie, which the plugins stage registers') },
  locals: { use: 'property', chainable: false, fastify: 'reply.raw.locals on a moved route (Express middleware filled it in the bridge); refuses in error handlers', convert: locals },
  sendFile: { use: 'call', chainable: false, answers: true, fastify: '— (needs @fastify/static: plugins stage)', convert: NEEDS('res.sendFile needs @fastify/static, which the plugins stage registers') },
  download: { use: 'call', chainable: false, answers: true, fastify: '— (needs @fastify/static: plugins stage)', convert: NEEDS('res.download needs @fastify/static, which the plugins stage registers') },
  format: { use: 'call', chainable: false, fastify: '—', convert: NEEDS('res.format (content negotiation) has no mechanical Fastify form') },
  jsonp: { use: 'call', chainable: false, answers: true, fastify: '—', convert: NEEDS('res.jsonp has no Fastify form') },
};

/**
 * What one `res` chain becomes: the Fastify steps of each link (same order as the links), the
 * modules, framework deltas and Fastify plugins they bring, or the first refusal.
 */
export function convertReplyChain(links: Array<{ member: string; args: Expr[] | null }>, ctx: FormContext): { links: ReplyStep[][]; needs: FormNeed[]; deltas: string[]; plugins: string[] } | { refuse: string } {
  const out: ReplyStep[][] = [];
  const needs = new Set<FormNeed>();
  const deltas = new Set<string>();
  const plugins = new Set<string>();
  for (const [i, link] of links.entries()) {
    const form = Object.hasOwn(REPLY_FORMS, link.member) ? REPLY_FORMS[link.member] : undefined;
    if (!form) return refuse(`res.${link.member} has no Fastify form in this codemod yet`);
    if ((form.use === 'call') !== (link.args !== null)) return refuse(`res.${link.member} used as a ${link.args === null ? 'value' : 'function'}`);
    if (i < links.length - 1 && !form.chainable) return refuse(`res.${link.member}(…) followed by .${links[i + 1].member}`);
    const result = form.convert(link.args ?? [], ctx, links.slice(0, i).map((l) => l.member), links.slice(i + 1));
    if ('refuse' in result) return result;
    out.push(result.steps);
    result.needs?.forEach((n) => needs.add(n));
    result.deltas?.forEach((d) => deltas.add(d));
    result.plugins?.forEach((p) => plugins.add(p));
  }
  return { links: out, needs: [...needs], deltas: [...deltas], plugins: [...plugins] };
}

/**
 * Whether a chain's value is the response (its last link returns `res` or answers): `return
 * res.json(x)` returns the reply once converted, which Fastify does not send as a payload.
 */
export function returnsReply(links: Array<{ member: string }>): boolean {
  const last = links[links.length - 1];
  const form = last && Object.hasOwn(REPLY_FORMS, last.member) ? REPLY_FORMS[last.member] : undefined;
  return !!form && (form.chainable || !!form.answers);
}

/** Whether a chain's Fastify form answers after the call returns (`reply.view`): an async handler must return the reply. */
export function answersLater(links: Array<{ member: string }>): boolean {
  const last = links[links.length - 1];
  return !!last && Object.hasOwn(REPLY_FORMS, last.member) && !!REPLY_FORMS[last.member].answersLater;
}

/** Whether a chain answers the request (its last link sends: `res.status(401).json(…)`). */
export function answersRequest(links: Array<{ member: string }>): boolean {
  const last = links[links.length - 1];
  return !!last && Object.hasOwn(REPLY_FORMS, last.member) && !!REPLY_FORMS[last.member].answers;
}

/**
 * What `req.<member>` becomes: an expression, `onRaw` (the same member read, written or called
 * on Express's own request, `request.raw`, where Express middleware put it), or a refusal.
 */
export type RequestResult = { expression: Expr } | { onRaw: true } | { refuse: string };

/** A row of the `req` table: what `req.<member>` (or `req.<member>(…)`) becomes, built on the request identifier. */
export interface RequestForm {
  use: 'call' | 'property';
  fastify: string;
  /** Only on a moved route (FormContext.bridged); in error and not-found handlers the member refuses. */
  bridgedOnly?: boolean;
  convert(request: Expr, args: Expr[], ctx: FormContext): RequestResult;
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
  (name: string): RequestForm['convert'] =>
  (request, _args, ctx) => ({ expression: ctx.j.memberExpression(request, ctx.j.identifier(name)) });

/** Read on `request.raw`: the value Express middleware (cookie-parser) set in the bridge. */
const onRaw: RequestForm['convert'] = () => ({ onRaw: true });

/**
 * The `req` table. In error and not-found handlers only members whose Fastify value is the same
 * at the app level are here. On a moved route (`bridgedOnly` rows) the request data is Fastify's
 * and equal to Express's — params, query (the shim gives Fastify the app's query parser), body
 * (parsed by the app's parsers) — and cookie-parser's objects are read where it put them.
 */
export const REQUEST_FORMS: Record<string, RequestForm> = {
  method: { use: 'property', fastify: 'request.method', convert: same('method') },
  originalUrl: { use: 'property', fastify: 'request.originalUrl', convert: same('originalUrl') },
  headers: { use: 'property', fastify: 'request.headers', convert: same('headers') },
  url: {
    use: 'property',
    fastify: 'request.url (app level: Express strips the mount path inside routers)',
    convert: (request, args, ctx) => (ctx.scope === 'app' ? same('url')(request, args, ctx) : { refuse: 'req.url inside a router is relative to its mount path' }),
  },
  path: {
    use: 'property',
    fastify: "request.url.split('?')[0] (app level)",
    convert: (request, _args, ctx) => {
      if (ctx.scope !== 'app') return { refuse: 'req.path inside a router is relative to its mount path' };
      const { j } = ctx;
      const split = j.callExpression(j.memberExpression(j.memberExpression(request, j.identifier('url')), j.identifier('split')), [j.stringLiteral('?')]);
      return { expression: j.memberExpression(split, j.numericLiteral(0), true) };
    },
  },
  get: { use: 'call', fastify: "request.headers['name'] (lower-cased; Referer/Referrer aliased)", convert: header },
  header: { use: 'call', fastify: 'as req.get', convert: header },
  params: { use: 'property', bridgedOnly: true, fastify: 'request.params', convert: same('params') },
  query: { use: 'property', bridgedOnly: true, fastify: 'request.query', convert: same('query') },
  body: { use: 'property', bridgedOnly: true, fastify: 'request.body', convert: same('body') },
  baseUrl: {
    use: 'property',
    bridgedOnly: true,
    fastify: "'' (app level)",
    convert: (_request, _args, ctx) => (ctx.scope === 'app' ? { expression: ctx.j.stringLiteral('') } : { refuse: 'req.baseUrl inside a router is its mount path, which a Fastify request does not carry' }),
  },
  cookies: { use: 'property', bridgedOnly: true, fastify: 'request.raw.cookies (set by cookie-parser in the bridge)', convert: onRaw },
  signedCookies: { use: 'property', bridgedOnly: true, fastify: 'request.raw.signedCookies (set by cookie-parser in the bridge)', convert: onRaw },
};

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
 * The catalogue entry when `member` is part of Express's request API (a §1.3 row of
 * rules/catalogue/api.ts, or one of its aliases); undefined for data middleware sets
 * (`req.session`, `req.user`, `req.file`, …) and for Node's IncomingMessage members.
 */
function expressRequestApi(member: string): { fastify: string; difference: string } | undefined {
  const entry = apiFor(`req.${member}`);
  return entry && entry.api.startsWith('req.') && entry.source.includes('§1.3') && (entry.api === `req.${member}` || entry.aliases?.includes(`req.${member}`)) ? entry : undefined;
}

/**
 * What `req.<member>` becomes, or why it cannot move. On a moved route (ctx.bridged) a member
 * that is not part of Express's request API is what middleware set on Express's request
 * (`req.session`, `req.user`, `req.logout()`, …) or Node's own: it stays on `request.raw`
 * (`onRaw`); an Express API member without a row refuses with the catalogue's difference.
 */
export function convertRequestUse(member: string, args: Expr[] | null, request: Expr, ctx: FormContext): RequestResult {
  const row = Object.hasOwn(REQUEST_FORMS, member) ? REQUEST_FORMS[member] : undefined;
  const form = row && (!row.bridgedOnly || ctx.bridged) ? row : undefined;
  if (!form) {
    if (!ctx.bridged) return { refuse: `req.${member} has no Fastify form in this codemod yet (data set by Express middleware stays on the raw request until that middleware moves)` };
    if (Object.hasOwn(ROUTER_MEMBERS, member)) return { refuse: ROUTER_MEMBERS[member] };
    const api = expressRequestApi(member);
    if (!api) return { onRaw: true };
    return { refuse: api.difference ? `req.${member} has no exact Fastify form (${api.fastify}): ${api.difference}` : `req.${member} becomes ${api.fastify}, which this codemod does not write yet` };
  }
  if ((form.use === 'call') !== (args !== null)) return { refuse: `req.${member} used as a ${args === null ? 'value' : 'function'}` };
  return form.convert(request, args ?? [], ctx);
}

/** One link of a `res` chain as found in the AST: `res.status(404)` is member `status`, its MemberExpression and its CallExpression. */
export interface ChainLink {
  member: string;
  /** The call's arguments (the node's own array), or null for a property (`res.statusCode`). */
  args: Expr[] | null;
  memberNode: Expr;
  callNode: Expr | null;
}

/**
 * The `res.a(…).b(…)` chain above one reference of `res` (an Identifier path): its links, and the
 * outermost path. The chain stops after a property or a call that does not return `res`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function replyChainAt(ref: any): { links: ChainLink[]; top: any } {
  const links: ChainLink[] = [];
  let top = ref;
  for (;;) {
    const parent = top.parent;
    if (parent.node.type !== 'MemberExpression' || parent.node.object !== top.node || parent.node.computed) break;
    const member = parent.node.property.name as string;
    const grand = parent.parent;
    if (grand.node.type === 'CallExpression' && grand.node.callee === parent.node) {
      links.push({ member, args: grand.node.arguments, memberNode: parent.node, callNode: grand.node });
      top = grand;
      if (!(Object.hasOwn(REPLY_FORMS, member) && REPLY_FORMS[member].chainable)) break;
    } else {
      links.push({ member, args: null, memberNode: parent.node, callNode: null });
      top = parent;
      break;
    }
  }
  return { links, top };
}

/**
 * Applies converted steps to a chain in place: each link's member is renamed to its last step
 * (`json` → `send`), its arguments replaced only when they changed, and the steps before the last
 * are inserted in front of it (`res.send(s)` → `res.type('text/html; charset=utf-8').send(s)`).
 * A `raw` step is read on `rawOf(object)` (default `object.raw`; in TypeScript the caller casts it
 * to Express's Response). The root identifier is left for the caller to rename. Editing in place keeps the untouched
 * arguments as they were written (recast reprints only what changed).
 */
export function applyReplySteps(j: JSCodeshift, links: ChainLink[], steps: ReplyStep[][], rawOf: (reply: Expr) => Expr = (reply) => j.memberExpression(reply, j.identifier('raw'))): void {
  links.forEach((link, i) => {
    const own = steps[i];
    const last = own[own.length - 1];
    let object = link.memberNode.object;
    for (const step of own.slice(0, -1)) object = 'call' in step ? j.callExpression(j.memberExpression(object, j.identifier(step.call)), step.args) : step.property.reduce((o, p) => j.memberExpression(o, j.identifier(p)), step.raw ? rawOf(object) : object);
    if ('call' in last) {
      if (link.memberNode.property.name !== last.call) link.memberNode.property = j.identifier(last.call);
      const same = last.args.length === link.args!.length && last.args.every((a, k) => a === link.args![k]);
      if (!same) link.callNode.arguments = last.args;
    } else {
      const path = last.property;
      if (last.raw) object = rawOf(object);
      for (const p of path.slice(0, -1)) object = j.memberExpression(object, j.identifier(p));
      if (link.memberNode.property.name !== path[path.length - 1]) link.memberNode.property = j.identifier(path[path.length - 1]);
    }
    if (object !== link.memberNode.object) link.memberNode.object = object;
  });
}
