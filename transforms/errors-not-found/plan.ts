/**
 * Plans step 2 of `errors`: the app's catch-all 404 becomes Fastify's not-found handler
 * (transforms/handler-move/not-found-handler.ts decides which handlers move).
 */
export { planNotFoundHandlerMoves as plan } from '../handler-move/not-found-handler.js';
