/** `res.format` and `res.jsonp`: content negotiation and JSONP have no Fastify form. */
import type { Rule } from '../rule.js';
import { usesOf } from '../uses.js';

export const resFormat: Rule = {
  id: 'res-format',
  title: 'res.format content negotiation',
  severity: 'warning',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: "`res.format({ html, json })` picks a body by the Accept header and answers 406 when nothing fits. Fastify has no equivalent on the reply; `@fastify/accepts` gives `request.accepts()` to branch on.",
    fix: "Register `@fastify/accepts` and branch on `request.accepts().type(['html', 'json'])`, answering 406 yourself.",
    source: 'express-fastify-mapping.md §1.4',
    example: { express: 'res.format({ html: () => res.render("x"), json: () => res.json(x) })', fastify: "switch (request.accepts().type(['html', 'json'])) { case 'html': return reply.view('x'); case 'json': return x; default: return reply.code(406).send() }" },
  },
  check: (inventory) =>
    usesOf(inventory, (u) => u.api === 'res.format').map(({ site, use }) => ({
      subject: site.subject,
      message: `${site.label} negotiates its body with res.format.`,
      fastify: '@fastify/accepts and a branch on request.accepts().type([...]), with your own 406.',
      location: use.location,
    })),
};

export const resJsonp: Rule = {
  id: 'res-jsonp',
  title: 'res.jsonp',
  severity: 'warning',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: '`res.jsonp(body)` wraps JSON in the callback named by `?callback=` and serves it as JavaScript. Fastify has no JSONP.',
    fix: 'Keep a small helper that validates the callback name and sends `${cb}(${JSON.stringify(body)})` as `text/javascript`, or retire JSONP (CORS replaced it).',
    source: 'express-fastify-mapping.md §1.4',
    example: { express: 'res.jsonp(data)', fastify: "reply.type('text/javascript; charset=utf-8').send(`/**/ typeof ${cb} === 'function' && ${cb}(${JSON.stringify(data)});`)" },
  },
  check: (inventory) =>
    usesOf(inventory, (u) => u.api === 'res.jsonp').map(({ site, use }) => ({
      subject: site.subject,
      message: `${site.label} answers with res.jsonp.`,
      fastify: 'A JSONP helper on reply (validated callback name, text/javascript), or CORS instead.',
      location: use.location,
    })),
};
