/**
 * Plans step 1 of `errors`: the app's error middleware becomes Fastify's error handler
 * (transforms/handler-move/error-handler.ts decides which handlers move).
 */
export { planErrorHandlerMoves as plan } from '../handler-move/error-handler.js';
