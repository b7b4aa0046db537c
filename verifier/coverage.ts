/**
 * Route coverage: which inventory routes the recording exercised. A request is attributed to
 * the first route (in registration order) whose method and full path match it, the way Express
 * dispatches: case-insensitive, trailing slash optional (Express defaults), path-to-regexp 0.1
 * grammar for Express 4 paths and 8 for Express 5 (the versions each Express major uses).
 */
import { match } from 'path-to-regexp';
import pathToRegexpV0 from 'path-to-regexp-v0';
import type { Inventory, Route } from '../analyzer/model.js';

/** One route that can be matched; `test(pathname)` expects the path without the query. */
interface RouteMatcher {
  route: Route;
  test: (pathname: string) => boolean;
}

/** What coverage found: routes the recording exercised, and those it never did. */
export interface Coverage {
  /** Distinct route keys in the inventory. */
  routes: number;
  exercised: number;
  notExercised: Array<{ key: string; file: string; line: number }>;
  /** Routes whose path could not be matched against requests (unresolved paths). */
  unmatchable: Array<{ key: string; file: string; line: number; reason: string }>;
}

/** Matches requests to the routes of an inventory and tracks which were exercised. */
export class RouteCoverage {
  private readonly matchers: RouteMatcher[];
  private readonly unmatchable: Coverage['unmatchable'] = [];
  private readonly hits = new Set<string>();

  constructor(private readonly inventory: Inventory) {
    const major = inventory.project.expressVersion.major ?? 5;
    const routes = [...inventory.routes].sort((a, b) => a.appId.localeCompare(b.appId) || a.order - b.order);
    this.matchers = routes.flatMap((route) => {
      try {
        const test = compile(route, major);
        if (test) return [{ route, test }];
        this.unmatchable.push({ key: route.key, file: route.registration.file, line: route.registration.line, reason: `the path is ${route.path.syntax}` });
      } catch (e) {
        this.unmatchable.push({ key: route.key, file: route.registration.file, line: route.registration.line, reason: (e as Error).message });
      }
      return [];
    });
  }

  /**
   * The route key that answers `method path` (path may carry a query), or null when no route
   * matches (a 404, a static file, a path the analyzer could not resolve). HEAD matches GET routes.
   */
  routeFor(method: string, path: string): string | null {
    const pathname = path.split('?')[0];
    const m = method.toUpperCase();
    for (const { route, test } of this.matchers) {
      const methodOk = route.method === m || route.method === 'ALL' || (m === 'HEAD' && route.method === 'GET');
      if (methodOk && test(pathname)) {
        this.hits.add(route.key);
        return route.key;
      }
    }
    return null;
  }

  /** The coverage so far. */
  result(): Coverage {
    const byKey = new Map<string, Route>();
    for (const r of this.inventory.routes) if (!byKey.has(r.key)) byKey.set(r.key, r);
    const notExercised = [...byKey.values()]
      .filter((r) => !this.hits.has(r.key) && !this.unmatchable.some((u) => u.key === r.key))
      .map((r) => ({ key: r.key, file: r.registration.file, line: r.registration.line }));
    return { routes: byKey.size, exercised: this.hits.size, notExercised, unmatchable: this.unmatchable };
  }
}

/** A path test for one route, or null when its path cannot be matched (unresolved). */
function compile(route: Route, major: number): ((pathname: string) => boolean) | null {
  const { syntax, full } = route.path;
  if (syntax === 'unresolved') return null;
  if (syntax === 'regexp') {
    const m = /^RegExp\(\/(.*)\/([a-z]*)\)$/.exec(full);
    if (!m || route.mountChain.some((c) => c.mountPath !== '/')) return null;
    const re = new RegExp(m[1], m[2]);
    return (p) => re.test(p);
  }
  if (syntax === 'express4' || (syntax === 'plain' && major === 4)) {
    const re = pathToRegexpV0(full, [], { sensitive: false, strict: false, end: true });
    return (p) => re.test(p);
  }
  const fn = match(full, { sensitive: false, end: true, trailing: true, decode: false });
  return (p) => fn(p) !== false;
}
