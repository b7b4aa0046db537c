/**
 * A use of `res` in the syntax tree: the chain of links above one reference (`res.status(404).json(x)`),
 * and the Fastify steps of its converted links applied in place (reply-forms.ts converts them).
 */
import type { JSCodeshift } from 'jscodeshift';
import type { Expr, ReplyStep } from './forms.js';
import { isChainable } from './reply-forms.js';

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
      if (!isChainable(member)) break;
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
 * to Express's Response); a `likeExpress` step turns the link's call into a call of that function
 * with the chain so far first. The root identifier is left for the caller to rename. Editing in place keeps the untouched
 * arguments as they were written (recast reprints only what changed).
 */
export function applyReplySteps(j: JSCodeshift, links: ChainLink[], steps: ReplyStep[][], rawOf: (reply: Expr) => Expr = (reply) => j.memberExpression(reply, j.identifier('raw'))): void {
  links.forEach((link, i) => {
    const own = steps[i];
    const last = own[own.length - 1];
    let object = link.memberNode.object;
    for (const step of own.slice(0, -1)) {
      if ('likeExpress' in step) throw new Error(`${step.likeExpress} must be the last step of its link`);
      object = 'call' in step ? j.callExpression(j.memberExpression(object, j.identifier(step.call)), step.args) : step.property.reduce((o, p) => j.memberExpression(o, j.identifier(p)), step.raw ? rawOf(object) : object);
    }
    if ('likeExpress' in last) {
      // `reply.code(201).send(x)` → `sendLikeExpress(reply.code(201), x)`: the same call node, so a link after it chains on its result.
      link.callNode.callee = j.identifier(last.likeExpress);
      link.callNode.arguments = [object, ...last.args];
      return;
    }
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
