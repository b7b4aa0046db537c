/**
 * The baseline side of `migrate verify`: the app as it was at a git ref (a detached worktree in a
 * temporary folder) or in a folder the user names. A worktree has no node_modules; it gets the
 * working tree's when the lockfiles agree byte for byte, otherwise one install per lockfile, cached;
 * and the working tree's git-ignored `.env*` files and named ignored paths (ignored-files.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { glob } from 'tinyglobby';
import { copyIgnoredFiles, ignoredCopyNote } from './ignored-files.js';

/** Where the baseline comes from. Exactly one of `ref` and `dir`. */
export interface BaselineOptions {
  /** The repository (any folder inside it). */
  repoRoot: string;
  /** Absolute root of the app inside `repoRoot`; the baseline app sits at the same relative path. */
  appDir: string;
  /** A git ref (branch, tag, commit) to check out in a temporary worktree. */
  ref?: string;
  /** A folder holding the baseline app, used as is (no checkout, no dependency handling). */
  dir?: string;
  /** Our cache folder, e.g. `<repo>/.migrate/cache`; installs go to `<cacheDir>/deps/<sha256 of lockfile>/`. */
  cacheDir: string;
  /**
   * With `ref`: git-ignored paths of the working tree to copy into the checkout besides its `.env*`
   * files (relative to `appDir`; `baseline.copyIgnored` of `.migrate/config.json`). See ignored-files.ts.
   */
  copyIgnored?: readonly string[];
}

/** A prepared baseline. */
export interface Baseline {
  /** Absolute root of the baseline app (give it to a lane as `dir`). */
  appDir: string;
  /** Removes the worktree (nothing for `dir`). Idempotent; never touches the working tree's node_modules. */
  cleanup(): Promise<void>;
  /** What was done, for the report (checkout, dependencies shared or installed and where). */
  notes: string[];
}

/** Stable codes of BaselineError. */
export type BaselineErrorCode = 'BASELINE_BAD_OPTIONS' | 'BASELINE_NO_DIR' | 'BASELINE_NOT_A_REPO' | 'BASELINE_NO_REF' | 'BASELINE_GIT_FAILED' | 'BASELINE_INSTALL_FAILED';

/** A baseline that could not be prepared; `code` is stable, `message` names the ref, folder or command. */
export class BaselineError extends Error {
  override name = 'BaselineError';
  code: BaselineErrorCode;

  constructor(code: BaselineErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

const LOCKFILES: { file: string; manager: 'npm' | 'yarn' | 'pnpm'; install: string[] }[] = [
  { file: 'package-lock.json', manager: 'npm', install: ['ci', '--no-audit', '--no-fund'] },
  { file: 'npm-shrinkwrap.json', manager: 'npm', install: ['ci', '--no-audit', '--no-fund'] },
  { file: 'yarn.lock', manager: 'yarn', install: ['install', '--frozen-lockfile'] },
  { file: 'pnpm-lock.yaml', manager: 'pnpm', install: ['install', '--frozen-lockfile'] },
];
/** How a project without a lockfile is installed (npm resolves the ranges of package.json). */
const NO_LOCKFILE: (typeof LOCKFILES)[number] = { file: '', manager: 'npm', install: ['install', '--no-audit', '--no-fund', '--no-package-lock'] };

/**
 * The dependency sections (dependencies, dev, optional, peer) of the package.json files at
 * `root` and at the app inside it, as one canonical JSON string; '' when there is none.
 */
function dependencyDeclarations(root: string, appInProject: string): string {
  const sections = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
  const read = (file: string) => {
    if (!existsSync(file)) return null;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>;
    return sections.map((k) => Object.entries(pkg[k] ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  };
  return JSON.stringify([read(path.join(root, 'package.json')), appInProject ? read(path.join(root, appInProject, 'package.json')) : null]);
}

/** Package-manager settings (registries, auth by env) that the install needs next to the lockfile. */
const MANAGER_CONFIG = ['.npmrc', '.yarnrc', '.yarnrc.yml', 'pnpm-workspace.yaml'];

/**
 * Prepares the baseline app. With `dir`: checks it is a folder and returns it. With `ref`:
 * `git worktree add --detach` into a temporary folder and provides its dependencies (see the file
 * comment). Throws BaselineError when both or neither of `ref`/`dir` are given, the folder or ref
 * does not exist, `repoRoot` is not a git repository, `appDir` is outside it, or the install fails.
 */
export async function prepareBaseline(opts: BaselineOptions): Promise<Baseline> {
  if ((opts.ref === undefined) === (opts.dir === undefined)) {
    throw new BaselineError('BASELINE_BAD_OPTIONS', 'the baseline needs either a git ref or a folder (not both)');
  }
  if (opts.dir !== undefined) {
    const dir = path.resolve(opts.dir);
    if (!isDirectory(dir)) throw new BaselineError('BASELINE_NO_DIR', `baseline folder ${dir} does not exist`);
    return { appDir: dir, cleanup: async () => {}, notes: [`baseline app: ${dir}, used as is`] };
  }
  return checkOut(opts, opts.ref!);
}

async function checkOut(opts: BaselineOptions, ref: string): Promise<Baseline> {
  const top = await git(opts.repoRoot, ['rev-parse', '--show-toplevel']).catch(() => {
    throw new BaselineError('BASELINE_NOT_A_REPO', `${opts.repoRoot} is not inside a git repository, so there is no ref "${ref}" to check out`);
  });
  if (!isDirectory(opts.appDir)) throw new BaselineError('BASELINE_BAD_OPTIONS', `app folder ${opts.appDir} does not exist`);
  const appRel = path.relative(top, realpathSync(opts.appDir));
  if (appRel.startsWith('..') || path.isAbsolute(appRel)) {
    throw new BaselineError('BASELINE_BAD_OPTIONS', `app folder ${opts.appDir} is outside the repository ${top}`);
  }
  const commit = await git(top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]).catch(() => {
    throw new BaselineError('BASELINE_NO_REF', `baseline ref "${ref}" does not exist in ${top} (no such branch, tag or commit)`);
  });

  const holder = mkdtempSync(path.join(os.tmpdir(), 'migrate-baseline-'));
  const tree = path.join(holder, path.basename(top));
  const linked: string[] = []; // node_modules folders we made in the worktree
  const remove = once(() => removeWorktree(top, holder, tree, linked));
  try {
    // No hooks: a user's post-checkout hook has no business running in our temporary copy.
    await git(top, ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--detach', tree, commit]);
    if (!isDirectory(path.join(tree, appRel))) {
      throw new BaselineError('BASELINE_NO_DIR', `the app folder ${appRel || '.'} does not exist at baseline ref "${ref}"`);
    }
    const notes = [`baseline: ${ref} (${commit.slice(0, 12)}) checked out at ${tree}`];
    notes.push(await provideDependencies(top, tree, appRel, opts.cacheDir, linked));
    const copied = ignoredCopyNote(await copyIgnoredFiles({ top, tree, appRel, named: opts.copyIgnored ?? [] }));
    if (copied) notes.push(copied);
    return { appDir: path.join(tree, appRel), cleanup: remove, notes };
  } catch (err) {
    await remove();
    throw err instanceof BaselineError ? err : new BaselineError('BASELINE_GIT_FAILED', `checking out "${ref}" failed: ${(err as Error).message}`);
  }
}

/** Links node_modules into the worktree, from the working tree or from a cached install; returns the note. */
async function provideDependencies(top: string, tree: string, appRel: string, cacheDir: string, linked: string[]): Promise<string> {
  const project = projectRoot(tree, appRel);
  const baseLock = LOCKFILES.find((l) => existsSync(path.join(tree, project, l.file)));
  const appInProject = path.relative(project, appRel);
  if (!baseLock) {
    // No lockfile to compare: compare what the manifests declare instead (simonplend's
    // express-to-fastify-migration: same folder, express before, fastify after, no lockfile).
    const declared = dependencyDeclarations(path.join(tree, project), appInProject);
    if (declared === dependencyDeclarations(path.join(top, project), appInProject)) {
      linked.push(...linkNodeModules(path.join(top, project), path.join(tree, project), appInProject));
      return 'dependencies shared with the working tree: no lockfile, and package.json declares the same dependencies';
    }
    const cached = path.join(path.resolve(cacheDir), 'deps', createHash('sha256').update('package.json').update(declared).digest('hex'));
    const reused = existsSync(cached);
    if (!reused) await install(path.join(tree, project), NO_LOCKFILE, cached);
    linked.push(...linkNodeModules(cached, path.join(tree, project), appInProject));
    return `dependencies ${reused ? 'reused from an earlier' : 'installed with'} npm install because the baseline has no lockfile and its package.json declares other dependencies than the working tree's (cached at ${cached})`;
  }
  const lockBytes = readFileSync(path.join(tree, project, baseLock.file));
  const workLock = path.join(top, project, baseLock.file);
  if (existsSync(workLock) && readFileSync(workLock).equals(lockBytes)) {
    linked.push(...linkNodeModules(path.join(top, project), path.join(tree, project), appInProject));
    return `dependencies shared with the working tree: lockfiles agree (${path.join(project, baseLock.file)})`;
  }
  const cached = path.join(path.resolve(cacheDir), 'deps', createHash('sha256').update(baseLock.file).update(lockBytes).digest('hex'));
  const command = `${baseLock.manager} ${baseLock.install.join(' ')}`;
  const reused = existsSync(cached);
  if (!reused) await install(path.join(tree, project), baseLock, cached);
  linked.push(...linkNodeModules(cached, path.join(tree, project), appInProject));
  return `dependencies ${reused ? 'reused from an earlier' : 'installed with'} ${command} because the baseline's ${baseLock.file} differs from the working tree's (cached at ${cached})`;
}

/** The nearest folder from the app up to the repository root that holds a lockfile (relative to the root). */
function projectRoot(tree: string, appRel: string): string {
  for (let rel = appRel; ; rel = path.dirname(rel)) {
    const here = rel === '.' ? '' : rel;
    if (LOCKFILES.some((l) => existsSync(path.join(tree, here, l.file)))) return here;
    if (here === '') return '';
  }
}

/**
 * Installs the dependencies of the project at `source` into `target`: its manifests (workspace
 * manifests too, every `scripts` removed since the sources are not there) and lockfile are copied to
 * a fresh folder, the package manager runs there, and the folder is renamed into place, so a cache
 * entry that exists is complete and concurrent runs never share a half-made one.
 */
async function install(source: string, lock: (typeof LOCKFILES)[number], target: string): Promise<void> {
  const work = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  mkdirSync(work, { recursive: true });
  try {
    for (const manifest of ['package.json', ...(await workspaceManifests(source))]) {
      const file = path.join(source, manifest);
      if (!existsSync(file)) continue;
      mkdirSync(path.dirname(path.join(work, manifest)), { recursive: true });
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      delete pkg.scripts;
      writeFileSync(path.join(work, manifest), `${JSON.stringify(pkg, null, 2)}\n`);
    }
    for (const file of [...(lock.file ? [lock.file] : []), ...MANAGER_CONFIG]) {
      if (existsSync(path.join(source, file))) copyFileSync(path.join(source, file), path.join(work, file));
    }
    await run(lock.manager, lock.install, work);
    try {
      renameSync(work, target);
    } catch (err) {
      if (!existsSync(target)) throw err; // otherwise a concurrent run finished first: use its install
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Relative paths of the workspace package.json files of the project at `root` (npm/yarn `workspaces`, pnpm-workspace.yaml). */
async function workspaceManifests(root: string): Promise<string[]> {
  const patterns: string[] = [];
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces?: string[] | { packages?: string[] } };
  const declared = Array.isArray(pkg.workspaces) ? pkg.workspaces : (pkg.workspaces?.packages ?? []);
  patterns.push(...declared);
  const pnpmFile = path.join(root, 'pnpm-workspace.yaml');
  if (existsSync(pnpmFile)) patterns.push(...pnpmPackages(readFileSync(pnpmFile, 'utf8')));
  if (patterns.length === 0) return [];
  const include = patterns.filter((p) => !p.startsWith('!')).map((p) => `${p.replace(/\/+$/, '')}/package.json`);
  const ignore = ['**/node_modules/**', ...patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1))];
  return (await glob(include, { cwd: root, ignore })).sort();
}

/** The `packages:` list of a pnpm-workspace.yaml (block list of plain or quoted strings). */
function pnpmPackages(yaml: string): string[] {
  const out: string[] = [];
  let inPackages = false;
  for (const line of yaml.split(/\r?\n/)) {
    if (/^packages\s*:/.test(line)) inPackages = true;
    else if (/^\S/.test(line)) inPackages = false;
    else if (inPackages) {
      const item = /^\s*-\s*(['"]?)(.+?)\1\s*(#.*)?$/.exec(line);
      if (item) out.push(item[2]);
    }
  }
  return out;
}

/**
 * Gives the worktree project `to` the node_modules folders of `from` (the working tree or a cached
 * install): the root one and those of the app and of every workspace package. Each is a real
 * folder of links to the packages of `from`, except links to workspace packages, which point at
 * the worktree's copy, so the baseline never runs a workspace package's current code.
 */
function linkNodeModules(from: string, to: string, appRel: string): string[] {
  const root = mirrorNodeModules(from, to, '');
  const made = root ? [root.target] : [];
  for (const rel of new Set([appRel, ...(root?.workspaces ?? [])])) {
    const mirrored = rel === '' ? undefined : mirrorNodeModules(from, to, rel);
    if (mirrored) made.push(mirrored.target);
  }
  return made;
}

/**
 * Mirrors `<from>/<rel>/node_modules` into `<to>/<rel>/node_modules` (when the first exists and the
 * second does not); returns the folder made and the workspace packages whose links it re-pointed.
 */
function mirrorNodeModules(from: string, to: string, rel: string): { target: string; workspaces: string[] } | undefined {
  const source = path.join(from, rel, 'node_modules');
  const target = path.join(to, rel, 'node_modules');
  if (!isDirectory(source) || existsSync(target) || !isDirectory(path.join(to, rel))) return undefined;
  const workspaces: string[] = [];
  const realFrom = realpathSync(from);
  const link = (src: string, dst: string) => {
    let destination = src;
    if (lstatSync(src).isSymbolicLink()) {
      const real = realpathSync(src);
      const inProject = path.relative(realFrom, real);
      if (!inProject.startsWith('..') && !path.isAbsolute(inProject) && !inProject.split(path.sep).includes('node_modules')) {
        workspaces.push(inProject);
        if (existsSync(path.join(to, inProject))) destination = path.join(to, inProject);
      } else {
        destination = real;
      }
    }
    symlinkSync(destination, dst, isDirectory(destination) ? 'junction' : 'file');
  };
  mkdirSync(target);
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    const src = path.join(source, entry.name);
    if (entry.name.startsWith('@') && entry.isDirectory()) {
      mkdirSync(path.join(target, entry.name));
      for (const inner of readdirSync(src)) link(path.join(src, inner), path.join(target, entry.name, inner));
    } else {
      link(src, path.join(target, entry.name));
    }
  }
  return { target, workspaces };
}

async function removeWorktree(top: string, holder: string, tree: string, linked: string[]): Promise<void> {
  // Our node_modules folders hold only links; removing them first (rm does not follow links)
  // means nothing after this can reach into the working tree's packages.
  for (const dir of linked) rmSync(dir, { recursive: true, force: true });
  await git(top, ['worktree', 'remove', '--force', tree]).catch(() => undefined);
  await git(top, ['worktree', 'prune']).catch(() => undefined);
  rmSync(holder, { recursive: true, force: true });
}

const execFileAsync = promisify(execFile);

/** Runs git in `cwd` (ignoring GIT_DIR and friends from a calling hook); resolves to trimmed stdout. */
async function git(cwd: string, args: string[]): Promise<string> {
  const env = { ...process.env };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR']) delete env[name];
  const { stdout } = await execFileAsync('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

/** Runs a package manager in `cwd`; rejects with BaselineError carrying the tail of its output. */
function run(command: string, args: string[], cwd: string): Promise<void> {
  const env = { ...process.env };
  // Settings an outer `npm run`/`npx` exports would point the install at the wrong project.
  for (const name of Object.keys(env)) if (/^npm_(config_(local_)?prefix|package_|lifecycle_)/i.test(name)) delete env[name];
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-8000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => reject(new BaselineError('BASELINE_INSTALL_FAILED', `${command} could not run: ${err.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BaselineError('BASELINE_INSTALL_FAILED', `${command} ${args.join(' ')} failed (exit code ${code}) in ${cwd}:\n${output.trimEnd()}`));
    });
  });
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
