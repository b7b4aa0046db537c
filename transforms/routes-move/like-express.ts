/**
 * The generated fastify-like-express module (server-module/like-express-template.ts) for the moved
 * routes: each file whose rewritten handler or hook calls one of its functions imports it (the
 * specifier written as the file writes relative imports), and the module is written next to the
 * server module of the app — when it is missing, or lacks a function of this version (an older run
 * wrote it): it is generated whole, so writing it again brings it up to date.
 */
import { isTypeScript } from '../lib/ast.js';
import { importSpecifier, moduleSystemOfFile } from '../lib/module-system.js';
import type { FilePlan, PlanContext } from '../model.js';
import { likeExpressModuleFile, type GeneratedModule } from '../server-module/locate.js';
import { hasLikeExpressFunctions } from '../server-module/like-express-template.js';
import type { ModuleImport, RoutesEntry } from './model.js';

/** The import of `names` from the module next to `target` (the app's server module), in `file`; undefined when there are none. */
export function likeExpressImport(ctx: PlanContext, target: GeneratedModule, file: string, names: Iterable<string>): ModuleImport | undefined {
  const sorted = [...new Set(names)].sort();
  if (!sorted.length) return undefined;
  const source = ctx.readFile(file) ?? '';
  const module = likeExpressModuleFile(target.file);
  // How the project writes relative specifiers (with `.js` under NodeNext), read from the file and the entry.
  const importer = [source, ctx.inventory.project.entry ? (ctx.readFile(ctx.inventory.project.entry) ?? '') : ''].join('\n');
  return { specifier: importSpecifier(file, { file: module, module: moduleSystemOfFile(ctx.inventory, file, source), typescript: isTypeScript(module) }, importer), names: sorted };
}

/** The file plan that writes the module next to `target`, when a moved handler uses it and the file is missing or out of date; null otherwise. */
export function likeExpressModulePlan(ctx: PlanContext, target: GeneratedModule): FilePlan<RoutesEntry> | null {
  const file = likeExpressModuleFile(target.file);
  const existing = ctx.readFile(file);
  if (existing !== null && hasLikeExpressFunctions(existing)) return null;
  return { file, ...(existing === null ? { create: true } : {}), entries: [{ kind: 'like-express-module', module: target.module, typescript: target.typescript }] };
}
