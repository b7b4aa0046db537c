/**
 * Express 4 path syntax that find-my-way reads otherwise. Not everything Express 4 writes differs:
 * find-my-way anchors regexp parameters itself (`:id(\d+)` works as is) and supports a final
 * optional parameter (`/opt/:a?`), so only the forms below are reported (probed with find-my-way
 * 9.10 / Fastify 5.12 against Express 4.22).
 */
import type { Route } from '../../analyzer/model.js';
import { expressRoutes } from '../frameworks.js';
import type { Rule } from '../rule.js';

/** What in an Express 4 path has no find-my-way reading, or reads otherwise. */
function problemsOf(route: Route): string[] {
  const raw = route.path.full;
  const segments = raw.split('/').filter(Boolean);
  const out: string[] = [];
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    // A final `*` only moves its value: it matters when the handler reads the params.
    const readsParams = route.usage.req.some((u) => u.api === 'req.params' || u.api === 'req.param');
    if (seg.includes('*') && !/^:\w+\(.*\)$/.test(seg) && !(last && seg === '*' && !readsParams)) out.push(last && seg === '*' ? "the wildcard's value moves from params[0] to params['*']" : `\`${seg}\`: a wildcard inside a path or segment has no find-my-way form`);
    if (/^:\w+\??$/.test(seg) && seg.endsWith('?') && !last) out.push(`\`${seg}\`: an optional parameter that is not the last segment (Fastify: "Optional Parameter needs to be the last")`);
    if (/^:\w+[+*]$/.test(seg)) out.push(`\`${seg}\`: repeated parameters (+, *) have no find-my-way form`);
    const pattern = /^:\w+\((.*)\)\??$/.exec(seg)?.[1];
    if (pattern !== undefined && /\.|\\\/|\[\^|\\[SWD]/.test(pattern)) out.push(`\`${seg}\`: the pattern can match "/" in Express 4 (crossing segments); find-my-way matches one segment`);
  });
  return out;
}

export const express4PathSyntax: Rule = {
  id: 'express4-path-syntax',
  title: 'Express 4 path syntax',
  severity: 'warning',
  stage: 'routes',
  autoFixable: false,
  docs: {
    summary: "Express 4 paths use path-to-regexp 0.1. Most of it reads the same in find-my-way (regexp parameters are anchored by find-my-way itself; a final optional parameter works), but not: a wildcard inside a path, an optional parameter before the last segment, repeated parameters (`:p+`, `:p*`), and parameter patterns that can match `/` (Express 4 lets them cross segments). A final `*` works, but its value moves from `params[0]` to `params['*']`.",
    fix: "The `routes` stage rewrites a final wildcard and its `params[0]` reads; the other forms need a route per variant or a final `*` with the check in the handler.",
    source: 'express-fastify-mapping.md §1.6; find-my-way README; probed against find-my-way 9.10',
    example: { express: "router.get('/files/*', (req, res) => res.send(req.params[0]))", fastify: "fastify.get('/files/*', (request) => request.params['*'])" },
  },
  check: (inventory) =>
    expressRoutes(inventory)
      .filter((r) => r.path.syntax === 'express4')
      .flatMap((r) => {
        const problems = problemsOf(r);
        return problems.length
          ? [{ subject: r.id, message: `${r.key} uses Express 4 path syntax that find-my-way reads otherwise: ${problems.join('; ')}.`, fastify: 'One route per variant, or a final `*` with the check in the handler; the wildcard value in request.params[\'*\'].', location: r.registration }]
          : [];
      }),
};
