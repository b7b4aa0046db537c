import type { StepMeta } from '../model.js';

/** Step 1 of `shim`: writes the module that puts Fastify in front of the Express app. */
export const meta: StepMeta = {
  name: 'shim-server',
  stage: 'shim',
  order: 10,
  description: 'Writes a fastify-server.* per app next to the file that starts it (rewriting only its settings-derived options when the app\'s settings changed since): Fastify with @fastify/express (preHandler) in front of the unchanged Express app, with the app\'s matching, trust proxy, query and body parsing.',
};
