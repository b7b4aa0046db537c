/**
 * Source-file discovery: which files of a project the analyzer may read. Honours `.gitignore`,
 * skips build output and dependencies, and refuses files it must not parse (binary, not UTF-8,
 * over 2 MB), saying so for each.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { glob } from 'tinyglobby';
import type { Diagnostic } from './model.js';

/** Folders never analysed unless given as the project root itself. */
export const DEFAULT_SKIPPED_DIRS = ['node_modules', 'dist', 'build', 'coverage', '.git', '.migrate', '.next', 'out'];

/** Source extensions the analyzer reads (JS and TS, CJS and ESM). */
export const SOURCE_EXTENSIONS = ['js', 'cjs', 'mjs', 'jsx', 'ts', 'cts', 'mts', 'tsx'];

/** Files over this size are skipped with a diagnostic (bytes). */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

export interface DiscoveredFiles {
  /** Absolute paths of readable source files, sorted. */
  files: string[];
  /** Skipped folders that exist in the project (relative), for the report. */
  skippedDirs: string[];
  /** Files left out, each with the reason. */
  diagnostics: Diagnostic[];
}

/**
 * Lists the project's source files under `root` (absolute). Symlinks are not followed, so
 * symlink loops cannot hang the walk.
 */
export async function discoverFiles(root: string): Promise<DiscoveredFiles> {
  const ig = ignore().add(readGitignore(root));
  const found = await glob(`**/*.{${SOURCE_EXTENSIONS.join(',')}}`, {
    cwd: root,
    ignore: DEFAULT_SKIPPED_DIRS.map((d) => `**/${d}/**`),
    followSymbolicLinks: false,
    dot: false,
  });
  const diagnostics: Diagnostic[] = [];
  const files: string[] = [];
  for (const rel of found.sort()) {
    if (ig.ignores(rel)) continue;
    const abs = path.join(root, rel);
    const problem = unreadableReason(abs);
    if (problem) {
      diagnostics.push({ code: 'file-skipped', severity: 'warning', message: `${rel}: ${problem}`, location: { file: rel, line: 1, column: 1 } });
      continue;
    }
    files.push(abs);
  }
  const skippedDirs = DEFAULT_SKIPPED_DIRS.filter((d) => d !== '.git' && existsDir(path.join(root, d)));
  return { files, skippedDirs, diagnostics };
}

function readGitignore(root: string): string {
  try {
    return readFileSync(path.join(root, '.gitignore'), 'utf8');
  } catch {
    return '';
  }
}

function existsDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Why a file must not be parsed, or null when it may be. */
export function unreadableReason(abs: string): string | null {
  const size = statSync(abs).size;
  if (size > MAX_FILE_BYTES) return `skipped: ${(size / 1024 / 1024).toFixed(1)} MB is over the 2 MB limit`;
  const bytes = readFileSync(abs);
  if (bytes.subarray(0, 8192).includes(0)) return 'skipped: binary file';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'skipped: not valid UTF-8';
  }
  return null;
}
