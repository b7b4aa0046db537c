import type { StepMeta } from '../model.js';

/** Step 2 of `plugins`: the moved routes that need nothing of Express pass the Express hook. */
export const meta: StepMeta = {
  name: 'plugins-express-free',
  stage: 'plugins',
  order: 20,
  description:
    "Lists, in the generated server module, the moved routes that run no Express code: no Express middleware but the app's body parsers covers them and their handlers use nothing of Express's request or response. The Express hook lets their requests pass (only the body parsers read their body); the other moved routes still run the Express app first.",
};
