import type { StepMeta } from '../model.js';

/** Step 2 of `plugins` (before plugins-express-free, which then judges the moved routes without the mounts that left): static files. */
export const meta: StepMeta = {
  name: 'plugins-static',
  stage: 'plugins',
  order: 15,
  description:
    "Moves the app's express.static / serve-static mounts to @fastify/static in the generated Fastify app, with every option translated and serve-static's defaults written out, and deletes them from the Express app; a file a folder lacks goes on to the Express app. A mount stays on Express when something else runs before it there, a route answers one of its files, or an option is known only at run time.",
};
