/**
 * jscodeshift transform of `plugins-static`, a recipe of one step per file: the generated module
 * registers the moving static mounts (server-module/static-registration.ts registerStatic); an app
 * file loses their registrations (lib/registration.ts, with the import nothing else uses); the
 * module defining a mount's setHeaders exports it (server-module/app-functions.ts). Printed
 * in the file's style.
 */
import type { API, FileInfo } from 'jscodeshift';
import type { TransformOptions } from '../model.js';
import { jFor } from '../lib/ast.js';
import { removeUnusedImport } from '../lib/imports.js';
import { applyEntries } from '../lib/recipe.js';
import type { Node } from '../lib/ast.js';
import { findRegistrationByAnchor, removeRegistration } from '../lib/registration.js';
import { notFound } from '../lib/anchor.js';
import { registerStatic } from '../server-module/static-registration.js';
import { applyAppFunctionEdit } from '../server-module/app-functions.js';
import type { StaticEntry } from './plan.js';

/**
 * The file's new source, or null when there is nothing left to do (registered already, removed already).
 * @throws Error as registerStatic (a module edited by hand), or when a registration the plan names
 *   cannot be deleted (the file changed since the analysis)
 */
export default function transform(file: FileInfo, _api: API, options: TransformOptions<StaticEntry>): string | null {
  return applyEntries(file, options, ({ j, root, style }, entry) => {
    if (entry.kind === 'module') return registerStatic(j, root, entry.mounts, entry, style);
    if (entry.kind === 'express') return removeMounts(j, root, file.path, entry.mounts);
    return applyAppFunctionEdit(j, root, file.path, entry);
  });
}

/**
 * Deletes each mount's `app.use([path,] mount)` statement (the planner took only mounts registered
 * alone in a statement of their own), found by the anchor the plan took (lib/anchor.ts).
 * @throws Error when one is not in the file (it changed under the plan)
 */
function removeMounts(j: ReturnType<typeof jFor>, root: ReturnType<ReturnType<typeof jFor>>, file: string, mounts: Extract<StaticEntry, { kind: 'express' }>['mounts']): boolean {
  const found = mounts.map((m) => findRegistrationByAnchor(j, root, m.anchor, m.name) ?? notFound(file, `the static mount ${m.name}`, m.anchor));
  for (const registration of found) {
    const named = new Set(j(registration.statement).find(j.Identifier).nodes().map((n) => n.name as string));
    removeRegistration(j, root, registration.statement, registration.call.node.arguments[registration.argIndex]);
    removeUnusedFolders(j, root, named);
  }
  return found.length > 0;
}

/** How a folder constant of the app is computed (`path.dirname(fileURLToPath(import.meta.url))`, `path.join(__dirname, 'public')`): calls that only compute a path. */
const FOLDER_CALL = /^(path\.(dirname|join|resolve)|dirname|join|resolve|fileURLToPath)$/;

/**
 * The module-level folder constants among `names` that nothing reads once the mount is gone
 * (`const __dirname = path.dirname(fileURLToPath(import.meta.url))` in an ES module, `publicDir`),
 * and then the imports nothing uses (`path`, `fileURLToPath`): left, they fail `no-unused-vars` and
 * TypeScript's `noUnusedLocals`. Only constants whose value is a path computation go.
 */
function removeUnusedFolders(j: ReturnType<typeof jFor>, root: ReturnType<ReturnType<typeof jFor>>, names: Set<string>): void {
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const pending = [...names];
  while (pending.length) {
    const name = pending.pop()!;
    const at = program.findIndex((s) => s.type === 'VariableDeclaration' && s.declarations.length === 1 && s.declarations[0].id.type === 'Identifier' && s.declarations[0].id.name === name);
    const init = at >= 0 ? program[at].declarations[0].init : null;
    if (init && isFolderComputation(j, init) && root.find(j.Identifier, { name }).size() === 1) {
      pending.push(...j(init).find(j.Identifier).nodes().map((n) => n.name as string));
      program.splice(at, 1);
    } else removeUnusedImport(j, root, name);
  }
}

/** Whether `node` only computes a path: FOLDER_CALL calls of literals, identifiers, `import.meta.url` and such calls. */
function isFolderComputation(j: ReturnType<typeof jFor>, node: Node): boolean {
  if (node.type !== 'CallExpression') return false;
  const callee = j(node.callee).toSource();
  return FOLDER_CALL.test(callee) && node.arguments.every((a: Node) => a.type === 'StringLiteral' || a.type === 'Literal' || a.type === 'Identifier' || a.type === 'MetaProperty' || (a.type === 'MemberExpression' && j(a).toSource() === 'import.meta.url') || isFolderComputation(j, a));
}
