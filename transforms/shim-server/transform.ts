/**
 * Writes (or rewrites) the generated Fastify module from its plan entry. The text depends only on
 * the facts and the style in the plan, so a second run produces the same bytes and changes
 * nothing. A file of that name that we did not write is never touched (facts.ts picks another name).
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import type { ServerEntry } from './plan.js';
import { GENERATED_MARK, serverModule } from './template.js';

/** jscodeshift transform: returns the module text, or null (no change) without a plan. */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<ServerEntry>): string | null {
  const entry = options.plan?.entries[0];
  if (!entry) return null;
  if (file.source.trim() && !file.source.includes(GENERATED_MARK)) return null;
  const text = serverModule(entry.facts, entry.style);
  return text === file.source ? null : text;
}
