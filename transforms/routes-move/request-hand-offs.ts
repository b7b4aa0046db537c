/**
 * The `requestHandOffs` option of a moved handler's rewrite (handler-rewrite/rewrite.ts), read from
 * the route's inventory record (`usage.handOffs`, analyzer/request-hand-offs.ts): for the function's
 * file, what each project function it hands `req` to as a value uses of it, keyed by the offset of
 * that `req` in the file (the rewrite finds its references by offset, as the plan parsed the file).
 */
import type { Location, Route } from '../../analyzer/model.js';
import type { HandlerOptions, RequestHandOffUse } from '../handler-rewrite/rewrite.js';
import type { PlanContext } from '../model.js';

/** `{ requestHandOffs }` for the hand-offs of `route` made in `file` (a handler's module, or a helper's it calls); `{}` when there are none. */
export function requestHandOffsIn(ctx: PlanContext, route: Route, file: string): Pick<HandlerOptions, 'requestHandOffs'> {
  const here = (route.usage.handOffs ?? []).filter((h) => h.location.file === file);
  const source = here.length ? ctx.readFile(file) : null;
  if (!source) return {};
  const byOffset: Record<string, RequestHandOffUse> = {};
  for (const h of here) {
    byOffset[String(offsetOf(source, h.location))] = { callee: h.callee, reads: h.reads.map(({ member, call, write }) => ({ member, ...(call ? { call } : {}), ...(write ? { write } : {}) })), ...(h.opaque ? { opaque: h.opaque } : {}) };
  }
  return { requestHandOffs: byOffset };
}

/** The character offset of the analyzer's 1-based line and column (characters, a tab is one) in `source`. */
function offsetOf(source: string, at: Location): number {
  let offset = 0;
  for (let line = 1; line < at.line; line++) offset = source.indexOf('\n', offset) + 1;
  return offset + at.column - 1;
}
