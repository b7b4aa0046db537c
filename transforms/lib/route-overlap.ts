/**
 * Which routes answer the same URLs, and which one each framework picks: Express the first
 * registered, Fastify (find-my-way) the most specific — static before parameter before wildcard
 * (express-fastify-mapping.md §1.6, §2.7). The routes stage (routes-move/settle.ts) keeps routes
 * that would disagree on Express; the plugins stage (server-module/express-free.ts) keeps on the
 * Express app a moved route that an Express route or middleware left behind may answer.
 */
import type { Route } from '../../analyzer/model.js';

/** One segment of a path: fixed text (lower-cased: Express matches case-insensitively by default), a parameter, or a wildcard. */
type Segment = { kind: 'static'; text: string } | { kind: 'param' } | { kind: 'wildcard' };

/**
 * The paths a route path stands for, optional groups expanded (Express 5 `{/:id}` → without and
 * with; Express 4 `:id?` → without and with), each as segments: a segment with a wildcard or a
 * RegExp is `wildcard`, one with a parameter (`:id`, `:file.:ext`) is `param`.
 */
function variants(path: string): Segment[][] {
  const group = /\{([^{}]*)\}/.exec(path);
  if (group) return [...variants(path.slice(0, group.index) + path.slice(group.index + group[0].length)), ...variants(path.slice(0, group.index) + group[1] + path.slice(group.index + group[0].length))];
  const optional = /\/:[A-Za-z_$][\w$]*(\([^)]*\))?\?/.exec(path);
  if (optional) return [...variants(path.slice(0, optional.index) + path.slice(optional.index + optional[0].length)), ...variants(path.replace(optional[0], optional[0].slice(0, -1)))];
  return [
    path
      .split('/')
      .filter((s) => s !== '')
      .map((s): Segment => (/[*(]|^RegExp/.test(s) ? { kind: 'wildcard' } : s.includes(':') ? { kind: 'param' } : { kind: 'static', text: s.toLowerCase() })),
  ];
}

/** Whether some URL matches both paths (a wildcard, RegExp or unknown syntax is assumed to). */
export function overlaps(a: string, b: string): boolean {
  return variants(a).some((x) => variants(b).some((y) => segmentsOverlap(x, y)));
}

/** Whether some URL matches both segment lists. */
function segmentsOverlap(x: Segment[], y: Segment[]): boolean {
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const s = x[i];
    const t = y[i];
    if (s?.kind === 'wildcard' || t?.kind === 'wildcard') return true;
    if (!s || !t) return false;
    if (s.kind === 'static' && t.kind === 'static' && s.text !== t.text) return false;
  }
  return true;
}

/**
 * Whether Fastify picks `earlier` over `later` for every URL both match, as Express does (first
 * registered wins): at the first segment where they differ in kind, `earlier` must be the more
 * specific (find-my-way: static before parameter before wildcard). Identical patterns never agree
 * (Fastify refuses a duplicate route).
 */
export function fastifyAgrees(earlier: string, later: string): boolean {
  const [x] = variants(earlier);
  const [y] = variants(later);
  const rank = { static: 0, param: 1, wildcard: 2 } as const;
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i].kind !== y[i].kind) return rank[x[i].kind] < rank[y[i].kind];
  }
  return false;
}

/** Whether two routes can answer the same request method (`ALL` answers every method; GET answers HEAD). */
export function sameMethod(a: Route, b: Route): boolean {
  const m = (r: Route) => (r.method === 'HEAD' ? 'GET' : r.method);
  return a.method === 'ALL' || b.method === 'ALL' || m(a) === m(b);
}
