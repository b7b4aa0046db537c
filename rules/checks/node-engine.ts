/** The Node versions the project declares must include what Fastify 5 needs (Node 20). */
import semver from 'semver';
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
  // The analyzer judges the range (semver's lowest match) and knows where it is written.
  check: (inventory) =>
    inventory.diagnostics
      .filter((d) => d.code === 'node-engine-too-old')
      .map((d) => ({
        subject: 'project',
        message: `package.json allows Node ${lowestMajor(inventory.project.nodeEngine)} (engines.node "${inventory.project.nodeEngine}"); Fastify 5 needs Node 20 or later.`,
        fastify: '"engines": { "node": ">=20" }',
        location: d.location ?? { file: 'package.json', line: 1, column: 1 },
      })),
};

/** The lowest Node major a range admits (semver's lowest match). */
function lowestMajor(range: string | null): number | string {
  return (range && semver.validRange(range) && semver.minVersion(range)?.major) ?? '?';
}
