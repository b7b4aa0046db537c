/**
 * The project files a planner reads, parsed once each: a planner looks at the same registration
 * and handler files for many records.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { PlanContext } from '../model.js';
import { parseOrNull } from './ast.js';

/** A parsed project file: its jscodeshift API, root and source. */
export interface ParsedFile {
  j: JSCodeshift;
  root: Collection;
  source: string;
}

/** The parsed file at a POSIX path relative to the project root, or null when it does not exist or does not parse. */
export type ParsedFiles = (file: string) => ParsedFile | null;

/** The ParsedFiles of a plan context: it reads through `ctx.readFile` and parses each file once (or fails to) for every planner of the stage. */
export function parsedFiles(ctx: Pick<PlanContext, 'readFile'>): ParsedFiles {
  let files = FILES.get(ctx);
  if (!files) FILES.set(ctx, (files = readAndParse(ctx)));
  return files;
}

const FILES = new WeakMap<object, ParsedFiles>();

function readAndParse(ctx: Pick<PlanContext, 'readFile'>): ParsedFiles {
  const cache = new Map<string, ParsedFile | null>();
  return (file) => {
    if (!cache.has(file)) {
      const source = ctx.readFile(file);
      const parsed = source === null ? null : parseOrNull(file, source);
      cache.set(file, parsed && source !== null ? { ...parsed, source } : null);
    }
    return cache.get(file)!;
  };
}
