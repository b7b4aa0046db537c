/**
 * What the handler rewrite knows of one use of `req` or `res`: the shared shapes of its forms
 * (reply-forms.ts for `res`, request-forms.ts for `req`), and the catalogue row of a member
 * (rules/catalogue/api.ts, the one table of the Express API: how Express uses the member, the form
 * the rewrite writes for it, the stage that converts it). The forms follow express-fastify-mapping.md
 * §1.3/§1.4 (probed with Express 4.22/5.3 and Fastify 5.12) and Express 4.x/5.x `lib/response.js`:
 * a form converts only when the Fastify code answers with the same status, content type and body
 * (a body that differs by a catalogued framework default is reported as a delta: `redirect-body`);
 * otherwise it refuses with a reason a human can act on.
 */
import type { JSCodeshift } from 'jscodeshift';
import { API, type ApiEntry } from '../../rules/catalogue/api.js';
import type { LikeExpressFunction } from '../server-module/like-express-template.js';

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
   * The function runs after the Express app in the @fastify/express bridge — a moved route handler
   * or route middleware, or the app's error or 404 handler once the errors stage moved it — so
   * `request.raw`/`reply.raw` are Express's own `req`/`res` with what middleware put on them, and
   * the rows for redirects, `res.location`, `res.locals` and the request data apply. Absent or
   * false: the rows that hold everywhere only.
   */
  bridged?: boolean;
  /**
   * With `bridged`: the function belongs to the Fastify route that matched (a moved route), so
   * Fastify's `request.params`/`query`/`body` are the route's own. False for an error or 404
   * handler, which Fastify reaches through the bridge's catch-all: there the request data is what
   * Express put on its request, read on `request.raw`.
   */
  fastifyRoute?: boolean;
  /** The app's Express major: `res.redirect(a, b)` means (status, url) in 5 and depends on typeof in 4. Unknown: such calls refuse. */
  expressMajor?: 4 | 5;
  /** The function sets a status apart from an answer (`res.status(c);` alone, `res.statusCode = c`): Fastify's reply.redirect would answer with it, Express with 302. */
  statusSetApart?: boolean;
  /** Local name of encodeurl's default export for the URLs of redirects and `res.location` (default `encodeUrl`). */
  encodeUrl?: string;
  /** Local name of content-disposition's default export for `res.attachment(name)` (default `contentDisposition`). */
  contentDisposition?: string;
  /**
   * A moved route handler (role `route`), or the app's error or 404 handler, whose plugin context
   * registers @fastify/view as the app's Express views (transforms/plugin-registrations/view.ts): `true` converts `res.render` (view-render.ts);
   * a string is why the app's views cannot be registered exactly, given as the refusal; absent:
   * `res.render` refuses (plugins stage).
   */
  views?: true | string;
  /** With `views: true`: res.render renders through the replacement the app's middleware put on Express's response (HandlerOptions.renderReplaced). */
  renderReplaced?: boolean;
  /**
   * The function sets Content-Type with Node's `res.setHeader` (written as given; Express's res.send
   * gives a string body its charset later): `sends` when it is a route handler whose every answer is
   * `res.send(…)` or `res.json(…)` (through Express's own, `sendLikeExpress` / `jsonLikeExpress`,
   * which set that charset), `res.end()` or `res.sendStatus(…)`; `other` when it answers otherwise,
   * or is middleware (the answer comes after).
   * Absent: it does not.
   */
  rawContentType?: 'sends' | 'other';
  /**
   * On a moved route: `res` members whose calls run Express's own method through the generated
   * fastify-like-express module, because the app's middleware replaced `res.send` or `res.json` and
   * Express's methods call the replacement (`send`, `json`, `sendStatus`; routes-move/replaced-send.ts).
   */
  throughExpress?: ReadonlySet<string>;
  /** On a moved route: why `res.send` of a value that may be JSON refuses (the app replaced res.json in a way that cannot run through Express's own; routes-move/replaced-send.ts). */
  jsonReplaced?: string;
}

/**
 * A module a converted form calls, by its npm name: the caller imports its default export
 * (`encodeurl` as FormContext.encodeUrl, `content-disposition` as FormContext.contentDisposition).
 */
export type FormNeed = 'encodeurl' | 'content-disposition';

/**
 * One Fastify step: a call on the reply (`code(404)`) or a property path (`raw.headersSent`);
 * with `raw`, the path is read on Express's own response (`reply.raw`, cast to Express's
 * `Response` in TypeScript by the caller's `rawOf`); `likeExpress`: a call of a function of the
 * generated fastify-like-express module with the reply first (`sendLikeExpress(reply, body)`,
 * server-module/like-express-template.ts), which returns the reply; it ends its link.
 */
export type ReplyStep = { call: string; args: Expr[] } | { property: string[]; raw?: true } | { likeExpress: LikeExpressFunction; args: Expr[] };

/**
 * What one link becomes: its steps, the modules they call (`needs`) and the framework-default ids
 * (rules/catalogue/framework-defaults.ts) the Fastify form shows (`deltas`, e.g. `redirect-body`),
 * and the Fastify plugins it needs registered in the route's context (`plugins`, e.g. `@fastify/view`).
 */
export type FormResult = { steps: ReplyStep[]; needs?: FormNeed[]; deltas?: string[]; plugins?: string[] } | Refusal;

/** The functions of the generated fastify-like-express module a step calls. */
export function likeExpressOf(steps: ReplyStep[]): LikeExpressFunction[] {
  return steps.flatMap((s) => ('likeExpress' in s ? [s.likeExpress] : []));
}

/** Why a form cannot be written; `waitsFor`: the stage that brings what it needs (a plugin), when that is all that is missing. */
export interface Refusal {
  refuse: string;
  waitsFor?: 'plugins';
}


/**
 * The catalogue row of `req.<member>` / `res.<member>` when the member is part of the API the
 * rewrite reads (its key or an alias: `res.header` is the `res.set` row), else undefined (data
 * middleware set, Node's own members, members the catalogue does not list).
 */
export function memberRow(object: 'req' | 'res', member: string): ApiEntry | undefined {
  const key = `${object}.${member}`;
  return Object.hasOwn(MEMBERS, key) ? MEMBERS[key] : undefined;
}

/** Every `req.*`/`res.*` key and alias of the catalogue → its row. */
const MEMBERS: Record<string, ApiEntry> = Object.fromEntries(
  (Object.values(API) as ApiEntry[]).flatMap((e) => [e.api, ...(e.aliases ?? [])].filter((k) => /^(req|res)\.[A-Za-z_$][\w$]*$/.test(k)).map((k) => [k, e])),
);

/**
 * Why the rewrite refuses a catalogued member it has no converter for, from the row: the plugins
 * its Fastify form needs when the plugins stage brings them (`res.cookie needs @fastify/cookie,
 * which the plugins stage registers`), else that no codemod form exists, with the difference.
 * `stage` is the stage the refused form waits for when it is not the row's (a row of the routes
 * stage whose form holds on moved routes only: res.sendFile elsewhere waits for @fastify/static).
 */
export function noFormReason(entry: ApiEntry, stage: ApiEntry['stage'] = entry.stage): Refusal {
  if (stage === 'plugins' && entry.requires?.length) return { refuse: `${entry.api} needs ${entry.requires.join(', ')}, which the plugins stage registers`, waitsFor: 'plugins' };
  return { refuse: entry.difference ? `${entry.api} has no exact Fastify form (${entry.fastify}): ${entry.difference}` : `${entry.api} becomes ${entry.fastify}, which this codemod does not write yet` };
}
