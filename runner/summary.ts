/**
 * The text summary of a stage run (stdout): outcomes with counts and files, what moved out of
 * what could move, dependencies and how to install them, framework deltas, manual items and
 * `TODO(migrate)` lines as `file:line reason` (a TODO that marks a manual item's place is shown
 * once, as the item), the parity and type checks, notes, and what to
 * do next. Colour only when asked (the CLI decides: TTY and no NO_COLOR).
 */
import pc from 'picocolors';
import type { FileOutcome, RunResult } from './model.js';

/** How the run was asked to run, for the wording of the summary. */
export interface SummaryMode {
  dry?: boolean;
  check?: boolean;
  color?: boolean;
}

const STATUSES: FileOutcome['status'][] = ['changed', 'unchanged', 'skipped', 'failed'];
/** Unchanged files are listed one by one up to this many; beyond, only counted. */
const MAX_UNCHANGED_LISTED = 10;

/** Renders `result` as text lines ending with a newline. */
export function renderSummary(result: RunResult, mode: SummaryMode = {}): string {
  const c = pc.createColors(Boolean(mode.color));
  const paint: Record<FileOutcome['status'], (s: string) => string> = { changed: c.green, unchanged: c.dim, skipped: c.yellow, failed: c.red };
  const out: string[] = [];
  const count = (s: FileOutcome['status']) => result.outcomes.filter((o) => o.status === s).length;
  const verb = mode.dry || mode.check ? 'would change' : 'changed';
  out.push(c.bold(`Stage ${result.stage}: ${STATUSES.map((s) => `${count(s)} ${s === 'changed' ? verb : s}`).join(', ')}`));
  const unchanged = result.outcomes.filter((o) => o.status === 'unchanged');
  for (const o of result.outcomes) {
    if (o.status === 'unchanged' && unchanged.length > MAX_UNCHANGED_LISTED) continue;
    out.push(`  ${paint[o.status](o.status.padEnd(9))} ${o.file}${o.reason ? ` — ${o.reason}` : ''}`);
  }
  if (unchanged.length > MAX_UNCHANGED_LISTED) out.push(`  ${c.dim(`unchanged ${unchanged.length} files (--format json lists them)`)}`);

  if (result.moved.length) {
    out.push('', c.bold('Moved'));
    for (const m of result.moved) out.push(`  ${m.step}: moved ${m.done} of ${m.of} ${m.what}`);
  }
  const deps = Object.entries(result.dependencies);
  if (deps.length) {
    out.push('', c.bold('Dependencies added to package.json'));
    out.push(`  ${deps.map(([name, range]) => `${name}@${range}`).join(', ')}`);
    if (result.installCommand) out.push(`  install them: ${c.cyan(result.installCommand)}${mode.dry || mode.check ? '' : ' (or run the stage with --install)'}`);
  }
  if (result.deltas.length) {
    out.push('', c.bold('Framework defaults that now differ (not restored; --parity express restores them)'));
    for (const d of result.deltas) out.push(`  - ${d}`);
  }
  const todos = result.todos.filter((t) => !result.manual.some((m) => m.file === t.file && (m.line === t.line || m.reason.includes(t.text))));
  const followUps = [...result.manual.map((m) => `${m.file}:${m.line} ${m.reason}`), ...todos.map((t) => `${t.file}:${t.line} TODO(migrate) ${t.text}`)];
  if (followUps.length) {
    out.push('', c.bold(c.yellow(`Left for a human (${followUps.length})`)));
    for (const line of followUps) out.push(`  ${line}`);
  }
  if (result.parity) {
    const { missing, duplicated } = result.parity;
    if (!missing.length && !duplicated.length) out.push('', `Route parity: ${c.green('ok')} (every route still served, once)`);
    else {
      out.push('', c.red(c.bold('Route parity FAILED')));
      for (const key of missing) out.push(`  missing:      ${key}`);
      for (const key of duplicated) out.push(`  served twice: ${key}`);
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

/** What the user does now, from how the run ended. */
function nextSteps(result: RunResult, mode: SummaryMode): string[] {
  if (result.exitCode === 2 && !result.written) return ['fix what failed above (or report it), then run the stage again; nothing was written'];
  if (result.exitCode === 2) return ['the stage broke a check above; inspect it with `git diff`, undo it with `git restore` (files listed in the notes), and report the case'];
  if (mode.dry) return result.changes.length ? ['run again without --dry to write these changes'] : ['nothing to change: this stage is done'];
  if (mode.check) return result.changes.length ? [`run \`migrate run --stage ${result.stage}\` to apply the stage`] : ['nothing to change: this stage is done'];
  const steps: string[] = [];
  if (result.written) {
    if (result.installCommand) steps.push(`install the new dependencies: ${result.installCommand}`);
    steps.push('review the changes (`git diff`) and run the app\'s tests');
    steps.push('check behaviour against the recording: `migrate verify`');
    steps.push(result.commit ? `undo the stage if needed: \`git revert ${result.commit.slice(0, 12)}\`` : 'undo the stage if needed: `git restore` the changed files (delete the new ones), or use --commit next time');
  } else steps.push('nothing to change: this stage is done');
  if (result.manual.length || result.todos.length) steps.push('finish the items left for a human, then run the stage again to confirm');
  return steps;
}
