/**
 * Error handlers that read `err.status` or body-parser's `err.type` (Fastify's errors carry
 * `statusCode` and `code`), that recognise a package's errors, or that run in a chain. About
 * Express error middleware only: a Fastify `setErrorHandler` (`framework: 'fastify'`) was written
 * for Fastify or moved there by the `errors` stage, which rewrote its reads.
 */
import type { ErrorHandler, Stage } from '../../analyzer/model.js';
import { middlewareFor } from '../catalogue/middleware.js';
import { onFastify } from '../frameworks.js';
import type { Rule } from '../rule.js';

export const errStatus: Rule = {
  id: 'err-status',
  title: 'Error handler reads err.status or err.type',
  severity: 'warning',
  stage: 'errors',
  autoFixable: true,
  docs: {
    summary: "Fastify's own errors (body parsing, validation) carry only `statusCode`, never `status`, so `res.status(err.status || 500)` turns every 400 into a 500. body-parser's `err.type` (`entity.parse.failed`, `entity.too.large`) becomes `err.code` (`FST_ERR_CTP_INVALID_JSON_BODY`, `FST_ERR_CTP_BODY_TOO_LARGE`). Express error middleware only: a Fastify error handler is not flagged.",
    fix: "The `errors` stage rewrites `err.status` to `err.status || err.statusCode` (`??` where the app wrote `err.status ?? …`) in the handler it moves — `status` first, so every error the app raised answers exactly as before, and `statusCode` fills in for Fastify's errors (docs/stages/errors.md) — and adds `|| err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'` (`FST_ERR_CTP_BODY_TOO_LARGE` for `entity.too.large`) to `err.type` checks. A read under `err instanceof X` stays as it is (Fastify's errors are never the app's classes). A router's handler (or one registered under a path) gets the same in the `routes` stage, with its plugin; a handler registered under a condition stays on Express for a human.",
    source: 'express-fastify-mapping.md §2.12; docs/stages/errors.md ("Why err.status || err.statusCode")',
    example: { express: 'res.status(err.status || 500).json({ error: err.message })', fastify: 'reply.code(err.status || err.statusCode || 500).send({ error: err.message })' },
  },
  check: (inventory) =>
    inventory.errorHandlers
      .filter((h) => !onFastify(h))
      .flatMap((h) =>
        h.reads
          // A handler that already reads err.statusCode next to err.status handles Fastify's errors.
          .filter((u) => u.api === 'err.type' || (u.api === 'err.status' && !h.reads.some((r) => r.api === 'err.statusCode')))
          .map((u) => ({
            subject: h.id,
            message: `Error handler ${h.name} reads ${u.api}.`,
            fastify: u.api === 'err.status' ? 'err.status || err.statusCode' : "err.type === 'entity.parse.failed' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' (entity.too.large: FST_ERR_CTP_BODY_TOO_LARGE)",
            location: u.location,
            related: [{ location: h.registration, message: `registered here (${h.fullPath})` }],
            stage: stageMoving(h),
          })),
      ),
};

/**
 * The stage that moves Express error middleware `h` to Fastify (and so rewrites its reads), as
 * the errors stage's planner decides (transforms/handler-move/error-handler.ts): a router's handler or
 * one under a path moves with its router in `routes`; a conditional or package handler stays for
 * a human; the app's own handler moves in `errors`.
 */
function stageMoving(h: ErrorHandler): Stage {
  if (h.scope === 'router' || h.fullPath !== '/') return 'routes';
  if (h.conditions?.length || h.origin !== 'local') return 'manual';
  return 'errors';
}

export const errorTypeChecks: Rule = {
  id: 'error-type-checks',
  title: "Error handler recognises a package's errors",
  severity: 'warning',
  stage: 'plugins',
  autoFixable: false,
  docs: {
    summary: "An error handler that tests `err instanceof ValidationError` (express-json-validator-middleware), `multer.MulterError` or `isCelebrateError(err)` stops matching once the package is replaced: validation failures arrive as `FST_ERR_VALIDATION` with `err.validation`, upload limits as `FST_REQ_FILE_TOO_LARGE`, so the branch is skipped and the answer becomes a 500. This holds for Express error middleware and for a Fastify error handler alike (the `errors` stage moves the branch unchanged). The finding's stage is the one that replaces the package (`schemas` for validators, `plugins` for multer; `manual` for a package the catalogue does not know).",
    fix: "Add the Fastify error to the branch (`err.validation` / `err.code === 'FST_ERR_VALIDATION'`, `err.code === 'FST_REQ_FILE_TOO_LARGE'`, …) before the package leaves, keeping the status and body the branch produced.",
    source: 'express-fastify-mapping.md §2.12, §3; docs/stages/errors.md ("Why the FST_ERR_CTP_* alternatives")',
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
          stage: replacingStage(u.api),
        })),
    ),
};

/** The stage that replaces the package named in a tagged read (`err instanceof multer.MulterError [multer]` → `plugins`), `manual` when the catalogue does not know it. */
function replacingStage(api: string): Stage {
  const pkg = /\[([^\]]+)\]$/.exec(api)?.[1];
  return (pkg && middlewareFor(pkg, pkg)?.stage) || 'manual';
}

export const errorHandlerChain: Rule = {
  id: 'error-handler-chain',
  title: 'Several error handlers in a chain',
  severity: 'info',
  stage: 'errors',
  autoFixable: true,
  docs: {
    summary: 'Express runs four-parameter middleware in turn: each handles what it recognises and passes the rest on with `next(err)`. Fastify has one error handler per encapsulation context (`setErrorHandler`; a later call replaces the earlier one), so a chain of handlers at one level must become one handler that runs them in the same order. Handlers that never call `next` end a chain, and handlers registered under different conditions (`if (dev)` / `else`) are alternatives, not a chain. Express error middleware only: Fastify error handlers do not chain.',
    fix: "Nothing by hand for the app's own chain: the `errors` stage moves the app-level chain as one Fastify error handler that calls the handlers in turn (`first(error, request, reply, (err1) => second(err1, request, reply))`), each but the last keeping `next` as its fourth parameter so `next(err)` hands on exactly as in Express. The chain moves together or not at all: when one handler stays (its code and place are reported), all do. A router's chain, or one registered under a condition, is merged by hand (those findings say `manual`).",
    source: 'express-fastify-mapping.md §2.12; Fastify docs, Server.md#seterrorhandler; docs/stages/errors.md; issue 16',
    example: { express: 'app.use(errorConverter); app.use(errorHandler)', fastify: 'fastify.setErrorHandler(function appErrorHandlers(error, request, reply) { errorConverter(error, request, reply, (err1) => errorHandler(err1, request, reply)); })' },
  },
  check: (inventory) => {
    // Handlers at one level: the same owner (app or router), mount path and conditions (handlers
    // under `if (dev)` / `else` are alternatives, not a chain).
    const levels = new Map<string, ErrorHandler[]>();
    for (const h of inventory.errorHandlers.filter((x) => !onFastify(x))) {
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
        // The errors stage writes the app's own chain (unconditional, at /); a router's or a conditional one is merged by hand.
        ...(appChain(hs) ? {} : { stage: 'manual' as const, autoFixable: false }),
        fastify: appChain(hs) ? 'One setErrorHandler that runs them in this order (the errors stage writes it).' : 'One setErrorHandler that runs them in this order, merged by hand.',
        location: hs[0].registration,
        related: hs.slice(1).map((h) => ({ location: h.registration, message: `then ${h.name}` })),
      }));
  },
};

/** A chain the errors stage moves: the app's own handlers at /, registered unconditionally (handler-move/error-handler.ts). */
function appChain(hs: ErrorHandler[]): boolean {
  return hs.every((h) => h.scope === 'app' && h.fullPath === '/' && !h.conditions?.length);
}
