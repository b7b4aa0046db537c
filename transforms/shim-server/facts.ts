/**
 * What the `shim` stage reads from the inventory: where the app listens, where the generated
 * Fastify module goes and how it is imported, and the app settings Fastify must copy (router
 * matching, trust proxy, query parser, body parsers). Shared by the `shim-server` and
 * `shim-listen` steps so both name the module the same way.
 */
import path from 'node:path';
import type { App, Middleware, Setting } from '../../analyzer/model.js';
import type { ManualItem, PlanContext } from '../model.js';
import { GENERATED_MARK, type Import, type ServerFacts } from './template.js';

/** Where the generated module lives and how the listening files import it. */
export interface ServerModule {
  /** POSIX path relative to the project root (`src/fastify-server.js`). */
  file: string;
  module: 'esm' | 'commonjs';
  typescript: boolean;
}

/** Whether `source` is a module the shim stage wrote: GENERATED_MARK on its first line, where the template puts it. */
export function isGeneratedModule(source: string | null): source is string {
  return !!source && source.split('\n', 1)[0].includes(GENERATED_MARK);
}

const EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];
const BASE_NAMES = ['fastify-server', 'fastify-bridge', 'fastify-shim'];

/**
 * The generated module for the app listening in `listenFile`: next to it, with its extension and
 * module system. An existing file of that name that we did not write is never overwritten: the
 * next free name is taken.
 */
export function serverModuleFor(ctx: PlanContext, listenFile: string): ServerModule {
  const ext = EXTENSIONS.includes(path.posix.extname(listenFile)) ? path.posix.extname(listenFile) : '.js';
  const dir = path.posix.dirname(listenFile);
  const source = ctx.readFile(listenFile) ?? '';
  const typescript = /\.[mc]?ts$/.test(ext);
  // TypeScript gets import/export syntax whatever it compiles to.
  const module = typescript ? 'esm' : moduleSystemOf(source, ext, ctx.inventory.project.moduleKind);
  for (const base of BASE_NAMES) {
    const file = path.posix.join(dir, base + ext);
    const existing = ctx.readFile(file);
    if (existing === null || isGeneratedModule(existing)) return { file, module, typescript };
  }
  return { file: path.posix.join(dir, `fastify-server-migrate${ext}`), module, typescript };
}

/** ESM when the file uses import/export syntax (or its extension or package type says so), CommonJS otherwise. */
export function moduleSystemOf(source: string, ext: string, packageKind: 'esm' | 'commonjs'): 'esm' | 'commonjs' {
  if (ext === '.mjs' || ext === '.mts') return 'esm';
  if (ext === '.cjs' || ext === '.cts') return 'commonjs';
  if (/^\s*(import\s[^(]|export\s)/m.test(source)) return 'esm';
  if (/\brequire\s*\(/.test(source)) return 'commonjs';
  return packageKind;
}

/**
 * The specifier `fromFile` imports `target` with: relative, with `.js` for ESM and for
 * TypeScript files whose relative imports carry an extension (NodeNext), without one otherwise.
 */
export function importSpecifier(fromFile: string, target: ServerModule, fromSource: string): string {
  let rel = path.posix.relative(path.posix.dirname(fromFile), target.file);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const ext = path.posix.extname(target.file);
  const stem = rel.slice(0, -ext.length);
  if (!target.typescript) return target.module === 'esm' || ext !== '.js' ? rel : stem;
  const withExtension = /from\s+['"]\.{1,2}\/[^'"]+\.js['"]|require\(\s*['"]\.{1,2}\/[^'"]+\.js['"]\s*\)/.test(fromSource);
  return withExtension ? `${stem}${ext.replace('ts', 'js')}` : stem;
}

/** The facts the generated module copies from `app`, and what could not be copied. */
export function serverFactsOf(ctx: PlanContext, app: App, target: ServerModule): { facts: ServerFacts; manual: ManualItem[] } {
  const manual: ManualItem[] = [];
  const settings = ctx.inventory.settings.filter((s) => s.ownerId === app.id);
  const expressMajor = ctx.inventory.project.expressVersion.major === 5 ? 5 : 4;
  const setting = (key: string) => lastSetting(settings, key);
  const trust = trustProxyOf(setting('trust proxy'), manual);
  const facts: ServerFacts = {
    module: target.module,
    typescript: target.typescript,
    expressMajor,
    caseSensitive: booleanSetting(setting('case sensitive routing'), manual),
    strict: booleanSetting(setting('strict routing'), manual),
    trustProxy: trust,
    queryParser: queryParserOf(setting('query parser'), expressMajor, manual),
    bodyParsers: bodyParsersOf(ctx.inventory.middleware.filter((m) => m.appId === app.id && m.ownerId === app.id), manual),
    parity: ctx.parity,
  };
  return { facts, manual };
}

function lastSetting(settings: Setting[], key: string): Setting | undefined {
  return settings.filter((s) => s.key === key && s.kind !== 'read').at(-1);
}

function valueOf(s: Setting): unknown {
  if (s.kind === 'enable') return true;
  if (s.kind === 'disable') return false;
  return s.value;
}

const unresolved = (s: Setting, what: string): ManualItem => ({
  file: s.location.file,
  line: s.location.line,
  code: 'setting-not-copied',
  reason: `${what} is not a value known before run time (${s.raw}); Fastify keeps its default — set it in the generated module by hand`,
});

function booleanSetting(s: Setting | undefined, manual: ManualItem[]): boolean {
  if (!s) return false;
  const v = valueOf(s);
  if (s.resolution !== 'exact' || typeof v !== 'boolean') {
    if (typeof v !== 'boolean') manual.push(unresolved(s, `'${s.key}'`));
    return Boolean(v);
  }
  return v;
}

/**
 * Express's 'trust proxy' as Fastify's `trustProxy`. Same kinds of value (proxy-addr lists, `true`)
 * except hop counts: Express trusts the nearest N hops (`proxy-addr` compileTrust: `i < N`), Fastify
 * ≥ 5.12.1 treats a number as trusting nothing (fastify lib/request.js getTrustProxyFn), so a
 * count becomes the equivalent function.
 */
function trustProxyOf(s: Setting | undefined, manual: ManualItem[]): string | null {
  if (!s) return null;
  const v = valueOf(s);
  if (s.resolution !== 'exact') {
    manual.push(unresolved(s, "'trust proxy'"));
    return null;
  }
  if (v === false || v === 0 || v === null) return null;
  if (v === true) return 'true';
  if (typeof v === 'number') return `(address, hop) => hop < ${v}`;
  if (typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))) return JSON.stringify(v).replace(/"/g, "'");
  manual.push(unresolved(s, "'trust proxy'"));
  return null;
}

/** Express's query parsers (Express 4 default 'extended' = qs with allowPrototypes; Express 5 default 'simple' = node:querystring). */
function queryParserOf(s: Setting | undefined, major: 4 | 5, manual: ManualItem[]): ServerFacts['queryParser'] {
  const v = s ? valueOf(s) : major === 4 ? 'extended' : 'simple';
  if (s && s.resolution !== 'exact') manual.push(unresolved(s, "'query parser'"));
  if (v === true || v === 'extended') return { source: '(query) => qs.parse(query, { allowPrototypes: true })', imports: [{ name: 'qs', from: 'qs' }] };
  if (v === false) return { source: '() => ({})', imports: [] };
  if (v === 'simple') return { source: '(query) => querystring.parse(query)', imports: [{ name: 'querystring', from: 'node:querystring' }] };
  if (s) manual.push(unresolved(s, "'query parser'"));
  return null;
}

const PARSER_CALL = /^([A-Za-z_$][\w$]*)\.(json|urlencoded|text|raw)\(([\s\S]*)\)$/;
const PARSER_PACKAGES: Record<string, Import> = { express: { name: 'express', from: 'express' }, 'body-parser': { name: 'bodyParser', from: 'body-parser' } };

/**
 * The app-level body parsers (`express.json(…)`, `bodyParser.urlencoded(…)`), rebuilt in the generated
 * module with the same options so Fastify routes get the same bodies. Options that use names from the
 * app's code (not literals) cannot be copied: reported, and that parser left out.
 */
function bodyParsersOf(middleware: Middleware[], manual: ManualItem[]): ServerFacts['bodyParsers'] {
  const sources: string[] = [];
  const imports: Import[] = [];
  for (const m of middleware) {
    const pkg = m.package && PARSER_PACKAGES[m.package];
    const call = pkg && m.fullPath === '/' ? PARSER_CALL.exec(m.source.trim()) : null;
    if (!pkg || !call) continue;
    if (!isLiteralOptions(call[3])) {
      manual.push({ file: m.registration.file, line: m.registration.line, code: 'body-parser-options', reason: `the options of ${m.source.slice(0, 80)} use values from the app's code; routes that move to Fastify get no ${call[2]} body until they are copied into the generated module` });
      continue;
    }
    sources.push(`${pkg.name}.${call[2]}(${call[3].trim()})`);
    if (!imports.includes(pkg)) imports.push(pkg);
  }
  return { sources, imports };
}

/** Whether `text` (call arguments) holds only literals: strings, numbers, booleans, null, objects and arrays of them. */
function isLiteralOptions(text: string): boolean {
  const withoutStrings = text.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, '0');
  const withoutKeys = withoutStrings.replace(/[A-Za-z_$][\w$]*\s*:/g, '');
  return !/[A-Za-z_$`]/.test(withoutKeys.replace(/\b(true|false|null|undefined)\b/g, ''));
}
