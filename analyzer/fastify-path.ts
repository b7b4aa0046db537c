/**
 * How Fastify and `@fastify/express` join prefixes and paths, and the route-key spelling of the
 * result (DESIGN.md "The Inventory": no trailing slash except the root).
 *
 * Sources: Fastify 5 `lib/plugin-override.js` (buildRoutePrefix) and `lib/route.js` (a route `/`
 * under a prefix is the prefix itself, also `prefix/` unless `ignoreTrailingSlash`; a route
 * starting with `/` under a prefix ending with `/` loses one slash; otherwise prefix + path as
 * written), and `@fastify/express` `use()` (a string path gets the context prefix; `/` under a
 * prefix is the prefix).
 */

/**
 * The prefix of a plugin registered with `{ prefix: pluginPrefix }` on a context whose prefix is
 * `instancePrefix`: exactly one `/` between them. Both may be empty.
 */
export function fastifyPrefix(instancePrefix: string, pluginPrefix: string): string {
  if (!pluginPrefix) return instancePrefix;
  if (instancePrefix.endsWith('/') && pluginPrefix.startsWith('/')) return instancePrefix + pluginPrefix.slice(1);
  if (!pluginPrefix.startsWith('/') && !instancePrefix.endsWith('/')) return `${instancePrefix}/${pluginPrefix}`;
  return instancePrefix + pluginPrefix;
}

/**
 * The URL Fastify registers for route `path` in a context with prefix `prefix`, in route-key
 * spelling: `/users` + `/` is `/users`, `/users/` + `/x` is `/users/x`, a trailing slash dropped
 * except for the root. RegExp and unresolved parts (`RegExp(…)`, `<unresolved:…>`) are joined as
 * written.
 */
export function fastifyRoutePath(prefix: string, path: string): string {
  let url: string;
  if ((path === '/' || path === '') && prefix.length > 0) url = prefix;
  else if (path.startsWith('/') && prefix.endsWith('/')) url = prefix + path.slice(1);
  else url = prefix + path;
  return keyPath(url);
}

/**
 * The path `@fastify/express` gives Express for `use(path, fn)` in a context with prefix
 * `prefix`: `prefix + path`, and the prefix alone for `/`; no path means the whole context (its
 * prefix, or `/`).
 */
export function bridgeUsePath(prefix: string, path: string | null): string {
  if (path === null) return keyPath(prefix);
  return keyPath(prefix + (path === '/' && prefix.length > 0 ? '' : path));
}

/** Route-key spelling of a URL: `/` when empty, no trailing slash except the root. */
export function keyPath(url: string): string {
  if (url === '') return '/';
  return url.length > 1 ? url.replace(/\/+$/, '') || '/' : url;
}
