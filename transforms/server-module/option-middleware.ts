/**
 * The app's middleware that a Fastify server option replaces (`plugins` stage, issue 19 item 4):
 * those whose catalogue entry names a `serverOption` (rules/catalogue/middleware.ts), morgan →
 * `logger: true`. Fastify then logs every request, those Express answers too, as morgan logged
 * every request it saw: so one moves only when it saw them all —
 * - registered on the app itself, at `/`, under no condition, in a statement of its own (the step
 *   deletes that statement), before every route and every other middleware of the app (one after
 *   them did not see the requests they ended) but those the catalogue knows to end none
 *   (`passesEveryRequest`: helmet, compression, …), and with no plugin an earlier run moved to the
 *   root that answers requests itself (@fastify/cors: the preflights this one never saw);
 * - called with nothing but what the option takes over: morgan's format as a string, or one of
 *   strings chosen at run time (`'dev'`, `env === 'production' ? 'combined' : 'dev'`), whose line
 *   shape the option does not keep anyway; options (`stream`, `skip`, `immediate`, also morgan 1.0's
 *   options object) and a format function (it runs per request, with `req` and `res`) stay;
 * - the generated module does not set the option (or `loggerInstance`) already, by hand.
 * Each that stays says why, with its place.
 */
import type { App, Location, Middleware, Route } from '../../analyzer/model.js';
import { MIDDLEWARE, middlewareFor, type MiddlewareEntry } from '../../rules/catalogue/middleware.js';
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import { isReference, jFor, type Node } from '../lib/ast.js';
import { importedLocal, namespaceImported } from '../lib/imports.js';
import { parsedFiles } from '../lib/parsed-files.js';
import type { PlanContext } from '../model.js';
import { fastifyOptionIn } from './fastify-options.js';
import { generatedModuleFor, moduleImports } from './locate.js';
import { clip } from '../lib/clip.js';
import type { Anchor } from '../lib/anchor.js';
import { notForEveryRequest } from './every-request.js';
import { notDeletable, registrationAnchorOf } from './registration-anchor.js';

/** A middleware leaving the Express app for a server option. */
export interface OptionMiddleware {
  middlewareId: string;
  /** As written (`morgan`), and the package. */
  name: string;
  package: string;
  /** The option that replaces it: `logger`, and its source `true`. */
  option: { name: string; value: string };
  /** The format it was given, as written (`'dev'`, `logs`), for the summary; null when none. */
  format: string | null;
  /** The factory as written (`morgan`), for the summary and comments. */
  callee: string;
  /** Where the factory is called (`morgan('dev')`): the file whose import of the package it uses. */
  factory: Location;
  registration: Location;
  /** The registration's call as the plan read it (lib/anchor.ts): found there after an earlier step of the stage edited the file. */
  anchor: Anchor;
}

/** The app's middleware a server option replaces, and those of the same packages that stay, each with why. */
export interface OptionMiddlewareOf {
  moving: OptionMiddleware[];
  kept: Array<{ middlewareId: string; package: string; registration: Location; reason: string }>;
}

/** The middleware of `app` whose catalogue entry names a server option, and which of them move (module comment). */
export function optionMiddlewareOf(ctx: PlanContext, app: App): OptionMiddlewareOf {
  const out: OptionMiddlewareOf = { moving: [], kept: [] };
  for (const m of ctx.inventory.middleware) {
    if (m.appId !== app.id || m.framework !== 'express') continue;
    const entry = m.package ? middlewareFor(m.name, m.package) : undefined;
    if (!entry?.serverOption) continue;
    const reason = whyStays(ctx, app, m, entry);
    const anchor = typeof reason === 'string' ? null : registrationAnchorOf(ctx, m);
    if (typeof reason === 'string' || !anchor) out.kept.push({ middlewareId: m.id, package: entry.package, registration: m.registration, reason: typeof reason === 'string' ? reason : notDeletable(m) });
    else out.moving.push({ middlewareId: m.id, name: m.name, callee: m.factory?.callee ?? m.name, factory: m.factory?.location ?? m.registration, package: entry.package, option: { name: entry.serverOption.name, value: entry.serverOption.value }, format: reason.format, registration: m.registration, anchor });
  }
  return out;
}

/** Why `m` stays on the Express app (a sentence ending with its place), or what it takes over when it moves. */
function whyStays(ctx: PlanContext, app: App, m: Middleware, entry: MiddlewareEntry): string | { format: string | null } {
  const at = `${m.registration.file}:${m.registration.line}`;
  const option = entry.serverOption!.name;
  const partial = notForEveryRequest(ctx, app, m, `Fastify's ${option} would log every request`);
  if (partial) return partial;
  const args = m.factory?.args ?? [];
  const [first, ...rest] = args;
  if (rest.length) return `its options \`${rest.map((a) => a.source).join(', ')}\` are not translated to Fastify's ${option} (${at})`;
  if (first && !(entry.serverOption!.takes.includes('format') && isFormatName(first))) return `its argument \`${clip(first.source)}\` is not a format name (${(first.unresolved ?? []).map((u) => u.reason).join('; ') || 'an object'}), which Fastify's ${option} would drop (${at})`;
  // Another of the same package ends no request; nor does one the catalogue knows to pass every request on (helmet, compression).
  const passes = (o: Middleware | Route) => 'package' in o && !!o.package && (o.package === m.package || !!middlewareFor(o.name, o.package)?.passesEveryRequest);
  const before = [...ctx.inventory.middleware, ...ctx.inventory.routes].find((o) => o.appId === app.id && o.order < m.order && o.framework === 'express' && !passes(o));
  // A moved route's hand-over (`app.get('/x', movedToFastify)`) keeps the place the route had.
  const handOver = (app.handOvers ?? []).find((h) => h.order < m.order);
  if (before) return `${'key' in before ? `route ${before.key}` : `middleware ${before.name}`} (${before.registration.file}:${before.registration.line}) comes before it in Express, so it did not log the requests that one ended, where Fastify's ${option} would (${at})`;
  if (handOver) return `the moved route ${handOver.methods.join(', ')} ${handOver.fullPath} (${handOver.registration.file}:${handOver.registration.line}) comes before it in Express, so it did not log that route's requests, where Fastify's ${option} would (${at})`;
  const module = generatedModuleFor(ctx, app);
  // A root plugin an earlier run registered that answers requests itself (@fastify/cors: preflights)
  // answers them before the Express app, so this middleware no longer sees them; it came before it in Express.
  const answering = (Object.values(MIDDLEWARE) as MiddlewareEntry[]).find((e) => e.rootPlugin?.answers && module && moduleImports(module, e.fastify));
  if (answering) return `the generated module registers ${answering.fastify} (an earlier run moved ${answering.package} there), which answers requests before the Express app, as ${answering.package} did before this middleware in Express; Fastify's ${option} would log them (${at})`;
  const j = module ? jFor(module.file) : null;
  // `logger: true` is what the step writes (another of the app's morgans, moved before); anything else was set by hand.
  const set = module && j ? ['logger', 'loggerInstance'].find((name) => ![null, option === name ? entry.serverOption!.value : null].includes(fastifyOptionIn(j, j(module.source), name))) : undefined;
  if (set) return `the generated module sets Fastify's ${set} already (${module!.file}); merge the two by hand (${at})`;
  return { format: first ? first.source : null };
}

/** Whether a factory argument is a format's name: a string, or one the environment or a condition chooses (the analysis lists no function, call or object in it). */
function isFormatName(arg: NonNullable<Middleware['factory']>['args'][number]): boolean {
  if (typeof arg.value === 'string') return true;
  if (arg.resolution !== 'unresolved') return false;
  return (arg.unresolved ?? []).every((u) => u.path === '' && (/^chosen at run time by /.test(u.reason) || /^process\.env\b/.test(u.reason)));
}


/**
 * Whether the package `pkg` goes unused once `moving` left the app: every project file importing
 * it (the Inventory's import facts) reads the names it binds only in the factory calls of `moving`
 * made there, which the step deletes with their import. Then the stage removes it from
 * package.json; a file that reads it otherwise (`morgan.token(…)`, a morgan that stays) keeps it.
 */
export function unusedAfterMove(ctx: PlanContext, pkg: string, moving: ReadonlyArray<Pick<OptionMiddleware, 'package' | 'factory'>>): boolean {
  const importers = ctx.inventory.files.filter((f) => f.imports.some((i) => i.specifier === pkg && !i.typeOnly));
  return importers.every((f) => {
    const parsed = parsedFiles(ctx)(f.file);
    if (!parsed) return false;
    const locals = importedNames(parsed.j, parsed.root, pkg);
    const reads = parsed.root.find(parsed.j.Identifier).filter((p) => locals.has(p.node.name) && isReference(p) && !insideImport(p)).size();
    return locals.size > 0 && reads === moving.filter((m) => m.package === pkg && m.factory.file === f.file).length;
  });
}

/**
 * The local names the file's default or namespace import (or require) of `pkg` binds; empty when it
 * also takes named exports (`import { token } from 'morgan'`, `const { token } = require('morgan')`),
 * uses this does not count.
 */
function importedNames(j: JSCodeshift, root: Collection, pkg: string): Set<string> {
  const named =
    root.find(j.ImportDeclaration, { source: { value: pkg } }).some((p) => (p.node.specifiers ?? []).some((s) => s.type === 'ImportSpecifier')) ||
    root.find(j.VariableDeclarator, { id: { type: 'ObjectPattern' }, init: { type: 'CallExpression', callee: { name: 'require' } } }).some((p) => ((p.node.init as Node).arguments[0] as Node)?.value === pkg);
  if (named) return new Set();
  return new Set([importedLocal(j, root, pkg, { kind: 'default' }), namespaceImported(j, root, pkg)].filter((n): n is string => n !== null));
}

/** Whether the identifier is the binding of an import or require itself. */
function insideImport(p: ASTPath<Node>): boolean {
  for (let q: ASTPath<Node> | null = p.parent; q; q = q.parent) {
    if (q.node.type === 'ImportDeclaration') return true;
    if (q.node.type === 'VariableDeclarator' && q.node.id === p.node) return true;
    if (/Statement|Declaration$/.test(q.node.type) && q.node.type !== 'VariableDeclaration') return false;
  }
  return false;
}
