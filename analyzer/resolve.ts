/**
 * Module resolution for `import`, `require` and `import()` specifiers, through TypeScript's own
 * resolver so tsconfig `paths`/`baseUrl`, `package.json#imports`, `.js` specifiers for `.ts`
 * files and index files behave as the compiler sees them. tsconfig errors (e.g. options a newer
 * TypeScript deprecates) never stop the analysis: the options that could be read are used.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { ts } from 'ts-morph';
import { readPackageJson } from './project.js';

/** Where a specifier leads. */
export type Resolved =
  | { kind: 'file'; path: string }
  | { kind: 'package'; name: string; subpath: string }
  | { kind: 'builtin'; name: string }
  | { kind: 'unresolved' };

const BUILTINS = new Set(builtinModules);

/** npm package name of a bare specifier: `@scope/x/y` → `@scope/x`, `x/y` → `x`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export interface ResolverOptions {
  /** Absolute project root. */
  root: string;
}

/** Resolves specifiers relative to importing files; results are cached per (dir, specifier). */
export class ModuleResolver {
  private readonly options: ts.CompilerOptions;
  private readonly cache = new Map<string, Resolved>();
  readonly tsconfigProblems: string[] = [];
  /** The compiler options of the project's tsconfig.json as TypeScript reads them (`module`, `target`, …); null when there is none or it does not parse. */
  tsconfig: ts.CompilerOptions | null = null;

  /** TypeScript's own cache of directory lookups (package.json, node_modules walks) across specifiers. */
  private readonly moduleCache: ts.ModuleResolutionCache;

  constructor(private readonly opts: ResolverOptions) {
    this.options = this.readCompilerOptions();
    this.moduleCache = ts.createModuleResolutionCache(opts.root, (f) => f, this.options);
  }

  private readCompilerOptions(): ts.CompilerOptions {
    const base: ts.CompilerOptions = {
      allowJs: true,
      resolveJsonModule: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
    };
    const configPath = ts.findConfigFile(this.opts.root, ts.sys.fileExists, 'tsconfig.json');
    if (!configPath || !configPath.startsWith(this.opts.root)) return base;
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    if (read.error) {
      this.tsconfigProblems.push(ts.flattenDiagnosticMessageText(read.error.messageText, ' '));
      return base;
    }
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath));
    for (const e of parsed.errors) this.tsconfigProblems.push(ts.flattenDiagnosticMessageText(e.messageText, ' '));
    this.tsconfig = parsed.options;
    // `pathsBasePath` (internal) anchors `paths` at the tsconfig's folder when there is no baseUrl.
    const { paths, baseUrl, rootDirs, pathsBasePath } = parsed.options;
    return { ...base, ...(paths ? { paths, pathsBasePath } : {}), ...(baseUrl ? { baseUrl } : {}), ...(rootDirs ? { rootDirs } : {}) };
  }

  /** Resolves `specifier` as written in the file `fromFile` (absolute). */
  resolve(specifier: string, fromFile: string): Resolved {
    const key = `${path.dirname(fromFile)}\0${specifier}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const result = this.resolveUncached(specifier, fromFile);
    this.cache.set(key, result);
    return result;
  }

  private resolveUncached(specifier: string, fromFile: string): Resolved {
    const bare = specifier.replace(/^node:/, '');
    if (specifier.startsWith('node:') || BUILTINS.has(bare)) return { kind: 'builtin', name: bare };
    const out = ts.resolveModuleName(specifier, fromFile, this.options, ts.sys, this.moduleCache).resolvedModule;
    const isBare = !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('#');
    if (out && !out.isExternalLibraryImport && !out.resolvedFileName.includes('/node_modules/')) {
      const file = this.sourceFor(out.resolvedFileName);
      // A bare specifier mapped onto the project's own declaration file (`"paths": { "*": ["src/types/*"] }`
      // and src/types/express-flash.d.ts) types a package: there is no code of the project to run.
      const declaresPackage = isBare && file.endsWith('.d.ts');
      if (file.startsWith(this.opts.root + path.sep) && !declaresPackage) return { kind: 'file', path: file };
    }
    if (isBare && !out && this.isPathAlias(specifier)) return { kind: 'unresolved' };
    if (isBare) {
      const name = packageName(specifier);
      const own = out ? null : this.fromRoot(specifier, name);
      return own ?? { kind: 'package', name, subpath: specifier.slice(name.length) };
    }
    return this.resolveByProbing(specifier, fromFile);
  }

  /** A specifier matched by a tsconfig `paths` pattern is the project's own, never a package. */
  private isPathAlias(specifier: string): boolean {
    // A bare `*` pattern (`"*": ["node_modules/*", …]`) maps packages too; it says nothing.
    return Object.keys(this.options.paths ?? {}).some((pattern) => {
      if (pattern === '*') return false;
      const star = pattern.indexOf('*');
      return star < 0 ? specifier === pattern : specifier.startsWith(pattern.slice(0, star)) && specifier.endsWith(pattern.slice(star + 1));
    });
  }

  /**
   * A bare specifier that names a project file from the root (`require('_helpers/authorize')` beside
   * `_helpers/authorize.js`): what `require('rootpath')()`, app-module-path or `NODE_PATH=.` make
   * Node resolve at run time. Only a path into a folder (`_helpers/x`) or a file named with its
   * extension (`config.json`): a single name (`tsoa`) is a package even beside `tsoa.json`; and only
   * when package.json declares no package of that name and none is installed at the root (Node
   * looks in node_modules before NODE_PATH).
   */
  private fromRoot(specifier: string, name: string): Resolved | null {
    if (specifier.startsWith('@') || !(specifier.includes('/') || /\.(?:[cm]?[jt]s|json)$/.test(specifier))) return null;
    if (this.declared().has(name) || ts.sys.directoryExists(path.join(this.opts.root, 'node_modules', name))) return null;
    const own = this.resolveByProbing(`./${specifier}`, path.join(this.opts.root, 'package.json'));
    return own.kind === 'file' ? own : null;
  }

  /** The root package.json's declared packages, read once (declared()). */
  private declaredNames: Set<string> | null = null;

  /** The packages the root package.json declares (dependencies of every kind); none when it cannot be read. */
  private declared(): Set<string> {
    if (this.declaredNames) return this.declaredNames;
    const pkg = (readPackageJson(this.opts.root) ?? {}) as Record<string, unknown>;
    const sections = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].map((k) => pkg[k]);
    this.declaredNames = new Set(sections.flatMap((d) => (d && typeof d === 'object' ? Object.keys(d) : [])));
    return this.declaredNames;
  }

  /** Declaration files stand for their JS twin when one exists (`x.d.ts` next to `x.js`). */
  private sourceFor(file: string): string {
    if (!file.endsWith('.d.ts')) return file;
    for (const ext of ['.js', '.mjs', '.cjs']) {
      const js = file.slice(0, -5) + ext;
      if (ts.sys.fileExists(js)) return js;
    }
    return file;
  }

  /** CommonJS-style probing for relative specifiers TypeScript would not resolve in JS files. */
  private resolveByProbing(specifier: string, fromFile: string): Resolved {
    const base = path.resolve(path.dirname(fromFile), specifier);
    const candidates = [base, ...['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.json'].map((e) => base + e), ...['index.js', 'index.ts', 'index.cjs', 'index.mjs'].map((i) => path.join(base, i))];
    const tsTwin = base.replace(/\.([cm]?)js$/, '.$1ts');
    if (tsTwin !== base) candidates.push(tsTwin);
    for (const c of candidates) if (ts.sys.fileExists(c)) return { kind: 'file', path: c };
    return { kind: 'unresolved' };
  }
}
