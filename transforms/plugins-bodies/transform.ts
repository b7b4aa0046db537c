/**
 * jscodeshift transform of `plugins-bodies`, a recipe of one step on the generated server module:
 * Fastify parses the listed routes' bodies (server-module/parse-bodies.ts parseBodiesInFastify),
 * printed in the module's style.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { jFor } from '../lib/ast.js';
import { importedSpecifiers } from '../lib/imports.js';
import { printEdited } from '../lib/print.js';
import { detectStyle } from '../lib/style.js';
import { parseBodiesInFastify, type ParseBodiesEntry } from '../server-module/parse-bodies.js';

/**
 * The module's new source, or null when Fastify parses these bodies already.
 * @throws Error as parseBodiesInFastify (a module edited by hand)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<ParseBodiesEntry>): string | null {
  const entry = options.plan?.entries[0];
  if (!entry) return null;
  const j = jFor(file.path);
  const root = j(file.source);
  const style = detectStyle(file.source, file.path);
  const importsBefore = importedSpecifiers(j, root);
  if (!parseBodiesInFastify(j, root, entry, style)) return null;
  return printEdited(j, root, file.source, style, importsBefore);
}
