/** Express 5 path syntax (`{…}` optional groups, named wildcards `*name`) that Fastify reads otherwise. */
import { expressRoutes } from '../frameworks.js';
import type { Rule } from '../rule.js';

export const express5PathSyntax: Rule = {
  id: 'express5-path-syntax',
  title: 'Express 5 path syntax',
  severity: 'warning',
  stage: 'routes',
  autoFixable: true,
  docs: {
    summary: "Express 5 paths use path-to-regexp 8: optional groups in braces (`/users{/:id}`, `/:file{.:ext}`) and named wildcards (`/files/*path`). Fastify refuses a wildcard followed by a name ('Wildcard must be the last character') and reads braces literally, so `/users{/:id}` registers but `/users` answers 404.",
    fix: 'The `routes` stage writes find-my-way paths: one route per optional form, a final `*` for a wildcard. Its value changes type: Express 5 `req.params.splat` is an array of segments, Fastify `request.params[\'*\']` a string (`a/b`), so `splat.join(\'/\')` becomes the value itself.',
    source: 'express-fastify-mapping.md §1.6; Express 5 migration guide (path syntax)',
    example: { express: "app.get('/files/*path', h); app.get('/users{/:id}', show)", fastify: "fastify.get('/files/*', h); fastify.get('/users', show); fastify.get('/users/:id', show)" },
  },
  check: (inventory) =>
    expressRoutes(inventory)
      .filter((r) => r.path.syntax === 'express5' && /[{}]|\*[A-Za-z_$]/.test(r.path.full))
      .map((r) => ({
        subject: r.id,
        message: `${r.key} uses Express 5 path syntax (${r.path.raw}).`,
        fastify: /\*\w/.test(r.path.full) ? "One route per optional form and a final `*`; the wildcard value is a string in request.params['*'] (Express 5: an array)." : 'The same path in find-my-way syntax: one route per optional form.',
        location: r.registration,
      })),
};
