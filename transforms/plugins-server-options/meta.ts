import type { StepMeta } from '../model.js';

/** Step 2 of `plugins` (before plugins-static and plugins-express-free, which then judge what runs before them without it): middleware a Fastify server option replaces. */
export const meta: StepMeta = {
  name: 'plugins-server-options',
  stage: 'plugins',
  order: 12,
  description:
    "Replaces the app's middleware that a Fastify server option does the work of — morgan's request logging becomes Fastify's logger (pino JSON lines) — and deletes it from the Express app. One registered on a router, under a path or a condition, or with options the server option does not take (a stream, skip) stays on Express, with the reason.",
};
