/**
 * Writes the generated Fastify module from its plan entry, in the style of the file that listens.
 * An existing file is never rewritten (the plan does not list it; the transform leaves any
 * non-empty source alone too), so what later stages and the user added to it stays.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import type { ServerEntry } from './plan.js';
import { serverModule } from '../server-module/template.js';

/** jscodeshift transform: returns the module text, or null (no change) without a plan. */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<ServerEntry>): string | null {
  const entry = options.plan?.entries[0];
  if (!entry) return null;
  if (file.source.trim()) return null;
  return serverModule(entry.facts, entry.style);
}
