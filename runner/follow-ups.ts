/**
 * The items a stage leaves (for a human, or for a later stage) placed in the files as written.
 * Steps plan from the files before the stage, so an item's line is a line of the old text; the
 * stage may then add lines above it (an import, its own `TODO(migrate)` comment) or remove some
 * (a registration that moved). Each item is carried to the line it has after the write (jsdiff's
 * line diff of the file's change), and a `TODO(migrate)` comment that marks an item's place is
 * paired with it (same file, same text, nearest above), so the summary lists the two once.
 */
import { diffLines } from 'diff';
import type { FileChange, ManualItem } from '../transforms/model.js';
import type { TodoLine } from './model.js';

/**
 * `items` with each line carried through its file's change (unchanged for files the stage does
 * not change or creates), and `todos` with `paired` set on those that mark one of the items.
 * Neither input is modified.
 */
export function placeItems<T extends ManualItem>(items: T[], changes: FileChange[], todos: TodoLine[]): { items: T[]; todos: TodoLine[] } {
  const byFile = new Map(changes.filter((c) => c.before !== null).map((c) => [c.file, c]));
  const placedTodos = todos.map((t) => ({ ...t }));
  const placed = items.map((item) => {
    const change = byFile.get(item.file);
    const line = change ? lineAfter(change.before!, change.after, item.line) : item.line;
    if (item.todo) {
      const todo = nearestAbove(
        placedTodos.filter((t) => !t.paired && t.file === item.file && t.text === item.todo),
        line,
      );
      if (todo) todo.paired = true;
    }
    return line === item.line ? item : { ...item, line };
  });
  return { items: placed, todos: placedTodos };
}

/**
 * The 1-based line of `after` that line `line` of `before` became: the same line when it is kept,
 * else (it was rewritten or deleted) the line now in its place.
 */
export function lineAfter(before: string, after: string, line: number): number {
  let oldLine = 1;
  let newLine = 1;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.added) {
      newLine += count;
      continue;
    }
    if (line < oldLine + count) return part.removed ? newLine : newLine + (line - oldLine);
    oldLine += count;
    if (!part.removed) newLine += count;
  }
  return newLine + (line - oldLine);
}

/** The TODO line closest to `line`, preferring those above it or on it (a TODO comment sits above what it marks). */
function nearestAbove(todos: TodoLine[], line: number): TodoLine | undefined {
  const above = todos.filter((t) => t.line <= line).sort((a, b) => b.line - a.line);
  return above[0] ?? todos.sort((a, b) => a.line - b.line)[0];
}
