import type { StepMeta } from '../model.js';

/** Step 2 of `errors`: the app's catch-all 404 becomes Fastify's not-found handler. */
export const meta: StepMeta = {
  name: 'errors-not-found',
  stage: 'errors',
  order: 20,
  description: "Moves the app's catch-all 404 (app.use((req, res) => …) or app.all('*', …) registered last) to fastify.setNotFoundHandler in the generated module, rewritten to (request, reply).",
};
