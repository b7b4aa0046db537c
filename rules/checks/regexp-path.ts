/** Express routes whose path is a RegExp: Fastify routes take strings only. */
import { expressRoutes } from '../frameworks.js';
import type { Rule } from '../rule.js';

export const regexpPath: Rule = {
  id: 'regexp-path',
  title: 'RegExp route path',
  severity: 'error',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: 'Express matches a route against a regular expression; Fastify (find-my-way) takes only string paths, with per-parameter regular expressions (`/:year(^\\d{4}$)`). A whole-path RegExp has no mechanical translation.',
    fix: 'Rewrite the path as a string with parametric segments and, where needed, a parameter regexp; or a wildcard route that checks the path in the handler.',
    source: 'express-fastify-mapping.md §1.6; find-my-way README (regexp parameters)',
    example: { express: "app.get(/^\\/archive\\/(\\d{4})$/, show)", fastify: "app.get('/archive/:year(^\\\\d{4}$)', show)" },
  },
  check: (inventory) =>
    expressRoutes(inventory)
      .filter((r) => r.path.syntax === 'regexp')
      .map((r) => ({
        subject: r.id,
        message: `${r.key} is matched with a regular expression.`,
        fastify: 'A string path with parametric segments (`/:name(^regexp$)`), or a wildcard route that checks the path itself.',
        location: r.registration,
      })),
};
