/** App settings whose Fastify option behaves otherwise: a numeric `trust proxy`. */
import type { Rule } from '../rule.js';

export const trustProxyHops: Rule = {
  id: 'trust-proxy-hops',
  title: "Numeric 'trust proxy'",
  severity: 'error',
  stage: 'shim',
  autoFixable: false,
  docs: {
    summary: "`app.set('trust proxy', 1)` trusts one proxy hop. From Fastify 5.12.1 a numeric `trustProxy` is silently ignored: `request.ip` stays the proxy's address, so logs, per-IP rate limits and sessions bound to an IP see every client as one (probed with fastify 5.12.8). A value the analyzer could not fold may be a number too.",
    fix: "Give Fastify the proxies' addresses (`trustProxy: ['10.0.0.0/8']`) or a function: `trustProxy: (address, hop) => isOurProxy(address) && hop < 1`.",
    source: 'express-fastify-mapping.md §0.1 (trust proxy row); fastify lib/request.js',
    example: { express: "app.set('trust proxy', 1)", fastify: "Fastify({ trustProxy: (address, hop) => address === '10.0.0.2' && hop < 1 })" },
  },
  check: (inventory) =>
    inventory.settings
      .filter((s) => s.key === 'trust proxy' && s.kind === 'set' && (typeof s.value === 'number' || s.resolution !== 'exact' || s.value === null))
      .map((s) => ({
        subject: s.appId,
        message: typeof s.value === 'number' && s.resolution === 'exact' ? `'trust proxy' is the hop count ${s.value}; Fastify 5.12.1+ ignores numeric hop counts.` : `'trust proxy' is set to ${s.raw}, which may be a hop count; Fastify 5.12.1+ ignores numeric hop counts.`,
        fastify: 'trustProxy with the proxy addresses (IP/CIDR list) or (address, hop) => …',
        location: s.location,
      })),
};
