/**
 * The app's body parsers as the generated module rebuilds them: `parseBodyLikeExpress([…])` of the
 * shim (for the routes Fastify answers) and the body parsers of the moved routes that run no
 * Express code (`plugins` stage, express-free.ts) are the same list, so both read it here.
 */
import type { ApiUse, App, Inventory, Middleware } from '../../analyzer/model.js';
import { NODE_REQUEST_MEMBERS } from '../../rules/catalogue/api.js';
import type { BodyParserKind } from '../../rules/catalogue/body-parsers.js';
import type { ManualItem, PlanContext } from '../model.js';
import { appFunctionAccess, functionOptions, type AppFunctionAccess, type FunctionOption, type LiftedNames } from './app-functions.js';
import type { GeneratedModule } from './locate.js';
import type { Import, ServerFacts } from './template.js';
import { jsLiteral } from '../lib/js-literal.js';

/** The body-parser factories the generated module rebuilds, and how it imports their package. */
const PARSER_METHODS = new Set(['json', 'urlencoded', 'text', 'raw']);
const PARSER_PACKAGES: Record<string, Import> = { express: { name: 'express', from: 'express' }, 'body-parser': { name: 'bodyParser', from: 'body-parser' } };

/**
 * The app-level body parsers (`express.json(…)`, `bodyParser.urlencoded(…)`), rebuilt in the generated
 * module with the same options so Fastify routes get the same bodies: the options as the analyzer
 * folded them (Middleware.factory), so options kept in constants or config modules are copied too.
 * Options known only at run time cannot be copied: that parser is left out, and reported unless the
 * only such option is a `verify` function of the app (the Express hook runs the parser; the plugins
 * stage carries the function: carriedAccess).
 */
export function bodyParsersOf(middleware: Middleware[], manual: ManualItem[]): ServerFacts['bodyParsers'] {
  const sources: string[] = [];
  const imports: Import[] = [];
  for (const m of middleware) {
    const parser = parserOf(m);
    if (!parser) continue;
    const open = m.factory!.args.flatMap((a) => (a.resolution === 'exact' ? [] : (a.unresolved ?? [{ path: a.source, reason: 'not known before run time' }]).map((u) => `${u.path} (${u.reason})`)));
    // Only a verify of the app: the parser reads its bodies in the Express hook, and the plugins stage carries it to Fastify; nothing for a human.
    if (open.length && carriedOptions(m)?.length) continue;
    if (open.length) {
      manual.push({ file: m.registration.file, line: m.registration.line, code: 'body-parser-options', reason: `the options of ${m.source.slice(0, 80)} use values known only at run time (${open.join(', ')}); the generated module cannot rebuild the parser, so the routes Fastify answers get their ${parser.method} bodies from it in the Express hook, not from Fastify` });
      continue;
    }
    sources.push(rebuiltBodyParser(m)!);
    if (!imports.includes(parser.pkg)) imports.push(parser.pkg);
  }
  return { sources, imports };
}

/** body-parser's options that are functions of the app, which the generated module calls as body-parser did. */
const CARRIED_OPTIONS = new Set(['verify']);

/**
 * The app-level body parsers of `app` that the generated module rebuilds, in the app's order: those
 * whose options are all known before run time but for a `verify` function of the app (carriedOptions).
 */
export function appBodyParsers(inventory: Pick<Inventory, 'middleware'>, app: Pick<App, 'id'>): Middleware[] {
  return inventory.middleware.filter((m) => m.appId === app.id && m.ownerId === app.id && isRebuiltBodyParser(m));
}

/** Whether `m` is an app-level body parser the generated module rebuilds (appBodyParsers). */
export function isRebuiltBodyParser(m: Middleware): boolean {
  return parserOf(m) !== null && carriedOptions(m) !== null;
}

/**
 * The options of body parser `m` that are functions of the app (`verify`), or null when another
 * part of its arguments is known only at run time (an environment variable, a method, a call).
 */
function carriedOptions(m: Middleware): FunctionOption[] | null {
  const [options, ...rest] = m.factory?.args ?? [];
  return rest.every((a) => a.resolution === 'exact') ? functionOptions(options, CARRIED_OPTIONS) : null;
}

/**
 * The source the generated module rebuilds middleware `m` with (`express.json({ limit: '1mb' })`;
 * with `verify: keepRaw` as `functions` gives the carried options' sources), or null when `m` is not
 * an app-level body parser the module rebuilds, or a carried option has no source in `functions`.
 */
export function rebuiltBodyParser(m: Middleware, functions: Record<string, string> = {}): string | null {
  const parser = parserOf(m);
  const carried = parser && carriedOptions(m);
  if (!parser || !carried || carried.some((c) => functions[c.path] === undefined)) return null;
  const args = m.factory!.args.map((a) => jsLiteral(a.value));
  if (carried.length) args[0] = jsLiteral({ ...(m.factory!.args[0].value as object) }, Object.fromEntries(carried.map((c) => [c.path, functions[c.path]])));
  return `${parser.pkg.name}.${parser.method}(${args.join(', ')})`;
}

/** How the generated module `module` reaches each carried option of body parser `m`, keyed by option, or why one cannot be carried. */
type CarriedAccess = { functions: Record<string, AppFunctionAccess> } | { refuse: string };

/**
 * The generated module's access to the carried options of `m` (appFunctionAccess), for a moved
 * route that runs no Express code: there `verify(req, res, buf, encoding)` gets Fastify's
 * `request.raw`, Node's own request without Express's members, and `reply.raw`. So it is carried
 * when every member of `req` it reads is Node's (NODE_REQUEST_MEMBERS) or one it writes itself
 * (`req.rawBody = buf`), it uses nothing of `res`, and it hands neither on to code the analysis
 * does not follow (`checks.forEach((c) => c(req))`). `given`: names lifted so far (appFunctionAccess).
 */
export function carriedAccess(ctx: PlanContext, module: GeneratedModule, m: Middleware, given?: LiftedNames): CarriedAccess {
  const functions: Record<string, AppFunctionAccess> = {};
  const name = `${m.name} (${m.registration.file}:${m.registration.line})`;
  for (const c of carriedOptions(m) ?? []) {
    const { req, res } = c.function.usage;
    const expressOnly = req.find((u) => !u.write && !NODE_REQUEST_MEMBERS.has(member(u)) && !req.some((w) => w.write && member(w) === member(u)));
    if (expressOnly) return { refuse: `${name}'s ${c.path} reads ${expressOnly.api} (${expressOnly.location.file}:${expressOnly.location.line}), which only Express's request has` };
    if (res.length) return { refuse: `${name}'s ${c.path} uses the response (${res[0].api}, ${res[0].location.file}:${res[0].location.line})` };
    const [handed] = c.function.usage.handedOn;
    if (handed) return { refuse: `${name}'s ${c.path} hands ${handed.parameter} on (${handed.location.file}:${handed.location.line}) to code the analysis does not follow, which may need Express's ${handed.parameter === 'req' ? 'request' : 'response'}` };
    const access = appFunctionAccess(ctx, module, c.function.location, `${c.path}${m.factory!.callee.split('.').at(-1)!.replace(/^./, (x) => x.toUpperCase())}Body`, given);
    if ('refuse' in access) return { refuse: `${name}'s ${c.path}: ${access.refuse}` };
    functions[c.path] = access;
  }
  return { functions };
}

/** `rawBody` of `req.rawBody`. */
function member(use: ApiUse): string {
  return use.api.split('.')[1] ?? '';
}

/** The package the generated module rebuilds body parser `m` from (`express` for `express.json`, imported as `express`), or null for another middleware. */
export function parserPackage(m: Middleware): Import | null {
  return parserOf(m)?.pkg ?? null;
}

/** Which body-parser parser `m` is, and from which package (`express.json` re-exports body-parser's), or null when it is no app-level body parser. */
export function bodyParserOf(m: Middleware): { package: 'express' | 'body-parser'; kind: BodyParserKind } | null {
  const parser = parserOf(m);
  return parser ? { package: parser.pkg.from as 'express' | 'body-parser', kind: parser.method as BodyParserKind } : null;
}

/** Whether `m` is an app-level body parser (`express.json(…)`, `bodyParser.urlencoded(…)` at `/`), whatever its options. */
export function isBodyParser(m: Middleware): boolean {
  return parserOf(m) !== null;
}

/** The package and factory of an app-level body parser (`express.json(…)` at `/`), else null. */
function parserOf(m: Middleware): { pkg: Import; method: string } | null {
  const pkg = m.package && PARSER_PACKAGES[m.package];
  const method = m.factory?.callee.split('.').at(-1) ?? '';
  return pkg && m.fullPath === '/' && m.factory && PARSER_METHODS.has(method) ? { pkg, method } : null;
}

