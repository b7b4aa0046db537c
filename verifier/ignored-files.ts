/**
 * The files a baseline checkout lacks because git ignores them: the working tree's environment
 * files (`.env`, `.env.local`, …), which most apps read at start-up through dotenv, and the ignored
 * paths the user names in `.migrate/config.json` (`baseline.copyIgnored`, e.g. generated docs).
 * Nothing else is copied: never `node_modules` (the baseline gets its own dependencies), and build
 * outputs or databases only when named. A file the checkout has (tracked at the baseline ref) is
 * never overwritten.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';

/** Where to copy from and to, and what the user named. */
export interface IgnoredCopy {
  /** Root of the repository's working tree. */
  top: string;
  /** Root of the baseline checkout (the same repository at the baseline ref). */
  tree: string;
  /** The app's folder relative to `top` ('' at the root). */
  appRel: string;
  /** Paths or globs relative to the app folder (`baseline.copyIgnored`); a folder means everything in it. */
  named: readonly string[];
}

/** What was copied, for the report. */
export interface IgnoredCopied {
  /** Copied files, relative to the repository root, sorted. */
  files: string[];
  /** Named entries that matched no git-ignored file of the working tree. */
  unmatched: string[];
}

/** Folders never searched for environment files (they hold other projects' or generated ones). */
const NOT_SEARCHED = ['**/node_modules/**', '**/.git/**', '**/dist/**', '**/build/**', '**/.migrate/**'];

/**
 * Copies the working tree's git-ignored environment files (every `.env*` in the app folder and
 * below, and at each folder above it up to the repository root) and the named ignored paths into
 * the baseline checkout, at the same places. Files git does not ignore are left alone: tracked ones
 * are in the checkout already, untracked ones are work the baseline never had.
 * @throws Error when git cannot be run in `top`
 */
export async function copyIgnoredFiles(opts: IgnoredCopy): Promise<IgnoredCopied> {
  const app = path.join(opts.top, opts.appRel);
  const envFiles = (await glob(['**/.env*'], { cwd: app, dot: true, onlyFiles: true, ignore: NOT_SEARCHED })).map((f) => path.join(opts.appRel, f));
  for (let rel = opts.appRel; rel && rel !== '.'; ) {
    rel = path.dirname(rel) === '.' ? '' : path.dirname(rel);
    envFiles.push(...(await glob(['.env*'], { cwd: path.join(opts.top, rel), dot: true, onlyFiles: true })).map((f) => path.join(rel, f)));
  }
  const unmatched: string[] = [];
  const namedFiles: string[] = [];
  for (const entry of opts.named) {
    const isFolder = existsSync(path.join(app, entry)) && statSync(path.join(app, entry)).isDirectory();
    const pattern = isFolder ? `${entry.replace(/\/+$/, '')}/**` : entry;
    const found = (await glob([pattern], { cwd: app, dot: true, onlyFiles: true, ignore: ['**/node_modules/**', '**/.git/**'] })).map((f) => path.join(opts.appRel, f));
    const ignored = ignoredBy(opts.top, found);
    if (!ignored.length) unmatched.push(entry);
    namedFiles.push(...ignored);
  }
  const files = [...new Set([...ignoredBy(opts.top, envFiles), ...namedFiles])].filter((f) => !existsSync(path.join(opts.tree, f))).sort();
  for (const file of files) {
    mkdirSync(path.dirname(path.join(opts.tree, file)), { recursive: true });
    copyFileSync(path.join(opts.top, file), path.join(opts.tree, file));
  }
  return { files, unmatched };
}

/**
 * The one-line report note for a copy, or undefined when nothing was copied or named: the files
 * (the first ten, then a count) and the named entries that matched nothing.
 */
export function ignoredCopyNote(copied: IgnoredCopied): string | undefined {
  const parts: string[] = [];
  if (copied.files.length) {
    const shown = copied.files.slice(0, 10).join(', ');
    const more = copied.files.length > 10 ? ` and ${copied.files.length - 10} more` : '';
    parts.push(`copied into the baseline from the working tree (git ignores them, so the checkout lacks them): ${shown}${more}`);
  }
  if (copied.unmatched.length) parts.push(`baseline.copyIgnored: ${copied.unmatched.map((u) => `"${u}"`).join(', ')} matched no git-ignored file of the working tree`);
  return parts.length ? parts.join('; ') : undefined;
}

/** The paths among `files` (relative to `top`) that git ignores there; throws when git fails. */
function ignoredBy(top: string, files: string[]): string[] {
  if (!files.length) return [];
  const result = spawnSync('git', ['check-ignore', '--stdin', '-z'], { cwd: top, input: files.join('\0') + '\0', encoding: 'utf8' });
  // Exit 1: none of them is ignored.
  if (result.status === 1) return [];
  if (result.status !== 0) throw new Error(`git check-ignore failed in ${top}: ${result.stderr || result.error?.message}`);
  return result.stdout.split('\0').filter(Boolean);
}
