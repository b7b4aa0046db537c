/** Error handlers that read `err.status` or body-parser's `err.type`: Fastify's errors carry `statusCode` and `code`. */
import type { Rule } from '../rule.js';

export const errStatus: Rule = {
  id: 'err-status',
  title: 'Error handler reads err.status or err.type',
  severity: 'warning',
  stage: 'errors',
  autoFixable: true,
  docs: {
    summary: "Fastify's own errors (body parsing, validation) carry only `statusCode`, never `status`, so `res.status(err.status || 500)` turns every 400 into a 500. body-parser's `err.type` (`entity.parse.failed`, `entity.too.large`) becomes `err.code` (`FST_ERR_CTP_INVALID_JSON_BODY`, `FST_ERR_CTP_BODY_TOO_LARGE`).",
    fix: 'The `errors` stage rewrites `err.status` to `err.statusCode ?? err.status` and maps known `err.type` checks to `err.code`.',
    source: 'express-fastify-mapping.md §2.12',
    example: { express: 'res.status(err.status || 500).json({ error: err.message })', fastify: 'reply.code(err.statusCode ?? err.status ?? 500).send({ error: err.message })' },
  },
  check: (inventory) =>
    inventory.errorHandlers.flatMap((h) =>
      h.reads
        // A handler that already reads err.statusCode next to err.status handles Fastify's errors.
        .filter((u) => u.api === 'err.type' || (u.api === 'err.status' && !h.reads.some((r) => r.api === 'err.statusCode')))
        .map((u) => ({
          subject: h.id,
          message: `Error handler ${h.name} reads ${u.api}.`,
          fastify: u.api === 'err.status' ? 'err.statusCode ?? err.status' : "err.code ('FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_BODY_TOO_LARGE', …)",
          location: u.location,
          related: [{ location: h.registration, message: `registered here (${h.fullPath})` }],
        })),
    ),
};

export const errorTypeChecks: Rule = {
  id: 'error-type-checks',
  title: "Error handler recognises a package's errors",
  severity: 'warning',
  stage: 'errors',
  autoFixable: false,
  docs: {
    summary: "An error handler that tests `err instanceof ValidationError` (express-json-validator-middleware), `multer.MulterError` or `isCelebrateError(err)` stops matching once the package is replaced: validation failures arrive as `FST_ERR_VALIDATION` with `err.validation`, upload limits as `FST_REQ_FILE_TOO_LARGE`, so the branch is skipped and the answer becomes a 500.",
    fix: "Add the Fastify error to the branch (`err.validation` / `err.code === 'FST_ERR_VALIDATION'`, `err.code === 'FST_REQ_FILE_TOO_LARGE'`, …) before the package leaves, keeping the status and body the branch produced.",
    source: 'express-fastify-mapping.md §2.12, §3',
    example: { express: 'if (err instanceof ValidationError) return res.status(400).json({ errors: err.validationErrors })', fastify: 'if (err.validation) return reply.code(400).send({ errors: err.validation })' },
  },
  check: (inventory) =>
    inventory.errorHandlers.flatMap((h) =>
      h.reads
        .filter((u) => /^(err instanceof |[\w.]+\(err\)).* \[[^\]]+\]$/.test(u.api))
        .map((u) => ({
          subject: h.id,
          message: `Error handler ${h.name} recognises errors with ${u.api}; once that package is replaced, its errors reach the handler as Fastify's and this branch no longer matches.`,
          fastify: "A branch on the Fastify error too: err.validation / err.code ('FST_ERR_VALIDATION', 'FST_REQ_FILE_TOO_LARGE', …)",
          location: u.location,
          related: [{ location: h.registration, message: `registered here (${h.fullPath})` }],
        })),
    ),
};

export const errorHandlerChain: Rule = {
  id: 'error-handler-chain',
  title: 'Several error handlers in a chain',
  severity: 'warning',
  stage: 'errors',
  autoFixable: true,
  docs: {
    summary: 'Express runs four-parameter middleware in turn: each handles what it recognises and passes the rest on with `next(err)`. Fastify has one error handler per encapsulation context (`setErrorHandler`; a later call replaces the earlier one), so a chain of handlers at one level must become one handler that tries them in the same order. Handlers that never call `next` end a chain, and handlers registered under different conditions (`if (dev)` / `else`) are alternatives, not a chain.',
    fix: 'The `errors` stage writes one `setErrorHandler` per level that runs the chain in order, each `next(err)` going to the next one.',
    source: 'express-fastify-mapping.md §2.12; Fastify docs, Server.md#seterrorhandler',
    example: { express: 'app.use(handleDbErrors); app.use(handleCustomErrors); app.use(handle500)', fastify: 'fastify.setErrorHandler(async (err, request, reply) => { /* handleDbErrors, then handleCustomErrors, then handle500 */ })' },
  },
  check: (inventory) => {
    // Handlers at one level: the same owner (app or router), mount path and conditions (handlers
    // under `if (dev)` / `else` are alternatives, not a chain).
    const levels = new Map<string, typeof inventory.errorHandlers>();
    for (const h of inventory.errorHandlers) {
      const level = `${h.ownerId} ${h.fullPath} ${JSON.stringify(h.conditions ?? [])}`;
      levels.set(level, [...(levels.get(level) ?? []), h]);
    }
    // A chain: handlers in order, each but the last passing errors on with next(err).
    const chains = [...levels.values()].flatMap((hs) => {
      const runs: (typeof hs)[] = [];
      let run: typeof hs = [];
      for (const h of hs) {
        run.push(h);
        if (!h.passesOn) {
          runs.push(run);
          run = [];
        }
      }
      if (run.length) runs.push(run);
      return runs;
    });
    return chains
      .filter((hs) => hs.length > 1)
      .map((hs) => ({
        subject: hs[0].id,
        message: `${hs.length} error handlers run in turn at ${hs[0].fullPath} (${hs.map((h) => h.name).join(' → ')}); Fastify has one error handler per level.`,
        fastify: 'One setErrorHandler that runs them in this order.',
        location: hs[0].registration,
        related: hs.slice(1).map((h) => ({ location: h.registration, message: `then ${h.name}` })),
      }));
  },
};
