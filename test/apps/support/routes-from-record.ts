// Turns the registration record printed by probe-routes.mjs into route keys and
// effective chains, following the conventions of fixtures/analyzer/README.md:
// matching app- and router-level middleware registered before the route (also
// from earlier-mounted routers whose mount path matches), param callbacks for the
// route's parameters, route-level callbacks, handler last; error handlers never.

export interface FnRef { fn?: number; container?: string; arity?: number }
export type RawPath = string | { regexp: string; flags: string } | RawPath[];
export interface UseRecord { container: string; seq: number; kind: 'use'; path: RawPath; fns: FnRef[] }
export interface RouteRecord { container: string; seq: number; kind: 'route'; path: RawPath; stack: { method: string; fns: FnRef[] }[] }
export interface ParamRecord { container: string; seq: number; kind: 'param'; name: string; fn: FnRef }
export type RegRecord = UseRecord | RouteRecord | ParamRecord;

export interface Described {
  name: string;
  pkg?: string;
  file?: string;
  line?: number;
  bound?: boolean;
  wrappedBy?: string;
  factoryProduct?: boolean;
}

export interface ProbeRecord {
  express: number;
  root: string;
  containers: string[];
  records: RegRecord[];
  functions: Described[];
}

export interface RuntimeRoute {
  key: string;
  chain: Described[];
}

function pathElements(p: RawPath): (string | { regexp: string; flags: string })[] {
  return Array.isArray(p) ? p.flatMap(pathElements) : [p];
}

function pathText(p: string | { regexp: string; flags: string }): string {
  return typeof p === 'string' ? p : `RegExp(/${p.regexp}/${p.flags})`;
}

export function joinPath(prefix: string, p: string): string {
  let out: string;
  if (prefix === '/' || prefix === '') out = p.startsWith('/') || p.startsWith('RegExp(') ? p : `/${p}`;
  else if (p === '/' || p === '') out = prefix;
  else out = prefix + (p.startsWith('/') ? p : `/${p}`);
  if (out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
  return out || '/';
}

/** Does middleware mounted at `mw` (full path) run for requests to the route at `route` (full path)? */
export function mountMatches(mw: string, route: string): boolean {
  if (mw === '/') return true;
  if (mw.includes('RegExp(') || route.includes('RegExp(')) return route.toLowerCase().startsWith(mw.toLowerCase());
  const m = mw.split('/').filter(Boolean);
  const r = route.split('/').filter(Boolean);
  if (m.length > r.length) return false;
  return m.every((seg, i) => seg.startsWith(':') || seg.toLowerCase() === r[i].toLowerCase());
}

function paramNames(p: string): string[] {
  return [...p.matchAll(/:([A-Za-z0-9_$]+)/g)].map((m) => m[1]);
}

export function computeRoutes(rec: ProbeRecord): RuntimeRoute[] {
  const byContainer = new Map<string, RegRecord[]>();
  for (const r of [...rec.records].sort((a, b) => a.seq - b.seq)) {
    const list = byContainer.get(r.container) ?? [];
    list.push(r);
    byContainer.set(r.container, list);
  }
  const routes: RuntimeRoute[] = [];
  const acc: { path: string; fn: number }[] = [];

  const paramsOf = (container: string, names: string[]): number[] => {
    const items = (byContainer.get(container) ?? []).filter((r): r is ParamRecord => r.kind === 'param');
    return names.flatMap((n) => items.filter((i) => i.name === n).map((i) => i.fn.fn!));
  };

  const walk = (container: string, prefix: string, seen: Set<string>) => {
    if (seen.has(container)) return;
    const inner = new Set(seen).add(container);
    for (const item of byContainer.get(container) ?? []) {
      if (item.kind === 'use') {
        for (const el of pathElements(item.path)) {
          const full = joinPath(prefix, pathText(el));
          if (typeof el === 'string') for (const fn of paramsOf(container, paramNames(el))) acc.push({ path: full, fn });
          for (const ref of item.fns) {
            if (ref.container) walk(ref.container, full, inner);
            else if (ref.arity !== 4) acc.push({ path: full, fn: ref.fn! });
          }
        }
      } else if (item.kind === 'route') {
        const verbs = [...new Set(item.stack.map((s) => s.method).filter((m) => m !== 'all'))];
        for (const el of pathElements(item.path)) {
          const full = joinPath(prefix, pathText(el));
          const params = typeof el === 'string' ? paramsOf(container, paramNames(el)) : [];
          for (const verb of verbs.length ? verbs : ['all']) {
            const chain = [
              ...acc.filter((a) => mountMatches(a.path, full)).map((a) => a.fn),
              ...params,
              ...item.stack.filter((s) => s.method === verb || s.method === 'all').flatMap((s) => s.fns.map((f) => f.fn!)),
            ];
            routes.push({ key: `${verb.toUpperCase()} ${full}`, chain: chain.map((i) => rec.functions[i]) });
          }
        }
      }
    }
  };
  walk(rec.root, '/', new Set());
  return routes;
}
