/**
 * The routes that stay on Express, as the runner reports them: a ManualItem per route, with every
 * reason it stays (a human sees at once all that holds it back), and one `TODO(migrate)` per
 * registration statement naming them all; a DeferredItem instead when every reason is one a later
 * stage lifts (no TODO, no exit 1).
 */
import { stageThatLifts } from '../../rules/catalogue/blockers.js';
import type { Anchor } from '../lib/anchor.js';
import { anchorOf } from '../lib/anchor.js';
import type { DeferredItem, ManualItem, StageName } from '../model.js';
import type { RouteState } from './state.js';

/** How this step's TODO(migrate) comments begin (after `TODO(migrate): `). */
export const TODO_PREFIX = 'route stays on Express:';

/** What the routes that stay come to. */
export interface Left {
  manual: ManualItem[];
  deferred: DeferredItem[];
  /** One TODO per registration statement (`reason` is the comment's text after `TODO(migrate): `). */
  todos: Array<{ file: string; statement: Anchor; reason: string }>;
}

/** The items and TODOs of the `staying` routes (states with blockers). */
export function leftRoutes(staying: RouteState[]): Left {
  const left: Left = { manual: [], deferred: [], todos: [] };
  const byStatement = new Map<string, { file: string; statement: Anchor; reasons: string[]; items: ManualItem[] }>();
  for (const s of staying) {
    const r = s.route;
    const reasons = [...new Map(s.blockers.map((b) => [b.reason, b])).values()];
    const waitsFor = stageThatLifts(reasons);
    // A reason a later stage lifts is not the human's to act on while another one needs them.
    const shown = waitsFor ? reasons : reasons.filter((b) => !stageThatLifts([b]) || reasons.length === 1);
    const where = [...new Set(shown.flatMap((b) => b.where ?? []))];
    const text = `${joinReasons(shown.map((b) => b.reason))}${where.length ? ` (${where.join(', ')})` : ''}`;
    // At the statement's first line, where its TODO goes above (a route() chain's verb can be lines below).
    const line = s.statement?.lines[0] ?? (s.todoAt ? s.todoAt.anchor.line : r.registration.line);
    const item: ManualItem = { file: r.registration.file, line, code: shown[0].code, reason: `${r.method} ${r.path.full} stays on Express: ${text}` };
    if (waitsFor) {
      left.deferred.push({ ...item, reason: `${r.method} ${r.path.full} stays on Express until then: ${text}`, stage: waitsFor as StageName });
      continue;
    }
    left.manual.push(item);
    const at = s.statement && s.statementKey ? { anchor: anchorOf(s.statement.statement), key: s.statementKey } : s.todoAt;
    if (!at) continue;
    const todo = byStatement.get(at.key) ?? { file: r.registration.file, statement: at.anchor, reasons: [], items: [] };
    for (const b of shown) if (!todo.reasons.includes(b.reason)) todo.reasons.push(b.reason);
    todo.items.push(item);
    byStatement.set(at.key, todo);
  }
  // One TODO per statement, naming every reason; each of its items is paired with it.
  for (const t of byStatement.values()) {
    const reason = `${TODO_PREFIX} ${joinReasons(t.reasons)}`;
    left.todos.push({ file: t.file, statement: t.statement, reason });
    for (const item of t.items) item.todo = reason;
  }
  return left;
}

/** Reasons as one sentence: `a; b` (a reason's own closing full stop dropped, so none reads `…).; b`). */
function joinReasons(reasons: string[]): string {
  return reasons.map((r, i) => (i < reasons.length - 1 ? r.replace(/\.$/, '') : r)).join('; ');
}
