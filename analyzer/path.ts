/**
 * Express path grammar: detection of the syntax a path is written in, its parameters, joining
 * mount prefixes, and prefix matching between middleware and routes.
 *
 * Express 4 uses path-to-regexp 0.1 (`:id?`, `:id(\d+)`, bare `*`, `+`); Express 5 uses
 * path-to-regexp 8 (`*name`, `{optional}`) and rejects the Express 4 forms
 * (https://expressjs.com/en/guide/migrating-5.html#path-syntax).
 */
import type { PathParam, PathSyntax } from './model.js';

/** A path as the evaluator produced it: a string, a RegExp, or nothing known. */
export type PathSpec =
  /** `element`: one element of an array of paths written at the registration (`app.get(['/a', '/b'], h)`). */
  | { kind: 'string'; value: string; element?: true }
  | { kind: 'regexp'; source: string; flags: string; element?: true }
  /** `reason`: the Reason code of what blocked folding (`environment`, `call-expression`, …). */
  | { kind: 'unresolved'; text: string; reason?: string };

/** The route-key spelling of a path: strings as written, RegExps as `RegExp(/src/flags)`. */
export function pathText(spec: PathSpec): string {
  if (spec.kind === 'string') return spec.value;
  if (spec.kind === 'regexp') return `RegExp(/${spec.source}/${spec.flags})`;
  return `<unresolved:${spec.text}>`;
}

const EXPRESS5_ONLY = /\{|\*[A-Za-z_$]/;
const EXPRESS4_ONLY = /:[A-Za-z_$][\w$]*(\?|\(|\*|\+)|(^|\/)\*($|\/)|\(|[^\\/]\?|\+/;

/** Which grammar a string path is written in; `plain` when both majors read it alike. */
export function pathSyntax(spec: PathSpec): PathSyntax {
  if (spec.kind === 'regexp') return 'regexp';
  if (spec.kind === 'unresolved') return 'unresolved';
  if (EXPRESS5_ONLY.test(spec.value)) return 'express5';
  if (EXPRESS4_ONLY.test(spec.value)) return 'express4';
  return 'plain';
}

/**
 * Parameters declared in a path, in order. RegExp paths have positional capture groups, which are
 * not listed (they have no names). `fromMount` is set by the caller.
 */
export function pathParams(spec: PathSpec): PathParam[] {
  if (spec.kind !== 'string') return [];
  const params: PathParam[] = [];
  const text = spec.value;
  let groupDepth = 0;
  let wildcardIndex = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') groupDepth++;
    else if (ch === '}') groupDepth = Math.max(0, groupDepth - 1);
    else if (ch === ':' || (ch === '*' && /[A-Za-z_$]/.test(text[i + 1] ?? ''))) {
      const match = /^[A-Za-z_$][\w$]*/.exec(text.slice(i + 1));
      if (!match) continue;
      const name = match[0];
      let j = i + 1 + name.length;
      let pattern: string | undefined;
      if (ch === ':' && text[j] === '(') {
        const close = closingParen(text, j);
        pattern = text.slice(j + 1, close);
        j = close + 1;
      }
      const modifier = ch === ':' ? text[j] : undefined;
      params.push({
        name,
        optional: groupDepth > 0 || modifier === '?' || modifier === '*',
        ...(pattern !== undefined ? { pattern } : {}),
        wildcard: ch === '*' || modifier === '*' || modifier === '+',
        fromMount: false,
      });
      i = j - 1;
    } else if (ch === '*' && groupDepth === 0) {
      // Express 4 bare `*`: an unnamed wildcard, exposed as req.params[0], [1], …
      params.push({ name: String(wildcardIndex++), optional: false, wildcard: true, fromMount: false });
    }
  }
  return params;
}

function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length - 1;
}

/**
 * Joins a mount prefix and a child path the way Express composes them: `/users` + `/` is
 * `/users`, `/` + `/x` is `/x`; no trailing slash except the root.
 */
export function joinPaths(prefix: string, child: string): string {
  // A path written without a leading slash at the top (`*`) stays as written.
  if ((prefix === '' || prefix === '/') && child !== '' && !child.startsWith('/') && !child.startsWith('RegExp(')) return child;
  const left = prefix === '/' ? '' : prefix.replace(/\/+$/, '');
  const right = child === '/' || child === '' ? '' : child.startsWith('/') || child.startsWith('RegExp(') ? child : `/${child}`;
  const joined = left + right;
  if (joined === '') return '/';
  return joined.length > 1 ? joined.replace(/\/+$/, '') || '/' : joined;
}

/**
 * The match key of DESIGN.md: method plus the path with parameter names dropped and wildcards
 * written `*`, so `/*splat` (Express 5) and `/*` (Fastify) are the same route.
 */
export function matchKey(method: string, full: string): string {
  // `{/*name}` is `/*` and `{*name}` is `*` (so `/{*splat}` is `/*`, not `//*`).
  const path = full
    .replace(/\{\/\*[A-Za-z_$][\w$]*\}/g, '/*')
    .replace(/\{\*[A-Za-z_$][\w$]*\}/g, '*')
    .replace(/\*[A-Za-z_$][\w$]*/g, '*')
    .replace(/:[A-Za-z_$][\w$]*(\([^)]*\))?[?+*]?/g, ':_');
  return `${method} ${path}`;
}

function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

const isParamSegment = (seg: string) => seg.startsWith(':') || seg.startsWith('{');
const isWildcardSegment = (seg: string) => seg === '*' || seg.startsWith('*') || seg.includes('(.*)') || seg.startsWith('{*');

/**
 * Whether middleware mounted at `prefix` runs for requests to a route at `routePath`: Express
 * matches mount paths segment-wise at segment boundaries, case-insensitively by default
 * (router option `caseSensitive`). A parameter segment in the prefix matches any segment.
 * RegExp prefixes only match routes written under the same RegExp.
 */
export function prefixCovers(prefix: string, routePath: string, caseSensitive = false): boolean {
  if (prefix === '/' || prefix === '') return true;
  const norm = (s: string) => (caseSensitive ? s : s.toLowerCase());
  const pre = segments(prefix);
  const route = segments(routePath);
  for (let i = 0; i < pre.length; i++) {
    const p = pre[i];
    if (isWildcardSegment(p)) return true;
    const r = route[i];
    if (r === undefined) return false;
    if (isParamSegment(p)) continue;
    if (norm(p) !== norm(r)) return false;
  }
  return true;
}

/**
 * Whether middleware mounted at `prefix` may run for some request to a route at `routePath`:
 * where prefixCovers holds, and also where the prefix spells out a segment the route leaves to a
 * parameter or wildcard (`/users/me` for `/users/:id`: GET /users/me matches both). A segment
 * with a parameter, wildcard or group anywhere in it is taken to match any text.
 */
export function prefixMayMatch(prefix: string, routePath: string): boolean {
  if (prefix === '/' || prefix === '') return true;
  const pre = segments(prefix);
  const route = segments(routePath);
  for (let i = 0; i < pre.length; i++) {
    const p = pre[i];
    const r = route[i];
    if (isWildcardSegment(p) || (r !== undefined && isWildcardSegment(r))) return true;
    if (r === undefined) return false;
    if (isParamSegment(p) || /[:{(*]/.test(r)) continue;
    if (p.toLowerCase() !== r.toLowerCase()) return false;
  }
  return true;
}

/**
 * Whether a route-level catch-all written before a route (e.g. `app.all('/api/*', auth)`) also
 * matches requests to `routePath`. Only trailing wildcards are understood.
 */
export function patternCovers(pattern: string, routePath: string): boolean {
  const segs = segments(pattern);
  const last = segs[segs.length - 1];
  if (last === undefined || !isWildcardSegment(last)) return false;
  return prefixCovers('/' + segs.slice(0, -1).join('/'), routePath);
}

/**
 * The forms of an Express 5 path with optional groups (`/archive{/:year}{/:month}`), one per
 * shape, the form Express fills first kept for each shape (groups are filled left to right): the
 * routes Fastify needs for it (find-my-way has no optional groups). A path without groups is its
 * only form.
 */
export function optionalForms(path: string): string[] {
  const byShape = new Map<string, string>();
  for (const form of expandGroups(path)) {
    const shape = form.replace(/:[A-Za-z_$][\w$]*/g, ':');
    if (!byShape.has(shape)) byShape.set(shape, form);
  }
  return [...byShape.values()].sort((a, b) => a.length - b.length);
}

/** Every form of a path with `{…}` groups, each group written out before left out, recursively. */
function expandGroups(path: string): string[] {
  const group = /\{([^{}]*)\}/.exec(path);
  if (!group) return [path === '' ? '/' : path];
  const before = path.slice(0, group.index);
  const after = path.slice(group.index + group[0].length);
  return [...expandGroups(before + group[1] + after), ...expandGroups(before + after)];
}
