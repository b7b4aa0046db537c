/**
 * The text summary of a stage run (stdout): outcomes with counts and files (new files as
 * `created`), what moved out of what could move, dependencies and how to install them, framework
 * deltas (each saying whether `--parity express` restores it), manual items and `TODO(migrate)`
 * lines as `file:line reason` at their lines in the files as written (a TODO that marks a manual
 * item's place is shown once, as the item), what is left for later stages, the parity and type
 * checks, notes, and what to do next. Colour only when asked (the CLI decides: TTY and no NO_COLOR).
 */
import pc from 'picocolors';
import { describeParity } from '../analyzer/route-parity.js';
import type { FrameworkDelta } from '../transforms/model.js';
import type { FileOutcome, RunResult } from './model.js';

/** How the run was asked to run, for the wording of the summary. */
export interface SummaryMode {
  dry?: boolean;
  check?: boolean;
  color?: boolean;
}

/** How an outcome is listed: `created` for a changed file the stage creates. */
type Label = FileOutcome['status'] | 'created';
const LABELS: Label[] = ['changed', 'created', 'unchanged', 'skipped', 'failed'];
/** Unchanged files are listed one by one up to this many; beyond, only counted. */
const MAX_UNCHANGED_LISTED = 10;

function labelOf(o: FileOutcome): Label {
  return o.status === 'changed' && o.created ? 'created' : o.status;
}

/** Renders `result` as text lines ending with a newline. */
export function renderSummary(result: RunResult, mode: SummaryMode = {}): string {
  const c = pc.createColors(Boolean(mode.color));
  const paint: Record<Label, (s: string) => string> = { changed: c.green, created: c.green, unchanged: c.dim, skipped: c.yellow, failed: c.red };
  const out: string[] = [];
  const count = (l: Label) => result.outcomes.filter((o) => labelOf(o) === l).length;
  const would = mode.dry || mode.check;
  const word: Record<Label, string> = { changed: would ? 'would change' : 'changed', created: would ? 'would create' : 'created', unchanged: 'unchanged', skipped: 'skipped', failed: 'failed' };
  out.push(c.bold(`Stage ${result.stage}: ${LABELS.filter((l) => l !== 'created' || count(l) > 0).map((l) => `${count(l)} ${word[l]}`).join(', ')}`));
  const unchanged = result.outcomes.filter((o) => o.status === 'unchanged');
  for (const o of result.outcomes) {
    if (o.status === 'unchanged' && unchanged.length > MAX_UNCHANGED_LISTED) continue;
    const label = labelOf(o);
    out.push(`  ${paint[label](label.padEnd(9))} ${o.file}${o.reason ? ` — ${o.reason}` : ''}`);
  }
  if (unchanged.length > MAX_UNCHANGED_LISTED) out.push(`  ${c.dim(`unchanged ${unchanged.length} files (--format json lists them)`)}`);
  if (result.refusal) out.push('', c.bold(c.yellow(`Refused: ${result.refusal}`)), '  nothing was written; the work left is listed below');

  if (result.moved.length) {
    // Each step counts what the app's code has moved so far; a run that changes nothing says so (a second run, --check).
    const nothing = !result.outcomes.some((o) => o.status === 'changed');
    out.push('', c.bold(nothing ? `Moved (as the app is already: this run ${would ? 'would change' : 'changed'} nothing)` : 'Moved'));
    for (const m of result.moved) {
      out.push(`  ${m.step}: moved ${m.done} of ${m.of} ${m.what}`);
      for (const g of m.groups ?? []) out.push(`    ${g.name}: ${g.done} of ${g.of}${g.later ? ` (${g.later} left for a later stage)` : ''}`);
    }
  }
  if (result.removedDependencies.length) out.push('', c.bold('Dependencies removed from package.json'), `  ${result.removedDependencies.join(', ')}`);
  const deps = Object.entries(result.dependencies);
  if (deps.length) {
    out.push('', c.bold('Dependencies added to package.json'));
    out.push(`  ${deps.map(([name, range]) => `${name}@${range}`).join(', ')}`);
    if (result.installCommand) out.push(`  install them: ${c.cyan(result.installCommand)}${mode.dry || mode.check ? '' : ' (or run the stage with --install)'}`);
  }
  if (result.deltas.length) {
    out.push('', c.bold('Framework defaults that now differ (not restored)'));
    for (const d of result.deltas) out.push(`  - ${deltaLine(d)}`);
  }
  const todos = result.todos.filter((t) => !t.paired);
  const followUps = [...result.manual.map((m) => `${m.file}:${m.line} ${m.reason}`), ...todos.map((t) => `${t.file}:${t.line} TODO(migrate) ${t.text}`)];
  if (followUps.length) {
    out.push('', c.bold(c.yellow(`Left for a human (${followUps.length})`)));
    for (const line of followUps) out.push(`  ${line}`);
  }
  for (const stage of [...new Set(result.deferred.map((d) => d.stage))]) {
    const items = result.deferred.filter((d) => d.stage === stage);
    out.push('', c.bold(`Left for the ${stage} stage (${items.length})`));
    for (const d of items) out.push(`  ${d.file}:${d.line} ${d.reason}`);
  }
  const waiting = result.routesAfter?.waiting ?? [];
  if (waiting.length) {
    out.push('', c.bold(`Routes still waiting for the ${result.stage} stage (${waiting.length}): what it does not move yet`));
    for (const d of waiting) out.push(`  ${d.file}:${d.line} ${d.reason}`);
  }
  if (result.parity) {
    const problems = describeParity(result.parity);
    if (!problems.length) out.push('', `Route parity: ${c.green('ok')} (every route still served, once)`);
    else {
      out.push('', c.red(c.bold('Route parity FAILED')));
      for (const line of problems) out.push(`  ${line}`);
    }
  }
  if (result.typecheck) {
    const { before, introduced } = result.typecheck;
    if (!introduced.length) out.push('', `Type check: ${c.green('no new errors')}${before.length ? ` (${before.length} existed before)` : ''}`);
    else {
      out.push('', c.red(c.bold(`Type check: ${introduced.length} new error${introduced.length === 1 ? '' : 's'}`)));
      for (const line of introduced) out.push(`  ${line}`);
    }
  }
  if (result.notes.length) {
    out.push('', c.bold('Notes'));
    for (const n of result.notes) out.push(`  ${n}`);
  }
  out.push('', c.bold('Next'), ...nextSteps(result, mode).map((s) => `  ${s}`));
  return out.join('\n') + '\n';
}

/**
 * A delta and whether `--parity express` restores it. A text that already says so (the shim's
 * wording) is kept as it is.
 */
function deltaLine(d: FrameworkDelta): string {
  if (/--parity express/.test(d.text)) return d.text;
  return `${d.text.replace(/\.$/, '')}; ${d.restoredByParityExpress ? '--parity express restores it' : '--parity express does not restore it either'}.`;
}

/** What the user does now, from how the run ended. */
function nextSteps(result: RunResult, mode: SummaryMode): string[] {
  if (result.refusal) return ['do the work left for a human below, then run the stage again'];
  if (result.exitCode === 2 && !result.written) return ['fix what failed above (or report it), then run the stage again; nothing was written'];
  if (result.exitCode === 2) return ['the stage broke a check above; inspect it with `git diff`, undo it with `git restore` (files listed in the notes), and report the case (the output above and the app\'s shape) to the maintainers of migrate'];
  const done = result.manual.length || result.todos.length ? 'nothing more to change automatically: finish the items left for a human, then run the stage again to confirm' : 'nothing to change: this stage is done';
  if (mode.dry) return result.changes.length ? ['run again without --dry to write these changes'] : [done];
  if (mode.check) return result.changes.length ? [`run \`migrate run --stage ${result.stage}\` to apply the stage`] : [done];
  if (!result.written) return [done];
  const steps: string[] = [];
  if (result.installCommand) steps.push(`${Object.keys(result.dependencies).length ? 'install the new dependencies' : `bring node_modules in line with package.json (${result.removedDependencies.join(', ')} removed)`}: ${result.installCommand}`);
  steps.push(`review the changes (${result.commit ? `\`git show ${result.commit.slice(0, 12)}\`` : '`git diff`'}) and run the app's tests`);
  steps.push(...verifySteps(result.verify));
  const movable = result.routesAfter?.movable ?? [];
  if (movable.length) steps.push(`run the routes stage again, which moves ${movable.length === 1 ? 'the route' : `the ${movable.length} routes`} it left for this stage: \`migrate run --stage routes\` (${clipList(movable)})`);
  steps.push(result.commit ? `undo the stage if needed: \`git revert ${result.commit.slice(0, 12)}\`` : 'undo the stage if needed: `git restore` the changed files (delete the created ones), or use --commit next time');
  if (result.manual.length || result.todos.length) steps.push('finish the items left for a human, then run the stage again to confirm');
  return steps;
}

/** How to check the stage with the verifier, with what the project still lacks for it. */
function verifySteps(verify: RunResult['verify']): string[] {
  const steps: string[] = [];
  if (verify.needsRecording) steps.push('record the app\'s traffic once: `migrate record` (it writes .migrate/recordings/<time>.har)');
  steps.push(`check behaviour against the recording: \`${verify.command}\`${verify.configured ? '' : ' (`migrate init` saves the baseline and recording, so that `migrate verify` alone does)'}`);
  return steps;
}

/** The first five of `items`, joined, and how many more. */
function clipList(items: string[]): string {
  return items.length > 5 ? `${items.slice(0, 5).join(', ')} and ${items.length - 5} more` : items.join(', ');
}
