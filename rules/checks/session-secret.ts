/** express-session secrets shorter than @fastify/session accepts: the app would not boot. */
import type { Rule } from '../rule.js';

export const sessionSecret: Rule = {
  id: 'session-secret',
  title: 'Session secret shorter than 32 characters',
  severity: 'error',
  stage: 'plugins',
  autoFixable: true,
  docs: {
    summary: "@fastify/session refuses a string secret shorter than 32 characters when it registers (\"the secret must have length 32 or greater\"), so the app does not start. express-session takes any length. Existing session cookies stay valid only with the same secret and `cookiePrefix: 's:'`.",
    fix: "The `plugins` stage passes the secret as an array (`secret: [oldSecret]`), which @fastify/session accepts at any length and which keeps existing cookies valid; rotate to a 32+ character secret first in the array when you can.",
    source: '@fastify/session lib/fastifySession.js (checkOptions); express-fastify-mapping.md §3',
    example: { express: "app.use(session({ secret: 'keyboard cat' }))", fastify: "fastify.register(fastifySession, { secret: ['keyboard cat'], cookiePrefix: 's:' })" },
  },
  check: (inventory) =>
    inventory.middleware
      .filter((m) => m.package === 'express-session')
      .flatMap((m) => {
        const expression = /\bsecret\s*:\s*([^,\n}]+)/.exec(m.source)?.[1]?.trim();
        if (!expression) return [];
        const literals = [...expression.matchAll(/(['"`])((?:(?!\1).)*)\1/g)].map((x) => x[2]).filter((v) => v.length < 32);
        if (!literals.length) return [];
        const whole = /^(['"`]).*\1$/.test(expression);
        return [{
          subject: m.id,
          message: whole
            ? `The session secret is ${literals[0].length} characters; @fastify/session refuses fewer than 32, so the app would not start.`
            : `The session secret falls back to a ${literals[0].length}-character literal (${expression}); where that fallback applies, @fastify/session refuses it and the app does not start.`,
          fastify: 'secret: [theSameSecret] (an array is accepted at any length and keeps existing cookies valid), cookiePrefix: \'s:\'',
          location: m.registration,
          severity: whole ? ('error' as const) : ('warning' as const),
        }];
      }),
};
