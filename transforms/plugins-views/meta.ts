import type { StepMeta } from '../model.js';

/** Step 4 of `plugins`: the app's views are registered once, at the root of the Fastify app. */
export const meta: StepMeta = {
  name: 'plugins-views',
  stage: 'plugins',
  order: 30,
  description:
    "Moves the @fastify/view registration the routes stage put in the moved routes' plugin (the app's engine, views directory and app.locals) to the root of the generated Fastify app, so every context renders the app's views: its not-found and error handlers, and routes that move later. One registration, so no decorator is added twice.",
};
