/**
 * Middleware that replaces response methods (`res.render = …`, `res.json = …`), in the app's code or
 * in a package the catalogue says does (`replacesResponseMethods`: express-flash): Fastify's reply
 * methods are not patched that way.
 */
import { middlewareFor } from '../catalogue/middleware.js';
import type { Rule } from '../rule.js';
import { usesOf } from '../uses.js';

const METHODS = /^res\.(render|json|send|end|redirect|sendFile|write|status|set|header|cookie)$/;

export const resMethodReassign: Rule = {
  id: 'res-method-reassign',
  title: 'Response method replaced',
  severity: 'warning',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: 'Middleware that assigns `res.render = …` or `res.json = …` wraps every later response (flash messages injected into views, envelopes around JSON). Fastify\'s reply methods live on a shared prototype; the same effect comes from an `onSend` or `preSerialization` hook, or `reply.locals`/`defaultContext` for views.',
    fix: 'Rewrite the wrapper as a hook (`preSerialization` for JSON envelopes, `onSend` for bodies) or, for views, as `reply.locals` set in a hook.',
    source: 'express-fastify-mapping.md §1.4; Fastify docs, Hooks.md (preSerialization, onSend)',
    example: { express: 'res.render = (view, data) => render.call(res, view, { ...data, flash: req.flash() })', fastify: "fastify.addHook('preHandler', async (request, reply) => { reply.locals = { flash: request.flash() } })" },
  },
  check: (inventory) => [
    ...usesOf(inventory, (u) => u.write === true && METHODS.test(u.api)).map(({ site, use }) => ({
      subject: site.subject,
      message: `${site.label} replaces ${use.api}.`,
      fastify: fastifyForm(use.api),
      // Only the routes that call the replaced method are held back by it.
      appliesTo: { uses: [use.api] },
      location: use.location,
    })),
    ...inventory.middleware.flatMap((m) =>
      m.package && m.framework !== 'fastify'
        ? (middlewareFor(m.name, m.package)?.replacesResponseMethods ?? []).map((api) => ({
            subject: m.id,
            message: `${m.name} [${m.package}] replaces ${api} on Express's response.`,
            fastify: fastifyForm(api),
            appliesTo: { uses: [api] },
            location: m.registration,
          }))
        : [],
    ),
  ],
};

function fastifyForm(api: string): string {
  return api === 'res.render' ? 'reply.locals / defaultContext set in a hook' : 'A preSerialization or onSend hook';
}
