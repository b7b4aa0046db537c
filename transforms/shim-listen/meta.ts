import type { StepMeta } from '../model.js';

/** Step 2 of `shim`: the places that started the Express app start Fastify instead. */
export const meta: StepMeta = {
  name: 'shim-listen',
  stage: 'shim',
  order: 20,
  description: 'Rewrites app.listen(...) to listen(buildFastify(app), ...) and http.createServer(app) to http.createServer(requestListener(buildFastify(app))), with the same arguments.',
};
