/**
 * The app's body parsers as the generated module rebuilds them: `parseBodyLikeExpress([…])` of the
 * shim (for the routes Fastify answers) and the body parsers of the moved routes that run no
 * Express code (`plugins` stage, express-free.ts) are the same list, so both read it here.
 */
import type { App, Inventory, Middleware } from '../../analyzer/model.js';
import type { BodyParserKind } from '../../rules/catalogue/body-parsers.js';
import type { ManualItem } from '../model.js';
import type { Import, ServerFacts } from './template.js';

/** The body-parser factories the generated module rebuilds, and how it imports their package. */
const PARSER_METHODS = new Set(['json', 'urlencoded', 'text', 'raw']);
const PARSER_PACKAGES: Record<string, Import> = { express: { name: 'express', from: 'express' }, 'body-parser': { name: 'bodyParser', from: 'body-parser' } };

/**
 * The app-level body parsers (`express.json(…)`, `bodyParser.urlencoded(…)`), rebuilt in the generated
 * module with the same options so Fastify routes get the same bodies: the options as the analyzer
 * folded them (Middleware.factory), so options kept in constants or config modules are copied too.
 * Options known only at run time (an environment variable, a function such as `verify`) cannot be
 * copied: reported, and that parser left out.
 */
export function bodyParsersOf(middleware: Middleware[], manual: ManualItem[]): ServerFacts['bodyParsers'] {
  const sources: string[] = [];
  const imports: Import[] = [];
  for (const m of middleware) {
    const parser = parserOf(m);
    if (!parser) continue;
    const open = m.factory!.args.flatMap((a) => (a.resolution === 'exact' ? [] : (a.unresolved ?? [{ path: a.source, reason: 'not known before run time' }]).map((u) => `${u.path} (${u.reason})`)));
    if (open.length) {
      manual.push({ file: m.registration.file, line: m.registration.line, code: 'body-parser-options', reason: `the options of ${m.source.slice(0, 80)} use values known only at run time (${open.join(', ')}); routes that move to Fastify get no ${parser.method} body until they are copied into the generated module` });
      continue;
    }
    sources.push(rebuiltBodyParser(m)!);
    if (!imports.includes(parser.pkg)) imports.push(parser.pkg);
  }
  return { sources, imports };
}

/** The app-level body parsers of `app` that the generated module rebuilds (rebuiltBodyParser), in the app's order. */
export function appBodyParsers(inventory: Pick<Inventory, 'middleware'>, app: Pick<App, 'id'>): Middleware[] {
  return inventory.middleware.filter((m) => m.appId === app.id && m.ownerId === app.id && rebuiltBodyParser(m) !== null);
}

/**
 * The source the generated module rebuilds middleware `m` with (`express.json({ limit: '1mb' })`),
 * or null when `m` is not an app-level body parser whose options are all known before run time.
 */
export function rebuiltBodyParser(m: Middleware): string | null {
  const parser = parserOf(m);
  if (!parser || m.factory!.args.some((a) => a.resolution !== 'exact')) return null;
  return `${parser.pkg.name}.${parser.method}(${m.factory!.args.map((a) => jsLiteral(a.value)).join(', ')})`;
}

/** Which body-parser parser `m` is, and from which package (`express.json` re-exports body-parser's), or null when it is no app-level body parser. */
export function bodyParserOf(m: Middleware): { package: 'express' | 'body-parser'; kind: BodyParserKind } | null {
  const parser = parserOf(m);
  return parser ? { package: parser.pkg.from as 'express' | 'body-parser', kind: parser.method as BodyParserKind } : null;
}

/** The package and factory of an app-level body parser (`express.json(…)` at `/`), else null. */
function parserOf(m: Middleware): { pkg: Import; method: string } | null {
  const pkg = m.package && PARSER_PACKAGES[m.package];
  const method = m.factory?.callee.split('.').at(-1) ?? '';
  return pkg && m.fullPath === '/' && m.factory && PARSER_METHODS.has(method) ? { pkg, method } : null;
}

/** A folded JSON value as JavaScript source in the template's style: single quotes, identifier keys bare (`{ limit: '1mb' }`). */
export function jsLiteral(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(jsLiteral).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : jsLiteral(k)}: ${jsLiteral(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}
