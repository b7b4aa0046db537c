import type { StepMeta } from '../model.js';

/** Step 1 of `plugins`: the Express app runs only where it still answers, in Fastify hooks instead of @fastify/express. */
export const meta: StepMeta = {
  name: 'plugins-bridge',
  stage: 'plugins',
  order: 10,
  description:
    "Replaces the shim's @fastify/express registration with Fastify hooks that run the Express app only where it still answers: the not-found handler's preHandler (requests Fastify has no route for) and a preHandler of the plugin holding the moved routes; no other request runs @fastify/express or the Express app.",
};
