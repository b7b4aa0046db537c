/**
 * The settings-derived parts of a generated server module (template.ts SettingsSource), read and
 * rewritten in place: the Fastify options `routerOptions.caseSensitive`, `ignoreTrailingSlash`,
 * `querystringParser` and `trustProxy` of the `Fastify({…})` call in `buildFastify`, the parsers
 * array of `parseBodyLikeExpress([…])`, and the imports those use. Found by their AST nodes, not
 * by line or marker, so everything else in the module — what later stages registered in
 * `buildFastify`, their imports, options someone added by hand — stays as it is.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { jFor, textOf } from '../lib/ast.js';
import { importedLocal } from '../lib/imports.js';
import { restyle, type CodeStyle } from '../lib/style.js';
import { buildFastifyOf } from './build-fastify.js';
import { importLine, settingsComments, settingsImports, settingsSource, type ServerFacts, type SettingsKey } from './template.js';

/** The settings-derived parts as a module has them: source text, or null when left out (`bodyParsers`: null when the module has no `parseBodyLikeExpress([…])`). */
export type SettingsInModule = { [K in SettingsKey]: string | null };

/** The nodes that hold the settings-derived parts. */
interface SettingsNodes {
  options: Node;
  routerOptions: Node;
  /** The `parseBodyLikeExpress([…])` call, when its argument is an array. */
  parsers: Node | null;
}

/**
 * The settings-derived parts of the module parsed in `root`, as its source has them (whitespace
 * and quotes as written); null when `buildFastify` has no `Fastify({ routerOptions: {…}, … })`
 * call (the module was edited by hand).
 */
export function settingsIn(j: JSCodeshift, root: Collection): SettingsInModule | null {
  const nodes = settingsNodes(j, root);
  if (!nodes) return null;
  const value = (object: Node, key: string) => {
    const prop = propertyOf(object, key);
    return prop ? textOf(prop.value) : null;
  };
  return {
    caseSensitive: value(nodes.routerOptions, 'caseSensitive'),
    ignoreTrailingSlash: value(nodes.routerOptions, 'ignoreTrailingSlash'),
    querystringParser: value(nodes.routerOptions, 'querystringParser'),
    trustProxy: value(nodes.options, 'trustProxy'),
    bodyParsers: nodes.parsers ? textOf(nodes.parsers.arguments[0]) : null,
  };
}

/** Whether two sources of a part say the same, whatever their quotes and whitespace (the module is in the app's style, SettingsSource in the template's). */
export function sameSource(a: string | null, b: string | null): boolean {
  const norm = (s: string | null) => (s === null ? null : s.replace(/"/g, "'").replace(/\s+/g, ' ').replace(/([[({]) | ([\])}])/g, '$1$2').trim());
  return norm(a) === norm(b);
}

/**
 * Writes the parts `keys` as `facts` gives them (template.ts settingsSource): each option's value
 * replaced, added (with the template's comment, after the options the template puts before it) or
 * removed, and the comment on Express's matching rewritten with the routing options. Quotes
 * follow `quote`. The imports are settingsImportsUpdated's, on the printed text.
 * @throws Error when the module has no `Fastify({ routerOptions: {…} })` in buildFastify (the plan
 *   checks with settingsIn first)
 */
export function rewriteSettings(j: JSCodeshift, root: Collection, facts: ServerFacts, keys: SettingsKey[], quote: 'single' | 'double'): void {
  const nodes = settingsNodes(j, root);
  if (!nodes) throw new Error('the generated module has no Fastify({ routerOptions: {…} }) call in buildFastify to update');
  const q = (text: string) => (quote === 'double' ? text.replace(/'([^'"\\]*)'/g, '"$1"') : text);
  const source = settingsSource(facts);
  const comments = settingsComments(facts);
  const set = (object: Node, key: SettingsKey, after: string[], comment: string) => setOption(j, object, key, source[key] === null ? null : q(source[key]!), after, comment);
  for (const key of keys) {
    if (key === 'caseSensitive') set(nodes.routerOptions, key, [], comments.matching);
    if (key === 'ignoreTrailingSlash') set(nodes.routerOptions, key, ['caseSensitive'], comments.matching);
    if (key === 'querystringParser') set(nodes.routerOptions, key, ['caseSensitive', 'ignoreTrailingSlash'], comments.queryParser);
    if (key === 'trustProxy') set(nodes.options, key, ['routerOptions'], comments.trustProxy);
    if (key === 'bodyParsers' && nodes.parsers) nodes.parsers.arguments[0] = expression(j, q(source.bodyParsers));
  }
  if (keys.includes('caseSensitive') || keys.includes('ignoreTrailingSlash')) rewriteMatchingComment(j, nodes.routerOptions, comments.matching);
}

/**
 * `source` without the settings-derived options of `keys` that `facts` leaves out (template.ts
 * settingsSource gives null: `trust proxy` no longer set), each with the comments above it, as
 * lines: recast would reprint the whole options object (a blank line left, trailing commas
 * dropped). An option that shares a line with other code is left to rewriteSettings.
 */
export function settingsOptionsRemoved(source: string, file: string, facts: ServerFacts, keys: SettingsKey[], style: CodeStyle): string {
  const j = jFor(file);
  const nodes = settingsNodes(j, j(source));
  if (!nodes) return source;
  const wanted = settingsSource(facts);
  const lines = source.split(style.eol);
  const dropped = new Set<number>();
  for (const key of keys) {
    if (key === 'bodyParsers' || wanted[key] !== null) continue;
    const object = key === 'trustProxy' ? nodes.options : nodes.routerOptions;
    const prop = propertyOf(object, key);
    if (!prop) continue;
    const first = Math.min(prop.loc.start.line, ...(prop.comments ?? []).filter((c: Node) => c.leading).map((c: Node) => c.loc.start.line));
    const last = prop.loc.end.line;
    // Its lines hold nothing else: no other option, and the object's braces elsewhere.
    const others = object.properties.filter((p: Node) => p !== prop).some((p: Node) => p.loc.end.line >= first && p.loc.start.line <= last);
    const braces = object.loc.start.line >= first || object.loc.end.line <= last;
    if (!others && !braces) for (let n = first; n <= last; n++) dropped.add(n);
  }
  return dropped.size ? lines.filter((_, i) => !dropped.has(i + 1)).join(style.eol) : source;
}

/** The packages settings-derived parts import (template.ts settingsImports: query parsers, body parsers). */
const SETTINGS_PACKAGES = ['qs', 'node:querystring', 'express', 'body-parser'];

/** The packages the template imports at the top of every module, before the settings packages (template.ts imports). */
const TEMPLATE_PACKAGES = ['node:http', 'fastify', '@fastify/express', ...SETTINGS_PACKAGES];

/**
 * `source` (a module after rewriteSettings, printed) with the imports its settings-derived parts
 * need: the template's import line (template.ts importLine, in `style`) of each package of
 * settingsImports(facts) it does not import yet, after the last import of a package the template
 * imports (TEMPLATE_PACKAGES: where a module written now has it), else its last import; and the top-level
 * import or require of a settings package (SETTINGS_PACKAGES) that nothing references any more
 * deleted. Edited as lines, not reprinted: recast would reprint the whole statement list (blank
 * lines lost, snippets joined on one line).
 */
export function settingsImportsUpdated(source: string, file: string, facts: ServerFacts, style: CodeStyle): string {
  const j = jFor(file);
  const root = j(source);
  const body: Node[] = root.find(j.Program).paths()[0].node.body;
  const imports = body.filter(isImport);
  const fromOf = (s: Node): string => (s.type === 'ImportDeclaration' ? s.source.value : s.declarations[0].init.arguments[0]?.value);
  const localsOf = (s: Node): string[] => (s.type === 'ImportDeclaration' ? (s.specifiers ?? []).map((x: Node) => x.local.name) : s.declarations[0].id.type === 'Identifier' ? [s.declarations[0].id.name] : []);
  const referenced = (name: string) => root.find(j.Identifier, { name }).filter((p) => !imports.some((s) => insideNode(p.node, s)) && !isPropertyKey(p)).size() > 0;
  const unused = imports.filter((s) => s.importKind !== 'type' && SETTINGS_PACKAGES.includes(fromOf(s)) && localsOf(s).length > 0 && !localsOf(s).some(referenced));
  // `import type { Express } from 'express'` (TypeScript modules) binds no value: it neither provides a package nor places one.
  const values = imports.filter((s) => s.importKind !== 'type');
  const present = new Set(values.filter((s) => !unused.includes(s)).map(fromOf));
  const added = settingsImports(facts).filter((imp, i, all) => !present.has(imp.from) && all.findIndex((o) => o.from === imp.from) === i).map((imp) => importLine(imp, facts));
  if (!unused.length && !added.length) return source;
  const lines = source.split(style.eol);
  const dropped = new Set(unused.flatMap((s) => range(s.loc.start.line, s.loc.end.line)));
  const after = (values.filter((s) => TEMPLATE_PACKAGES.includes(fromOf(s))).at(-1) ?? imports.at(-1))?.loc.end.line ?? 0;
  const out: string[] = [];
  if (after === 0) out.push(...restyled(added, style));
  lines.forEach((line, i) => {
    if (!dropped.has(i + 1)) out.push(line);
    if (i + 1 === after) out.push(...restyled(added, style));
  });
  return out.join(style.eol);
}

function restyled(lines: string[], style: CodeStyle): string[] {
  return lines.length ? restyle(lines, style).split(style.eol).slice(0, -1) : [];
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** A top-level `import` or `const x = require('…')` with one declarator. */
function isImport(s: Node): boolean {
  if (s.type === 'ImportDeclaration') return true;
  return s.type === 'VariableDeclaration' && s.declarations.length === 1 && s.declarations[0].init?.type === 'CallExpression' && s.declarations[0].init.callee.type === 'Identifier' && s.declarations[0].init.callee.name === 'require';
}

function insideNode(node: Node, container: Node): boolean {
  return node.start >= container.start && node.end <= container.end;
}

/** `x.name` or `{ name: … }`: not a reference to a binding `name`. */
function isPropertyKey(p: ASTPath<Node>): boolean {
  const parent = p.parent?.node;
  if (!parent || parent.computed) return false;
  if (parent.type === 'MemberExpression' && parent.property === p.node) return true;
  return (parent.type === 'ObjectProperty' || parent.type === 'Property') && parent.key === p.node && !parent.shorthand;
}

/** The options object of `Fastify({…})` in buildFastify, its `routerOptions` object, and the `parseBodyLikeExpress([…])` call. */
function settingsNodes(j: JSCodeshift, root: Collection): SettingsNodes | null {
  let build;
  try {
    build = buildFastifyOf(j, root, 'update the settings');
  } catch {
    return null;
  }
  const fastify = importedLocal(j, root, 'fastify', { kind: 'default' });
  if (!fastify) return null;
  const calls = (callee: string) => build.body.flatMap((s) => j(s).find(j.CallExpression, { callee: { type: 'Identifier', name: callee } }).nodes()) as Node[];
  const options = calls(fastify)[0]?.arguments[0];
  if (options?.type !== 'ObjectExpression') return null;
  const routerOptions = propertyOf(options, 'routerOptions')?.value;
  if (routerOptions?.type !== 'ObjectExpression') return null;
  const parsers = calls('parseBodyLikeExpress')[0];
  return { options, routerOptions, parsers: parsers?.arguments[0]?.type === 'ArrayExpression' ? parsers : null };
}

/** The property `key: …` of an object literal (not computed, not a spread). */
function propertyOf(object: Node, key: string): Node | undefined {
  return object.properties.find((p: Node) => (p.type === 'ObjectProperty' || p.type === 'Property') && !p.computed && (p.key.name ?? p.key.value) === key);
}

/**
 * Sets option `key` of `object` to `value` (source text; null: removed). A new option goes after
 * the last of `after` the object has (at the start when none), with `comment` above it unless it
 * is the matching comment, which only the first routing option carries.
 */
function setOption(j: JSCodeshift, object: Node, key: string, value: string | null, after: string[], comment: string): void {
  const prop = propertyOf(object, key);
  const properties: Node[] = object.properties;
  if (value === null) {
    if (prop) properties.splice(properties.indexOf(prop), 1);
    return;
  }
  if (prop) {
    prop.value = expression(j, value);
    return;
  }
  const added = j(`const options = {\n  //${comment}\n  ${key}: ${value},\n};`).find(j.ObjectExpression).nodes()[0].properties[0];
  if (key === 'ignoreTrailingSlash' && propertyOf(object, 'caseSensitive')) added.comments = null;
  const anchor = after.map((k) => propertyOf(object, k)).filter(Boolean).at(-1);
  properties.splice(anchor ? properties.indexOf(anchor) + 1 : 0, 0, added);
}

/** The source of the Fastify option `name` in buildFastify's `Fastify({…})`, or null when it is not set there (or the module has no such call). */
export function fastifyOptionIn(j: JSCodeshift, root: Collection, name: string): string | null {
  const nodes = settingsNodes(j, root);
  const prop = nodes ? propertyOf(nodes.options, name) : undefined;
  return prop ? textOf(prop.value) : null;
}

/**
 * Sets the Fastify option `name` of buildFastify's `Fastify({…})` to `value` (source text), with
 * `comment` above it when it is new, after `trustProxy` or `routerOptions` (`logger: true` for the
 * app's request logging: plugins-server-options).
 * @returns whether the module changed (false when the option has that value already).
 * @throws Error when the module has no `Fastify({ routerOptions: {…} })` in buildFastify (edited by hand)
 */
export function setFastifyOption(j: JSCodeshift, root: Collection, name: string, value: string, comment: string): boolean {
  const nodes = settingsNodes(j, root);
  if (!nodes) throw new Error(`the generated module has no Fastify({ routerOptions: {…} }) call in buildFastify to set ${name} in`);
  const prop = propertyOf(nodes.options, name);
  if (prop && sameSource(textOf(prop.value), value)) return false;
  setOption(j, nodes.options, name, value, ['routerOptions', 'trustProxy'], comment);
  return true;
}

/** The template's comment on Express's matching, on the first routing option that carries it, rewritten as `text`. */
function rewriteMatchingComment(j: JSCodeshift, routerOptions: Node, text: string): void {
  for (const key of ['caseSensitive', 'ignoreTrailingSlash']) {
    const prop = propertyOf(routerOptions, key);
    const comment = prop?.comments?.find((c: Node) => c.leading && /^ Express's matching:/.test(c.value));
    if (!comment) continue;
    if (comment.value !== text) prop.comments = prop.comments.map((c: Node) => (c === comment ? j.commentLine(text, true, false) : c));
    return;
  }
}

/** `text` parsed as one expression (kept as written: recast reprints a parsed snippet with its own line breaks). */
function expression(j: JSCodeshift, text: string): Node {
  return j(`const value = ${text};`).find(j.VariableDeclarator).nodes()[0].init;
}
