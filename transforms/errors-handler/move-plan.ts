/**
 * The planner both `errors` steps share: for each handler the inventory lists, either move it
 * (rewrite the function to Fastify's signature, delete its Express registration, register it in
 * the generated Fastify module) or leave it on Express with a `TODO(migrate)` comment and a
 * ManualItem. A handler moves only when every use of it converts and nothing else uses it; the
 * step-specific rules (which handlers may move at all) come in as `blockers`.
 */
import path from 'node:path';
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { App, Inventory, Location } from '../../analyzer/model.js';
import type { FilePlan, ManualItem, PlanContext, StepPlan } from '../model.js';
import { importSpecifier } from '../shim-server/facts.js';
import { generatedModuleFor, type GeneratedModule } from './fastify-module.js';
import { planHandlerRewrite, type HandlerOptions } from './handler-function.js';
import { placementOf } from './handler-module.js';
import type { Anchor, FastifyMethod, ImportForm, MoveEntry } from './model.js';
import { otherUses } from './other-uses.js';
import { findRegistration } from './registration.js';
import { anchorOf, functionPaths, isTypeScript, moduleSystemOf, parseOrNull, startsAt, type Node } from './source-files.js';

/**
 * Why a handler stays on Express: a stable code (ManualItem.code), a sentence for the
 * `TODO(migrate)` comment, and places (`file:line`) for the ManualItem only — a TODO must read the
 * same on the next run, when the lines have moved.
 */
export interface Blocker {
  code: string;
  reason: string;
  where?: string[];
}

/** A handler the inventory lists, in the terms both steps share. */
export interface Candidate {
  appId: string;
  /** Reference text at the registration (`errorHandler`, `errors.notFound`) or the function's name. */
  name: string;
  definition?: Location;
  registration: Location;
  /** What the inventory alone says against moving it (router-level, conditional, …). */
  blockers: Blocker[];
  /** `next(err)` may become `reply.send(err)` (error handlers only; see HandlerOptions). */
  nextToDefault: boolean;
}

/** What distinguishes the two steps. */
export interface MoveStep {
  step: string;
  role: HandlerOptions['role'];
  method: FastifyMethod;
  /** `moved.what` of the plan. */
  what: string;
  /** The handler, as the TODO and ManualItem name it (`error handler`, `404 handler`). */
  noun: string;
  /** Name for a handler written inline without a name of its own. */
  defaultName: string;
  /** Whether this step reports the missing shim (one step of the stage does, so the item appears once). */
  reportsMissingShim: boolean;
}

/** The plan of `step` for `candidates`. */
export function planMoves(ctx: PlanContext, step: MoveStep, candidates: Candidate[]): StepPlan<MoveEntry> {
  const files = new Map<string, FilePlan<MoveEntry>>();
  const add = (file: string, entry: MoveEntry) => {
    const plan = files.get(file) ?? { file, entries: [] };
    plan.entries.push(entry);
    files.set(file, plan);
  };
  const manual: ManualItem[] = [];
  const expressApps = ctx.inventory.apps.filter((a) => a.framework !== 'fastify');
  const modules = new Map(expressApps.map((a) => [a.id, generatedModuleFor(ctx, a)]));
  if (expressApps.length && [...modules.values()].every((m) => m === null)) {
    if (step.reportsMissingShim) manual.push(missingShim(ctx));
    return { step: step.step, files: [], manual, moved: { what: step.what, done: 0, of: candidates.length } };
  }
  let done = 0;
  for (const c of candidates) {
    const target = modules.get(c.appId) ?? null;
    const outcome = planOne(ctx, step, c, target);
    if ('entries' in outcome) {
      for (const [file, entry] of outcome.entries) add(file, entry);
      done++;
      continue;
    }
    const named = c.name && c.name !== '<anonymous>' ? `${step.noun} ${c.name}` : step.noun;
    const where = outcome.blocker.where?.length ? ` (${outcome.blocker.where.join(', ')})` : '';
    manual.push({ file: c.registration.file, line: c.registration.line, code: outcome.blocker.code, reason: `${named} stays on Express: ${outcome.blocker.reason}${where}` });
    if (outcome.statement) add(c.registration.file, { kind: 'todo', statement: outcome.statement, reason: `${step.noun} stays on Express: ${outcome.blocker.reason}` });
  }
  return { step: step.step, files: [...files.values()], manual, moved: { what: step.what, done, of: candidates.length }, deltas: done ? [sendDelta(step)] : [] };
}

/**
 * What Express's `res.send` added that Fastify's `reply.send` does not: the answers of a moved
 * handler lose them (express-fastify-mapping.md §2.3). Clients rarely depend on them (DESIGN.md
 * "Behaviour parity"), so this is a delta, not a regression.
 */
function sendDelta(step: MoveStep): string {
  return `Answers of the moved ${step.noun} now leave through Fastify's reply: no automatic weak ETag (Express's res.send added one) and no 'X-Powered-By: Express'; register @fastify/etag ({ weak: true }) and an onSend hook if clients rely on them.`;
}

type Outcome = { entries: Array<[string, MoveEntry]> } | { blocker: Blocker; statement: Anchor | null };

function planOne(ctx: PlanContext, step: MoveStep, c: Candidate, target: GeneratedModule | null): Outcome {
  const regSource = ctx.readFile(c.registration.file);
  const reg = regSource ? parseOrNull(c.registration.file, regSource) : null;
  const found = reg && regSource ? findRegistration(reg.j, reg.root, regSource, c.registration, c.name, c.definition) : null;
  const statement = found ? anchorOf(found.statement) : null;
  const stay = (blocker: Blocker): Outcome => ({ blocker, statement });
  if (c.blockers.length) return stay(c.blockers[0]);
  if (!target) return stay({ code: 'shim-missing', reason: 'no module generated by the shim stage serves this app; run `migrate run --stage shim` first' });
  if (!found || !reg || !regSource) return stay({ code: 'registration-not-found', reason: 'its registration was not found where the analysis put it', where: [`${c.registration.file}:${c.registration.line}`] });
  if (found.refuse) return stay({ code: 'registration-shape', reason: found.refuse });

  // The function: written in the registration, or defined where the inventory says.
  const defFile = found.inline ? c.registration.file : c.definition?.file;
  if (!defFile) return stay({ code: 'definition-unknown', reason: 'where its function is defined is not known' });
  const defSource = ctx.readFile(defFile);
  const def = defSource ? (defFile === c.registration.file ? reg : parseOrNull(defFile, defSource)) : null;
  if (!def || !defSource) return stay({ code: 'definition-unknown', reason: `${defFile} could not be read` });
  const fn = found.inline ? found.call.get('arguments', found.argIndex) : functionAt(def.j, def.root, c.definition!, defSource);
  if (!fn) return stay({ code: 'definition-unknown', reason: 'its function was not found where the analysis put it', where: [`${c.definition!.file}:${c.definition!.line}`] });

  const options: HandlerOptions = { role: step.role, nextToDefault: c.nextToDefault && !target.parityErrorPage, jsonSettings: jsonSettingsOf(ctx.inventory, c.appId), typescript: isTypeScript(defFile) };
  const rewrite = planHandlerRewrite(def.j, fn, options);
  if (rewrite.refusals.length) return stay({ code: `${step.role}-handler-api`, reason: rewrite.refusals.join('; ') });

  const defModule = moduleSystemOf(defFile, defSource, ctx.inventory.project.moduleKind);
  if (target.module === 'commonjs' && defModule === 'esm') return stay({ code: 'module-system', reason: `${defFile} is an ES module and the generated module (${target.file}) is CommonJS` });
  if (target.module === 'commonjs' && requiresGenerated(defSource, target)) return stay({ code: 'circular-require', reason: `${defFile} requires the generated module itself, so the generated module cannot require it back` });

  let form: ImportForm;
  let local: string;
  const entries: Array<[string, MoveEntry]> = [];
  if (found.inline) {
    if (found.statement.parent.node.type !== 'Program') return stay({ code: `${step.role}-handler-export`, reason: 'it is written inside a registration that is not at the top level of its module, so it cannot be exported' });
    const name = fn.node.id?.name ?? freeTopLevelName(def.j, def.root, step.defaultName);
    form = { kind: 'named', name };
    local = name;
    entries.push([defFile, { kind: 'hoist', statement: anchorOf(found.statement), argIndex: found.argIndex, options, name, module: defModule }]);
  } else {
    const placement = placementOf(def.j, def.root, fn);
    if (placement.kind === 'nested') return stay({ code: `${step.role}-handler-export`, reason: `it is not defined at the top level of ${defFile}, so the generated module cannot import it` });
    const uses = otherUses(ctx, { file: defFile, binding: placement.name || null, form: placement.kind === 'exported' ? placement.form : null, range: [fn.node.start, fn.node.end] }, { file: c.registration.file, range: [found.call.node.start, found.call.node.end] });
    if (uses.length) return stay({ code: `${step.role}-handler-shared`, reason: 'it is also used outside its registration, and that use still expects the Express signature', where: uses.map((u) => `${u.file}:${u.line}`) });
    form = placement.kind === 'exported' ? placement.form : { kind: 'named', name: placement.name };
    local = placement.name || (form.kind === 'named' ? form.name : step.defaultName);
    entries.push([defFile, { kind: 'rewrite', fn: anchorOf(fn), options, module: defModule, ...(placement.kind === 'export-needed' ? { exportAs: placement.name } : {}) }]);
    entries.push([c.registration.file, { kind: 'unregister', statement: anchorOf(found.statement), argIndex: found.argIndex }]);
  }
  const importer = [regSource, ctx.inventory.project.entry ? (ctx.readFile(ctx.inventory.project.entry) ?? '') : ''].join('\n');
  const specifier = importSpecifier(target.file, { file: defFile, module: target.module, typescript: isTypeScript(defFile) }, importer);
  entries.push([target.file, { kind: 'register', method: step.method, specifier, form, local, module: target.module, from: defFile }]);
  return { entries };
}

/** The function whose definition starts at `at` (an `export` in front counts as its start, as the analyzer reports it). */
function functionAt(j: JSCodeshift, root: Collection, at: Location, source: string): ASTPath<Node> | null {
  const starts = (node: Node) => startsAt(node, at, source);
  const all = functionPaths(j, root);
  return all.find((p) => starts(p.node)) ?? all.find((p) => /^Export/.test(p.parent.node.type) && starts(p.parent.node)) ?? all.find((p) => p.parent.node.type === 'VariableDeclarator' && starts(p.parent.parent.parent.node)) ?? null;
}

/** Whether the app sets a JSON print setting that `res.json` honours and `reply.send` does not. */
function jsonSettingsOf(inventory: Inventory, appId: string): boolean {
  return inventory.settings.some((s) => s.appId === appId && s.ownerId === appId && ['json spaces', 'json replacer', 'json escape'].includes(s.key) && s.kind !== 'read' && s.kind !== 'disable');
}

function requiresGenerated(source: string, target: GeneratedModule): boolean {
  const stem = path.posix.basename(target.file).replace(/\.[^.]+$/, '');
  return new RegExp(`require\\(\\s*['"][^'"]*${stem}(\\.[cm]?[jt]s)?['"]\\s*\\)`).test(source);
}

/** `base`, or `base2`, … when the module already uses the name. */
function freeTopLevelName(j: JSCodeshift, root: Collection, base: string): string {
  const taken = new Set<string>();
  root.find(j.Identifier).forEach((p) => void taken.add(p.node.name));
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  return name;
}

function missingShim(ctx: PlanContext): ManualItem {
  const app: App | undefined = ctx.inventory.apps.find((a) => a.framework !== 'fastify');
  return {
    file: ctx.inventory.project.entry ?? app?.location.file ?? 'package.json',
    line: 1,
    code: 'shim-missing',
    reason: 'the errors stage needs the module the shim stage generates (fastify-server.*): run `migrate run --stage shim` first',
  };
}
