/**
 * What the `shim` stage reads from the inventory: where the app listens, where the generated
 * Fastify module goes and how it is imported, and the app settings Fastify must copy (router
 * matching, trust proxy, query parser, body parsers). Shared by the `shim-server` and
 * `shim-listen` steps so both name the module the same way.
 */
import type { App, Setting } from '../../analyzer/model.js';
import type { ManualItem, PlanContext } from '../model.js';
import type { ServerModule } from '../server-module/locate.js';
import { bodyParsersOf } from '../server-module/body-parsers.js';
import type { ServerFacts, SettingsKey } from '../server-module/template.js';

/**
 * The facts the generated module copies from `app`; what could not be copied (`manual`); and the
 * settings-derived parts of the module (template.ts SettingsSource) written from a value not known
 * before run time (`unknown`): the user is told to set those by hand, so a re-run leaves them as
 * they are.
 */
export function serverFactsOf(ctx: PlanContext, app: App, target: ServerModule, listenFile: string): { facts: ServerFacts; manual: ManualItem[]; unknown: SettingsKey[] } {
  const manual: ManualItem[] = [];
  const settings = ctx.inventory.settings.filter((s) => s.ownerId === app.id);
  const expressMajor = ctx.inventory.project.expressVersion.major === 5 ? 5 : 4;
  const setting = (key: string) => lastSetting(settings, key);
  const unknown: SettingsKey[] = [];
  // Which part a setting's ManualItem is about: the items pushed while that part is read.
  const read = <T>(key: SettingsKey, value: () => T): T => {
    const before = manual.length;
    const out = value();
    if (manual.length > before) unknown.push(key);
    return out;
  };
  const trust = read('trustProxy', () => trustProxyOf(setting('trust proxy'), manual));
  const facts: ServerFacts = {
    module: target.module,
    typescript: target.typescript,
    ...(target.typescript && ctx.inventory.files.find((f) => f.file === listenFile)?.moduleSystem === 'commonjs' ? { compiledToCommonJs: true } : {}),
    expressMajor,
    caseSensitive: read('caseSensitive', () => booleanSetting(setting('case sensitive routing'), manual)),
    strict: read('ignoreTrailingSlash', () => booleanSetting(setting('strict routing'), manual)),
    trustProxy: trust,
    queryParser: read('querystringParser', () => queryParserOf(setting('query parser'), expressMajor, manual)),
    bodyParsers: read('bodyParsers', () => bodyParsersOf(ctx.inventory.middleware.filter((m) => m.appId === app.id && m.ownerId === app.id), manual)),
    parity: ctx.parity,
  };
  return { facts, manual, unknown };
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
