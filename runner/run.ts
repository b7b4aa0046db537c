/**
 * `runStage(options) → RunResult`: the library entry of `migrate run` (DESIGN.md "Data flow"):
 * steps of the stage → analysis once → plan → transforms per file (workers) → FileChange[] →
 * `dry`: unified diff | `check`: would it change? | write: atomic, only changed files, then the
 * route parity check, `tsc`, install and commit. Refusals throw RunError before anything is
 * written; library code never exits the process.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze, AnalyzeError, chooseRoot } from '../analyzer/analyze.js';
import type { Inventory } from '../analyzer/model.js';
import { routeParity } from '../analyzer/route-parity.js';
import { runRules } from '../rules/index.js';
import type { FileChange, ManualItem } from '../transforms/model.js';
import { placeItems } from './follow-ups.js';
import { writeChanges } from './write.js';
import { unifiedDiff } from './diff.js';
import { RunError } from './errors.js';
import { changedLockfiles, commitFiles, gitState, type GitState } from './git.js';
import { installCommand, runInstall } from './install.js';
import type { FileOutcome, RunOptions, RunResult } from './model.js';
import { mergeDependencies, removeDependencies } from './package-json.js';
import { planContext, planStage } from './plan.js';
import { runTasks } from './pool.js';
import { stageOptions, stepsOfStage, type Step } from './steps.js';
import { todoLines } from './todos.js';
import { hasTsconfig, newTypeErrors, typeErrors } from './typecheck.js';
import { verifyHint } from './verify-hint.js';
import { routesAfter } from './routes-after.js';

export type { FileOutcome, RunOptions, RunResult, TodoLine, VerifyHint } from './model.js';
export { RunError, type RunErrorCode } from './errors.js';

/** What the write phase needs besides the result. */
interface RunContext {
  root: string;
  options: RunOptions;
  git: GitState;
  /** The inventory before the stage. */
  before: Inventory;
  /** tsc errors before the stage; null when --typecheck does not run. */
  typeErrorsBefore: string[] | null;
  say: (message: string) => void;
}

/**
 * Runs one stage on the project in `options.root`.
 * A step that refuses because work is left (StepWorkLeft: unshim while something still uses
 * Express) ends the run with exit code 1, its message in `refusal` and its items in `manual`;
 * nothing is written.
 * @throws RunError 'unknown-stage', 'no-steps', 'bad-step', 'bad-option' (an option no step of the
 *   stage declares), 'not-a-project', 'no-app' (the analysis found no app), 'refused' (a step
 *   refused: a prerequisite of the stage is missing), 'dirty-tree', 'not-a-repo', 'plan-failed' or
 *   'typecheck-failed'; nothing is written then.
 */
export async function runStage(options: RunOptions): Promise<RunResult> {
  // --only picks routes: only the routes stage moves any.
  if (options.only && options.stage !== 'routes') throw new RunError('refused', `--only ${options.only} picks routes to move; only the routes stage moves routes (this is the ${options.stage} stage)`);
  const say = options.onProgress ?? (() => {});
  const writing = !options.dry && !options.check;
  const steps = await stepsOfStage(options.stage, options.stepsDir);
  const values = stageOptions(steps, options.stage, options.stageOptions ?? {});
  const root = await appRoot(options);
  const notes: string[] = [];
  const git = await refuseUnsafeTree(root, options, writing, notes);
  const typeErrorsBefore = typecheckBefore(root, options, writing, notes, say);

  say(`analysing ${root}`);
  const before = await analyseApp(root, options, say);
  refuseWithoutApp(before);
  let result: RunResult;
  try {
    result = await transformStage(steps, { root, options, git, before, typeErrorsBefore, say }, notes, values);
  } catch (e) {
    if (e instanceof RunError && e.code === 'work-left') return workLeft(options, root, git, e, notes);
    throw e;
  }
  // A file the analysis could not read may hold what the stage should change (Node may run code the
  // parser rejects, e.g. a legacy octal literal): a human must look at it.
  const reported = new Set(result.manual.filter((m) => m.code === PARSE_ERROR).map((m) => m.file));
  result.manual.push(...parseErrorItems(before).filter((m) => !reported.has(m.file)));

  if (result.outcomes.some((o) => o.status === 'failed')) {
    notes.push('nothing was written: a file failed, and a stage is applied whole or not at all');
    return { ...result, exitCode: 2 };
  }
  // A planned file that does not parse is work the stage still has to do.
  const unparsed = result.manual.some((m) => m.code === PARSE_ERROR);
  if (!writing) return { ...result, exitCode: options.check && (result.changes.length > 0 || unparsed) ? 1 : 0 };
  if (result.changes.length === 0) return { ...result, exitCode: result.manual.length ? 1 : 0 };
  return applyStage(result, { root, options, git, before, typeErrorsBefore, say });
}

/** ManualItem code of a planned file that does not parse (the runner's own item, not a step's). */
export const PARSE_ERROR = 'parse-error';

/**
 * Refuses an inventory without any app (Express or Fastify): nothing to migrate from this entry.
 * The message names the entry and the files that do not parse, and says what to do.
 * @throws RunError 'no-app'
 */
function refuseWithoutApp(inventory: Inventory): void {
  if (inventory.apps.length > 0) return;
  const entry = inventory.project.entry;
  const broken = parseErrors(inventory).map((d) => `${where(d)} ${d.message.replace(/^.*? does not parse: /, '').replace(/;.*$/, '')}`);
  const from = entry ? `from the entry ${entry}` : 'in this folder (no entry was detected)';
  const fix = broken.length ? `fix the syntax error${broken.length === 1 ? '' : 's'} (${broken.join('; ')}) and run the stage again` : 'if the app is created elsewhere, pass --entry <file that creates or starts it>';
  throw new RunError('no-app', `no Express app was found ${from}, so there is nothing to migrate: ${fix}`);
}

/** The analyzer's parse-error diagnostics: files it could not read, whose code is not in the plan. */
function parseErrors(inventory: Inventory): Inventory['diagnostics'] {
  return inventory.diagnostics.filter((d) => d.code === 'parse-error');
}

/** One item for a human per file the analysis could not parse (exit 1). */
function parseErrorItems(inventory: Inventory): ManualItem[] {
  return parseErrors(inventory).map((d) => ({
    file: d.location?.file ?? '',
    line: d.location?.line ?? 1,
    code: PARSE_ERROR,
    reason: `${d.message} — the analysis skipped this file, so the stage planned nothing in it; fix it or migrate what it holds by hand`,
  }));
}

function where(d: Inventory['diagnostics'][number]): string {
  return d.location ? `${d.location.file}:${d.location.line}:${d.location.column}` : '';
}

/** Plans the stage and runs its transforms: the change set and outcomes, nothing written yet. */
async function transformStage(steps: Step[], ctx: RunContext, notes: string[], values: Record<string, boolean | string | undefined>): Promise<RunResult> {
  const { root, options, before, say } = ctx;
  const plan = await planStage(steps, planContext(root, before, options.parity ?? 'default', { only: options.only, options: values }));
  const { results, threads } = await runTasks(plan.tasks, { workers: options.workers, onProgress: say });

  const sources = new Map(plan.tasks.map((t) => [t.file, t.source]));
  const outcomes: FileOutcome[] = results.map(({ file, status, reason }) => ({ file, status, ...(reason ? { reason } : {}), ...(status === 'changed' && sources.get(file) === null ? { created: true } : {}) }));
  for (const r of results) for (const message of r.reports) notes.push(`${r.file}: ${message}`);
  const changes: FileChange[] = results.filter((r) => r.status === 'changed').map((r) => ({ file: r.file, before: sources.get(r.file) ?? null, after: r.after! }));
  const manual: ManualItem[] = [...plan.manual, ...results.flatMap((r) => (r.parseError ? [unparsedItem(r.file, r.parseError)] : []))];
  const dependencies = mergePackageJson(root, plan.dependencies, changes, outcomes, manual);
  const removed = removeFromPackageJson(root, plan.removeDependencies, changes, outcomes);
  const placed = placeItems(manual, changes, todoLines(changes));
  return {
    stage: options.stage,
    root,
    changes,
    outcomes,
    manual: placed.items,
    deferred: placeItems(plan.deferred, changes, []).items,
    moved: plan.moved,
    deltas: plan.deltas,
    dependencies,
    removedDependencies: removed,
    installCommand: Object.keys(dependencies).length || removed.length ? installCommand(before.project.packageManager) : null,
    verdicts: plan.verdicts,
    refusal: null,
    parity: null,
    typecheck: null,
    todos: placed.todos,
    notes,
    diff: unifiedDiff(changes),
    threads,
    written: false,
    commit: null,
    verify: verifyHint(root, { repo: ctx.git.repo, committed: false }),
    exitCode: 0,
  };
}

/** The manual item of a planned file that does not parse: the stage did nothing in it. */
function unparsedItem(file: string, error: { line: number; column: number; message: string }): ManualItem {
  return { file, line: error.line, code: PARSE_ERROR, reason: `does not parse (${error.line}:${error.column} ${error.message}), so the stage did not change it: fix the syntax and run the stage again` };
}

/**
 * Writes the changes, then checks what they did (route parity, tsc), installs and commits. A
 * failed check keeps the files written (with a note on undoing them) and skips install and commit.
 */
async function applyStage(result: RunResult, ctx: RunContext): Promise<RunResult> {
  const { root, options, say, notes } = { ...ctx, notes: result.notes };
  say(`writing ${result.changes.length} file${result.changes.length === 1 ? '' : 's'}`);
  writeChanges(root, result.changes);
  result.written = true;

  say('analysing again for the route parity check');
  const after = await analyseApp(root, options, say);
  result.parity = routeParity(ctx.before, after);
  const parityBroke = result.parity.missing.length > 0 || result.parity.duplicated.length > 0;
  const typecheckBroke = typecheckAfter(result, ctx);
  const broken = parityBroke || typecheckBroke;
  if (broken) {
    notes.push(undoNote(result.changes, ctx.git.repo));
    if (options.commit) notes.push('not committed: the stage failed its checks');
    return { ...result, exitCode: 2 };
  }

  // What the plugins stage registered may let the routes stage move the routes it left for it.
  if (options.stage === 'plugins') {
    say('planning the routes stage again');
    result.routesAfter = await routesAfter(root, after, options.parity ?? 'default');
  }
  let failed = false;
  if (options.install && result.installCommand) {
    say(`running ${result.installCommand}`);
    try {
      runInstall(root, result.installCommand);
    } catch (e) {
      failed = true;
      notes.push((e as Error).message);
    }
  }
  if (options.commit) {
    try {
      const lockfiles = options.install ? await changedLockfiles(root) : [];
      result.commit = await commitFiles(root, [...result.changes.map((c) => path.join(root, c.file)), ...lockfiles], `migrate: stage ${options.stage}`);
      result.verify = verifyHint(root, { repo: true, committed: true });
    } catch (e) {
      failed = true;
      notes.push(`the commit failed: ${(e as Error).message.trim()}`);
    }
  }
  return { ...result, exitCode: failed ? 2 : result.manual.length || result.todos.length ? 1 : 0 };
}

/** tsc errors before the stage, when --typecheck applies (writing, with a tsconfig.json); else null with a note. */
function typecheckBefore(root: string, options: RunOptions, writing: boolean, notes: string[], say: (m: string) => void): string[] | null {
  if (!options.typecheck) return null;
  if (!writing) {
    notes.push('--typecheck runs only when the stage writes (not with --dry or --check)');
    return null;
  }
  if (!hasTsconfig(root)) {
    notes.push('--typecheck skipped: the project has no tsconfig.json');
    return null;
  }
  say('type-checking before the stage (tsc --noEmit)');
  try {
    return typeErrors(root);
  } catch (e) {
    throw new RunError('typecheck-failed', `--typecheck: ${(e as Error).message}`);
  }
}

/** tsc after the write, into `result.typecheck`; true when the stage added errors or tsc could not run. */
function typecheckAfter(result: RunResult, ctx: RunContext): boolean {
  if (ctx.typeErrorsBefore === null) return false;
  ctx.say('type-checking after the stage (tsc --noEmit)');
  try {
    const after = typeErrors(ctx.root);
    result.typecheck = { before: ctx.typeErrorsBefore, after, introduced: newTypeErrors(ctx.typeErrorsBefore, after) };
    return result.typecheck.introduced.length > 0;
  } catch (e) {
    result.notes.push(`tsc could not check the result: ${(e as Error).message}`);
    return true;
  }
}

/** The absolute folder the stage edits (a workspace member with `app`). */
async function appRoot(options: RunOptions): Promise<string> {
  try {
    return await chooseRoot(path.resolve(options.root), options.app);
  } catch (e) {
    if (e instanceof AnalyzeError) throw new RunError('not-a-project', e.message);
    throw e;
  }
}

/** Analysis and rules, once per inventory; analyzer refusals become RunError 'not-a-project'. */
async function analyseApp(root: string, options: RunOptions, say: (m: string) => void): Promise<Inventory> {
  try {
    return runRules(await analyze({ dir: root, entry: options.entry, onProgress: say }));
  } catch (e) {
    if (e instanceof AnalyzeError) throw new RunError('not-a-project', e.message);
    throw e;
  }
}

/**
 * Refuses uncommitted work in `root` when the stage writes (unless allowDirty); `commit` needs
 * a repository. Outside a repository the stage runs, with a note.
 */
async function refuseUnsafeTree(root: string, options: RunOptions, writing: boolean, notes: string[]): Promise<GitState> {
  const git = await gitState(root);
  if (!git.repo) {
    if (options.commit) throw new RunError('not-a-repo', `--commit needs a git repository; ${root} is not in one`);
    if (writing) notes.push(`${root} is not in a git repository: keep a copy to undo the stage`);
    return git;
  }
  if (writing && git.dirty.length > 0 && !options.allowDirty) {
    const shown = git.dirty.slice(0, 10).map((l) => `  ${l}`).join('\n');
    throw new RunError('dirty-tree', `uncommitted changes in ${root} (commit or stash them so the stage can be undone, or pass --allow-dirty):\n${shown}${git.dirty.length > 10 ? `\n  … and ${git.dirty.length - 10} more` : ''}`);
  }
  return git;
}

/** How to undo a written stage that failed a check. */
function undoNote(changes: FileChange[], repo: boolean): string {
  const edited = changes.filter((c) => c.before !== null).map((c) => c.file);
  const created = changes.filter((c) => c.before === null).map((c) => c.file);
  const restore = repo ? `undo the stage with \`git restore -- ${edited.join(' ')}\` (or \`git checkout -- …\`)` : 'undo the stage from your copy of the files';
  return `the files stay written; ${edited.length ? restore : 'undo the stage'}${created.length ? ` and delete ${created.join(', ')}` : ''}`;
}

/**
 * The result of a stage that refused because work is left (StepWorkLeft): nothing changed, the
 * refusal's items are the manual items, exit code 1.
 */
function workLeft(options: RunOptions, root: string, git: GitState, e: RunError, notes: string[]): RunResult {
  return {
    stage: options.stage,
    root,
    changes: [],
    outcomes: [],
    manual: e.items,
    deferred: [],
    moved: [],
    deltas: [],
    dependencies: {},
    removedDependencies: [],
    installCommand: null,
    verdicts: [],
    refusal: e.message,
    parity: null,
    typecheck: null,
    todos: [],
    notes,
    diff: '',
    threads: 0,
    written: false,
    commit: null,
    verify: verifyHint(root, { repo: git.repo, committed: false }),
    exitCode: 1,
  };
}

/**
 * Removes the packages the steps took out of the code from package.json (merged into a change
 * already made to it). Returns the names removed; an unreadable package.json is a failed outcome.
 */
function removeFromPackageJson(root: string, names: string[], changes: FileChange[], outcomes: FileOutcome[]): string[] {
  if (!names.length) return [];
  return editPackageJson(root, changes, outcomes, 'remove the dependencies', (text) => {
    const result = removeDependencies(text, names);
    return { text: result.text, result: result.removed, changed: result.removed.length > 0 };
  }) ?? [];
}

/**
 * Adds the steps' dependencies to package.json as one more change (merged into a change a step
 * already made to it). Returns what was added or raised. Without a package.json the
 * dependencies become a manual item; an unreadable one is a failed outcome.
 */
function mergePackageJson(root: string, wanted: Record<string, string>, changes: FileChange[], outcomes: FileOutcome[], manual: ManualItem[]): Record<string, string> {
  if (Object.keys(wanted).length === 0) return {};
  const added = editPackageJson(root, changes, outcomes, 'add the dependencies', (text) => {
    const merged = mergeDependencies(text, wanted);
    return { text: merged.text, result: merged.changed, changed: Object.keys(merged.changed).length > 0 };
  });
  if (added === null) manual.push({ file: 'package.json', line: 1, code: 'package-json-missing', reason: `no package.json: add the dependencies ${Object.entries(wanted).map(([n, r]) => `${n}@${r}`).join(', ')}` });
  return added ?? {};
}

/**
 * Applies `edit` to the project's package.json — as a step already changed it, or as it is on
 * disk —, recording a changed text as a change and a `changed` outcome. Returns the edit's result;
 * null when there is no package.json; undefined when the edit throws (the file is not a JSON
 * object), which becomes a failed outcome (`what` says what it was doing).
 */
function editPackageJson<R>(root: string, changes: FileChange[], outcomes: FileOutcome[], what: string, edit: (text: string) => { text: string; result: R; changed: boolean }): R | undefined | null {
  const file = 'package.json';
  const existing = changes.find((c) => c.file === file);
  let text: string;
  try {
    text = existing?.after ?? readFileSync(path.join(root, file), 'utf8');
  } catch {
    return null;
  }
  let edited;
  try {
    edited = edit(text);
  } catch (e) {
    outcomes.push({ file, status: 'failed', reason: `cannot ${what}: ${(e as Error).message}` });
    return undefined;
  }
  if (!edited.changed) return edited.result;
  if (existing) existing.after = edited.text;
  else changes.push({ file, before: text, after: edited.text });
  const outcome = outcomes.find((o) => o.file === file);
  if (outcome) outcome.status = 'changed';
  else outcomes.push({ file, status: 'changed' });
  return edited.result;
}
