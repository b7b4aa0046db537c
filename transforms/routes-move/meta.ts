import type { StepMeta } from '../model.js';

/** The one step of `routes`: Express routes become routes of Fastify plugins, one plugin per router. */
export const meta: StepMeta = {
  name: 'routes-move',
  stage: 'routes',
  order: 10,
  description:
    'Moves each Express route whose chain and handler work on Fastify into a plugin (one per router, registered with its mount path as prefix): handlers rewritten to (request, reply), route middleware and param callbacks as preHandler hooks in their order; what cannot move stays on Express with a TODO(migrate) and the reason.',
};
