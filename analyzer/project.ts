/**
 * Project facts read from package.json and the lockfile: package manager, Node engine, Express
 * and Fastify versions, module kind, workspaces; and entry detection.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { glob } from 'tinyglobby';
import type { Diagnostic, ProjectFacts } from './model.js';

export interface PackageJson {
  name?: string;
  main?: string;
  type?: string;
  bin?: string | Record<string, string>;
  scripts?: Record<string, string>;
  engines?: { node?: string };
  workspaces?: string[] | { packages?: string[] };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Reads `dir/package.json`; null when absent or not JSON. */
export function readPackageJson(dir: string): PackageJson | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return null;
  }
}

const LOCKFILES: [string, ProjectFacts['packageManager']][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

/** Finds the nearest lockfile at or above `dir` (monorepo members use the root's). */
function findLockfile(dir: string): { file: string; manager: ProjectFacts['packageManager'] } | null {
  for (let d = dir; ; d = path.dirname(d)) {
    for (const [name, manager] of LOCKFILES) if (existsSync(path.join(d, name))) return { file: path.join(d, name), manager };
    if (path.dirname(d) === d) return null;
  }
}

/** Installed version of `pkg` as recorded by the lockfile or node_modules, or null. */
function installedVersion(dir: string, pkg: string, lock: { file: string } | null): string | null {
  for (let d = dir; ; d = path.dirname(d)) {
    const pj = readPackageJson(path.join(d, 'node_modules', pkg));
    if (pj && 'version' in pj) return String((pj as { version: string }).version);
    if (path.dirname(d) === d) break;
  }
  if (!lock) return null;
  const text = readFileSync(lock.file, 'utf8');
  if (lock.file.endsWith('package-lock.json') || lock.file.endsWith('npm-shrinkwrap.json')) {
    try {
      const data = JSON.parse(text) as { packages?: Record<string, { version?: string }>; dependencies?: Record<string, { version?: string }> };
      const packages = data.packages ?? {};
      const rel = path.relative(path.dirname(lock.file), dir).split(path.sep).join('/');
      // lockfileVersion 2/3 list `packages`; version 1 only `dependencies`.
      return packages[`${rel ? rel + '/' : ''}node_modules/${pkg}`]?.version ?? packages[`node_modules/${pkg}`]?.version ?? data.dependencies?.[pkg]?.version ?? null;
    } catch {
      return null;
    }
  }
  // yarn.lock / pnpm-lock.yaml: the first "version" after the package's entry.
  const escaped = pkg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const m = new RegExp(`(?:^|\\n)["']?/?${escaped}@[^\\n]*\\n(?:[^\\n]*\\n){0,3}?\\s+version:?\\s+["']?([\\d.]+)`).exec(text);
  return m ? m[1] : null;
}

/**
 * The installed version of the body-parser that Express's own `express.json` … run: resolved as
 * Node resolves `require('body-parser')` from Express's folder (its own node_modules, then the
 * folders above its real path: npm's hoisting and pnpm's store alike), null when Express or it is
 * not installed.
 */
function expressBodyParser(root: string): string | null {
  for (let d = root; ; d = path.dirname(d)) {
    const express = path.join(d, 'node_modules', 'express');
    if (existsSync(path.join(express, 'package.json'))) {
      for (let e = realpathSync(express); ; e = path.dirname(e)) {
        const pj = readPackageJson(path.join(e, 'node_modules', 'body-parser'));
        if (pj && 'version' in pj) return String((pj as { version: string }).version);
        if (path.dirname(e) === e) return null;
      }
    }
    if (path.dirname(d) === d) return null;
  }
}

/**
 * Declared range and installed version of every dependency and devDependency. Installed versions
 * come from node_modules only, looked up as Node resolves a bare name from `root`: the
 * node_modules folders of `root` and its parents, nearest first (hoisted workspace installs
 * included). Cheap: one existence check per ancestor, then at most one package.json read per
 * node_modules folder and dependency.
 */
function dependencyVersions(root: string, pkg: PackageJson | null): ProjectFacts['dependencies'] {
  const declared: Record<string, unknown> = { ...pkg?.devDependencies, ...pkg?.dependencies };
  const names = Object.keys(declared).sort();
  const folders: string[] = [];
  if (names.length) {
    for (let d = path.resolve(root); ; d = path.dirname(d)) {
      if (path.basename(d) !== 'node_modules' && isDir(path.join(d, 'node_modules'))) folders.push(path.join(d, 'node_modules'));
      if (path.dirname(d) === d) break;
    }
  }
  const out: ProjectFacts['dependencies'] = {};
  for (const name of names) {
    let installed: string | null = null;
    for (const folder of folders) {
      const pj = readPackageJson(path.join(folder, name)) as { version?: unknown } | null;
      // The first folder holding the package is the one Node loads, whatever its version field says.
      if (pj) {
        installed = typeof pj.version === 'string' ? pj.version : null;
        break;
      }
    }
    out[name] = { declared: typeof declared[name] === 'string' ? declared[name] : null, installed };
  }
  return out;
}

function majorOf(version: string | null): number | null {
  const m = version ? /(\d+)/.exec(version.replace(/^[^\d]*/, '')) : null;
  return m ? Number(m[1]) : null;
}

/** Workspace member folders (relative) declared by package.json or pnpm-workspace.yaml. */
export async function workspaceDirs(root: string, pkg: PackageJson | null): Promise<string[]> {
  let patterns: string[] = Array.isArray(pkg?.workspaces) ? pkg.workspaces : pkg?.workspaces?.packages ?? [];
  const pnpm = path.join(root, 'pnpm-workspace.yaml');
  if (existsSync(pnpm)) {
    patterns = patterns.concat([...readFileSync(pnpm, 'utf8').matchAll(/^\s*-\s*['"]?([^'"\n]+)['"]?\s*$/gm)].map((m) => m[1]));
  }
  if (patterns.length === 0) return [];
  const found = await glob(patterns.map((p) => `${p.replace(/\/$/, '')}/package.json`), { cwd: root, ignore: ['**/node_modules/**'] });
  return found.map((f) => path.dirname(f)).sort();
}

const ENTRY_CANDIDATES = [
  'src/server', 'src/index', 'src/app', 'src/main', 'server', 'index', 'app', 'main', 'bin/www', 'src/bin/www',
];
const ENTRY_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', ''];

/**
 * Picks the file analysis starts from, and says how it was chosen. Order: `--entry`; the start
 * script (`node x`, `tsx x`, `ts-node x`, `nodemon x`); `main` when it is a source file (a start
 * script or `main` pointing at a built file, e.g. `dist/index.js`, is mapped back to `src/` when
 * that source exists); then the conventional names. Returns a relative POSIX path or null.
 */
export function detectEntry(root: string, pkg: PackageJson | null, explicit?: string): { entry: string | null; source: string } {
  const rel = (p: string) => path.relative(root, p).split(path.sep).join('/');
  const tryFile = (candidate: string): string | null => {
    const base = path.resolve(root, candidate);
    // Files only: `src/app` may be a folder next to `src/app.ts` (it then counts through its index).
    for (const ext of ENTRY_EXTENSIONS) if (isFile(base + ext) && !base.endsWith('/')) return base + ext;
    for (const ext of ENTRY_EXTENSIONS.slice(0, -1)) if (isFile(path.join(base, 'index' + ext))) return path.join(base, 'index' + ext);
    return null;
  };
  if (explicit) {
    const found = tryFile(explicit);
    return { entry: found ? rel(found) : null, source: found ? '--entry' : `--entry ${explicit} does not exist` };
  }
  for (const [name, command] of startScripts(pkg?.scripts ?? {})) {
    const fromScript = /(?:^|\s|&&)(?:node|tsx|ts-node|ts-node-dev|nodemon|bun|node --[\w-]+(?:=\S+)?)(?:\s+-{1,2}[\w-]+(?:[= ]\S+)?)*\s+([\w./@-]+\.[cm]?[jt]s|[\w./@-]+\/www)\b/.exec(command);
    if (!fromScript) continue;
    // `node dist/server.js`: the compiled copy is not what the codemods must edit; its source is.
    const script = fromScript[1];
    const label = name === 'start' ? 'start script' : `${name} script`;
    const mapped = isBuildOutput(script) ? tryFile(sourceForBuilt(script)) : null;
    if (mapped) return { entry: rel(mapped), source: `${label} (${script}) mapped to its source` };
    const found = tryFile(script) ?? tryFile(sourceForBuilt(script));
    if (found) return { entry: rel(found), source: label };
  }
  if (pkg?.main) {
    const found = isBuildOutput(pkg.main) ? null : tryFile(pkg.main);
    if (found) return { entry: rel(found), source: 'package.json main' };
    const mapped = tryFile(sourceForBuilt(pkg.main));
    if (mapped) return { entry: rel(mapped), source: `package.json main (${pkg.main}) mapped to its source` };
  }
  for (const candidate of ENTRY_CANDIDATES) {
    const found = tryFile(candidate);
    if (found) return { entry: rel(found), source: 'conventional file name' };
  }
  return { entry: null, source: 'no entry found' };
}

/**
 * The scripts that start the app, most telling first: `start`, then `dev`, then the other
 * `start:*` / `dev:*` / `serve` ones in package.json order (`start:dev`, `start:prod` of boilerplates
 * that have no plain `start`).
 */
function startScripts(scripts: Record<string, string>): Array<[string, string]> {
  const named = Object.entries(scripts).filter(([name]) => /^(start|dev|serve)([:-]|$)/.test(name));
  const rank = (name: string) => (name === 'start' ? 0 : name === 'dev' ? 1 : 2);
  return named.sort((a, b) => rank(a[0]) - rank(b[0]));
}

function isBuildOutput(p: string): boolean {
  return /^(\.\/)?(dist|build|lib|out)\//.test(p);
}

/** `dist/index.js` → `src/index` (extension dropped; tryFile probes .ts, .js, …). */
function sourceForBuilt(p: string): string {
  return p.replace(/^(\.\/)?(dist|build|lib|out)\//, 'src/').replace(/\.[cm]?js$/, '');
}

/**
 * Reads the facts DESIGN.md lists under `project`. Adds a diagnostic when the app pins a Node
 * version older than Fastify 5 supports (Fastify 5 requires Node >= 20).
 */
export async function readProjectFacts(root: string, entry: { entry: string | null; source: string }): Promise<{ facts: ProjectFacts; diagnostics: Diagnostic[] }> {
  const pkg = readPackageJson(root);
  const lock = findLockfile(root);
  const deps = { ...pkg?.devDependencies, ...pkg?.dependencies };
  const expressInstalled = installedVersion(root, 'express', lock);
  const diagnostics: Diagnostic[] = [];
  const nodeEngine = pkg?.engines?.node ?? null;
  if (nodeEngine && nodeAllowsOlderThan20(nodeEngine)) {
    diagnostics.push({
      code: 'node-engine-too-old',
      severity: 'warning',
      message: `package.json engines.node is "${nodeEngine}"; Fastify 5 needs Node >= 20, so the engine range must be raised before migrating`,
      location: { file: 'package.json', ...lineOf(path.join(root, 'package.json'), '"node"') },
    });
  }
  const hasTs = existsSync(path.join(root, 'tsconfig.json')) || /\.[cm]?tsx?$/.test(entry.entry ?? '');
  return {
    facts: {
      root: '.',
      name: pkg?.name ?? null,
      packageManager: lock?.manager ?? null,
      nodeEngine,
      expressVersion: { declared: deps.express ?? null, installed: expressInstalled, major: majorOf(expressInstalled ?? deps.express ?? null) },
      fastifyVersion: { declared: deps.fastify ?? null, installed: installedVersion(root, 'fastify', lock) },
      expressBodyParser: expressBodyParser(root),
      dependencies: dependencyVersions(root, pkg),
      moduleKind: pkg?.type === 'module' ? 'esm' : 'commonjs',
      typescript: hasTs,
      entry: entry.entry,
      entrySource: entry.source,
      workspaces: await workspaceDirs(root, pkg),
    },
    diagnostics,
  };
}

/** Whether an `engines.node` range admits a Node older than 20 (semver's lowest match: `*` and `<=22` do; an unreadable range does not). */
function nodeAllowsOlderThan20(range: string): boolean {
  const lowest = semver.validRange(range) ? semver.minVersion(range) : null;
  return lowest !== null && lowest.major < 20;
}

/** 1-based line and column of the first occurrence of `needle` in a file (1:1 when absent). */
function lineOf(file: string, needle: string): { line: number; column: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  return i < 0 ? { line: 1, column: 1 } : { line: i + 1, column: lines[i].indexOf(needle) + 1 };
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
