/**
 * The features a generated app exercises, as stable tags (`listen:server-address`,
 * `not-found:all-star`, …), and a one-line description. generate.test.ts counts the tags over many
 * seeds to prove every feature of the brief is generated; failures print the description.
 */
import type { AppSpec, RouteSpec } from './spec.js';

/** Sorted, unique feature tags of `spec`. */
export function featuresOf(spec: AppSpec): string[] {
  const tags = new Set<string>([
    `module:${spec.module}`,
    `express:${spec.express}`,
    `layout:${spec.dir ? 'src' : 'root'}`,
    `layout:${spec.singleFile ? 'single-file' : 'app-and-server'}`,
    `listen:${spec.listen}`,
    `routers:${spec.routers.length}`,
    `errors:${spec.errorHandlers.length + spec.routers.filter((r) => r.errorHandler).length}`,
    `not-found:${spec.notFound ?? 'none'}`,
    `style:quote-${spec.style.quote}`,
    `style:${spec.style.semicolons ? 'semicolons' : 'no-semicolons'}`,
    `style:indent-${spec.style.indent === '\t' ? 'tab' : spec.style.indent.length}`,
    `style:${spec.style.eol === '\n' ? 'lf' : 'crlf'}`,
  ]);
  const add = (cond: boolean, tag: string) => cond && tags.add(tag);
  for (const r of spec.routers) {
    add(r.parent !== null, 'router:nested');
    add(Boolean(r.options.mergeParams), 'router:merge-params');
    add(Boolean(r.options.strict || r.options.caseSensitive), 'router:options');
    add(r.mountPath === null, 'mount:no-path');
    add(r.mountPath !== null && r.mountPath.split('/').length > 2, 'mount:nested-path');
    add(r.mountMiddleware, 'mount:middleware');
    add(r.exportForm === 'named', 'router:named-export');
    add(r.creation === 'Router', 'router:named-import');
    add(r.middleware.length > 0, 'router:middleware');
    add(r.param, 'router:param');
    add(r.chains.length > 0, 'route:chain');
    if (r.errorHandler) tags.add('error:router');
    add(r.errorHandler?.arity === 3, 'error:arity-3');
  }
  const routes: RouteSpec[] = [...spec.appRoutes, ...(spec.appChain?.routes ?? []), ...spec.routers.flatMap((r) => [...r.routes, ...r.chains.flatMap((c) => c.routes)])];
  for (const r of routes) {
    tags.add(`handler:${r.handler}`);
    add(r.async, 'handler:async');
    add(r.nextError || r.operation === 'boom', 'handler:next-error');
    add(r.middleware.length > 0, 'route:middleware');
    add(r.method === 'all', 'route:all');
    add(r.path.includes('(\\d+)'), 'path:express4-param-pattern');
    add(r.path.includes('{'), 'path:express5-optional');
  }
  add(spec.appChain !== null, 'route:chain');
  add(spec.appParam, 'app:param');
  add(spec.asyncErrorsPatch, 'async-errors-patch');
  add(spec.lateMiddleware !== null, 'middleware:late');
  for (const m of spec.middleware) {
    add(m.path !== null, 'middleware:path-scoped');
    if ('package' in m.use) {
      tags.add(`middleware:${m.use.package.kind}`);
      const p = m.use.package;
      add((p.kind === 'json' || p.kind === 'text' || p.kind === 'cors' || p.kind === 'helmet' || p.kind === 'static') && p.options !== null, `middleware:${p.kind}-options`);
    } else tags.add(`middleware:local-${m.use.form === 'module' || m.use.local === 'requireAuth' ? 'module' : 'inline'}`);
  }
  for (const h of spec.errorHandlers) {
    tags.add('error:app');
    tags.add(`error:${h.form}`);
    add(h.arity === 3, 'error:arity-3');
  }
  for (const s of spec.settings) tags.add(`setting:${s.key}`);
  return [...tags].sort();
}

/** One line for failure messages: what the app is, in words. */
export function describeApp(spec: AppSpec): string {
  const routers = spec.routers.map((r) => `${r.name} at ${r.parent ? `${r.parent} router ` : ''}${r.mountPath ?? '(no path)'}`).join(', ');
  const style = `${spec.style.quote} quotes, ${spec.style.semicolons ? 'semicolons' : 'no semicolons'}, ${spec.style.indent === '\t' ? 'tabs' : `${spec.style.indent.length} spaces`}, ${spec.style.eol === '\n' ? 'LF' : 'CRLF'}`;
  return [
    `seed ${spec.seed}: ${spec.module}, Express ${spec.express}${spec.dir ? ', in src/' : ''}`,
    `listen ${spec.listen}${spec.singleFile ? ' (single file)' : ''}`,
    `${spec.routers.length} router(s)${routers ? ` (${routers})` : ''}`,
    `${spec.middleware.length} app middleware`,
    `${spec.errorHandlers.length} app error handler(s)`,
    `404: ${spec.notFound ?? 'none'}`,
    style,
  ].join('; ');
}

/**
 * The route keys the app registers (DESIGN.md "Route key": upper-case method, mount prefixes
 * joined, no trailing slash except the root), sorted. The catch-all 404 registered with
 * `app.all` counts as a route.
 */
export function routeKeysOf(spec: AppSpec): string[] {
  const keys: string[] = [];
  const join = (...parts: string[]) => {
    const p = parts.join('').replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
    return p === '' ? '/' : p;
  };
  const prefixOf = (name: string | null): string => {
    if (name === null) return '';
    const r = spec.routers.find((x) => x.name === name)!;
    return prefixOf(r.parent) + (r.mountPath ?? '');
  };
  const add = (prefix: string, routes: RouteSpec[], path?: string) => {
    for (const r of routes) keys.push(`${r.method.toUpperCase()} ${join(prefix, path ?? r.path)}`);
  };
  add('', spec.appRoutes);
  if (spec.appChain) add('', spec.appChain.routes, spec.appChain.path);
  for (const r of spec.routers) {
    add(prefixOf(r.name), r.routes);
    for (const c of r.chains) add(prefixOf(r.name), c.routes, c.path);
  }
  if (spec.notFound === 'all-star') keys.push('ALL *');
  if (spec.notFound === 'all-splat') keys.push('ALL /{*splat}');
  return keys.sort();
}
