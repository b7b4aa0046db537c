/**
 * What the errors steps read exactly as the shim stage does, so that both agree on which file is
 * the generated module and on a file's module system: re-exported from transforms/shim-server/.
 */
import path from 'node:path';
import { moduleSystemOf } from '../shim-server/facts.js';

export { importSpecifier, isGeneratedModule, moduleSystemOf, serverModuleFor, type ServerModule } from '../shim-server/facts.js';
export { GENERATED_MARK } from '../shim-server/template.js';

/** The module system of the project file `file` with text `source` (moduleSystemOf by its extension). */
export function moduleSystemOfFile(file: string, source: string, packageKind: 'esm' | 'commonjs'): 'esm' | 'commonjs' {
  return moduleSystemOf(source, path.posix.extname(file), packageKind);
}
