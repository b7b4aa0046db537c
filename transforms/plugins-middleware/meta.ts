import type { StepMeta } from '../model.js';

/** Step 3 of `plugins` (after plugins-server-options, before plugins-static and plugins-express-free, which then judge what runs before them without it): middleware an official plugin replaces at the root. */
export const meta: StepMeta = {
  name: 'plugins-middleware',
  stage: 'plugins',
  order: 13,
  description:
    "Replaces the app's cors and helmet with @fastify/cors and @fastify/helmet, registered at the root of the Fastify server with the same options (and cors's defaults where @fastify/cors's differ), and deletes them from the Express app. One registered on a router, under a path or a condition, after middleware that may answer first, or with options that do not translate exactly, stays on Express, with the reason.",
};
