/** Express 4 gives `req.body = {}` when nothing was parsed; Fastify leaves `request.body` undefined. */
import type { Rule } from '../rule.js';
import { usesOf } from '../uses.js';

export const bodyPresence: Rule = {
  id: 'body-presence',
  title: 'req.body assumed to be an object',
  severity: 'warning',
  stage: 'routes',
  autoFixable: false,
  docs: {
    summary: "In Express 4, `req.body` is `{}` when a request has no body (or a content type no parser took): `!req.body` is never true and `req.body.name` never throws. In Fastify (and Express 5) `request.body` is `undefined` then: a presence check takes the other branch, and a dereference throws a TypeError, answered 500 (mapping §5: reported by teams after their move).",
    fix: 'Give the route a body schema (`required: [...]`, 400 on a missing body), or read `request.body ?? {}`.',
    source: 'express-fastify-mapping.md §0.1 ("Body when nothing parsed"), §2.10, §5',
    example: { express: "const { name } = req.body // {} without a body: name undefined", fastify: "const { name } = request.body ?? {} // or schema: { body: { type: 'object', required: ['name'] } }" },
  },
  check: (inventory) => {
    if (inventory.project.expressVersion.major !== 4) return [];
    const seen = new Set<string>();
    return usesOf(inventory, (u) => u.api === 'req.body' && (u.as === 'tested' || u.as === 'dereferenced')).flatMap(({ site, use }) => {
      if (seen.has(site.subject)) return [];
      seen.add(site.subject);
      return [{
        subject: site.subject,
        message:
          use.as === 'tested'
            ? `${site.label} tests req.body for presence: always an object in Express 4, undefined on Fastify without a body, so the check flips.`
            : `${site.label} dereferences req.body: without a body Express 4 gives {}, Fastify undefined, so the handler throws (500).`,
        fastify: 'A body schema with `required` (400 on a missing body), or `request.body ?? {}`.',
        location: use.location,
        severity: use.as === 'tested' ? ('warning' as const) : ('info' as const),
      }];
    });
  },
};
