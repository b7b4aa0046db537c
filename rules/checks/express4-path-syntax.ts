/** Express 4 path syntax (`*`, `:id?`, `:id(\\d+)`) that Fastify writes otherwise. */
import type { Rule } from '../rule.js';

export const express4PathSyntax: Rule = {
  id: 'express4-path-syntax',
  title: 'Express 4 path syntax',
  severity: 'warning',
  stage: 'routes',
  autoFixable: true,
  docs: {
    summary: 'Express 4 paths use path-to-regexp 0.1: an unnamed `*`, optional parameters `:id?` and inline patterns `:id(\\d+)`. Fastify writes a wildcard as a final `*`, has no optional parameters (register both paths) and anchors inline patterns (`:id(^\\d+$)`).',
    fix: 'The `routes` stage rewrites the path; an optional parameter becomes two routes.',
    source: 'express-fastify-mapping.md §1.6',
    example: { express: "router.get('/users/:id(\\\\d+)?', show)", fastify: "fastify.get('/users', show); fastify.get('/users/:id(^\\\\d+$)', show)" },
  },
  check: (inventory) =>
    inventory.routes
      .filter((r) => r.path.syntax === 'express4')
      .map((r) => ({
        subject: r.id,
        message: `${r.key} uses Express 4 path syntax (${r.path.raw}).`,
        fastify: 'The same path in find-my-way syntax: a final `*`, anchored `:name(^…$)` patterns, one route per optional form.',
        location: r.registration,
      })),
};
