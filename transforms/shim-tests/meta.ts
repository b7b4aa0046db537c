import type { StepMeta } from '../model.js';

/** Step 3 of `shim`: the app's own tests send their requests to the Fastify server instead of the Express app. */
export const meta: StepMeta = {
  name: 'shim-tests',
  stage: 'shim',
  order: 30,
  description:
    "Points the app's own tests at the Fastify server in front of the Express app: request(app), request.agent(app), chai.request(app), http.createServer(app) and app.listen(…) in test files hand the app to fastifyListener(app), which the generated module gains; what it cannot point stays with a TODO(migrate).",
};
