/**
 * Express route paths → find-my-way (Fastify 5) paths, where the translation is exact
 * (express-fastify-mapping.md §1.6). Express 5's optional groups (`/archive{/:year}{/:month}`,
 * `/download/:file{.:ext}`) become one Fastify route per form, shortest first: Express 5 leaves an
 * absent optional parameter out of `req.params`, and so does the Fastify route without it. A
 * last-segment wildcard (`*splat`, `{/*splat}`) becomes find-my-way's `*` plus the `expressWildcard`
 * hook, which gives the handler Express's array of decoded segments under the wildcard's name.
 * Express 4 (path-to-regexp 0.1, checked with real requests against find-my-way): optional
 * parameters (`/users/:id?`, `/a/:x?/b`) become one route per form with the `paramsLikeExpress` hook
 * (Express 4 lists an absent one as undefined); the unnamed wildcard `*` / `/*` of the app, and
 * `/files/*` where the app has strict routing, become find-my-way's `*` with the
 * `wildcardLikeExpress` hook (`req.params[0]`: the rest of the path as it came, decoded whole, its
 * trailing slash kept). Express 4's other forms (regex and quantifier parameters, `*` elsewhere),
 * RegExp and array paths are refused with the reason.
 */
import type { Inventory, Route } from '../../analyzer/model.js';
import { optionalForms } from '../../analyzer/path.js';

/** What an Express 4 path's Fastify routes need from the hooks of the fastify-like-express module. */
export interface Express4Params {
  /** `wildcardLikeExpress`: `req.params[0]` of Express 4's `*`. */
  wildcard?: true;
  /** `paramsLikeExpress(names)`: the route's own parameters in path order, the absent ones undefined. */
  params?: string[];
}

/**
 * The Fastify paths for a route's own path (relative to its router), or why there is none yet;
 * `strict`: the app's 'strict routing' (strictRouting), which decides how Fastify reads a trailing slash.
 */
export function fastifyPaths(route: Route, strict = false): { paths: string[]; wildcard?: string; express4?: Express4Params } | { refuse: string } {
  const raw = route.path.raw;
  if (route.path.syntax === 'plain') return { paths: [raw] };
  if (route.path.syntax === 'express4') return express4Paths(route, strict);
  if (route.path.syntax !== 'express5') return { refuse: `its path ${raw} uses ${route.path.syntax} syntax, which has no exact find-my-way form in this codemod yet` };
  const wildcards = route.path.params.filter((p) => p.wildcard && !p.fromMount);
  // A last-segment wildcard (`/files/*splat`, `/docs{/*section}`) is find-my-way's `*`; the
  // expressWildcard hook gives the handler Express's array under the wildcard's name.
  const tail = /(\{\/\*([A-Za-z_$][\w$]*)\}|\/\*([A-Za-z_$][\w$]*))$/.exec(raw);
  if (wildcards.length > 1 || (wildcards.length && (!tail || raw.startsWith('/{*') || tail.index === 0))) return { refuse: `its path ${raw} has a wildcard that is not its last segment after a fixed prefix` };
  const forms = optionalForms(tail ? raw.slice(0, tail.index) + (tail[2] ? '{/*}' : '/*') : raw);
  if (forms.some((f) => /[{}()]|\*./.test(f))) return { refuse: `its path ${raw} nests optional groups the codemod does not expand` };
  // A group that adds nothing but text (`/a{b}`) or a form Fastify reads differently is left alone.
  if (forms.some((f) => /(^|\/):[A-Za-z_$][\w$]*[^\w$/.:-]/.test(f))) return { refuse: `its path ${raw} has a form find-my-way reads differently` };
  return { paths: forms, ...(tail ? { wildcard: tail[2] ?? tail[3] } : {}) };
}

/** A segment that is a name and nothing else, and an optional parameter segment (`/:id?`). */
const STATIC = '/[^/:*?()+{}]+';
const PARAM = '/:[A-Za-z_$][\\w$]*\\??';

/**
 * Express 4's optional parameters and unnamed wildcard where find-my-way has an exact form (module
 * comment); the others refuse with what differs. The wildcard forms, probed: `*` and `/*` match the
 * same URLs in both; `/files/*` answers `/files/` in Express (params[0] '') where Fastify, ignoring
 * trailing slashes as a non-strict app's Express did, reads `/files` and has no route for it; under
 * a router's mount path Fastify's prefix joins `*` without the segment boundary Express keeps
 * (`/api*` matches `/apix`). An optional parameter with strict routing: Express does not answer
 * `/users/`, where Fastify's `/users/:id` reads an empty id.
 */
function express4Paths(route: Route, strict: boolean): { paths: string[]; express4: Express4Params } | { refuse: string } {
  const raw = route.path.raw;
  const own = route.path.params.filter((p) => !p.fromMount).map((p) => p.name);
  if (/^\/?\*$/.test(raw)) {
    if (route.mountChain.some((m) => m.mountPath !== '/')) return { refuse: `its path ${raw} is Express 4's \`*\` in a router mounted under a path: Fastify's prefix would join it without the segment boundary Express keeps (\`/api*\` also answers /apix)` };
    return { paths: [raw], express4: { wildcard: true } };
  }
  const star = new RegExp(`^((?:${STATIC})+)/\\*$`).exec(raw);
  if (star) {
    if (!strict) return { refuse: `its path ${raw} is Express 4's \`*\` after a fixed part: Express answers ${star[1]}/ (req.params[0] ''), where Fastify, which ignores trailing slashes as the app does, reads ${star[1]} and has no route for it` };
    return { paths: [raw], express4: { wildcard: true } };
  }
  if (raw.includes('?') && new RegExp(`^(?:${STATIC}|${PARAM})+$`).test(raw)) {
    if (strict) return { refuse: `its path ${raw} has an optional parameter and the app has strict routing: Express does not answer the path with an empty last segment, where Fastify reads an empty parameter` };
    return { paths: optionalForms(raw.replace(/\/:([A-Za-z_$][\w$]*)\?/g, '{/:$1}')), express4: { params: own } };
  }
  return { refuse: `its path ${raw} uses express4 syntax (a regex or quantifier parameter, or \`*\` elsewhere than the end), which has no exact find-my-way form in this codemod yet` };
}

/** Whether the route's app sets 'strict routing' (a trailing slash matters; the shim sets Fastify's ignoreTrailingSlash from it). */
export function strictRouting(inventory: Pick<Inventory, 'settings'>, route: Route): boolean {
  return inventory.settings.some((s) => s.appId === route.appId && s.ownerId === route.appId && s.key === 'strict routing' && (s.kind === 'enable' || (s.kind === 'set' && s.value === true)));
}
