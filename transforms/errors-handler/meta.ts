import type { StepMeta } from '../model.js';

/** Step 1 of `errors`: the app's error middleware becomes Fastify's error handler. */
export const meta: StepMeta = {
  name: 'errors-handler',
  stage: 'errors',
  order: 10,
  description: "Moves the app-level error middleware to fastify.setErrorHandler in the generated module, rewritten to (error, request, reply); errors of the routes still on Express reach it through the bridge.",
};
