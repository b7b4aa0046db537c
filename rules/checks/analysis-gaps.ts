/** What the analysis itself says needs a human: routes it could not pin down, router middleware that leaks. */
import { onFastify } from '../frameworks.js';
import type { FindingDraft, Rule } from '../rule.js';

export const unresolvedRoute: Rule = {
  id: 'unresolved-route',
  title: 'Route not fully resolved',
  severity: 'warning',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: 'The analyzer could not pin the route down exactly (a path built at run time, a condition, middleware it could not follow). The codemods move only what they understand, so such a route stays on Express until a human checks it; a route whose path and chain are known but which is registered under a condition (or with an environment fallback) moves with the same condition, for review (assisted). A Fastify route has nothing to move, but what the analyzer cannot pin down is missing from the route parity check and the verifier\'s coverage, so it is reported too (`manual`).',
    fix: 'Read the reasons; make the path or middleware static where you can, or move the route by hand.',
    source: 'analyzer-patterns.md §4.6 (reason codes)',
    example: { express: 'app.get(process.env.PREFIX + "/x", h)', fastify: "fastify.get('/x', { prefixTrailingSlash: 'both' }, h) // with the prefix on register()" },
  },
  check: (inventory) =>
    inventory.routes
      .filter((r) => r.resolution !== 'exact')
      .map((r): FindingDraft => {
        // Path and chain known, registered under a condition or with an environment fallback: it moves with the same condition, for a human to check.
        const conditionalOnly = !onFastify(r) && r.resolution === 'partial' && r.reasons.every((x) => x.code === 'conditional' || x.code === 'environment');
        return {
          subject: r.id,
          message: `${r.key} is ${r.resolution}: ${[...new Set(r.reasons.map((x) => x.message))].join('; ') || 'no reason recorded'}.`,
          fastify: onFastify(r)
            ? 'Already a Fastify route: nothing moves. Make the path and hooks static where you can, so route parity and coverage count it.'
            : conditionalOnly ? 'Registered under the same condition in Fastify (`if (…) fastify.get(…)`, or the fallback as the default); check the condition.' : 'Moved by hand once the path and chain are known.',
          location: r.registration,
          related: r.reasons.flatMap((x) => (x.location ? [{ location: x.location, message: x.message }] : [])),
          ...(conditionalOnly ? { stage: 'routes' as const } : {}),
        };
      }),
};

export const routerMiddlewareLeak: Rule = {
  id: 'router-middleware-leak',
  title: 'Router middleware that runs for sibling routers',
  severity: 'warning',
  stage: 'routes',
  autoFixable: false,
  docs: {
    summary: 'Middleware added with `router.use(fn)` to a router mounted without a path (`app.use(router)`) runs for every request that reaches that router, including routes of routers mounted after it. Fastify encapsulation keeps a plugin\'s hooks to its own routes, so after the move those routes lose it.',
    fix: 'Decide which routes need it: mount the router under a path, or register the hook where all of them see it.',
    source: 'express-fastify-mapping.md §1.1, §1.2; Fastify docs, Encapsulation.md',
    example: { express: 'const r = Router(); r.use(auth); app.use(r); app.use("/public", publicRouter) // auth runs here too', fastify: "fastify.register(async (f) => { f.addHook('preHandler', auth); … }) // not for /public" },
  },
  check: (inventory) =>
    inventory.diagnostics
      .filter((d) => d.code === 'router-middleware-leak' && d.location)
      .map((d) => ({ subject: `diagnostic:${d.location!.file}:${d.location!.line}`, message: d.message.endsWith('.') ? d.message : `${d.message}.`, fastify: 'A hook in the plugin of the routes that need it.', location: d.location! })),
};
