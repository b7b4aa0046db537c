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
