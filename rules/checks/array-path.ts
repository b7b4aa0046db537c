/** One Express registration with an array of paths: Fastify registers one path per route. */
import { expressRoutes } from '../frameworks.js';
import type { Rule } from '../rule.js';

export const arrayPath: Rule = {
  id: 'array-path',
  title: 'Array of paths',
  severity: 'warning',
  stage: 'routes',
  autoFixable: true,
  docs: {
    summary: 'Express accepts an array of paths in one registration (`app.get([\'/a\', \'/b\'], h)`); a Fastify route has one `url`. Each element becomes its own route with the same handler and hooks.',
    fix: 'The `routes` stage registers one route per path.',
    source: 'express-fastify-mapping.md §1.2, §1.6',
    example: { express: "app.get(['/about', '/about-us'], about)", fastify: "for (const url of ['/about', '/about-us']) fastify.get(url, about)" },
  },
  check: (inventory) => {
    const bySite = new Map<string, typeof inventory.routes>();
    // Only arrays written as the path: a loop or a router mounted twice also gives one site several paths.
    for (const r of expressRoutes(inventory).filter((x) => x.path.element)) {
      const site = `${r.method} ${r.registration.file}:${r.registration.line}:${r.registration.column} ${r.mountChain.map((m) => m.mountId).join('/')}`;
      bySite.set(site, [...(bySite.get(site) ?? []), r]);
    }
    return [...bySite.values()]
      .filter((routes) => new Set(routes.map((r) => r.path.full)).size > 1)
      .map((routes) => ({
        subject: routes[0].id,
        message: `One registration serves ${routes.length} paths: ${routes.map((r) => r.path.full).join(', ')}.`,
        fastify: 'One route per path, sharing the handler and its hooks.',
        location: routes[0].registration,
      }));
  },
};
