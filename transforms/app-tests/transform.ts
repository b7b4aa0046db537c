/**
 * The jscodeshift transform of the steps that point the app's tests at the Fastify server
 * (`shim-tests`, `errors-tests`, `routes-tests`): a `listener` entry adds `fastifyListener` to the
 * generated server module (listener.ts), a `test-file` entry rewrites a test file (test-file.ts);
 * each printed in the file's own style.
 */
import type { API, FileInfo } from 'jscodeshift';
import { isTypeScript } from '../lib/ast.js';
import { insertImportLine } from '../lib/imports.js';
import { printWithStyle } from '../lib/print.js';
import { detectStyle } from '../lib/style.js';
import type { TransformOptions } from '../model.js';
import { addFastifyListener } from './listener.js';
import type { AppTestsEntry } from './model.js';
import { pointTestsAtFastify } from './test-file.js';

/**
 * @returns the new text, or null when there is no plan or nothing changed.
 * @throws Error as addFastifyListener (a generated module without buildFastify) and
 *   pointTestsAtFastify (a planned place that is not there)
 */
export default function transform(file: FileInfo, api: API, options: TransformOptions<AppTestsEntry>): string | null {
  const entry = options.plan?.entries[0];
  if (!entry) return null;
  const j = api.jscodeshift;
  const style = detectStyle(file.source, file.path);
  const root = j(file.source);
  if (entry.kind === 'listener') return addFastifyListener(j, root, isTypeScript(file.path), style) ? printWithStyle(root, file.source, style) : null;
  const { changed, imports } = pointTestsAtFastify(j, root, file.source, entry, style, file.path);
  if (!changed) return null;
  const printed = printWithStyle(root, file.source, style);
  return imports.length ? insertImportLine(j, printed, imports.join(style.eol), style) : printed;
}
