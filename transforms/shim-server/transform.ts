/**
 * Writes the generated Fastify module from its plan entry, in the style of the file that listens
 * (`create`), or brings the settings-derived parts of an existing one up to date (`refresh`:
 * server-module/fastify-options.ts, in the module's own style), reporting why. Nothing else of an
 * existing module is rewritten, so what later stages and the user added to it stays.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import type { ServerEntry } from './plan.js';
import { serverModule } from '../server-module/template.js';
import { rewriteSettings, settingsImportsUpdated, settingsOptionsRemoved } from '../server-module/fastify-options.js';
import { detectStyle } from '../lib/style.js';
import { printWithStyle } from '../lib/print.js';

/**
 * jscodeshift transform: the module text, or null (no change) without a plan or when asked to
 * create a module that has text already.
 * @throws Error when a module to refresh has no `Fastify({ routerOptions: {…} })` in buildFastify
 *   (fastify-options.ts rewriteSettings; the plan only lists modules where it found one)
 */
export default function transform(file: FileInfo, api: API, options: TransformOptions<ServerEntry>): string | null {
  const entry = options.plan?.entries[0];
  if (!entry) return null;
  if (entry.kind === 'create') return file.source.trim() ? null : serverModule(entry.facts, entry.style);
  const j = api.jscodeshift;
  const style = detectStyle(file.source, file.path);
  // Options removed as lines first, then the rest edited on the tree, then the imports as lines.
  const source = settingsOptionsRemoved(file.source, file.path, entry.facts, entry.keys, style);
  const root = j(source);
  rewriteSettings(j, root, entry.facts, entry.keys, style.quote);
  api.report(`the app's settings changed since this module was written: ${entry.reasons.join('; ')} — only these are rewritten, the rest of the module is kept`);
  return settingsImportsUpdated(printWithStyle(root, source, style), file.path, entry.facts, style);
}
