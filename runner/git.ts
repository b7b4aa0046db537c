/**
 * The git side of a stage: refuse to run on uncommitted work (so a stage can be undone with git),
 * and commit a stage as one commit. Paths are those of `git status --porcelain`, relative to the
 * repository root; `.migrate/` (the tool's own files) never counts as uncommitted work.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';

/** Whether `root` is in a git work tree, and what is uncommitted there (outside `.migrate/`). */
export interface GitState {
  repo: boolean;
  /** `git status --porcelain` lines for paths under `root`, `.migrate/` excluded. */
  dirty: string[];
}

/** Reads the git state of the folder `root` (only changes inside it count). */
export async function gitState(root: string): Promise<GitState> {
  const git = simpleGit({ baseDir: root });
  if (!(await git.checkIsRepo().catch(() => false))) return { repo: false, dirty: [] };
  const status = await git.raw(['status', '--porcelain', '--', '.']);
  const dirty = status.split('\n').filter((line) => line.trim() && !isMigrateFile(line.slice(3)));
  return { repo: true, dirty };
}

/** A porcelain path (or `from -> to`) that lies in a `.migrate/` folder. */
function isMigrateFile(paths: string): boolean {
  return paths.split(' -> ').every((p) => /(^|\/)\.migrate(\/|$)/.test(p.replace(/^"|"$/g, '')));
}

/**
 * Commits exactly `files` (absolute, or relative to `root`) as one commit with `message`, whatever else
 * is staged; returns the new commit's hash.
 * @throws the git error (nothing committed) when git refuses, e.g. an ignored file or no identity
 */
export async function commitFiles(root: string, files: string[], message: string): Promise<string> {
  const git = simpleGit({ baseDir: root });
  await git.add(['--', ...files]);
  const result = await git.commit(message, files);
  return result.commit || (await git.revparse(['HEAD'])).trim();
}

const LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'bun.lockb'];

/**
 * Lockfiles at or above `root` (absolute paths) that git reports as changed: what an install
 * after the stage rewrote, to go into the stage's commit.
 */
export async function changedLockfiles(root: string): Promise<string[]> {
  const candidates: string[] = [];
  for (let d = path.resolve(root); ; d = path.dirname(d)) {
    for (const name of LOCKFILES) if (existsSync(path.join(d, name))) candidates.push(path.join(d, name));
    if (path.dirname(d) === d) break;
  }
  if (candidates.length === 0) return [];
  const status = await simpleGit({ baseDir: root }).raw(['status', '--porcelain', '--', ...candidates]);
  return candidates.filter((c) => status.includes(path.basename(c)));
}
