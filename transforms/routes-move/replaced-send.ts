/**
 * Middleware that replaces `res.send` or `res.json` on Express's response (res-method-reassign
 * findings in the app's code: a logger recording the body, an envelope around JSON). Express's own
 * methods call one another — `res.json`, `res.sendStatus` and `res.render` send through `res.send`,
 * `res.send` of an object through `res.json` — so the replacement runs for those calls too. A moved
 * handler's calls of them run Express's own method through the generated fastify-like-express
 * module (`sendLikeExpress`, …: on a stand-in for Express's response that inherits the replacement
 * from `reply.raw`), so the replacement runs as it ran in Express — when it can run there: a
 * `function` (an arrow would call the original with the middleware's `res`, answering on Node's
 * response past Fastify) that touches the middleware's `res` only by reading or writing its
 * properties (`res.locals.body = body`), never calling a method on it or handing it on.
 */
import type { ASTPath } from 'jscodeshift';
import type { Finding, Inventory } from '../../analyzer/model.js';
import { isReference, startsAt, type Node } from '../lib/ast.js';
import type { ParsedFiles } from '../lib/parsed-files.js';
import { replacements } from './replaced-render.js';

/**
 * The replaced methods this module knows, and the `res` members whose Express methods call each
 * (res.send calls res.json only for a value that is not a string, a Buffer or null: the handler
 * rewrite tells those apart, ReplacedSend.objectSends).
 */
const CALLED_BY: Readonly<Record<string, readonly string[]>> = {
  'res.send': ['res.send', 'res.json', 'res.jsonp', 'res.sendStatus', 'res.render'],
  'res.json': ['res.json'],
};

/** The members a moved handler calls through Express's own method when a replacement runs there (reply-forms.ts, FormContext.throughExpress). */
const THROUGH: Readonly<Record<string, readonly string[]>> = {
  'res.send': ['send', 'json', 'sendStatus'],
  'res.json': ['send', 'json'],
};

/** What replacing `res.send` / `res.json` means for the moved routes of the app. */
export interface ReplacedSend {
  /** `res` members whose calls go through the fastify-like-express module (empty: none). */
  through: string[];
  /** Per `res.*` member a handler may use: the replacement it would skip, and why (none when `through` covers it). */
  skipped: Map<string, { finding: Finding; reason: string }>;
  /** Why `res.send` of a value that may be JSON would skip a replaced res.json (Express's res.send hands it to res.json); null when it would not. */
  objectSends: string | null;
}

/** The replacements of res.send and res.json in the app's code, read where the findings put them. */
export function replacedSend(inventory: Pick<Inventory, 'findings'>, parsed: ParsedFiles): ReplacedSend {
  const through = new Set<string>();
  const skipped = new Map<string, { finding: Finding; reason: string }>();
  let objectSends: string | null = null;
  for (const finding of replacements(inventory)) {
    const api = (finding.appliesTo?.uses ?? []).find((u) => Object.hasOwn(CALLED_BY, u));
    if (!api) continue;
    const refusal = replacementRefusal(finding, parsed);
    if (refusal === null) THROUGH[api].forEach((m) => through.add(m));
    else if (api === 'res.json') objectSends ??= `res.send of a value that may be JSON runs the app's replacement of res.json in Express, and it cannot run here: ${refusal}`;
    for (const use of CALLED_BY[api]) {
      // res.render sends the HTML through res.send: reply.view does not.
      const reason = refusal ?? (use === 'res.render' || use === 'res.jsonp' ? `Express's ${use} answers through the replaced ${api}, and its Fastify form does not` : null);
      if (reason && !skipped.has(use)) skipped.set(use, { finding, reason });
    }
  }
  return { through: [...through].sort(), skipped, objectSends };
}

/** Why a replacement cannot run on the stand-in for Express's response; null when it can. */
function replacementRefusal(finding: Finding, parsed: ParsedFiles): string | null {
  const file = parsed(finding.location.file);
  if (!file) return `${finding.location.file} could not be parsed`;
  const assignment = file.root
    .find(file.j.AssignmentExpression)
    .filter((p) => p.node.left.type === 'MemberExpression' && startsAt(p.node.left, finding.location, file.source))
    .paths()[0];
  if (!assignment) return 'its replacement was not found where the analysis put it';
  const left = assignment.node.left as Node;
  const fn = assignment.get('right');
  if (left.object.type !== 'Identifier') return 'the replacement is put on something other than the middleware\'s `res`';
  if (fn.node.type !== 'FunctionExpression') return 'the replacement is not a `function` (an arrow function calls the original on the middleware\'s `res`, which would answer past Fastify)';
  const res = left.object.name;
  const uses = file.j(fn).find(file.j.Identifier, { name: res }).filter((p) => isReference(p)).paths();
  return uses.some((p) => !isPropertyUse(p)) ? `the replacement uses the middleware's \`${res}\` other than through its properties (a call on Express's response would answer past Fastify)` : null;
}

/** `res.x` read or written, and not called (`res.locals.body = body`, `res.statusCode`). */
function isPropertyUse(p: ASTPath<Node>): boolean {
  const member = p.parent;
  if (member.node.type !== 'MemberExpression' || member.node.object !== p.node || member.node.computed) return false;
  const grand = member.parent.node;
  return !(grand.type === 'CallExpression' && grand.callee === member.node);
}
