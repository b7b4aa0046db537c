/**
 * Runs the transforms of one file, in step order, jscodeshift-style, and classifies the outcome
 * (jscodeshift's Worker taxonomy): `changed`, `unchanged` (every transform returned null,
 * undefined or the text it got — the file is never reprinted), `skipped` (no plan entries, or the
 * input does not parse: the parse error is the reason) or `failed` (a transform threw, or its
 * output does not parse: nothing of the file is kept). Shared by the worker threads and the
 * in-process path.
 */
import { pathToFileURL } from 'node:url';
import jscodeshift, { type API, type Transform } from 'jscodeshift';
import { parseError, parserFor, parses, type ParseError } from '../transforms/lib/parser.js';
import type { FileTask } from './plan.js';

/** The outcome of one file (JSON-serialisable: it crosses back from a worker). */
export interface FileResult {
  file: string;
  status: 'changed' | 'unchanged' | 'skipped' | 'failed';
  /** The new text, for `changed`. */
  after?: string;
  reason?: string;
  /** For a file `skipped` because its input does not parse: where and why (planned work not done). */
  parseError?: ParseError;
  /** Messages the transforms passed to `api.report`. */
  reports: string[];
}

/** Loads a transform module (absolute path) and returns its transform function. */
export type TransformLoader = (file: string) => Promise<Transform>;

/** Runs `task`'s steps on its source; never throws for a transform's error (that is `failed`). */
export async function transformFile(task: FileTask, load: TransformLoader): Promise<FileResult> {
  const reports: string[] = [];
  const original = task.source ?? '';
  if (task.steps.every((s) => s.plan.entries.length === 0 && !s.plan.create)) return { file: task.file, status: 'skipped', reason: 'no plan entries for this file', reports };
  if (task.source !== null) {
    const error = parseError(task.source, task.file);
    if (error) return { file: task.file, status: 'skipped', reason: `does not parse (${error.line}:${error.column} ${error.message}); not transformed`, parseError: error, reports };
  }
  const j = jscodeshift.withParser(parserFor(task.file));
  const api: API = { jscodeshift: j, j, stats: () => {}, report: (message: string) => reports.push(message) };
  let text = original;
  for (const step of task.steps) {
    let output: unknown;
    try {
      const transform = await load(step.transform);
      output = await transform({ path: task.file, source: text }, api, { plan: step.plan });
    } catch (e) {
      return { file: task.file, status: 'failed', reason: `step ${step.step} threw: ${describeError(e, step.step)}`, reports };
    }
    if (output === null || output === undefined || output === text) continue;
    if (typeof output !== 'string') return { file: task.file, status: 'failed', reason: `step ${step.step} returned a ${typeof output}, not a string`, reports };
    const error = parses(output, task.file);
    if (error) return { file: task.file, status: 'failed', reason: `step ${step.step} produced code that does not parse (${error}); file left untouched`, reports };
    text = output;
  }
  return text === original ? { file: task.file, status: 'unchanged', reports } : { file: task.file, status: 'changed', after: text, reports };
}

/** The error's message and the first stack frame inside the step's folder (a trimmed stack). */
function describeError(e: unknown, step: string): string {
  if (!(e instanceof Error)) return String(e);
  const frame = e.stack?.split('\n').find((l) => l.includes(`/${step}/`));
  const where = frame && /\(?([^()\s]+:\d+:\d+)\)?\s*$/.exec(frame)?.[1];
  // Some library errors carry no message (ast-types' path repairs): name the error and where it was thrown instead.
  const message = e.message || `${e.name} at ${e.stack?.split('\n')[1]?.trim().replace(/^at /, '') ?? 'an unknown place'} (a bug in migrate: please report it)`;
  return where ? `${message} (at ${where})` : message;
}

/** A loader that imports each transform module once (default export, or a CommonJS module's export). */
export function cachingLoader(): TransformLoader {
  const cache = new Map<string, Promise<Transform>>();
  return (file) => {
    if (!cache.has(file)) cache.set(file, import(pathToFileURL(file).href).then(transformOf));
    return cache.get(file)!;
  };
}

function transformOf(mod: { default?: unknown }): Transform {
  let candidate: unknown = mod.default ?? mod;
  if (typeof candidate === 'object' && candidate !== null && 'default' in candidate) candidate = (candidate as { default: unknown }).default;
  if (typeof candidate !== 'function') throw new Error('the transform module has no default-exported function');
  return candidate as Transform;
}
