import type { StepMeta } from '../model.js';

/** Last step of `errors`: tests that still send their requests to the Express app itself (an app shimmed before the shim did this, or tests written since) send them to the Fastify server. */
export const meta: StepMeta = {
  name: 'errors-tests',
  stage: 'errors',
  order: 90,
  description: "Points the app's own tests that still send requests to the Express app itself at the Fastify server in front of it, as the shim stage does (fastifyListener(app)), so they reach what this stage moves; what it cannot point stays with a TODO(migrate).",
};
