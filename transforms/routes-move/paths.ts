/**
 * Express route paths → find-my-way (Fastify 5) paths, where the translation is exact
 * (express-fastify-mapping.md §1.6). Express 5's optional groups (`/archive{/:year}{/:month}`,
 * `/download/:file{.:ext}`) become one Fastify route per form, shortest first: Express 5 leaves an
 * absent optional parameter out of `req.params`, and so does the Fastify route without it. A
 * last-segment wildcard (`*splat`, `{/*splat}`) becomes find-my-way's `*` plus the `expressWildcard`
 * hook, which gives the handler Express's array of decoded segments under the wildcard's name.
 * Express 4's optional/regex/quantifier forms, RegExp and array paths are refused with the reason.
 */
import type { Route } from '../../analyzer/model.js';
import { optionalForms } from '../../analyzer/path.js';

/** The Fastify paths for a route's own path (relative to its router), or why there is none yet. */
export function fastifyPaths(route: Route): { paths: string[]; wildcard?: string } | { refuse: string } {
  const raw = route.path.raw;
  // One Fastify route per registration: an array's elements would each need their own.
  if (route.path.element) return { refuse: `its path ${raw} is one of an array of paths; register each path on its own` };
  if (route.path.syntax === 'plain') return { paths: [raw] };
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
