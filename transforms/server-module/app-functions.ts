/**
 * A function of the app's code that the generated module calls: an option of a middleware it
 * rebuilds (body-parser's `verify`, serve-static's `setHeaders`), which the analyzer located
 * (FoldedValue.unresolved `function`). The function stays where it is written and keeps its
 * signature — the generated code calls it as the package did — so only how the generated module
 * reaches it is planned here:
 * - exported already: imported as its module exports it;
 * - a top-level declaration its module does not export: exported (lib/exports.ts addExport);
 * - written inline in the options (`express.json({ verify: (req, res, buf) => … })`): lifted into an
 *   exported top-level `const` before the statement (lib/exports.ts liftFunction), when it reads
 *   nothing bound below the top level and, in TypeScript, its parameters carry their own types (the
 *   options' type gave them theirs).
 * ESM imports it at the top of the generated module; CommonJS requires it where it is used
 * (`require('./app').keepRaw`, read when buildFastify runs, after the app's modules loaded), or, when
 * its module starts the app through the generated module (it is still loading then), when it is called.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { FoldedValue, Location } from '../../analyzer/model.js';
import { EXPRESS_APP_MEMBERS } from '../../rules/catalogue/api.js';
import { anchorOf, findByAnchor, notFound, type Anchor } from '../lib/anchor.js';
import { functionAt, functionPaths, isTypeScript, jFor, type Node } from '../lib/ast.js';
import { addExport, closureRefusal, exportsMayBeApp, freeTopLevelName, liftFunction, placementOf, type ImportForm } from '../lib/exports.js';
import { addImport, importedLocal, type ImportRequest } from '../lib/imports.js';
import { importSpecifier, moduleSystemOfFile } from '../lib/module-system.js';
import { parsedFiles } from '../lib/parsed-files.js';
import type { PlanContext } from '../model.js';
import { startsApp, type GeneratedModule } from './locate.js';

/** The edit of the module that defines the function, so that the generated module can import it. */
export type AppFunctionEdit =
  /** Export the top-level declaration `name`. */
  | { kind: 'export-function'; name: string; module: 'esm' | 'commonjs' }
  /** Lift the inline function at `fn` into an exported top-level `const name`. */
  | { kind: 'lift-function'; fn: Anchor; name: string; module: 'esm' | 'commonjs' };

/** A member of a middleware's options that is a function of the app, with where it is and its `req`/`res` uses (FoldedValue.unresolved). */
export type FunctionOption = Required<NonNullable<FoldedValue['unresolved']>[number]>;

/**
 * The members of a folded options argument that are functions of the app named in `names`
 * (`verify`, `setHeaders`): empty for an argument folded exactly (or none), null when another part
 * of it is known only at run time (an environment variable, a method, a call).
 */
export function functionOptions(arg: FoldedValue | undefined, names: ReadonlySet<string>): FunctionOption[] | null {
  if (!arg || arg.resolution === 'exact') return [];
  if (arg.resolution !== 'partial') return null;
  const open = arg.unresolved ?? [];
  return open.every((u): u is FunctionOption => names.has(u.path) && !!u.function) ? open : null;
}

/**
 * The names one plan gave: per defining module, the lifted functions' (key `line:column`); per
 * generated module, the imports' locals (key `specifier#export`).
 */
export type LiftedNames = Map<string, Map<string, string>>;

/** How the generated module reaches one function of the app. */
export interface AppFunctionAccess {
  /** Source that is the function in the generated module, read when buildFastify runs: `keepRaw`, `require('./app').keepRaw`, `(...args) => require('./app').keepRaw(...args)`. */
  expression: string;
  /** Source that calls it in code the generated module runs per request (`keepRaw`, `require('./app').keepRaw`): `${callee}(…)`. */
  callee: string;
  /** The import the generated module needs (ESM). */
  import?: ImportRequest;
  /** The edit of the defining module, when it does not export the function yet. */
  edit?: { file: string; entry: AppFunctionEdit };
  /** The function as the app names it after the edit, for comments: `` `keepRaw` of app.js ``. */
  where: string;
}

/**
 * How `module` reaches the app's function written at `at`, or why it cannot; `base` names a lifted
 * inline function (`verifyBody`, made free in its module). `given` holds the names this run already
 * gave to lifted functions, per module and function (`line:column`): the same function again (an
 * options object two mounts share) keeps its name, another lifted in the same module takes another.
 */
export function appFunctionAccess(ctx: PlanContext, module: GeneratedModule, at: Location, base: string, given: LiftedNames = new Map()): AppFunctionAccess | { refuse: string } {
  const place = `${at.file}:${at.line}`;
  const source = ctx.readFile(at.file);
  const def = source === null ? null : parsedFiles(ctx)(at.file);
  const fn = def && source !== null ? functionAt(def.j, def.root, at, source) : null;
  if (!def || !fn || source === null) return { refuse: `its function (${place}) was not found where the analysis put it` };
  const defModule = moduleSystemOfFile(ctx.inventory, at.file, source);
  if (module.module === 'commonjs' && defModule === 'esm') return { refuse: `its function (${place}) is in an ES module and the generated module (${module.file}) is CommonJS` };
  const placement = placementOf(def.j, def.root, fn);
  const appMember = (name: string) => defModule === 'commonjs' && EXPRESS_APP_MEMBERS.has(name) && exportsMayBeApp(def.j, def.root);
  let form: ImportForm;
  let edit: AppFunctionEdit | undefined;
  if (placement.kind === 'exported') form = placement.form;
  else if (placement.kind === 'export-needed') {
    if (appMember(placement.name)) return { refuse: `exporting its function ${placement.name} (${place}) as module.exports.${placement.name} would replace the Express app's own ${placement.name}; rename the function` };
    form = { kind: 'named', name: placement.name };
    edit = { kind: 'export-function', name: placement.name, module: defModule };
  } else {
    const lift = liftRefusal(fn, isTypeScript(at.file));
    if (lift) return { refuse: `its function (${place}) ${lift}` };
    const closure = closureRefusal(def.j, fn);
    if (closure) return { refuse: `its function (${place}): ${closure}` };
    const names = given.get(at.file) ?? new Map<string, string>();
    given.set(at.file, names);
    const key = `${at.line}:${at.column}`;
    const name = names.get(key) ?? freeTopLevelName(def.j, def.root, base, new Set(names.values()));
    names.set(key, name);
    form = { kind: 'named', name };
    edit = { kind: 'lift-function', fn: anchorOf(fn), name, module: defModule };
  }
  const importer = [module.source, ctx.inventory.project.entry ? (ctx.readFile(ctx.inventory.project.entry) ?? '') : ''].join('\n');
  const specifier = importSpecifier(module.file, { file: at.file, module: module.module, typescript: isTypeScript(at.file) }, importer);
  const edits = edit ? { edit: { file: at.file, entry: edit } } : {};
  const where = form.kind === 'named' ? `\`${form.name}\` of ${at.file}` : `the default export of ${at.file}`;
  if (module.module === 'esm') {
    const target = jFor(module.file);
    const root = target(module.source);
    // Imports this run planned in the module, by what they import: two functions of one name from two modules get two locals.
    const planned = given.get(module.file) ?? new Map<string, string>();
    given.set(module.file, planned);
    const key = `${specifier}#${form.kind === 'named' ? form.name : 'default'}`;
    const local = importedLocal(target, root, specifier, form) ?? planned.get(key) ?? freeTopLevelName(target, root, form.kind === 'named' ? form.name : base, new Set(planned.values()));
    planned.set(key, local);
    return { expression: local, callee: local, import: { specifier, form, local, module: 'esm' }, ...edits, where };
  }
  const member = form.kind === 'named' ? (/^[A-Za-z_$][\w$]*$/.test(form.name) ? `.${form.name}` : `['${form.name}']`) : '';
  const required = `require('${specifier}')${member}`;
  // Its module starts the app through the generated module: read when buildFastify runs it is still loading, so required when called.
  const expression = startsApp(ctx, at.file) ? `(...args) => ${required}(...args)` : required;
  return { expression, callee: required, ...edits, where };
}

/** Why an inline function cannot be lifted: a method or a named expression's own name, or (TypeScript) a parameter typed only by the options. */
function liftRefusal(fn: { node: Node; parent: { node: Node } }, typescript: boolean): string | null {
  const parent = fn.parent.node;
  const option = (parent.type === 'ObjectProperty' && parent.value === fn.node) || (fn.node.type === 'ObjectMethod' && fn.node.kind === 'method' && !fn.node.computed);
  if (!option) return 'is not defined at the top level of its module, nor written as an option, so the generated module cannot import it';
  if (typescript && (fn.node.params as Node[]).some((p) => !p.typeAnnotation)) return 'is written inline in TypeScript with parameters the options type; lifted out they would have none (move it to a top-level function with typed parameters)';
  return null;
}

/**
 * Applies `edit` to the module defining the function (`file`, parsed as `root`): exports the
 * declaration, or lifts the inline function. Nothing changes when it is exported already (a second run).
 * @returns whether the module changed.
 * @throws Error when the inline function to lift is not where the plan found it
 */
export function applyAppFunctionEdit(j: JSCodeshift, root: Collection, file: string, edit: AppFunctionEdit): boolean {
  if (placementOfNamed(j, root, edit.name) === 'exported') return false;
  if (edit.kind === 'export-function') addExport(j, root, edit.name, edit.module);
  else liftFunction(j, root, findByAnchor(functionPaths(j, root), edit.fn) ?? notFound(file, 'the function to lift', edit.fn), edit.name, edit.module);
  return true;
}

/**
 * Imports `request` into the generated module unless it imports it already.
 * @returns whether the module changed.
 * @throws Error when its local name is taken in the module by now (the generated code names the function by it)
 */
export function importAppFunction(j: JSCodeshift, root: Collection, request: ImportRequest, quote: 'single' | 'double'): boolean {
  if (importedLocal(j, root, request.specifier, request.form)) return false;
  const local = addImport(j, root, request, quote);
  if (local !== request.local) throw new Error(`the generated module already binds ${request.local}, the name planned for the app's function from ${request.specifier}`);
  return true;
}

/** Whether the top-level binding `name` is exported already (a second run of the step). */
function placementOfNamed(j: JSCodeshift, root: Collection, name: string): 'exported' | 'not' {
  const fn = functionPaths(j, root).find((p) => (p.node.type === 'FunctionDeclaration' && p.node.id?.name === name) || (p.parent.node.type === 'VariableDeclarator' && p.parent.node.id.name === name));
  return fn && placementOf(j, root, fn).kind === 'exported' ? 'exported' : 'not';
}
