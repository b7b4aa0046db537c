import type { StepMeta } from '../model.js';

/** Step 3 of `plugins`: Fastify parses the bodies of the moved routes that run no Express code. */
export const meta: StepMeta = {
  name: 'plugins-bodies',
  stage: 'plugins',
  order: 25,
  description:
    "Has Fastify parse the bodies of the moved routes that run no Express code, with content-type parsers translated from the app's body parsers (types, limits, inflation, charsets, JSON strictness, urlencoded parsing) that fail with body-parser's errors, so the app's error handler answers as before. The other moved routes' bodies stay for the app's parsers in the Express hook.",
};
