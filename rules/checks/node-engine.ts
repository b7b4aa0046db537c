/** The Node versions the project declares must include what Fastify 5 needs (Node 20). */
import type { Rule } from '../rule.js';

export const nodeEngine: Rule = {
  id: 'node-engine',
  title: 'Node engine below Fastify 5',
  severity: 'error',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: 'Fastify 5 supports Node 20 and later. A project whose `engines.node` allows older versions would install and then fail, or run a Fastify it cannot.',
    fix: 'Raise `engines.node` to `>=20` (and the Node version of CI and production) before the `shim` stage.',
    source: 'Fastify v5 migration guide ("Node.js 20+"); express-fastify-mapping.md §4.1',
    example: { express: '"engines": { "node": ">=16" }', fastify: '"engines": { "node": ">=20" }' },
  },
  check: (inventory) => {
    const engine = inventory.project.nodeEngine;
    const lowest = engine ? lowestMajor(engine) : null;
    if (lowest === null || lowest >= 20) return [];
    return [{
      subject: 'project',
      message: `package.json allows Node ${lowest} (engines.node "${engine}"); Fastify 5 needs Node 20 or later.`,
      fastify: '"engines": { "node": ">=20" }',
      location: { file: 'package.json', line: 1, column: 1 },
    }];
  },
};

/** The lowest major a range like `>=16`, `^18.0.0 || >=20`, `16.x` admits, or null when unreadable. */
function lowestMajor(range: string): number | null {
  const majors = [...range.matchAll(/(\d+)(?:\.\d+|\.x)*/g)].map((m) => Number(m[1]));
  return majors.length ? Math.min(...majors) : null;
}
