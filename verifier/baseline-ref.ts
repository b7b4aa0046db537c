/**
 * What a baseline git ref names, over time: `migrate init` pins a ref that moves (`HEAD`, a
 * branch, `HEAD~1`) to the commit it names now, since after `migrate run --commit` `HEAD` is the
 * migrated commit; and `migrate verify` refuses a baseline that is the candidate itself (the same
 * commit as the working tree, with nothing uncommitted), which would compare the migration with
 * itself and pass.
 */
import { spawnSync } from 'node:child_process';

/** A ref as `init` stores it. */
export interface PinnedRef {
  /** What to store as `baseline.ref`: the commit id when `pinnedFrom` is set, else the ref as given. */
  ref: string;
  /** The moving ref the commit was read from, when it was pinned. */
  pinnedFrom?: string;
}

/**
 * Pins `ref` in the repository at `cwd` to its commit unless it cannot move: a tag or a commit id
 * (full or abbreviated) is kept as given, and so is a ref git does not know (the caller warns about it).
 */
export function pinRef(cwd: string, ref: string): PinnedRef {
  const commit = commitOf(cwd, ref);
  // A commit id, full or abbreviated, names that commit for good.
  if (!commit || (/^[0-9a-f]{4,40}$/i.test(ref) && commit.startsWith(ref.toLowerCase()))) return { ref };
  if (git(cwd, ['show-ref', '--verify', '--quiet', `refs/tags/${ref}`]).ok) return { ref };
  return { ref: commit, pinnedFrom: ref };
}

/** The baseline is the working tree itself: why, and the commit to name instead when one is known. */
export interface SelfBaseline {
  commit: string;
  /** The parent of the oldest `migrate: stage …` commit in the run of them that ends at HEAD, if any. */
  beforeMigration?: string;
}

/**
 * Whether `ref` names the commit checked out at `cwd` while the repository has nothing uncommitted
 * outside `.migrate/` folders: then the baseline lane would run the same code as the candidate.
 * Undefined when it does not (or git cannot tell).
 */
export function baselineIsCandidate(cwd: string, ref: string): SelfBaseline | undefined {
  const commit = commitOf(cwd, ref);
  if (!commit || commit !== commitOf(cwd, 'HEAD')) return undefined;
  const status = git(cwd, ['status', '--porcelain', '--untracked-files=all', '--', ':/', ':(top,exclude,glob)**/.migrate/**']);
  if (!status.ok || status.out.trim()) return undefined;
  return { commit, beforeMigration: commitBeforeMigration(cwd) };
}

/** The parent of the oldest of the `migrate: stage` commits that end at HEAD (runner/git.ts writes them). */
function commitBeforeMigration(cwd: string): string | undefined {
  const log = git(cwd, ['log', '--first-parent', '--format=%H %P%x09%s', '-n', '200', 'HEAD']);
  if (!log.ok) return undefined;
  let before: string | undefined;
  for (const line of log.out.split('\n').filter(Boolean)) {
    const [ids, subject = ''] = line.split('\t');
    if (!subject.startsWith('migrate: stage ')) break;
    before = ids.split(' ')[1];
  }
  return before;
}

function commitOf(cwd: string, ref: string): string | undefined {
  const result = git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  return result.ok ? result.out.trim() : undefined;
}

function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { ok: result.status === 0, out: result.stdout ?? '' };
}
