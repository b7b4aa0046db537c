/**
 * The frame of a transform that applies its plan entries to one file in turn: the file parsed
 * once, its style detected, each entry applied by the step's own function, and the file printed
 * in its style (printEdited, the imports added closed up) only when some entry changed it.
 */
import type { Collection, FileInfo, JSCodeshift } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { jFor } from './ast.js';
import { importedSpecifiers } from './imports.js';
import { printEdited } from './print.js';
import { detectStyle, type CodeStyle } from './style.js';

/** What an entry's edit works on: the parsed file, its style, its path and its source as it came. */
export interface FileEdit {
  j: JSCodeshift;
  root: Collection;
  style: CodeStyle;
  file: string;
  source: string;
}

/**
 * The file's new source after `apply` ran for each of its plan entries (each returns whether it
 * changed the file), or null when there are none or none changed it.
 * @throws whatever `apply` throws (the runner fails the file and writes nothing of the stage)
 */
export function applyEntries<E>(file: FileInfo, options: TransformOptions<E>, apply: (edit: FileEdit, entry: E) => boolean): string | null {
  const entries = options.plan?.entries ?? [];
  if (!entries.length) return null;
  const j = jFor(file.path);
  const root = j(file.source);
  const edit: FileEdit = { j, root, style: detectStyle(file.source, file.path), file: file.path, source: file.source };
  const importsBefore = importedSpecifiers(j, root);
  let changed = false;
  for (const entry of entries) changed = apply(edit, entry) || changed;
  return changed ? printEdited(j, root, file.source, edit.style, importsBefore) : null;
}
