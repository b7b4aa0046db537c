/**
 * Rules read from the catalogues (`rules/catalogue/`): what each npm middleware becomes, middleware
 * with no Fastify equivalent, and every `req`/`res`/`next` API a handler uses with its Fastify
 * form and safety (express-fastify-mapping.md §1, §3). Express middleware and Express routes only
 * (Express middleware run through `@fastify/express` included): Fastify hooks and routes are already
 * in their Fastify form.
 */
import type { ChainEntry, Inventory, Middleware } from '../../analyzer/model.js';
import { apiFor } from '../catalogue/api.js';
import { forVersion, MIDDLEWARE, type MiddlewareEntry, middlewareFor, packageRoot } from '../catalogue/middleware.js';
import { expressRoutes, onFastify } from '../frameworks.js';
import { appVersion, staticMountAt } from '../lookups.js';
import type { FindingDraft, Rule } from '../rule.js';

/** The replacement for the app's version: the first `replacementByVersion` text whose bounds hold, else `replacement`. */
function replacementFor(entry: MiddlewareEntry, version: string | null): string {
  return forVersion(entry.replacementByVersion ?? [], version).find((t) => t.versioned)?.text ?? entry.replacement;
}

/**
 * Uses whose catalogue difference cannot apply: `res.status(201)` with a literal code in 100–599
 * or a named constant (`httpStatus.CREATED`, `StatusCodes.OK`: Fastify throws only outside that
 * range), and `res.send({ … })` / `res.send([…])`, an object, which both send as JSON (the
 * string, null and number cases are the difference).
 */
function harmless(use: { api: string; arg?: string }): boolean {
  if (use.arg === undefined) return false;
  if (use.api === 'res.status') return (/^\d{3}$/.test(use.arg) && Number(use.arg) >= 100 && Number(use.arg) <= 599) || /^[\w$]+(\.[\w$]+)*\.[A-Z][A-Z0-9_]*$/.test(use.arg);
  return use.api === 'res.send' && /^[{[]/.test(use.arg.trim());
}

/** APIs with a rule of their own (its finding says more than the catalogue row). */
const OWN_RULES = new Set(['res.format', 'res.jsonp', 'res.locals', 'req.path', 'req.baseUrl', 'req.url', "next('route')", "next('router')"]);

/** Package middleware at app, router and route level, each with what it is about. */
function packageMiddleware(inventory: Parameters<Rule['check']>[0]): Array<{ m: Pick<Middleware, 'name' | 'package' | 'registration'>; subject: string; where: string; hidden?: true }> {
  const appLevel = inventory.middleware.filter((m) => m.package && !onFastify(m)).map((m) => ({ m, subject: m.id, where: `${m.scope} middleware at ${m.fullPath}` }));
  const routeLevel = expressRoutes(inventory).flatMap((r) => r.chain.filter((c: ChainEntry) => c.scope === 'route' && c.package).map((c) => ({ m: c, subject: r.id, where: `route middleware of ${r.key}` })));
  // Package middleware the app's own functions run themselves (`lusca.csrf()(req, res, next)`,
  // `uploadImage(req, res, cb)` in a handler): invisible to the chain, but it runs, and no codemod
  // can lift it out of the code that calls it.
  const hiddenIn = (calls: { api: string; location: Middleware['registration'] }[] | undefined, subject: string, where: string) =>
    (calls ?? []).flatMap((call) => {
      const tagged = /^(.*) \[([^\]]+)\]$/.exec(call.api);
      return tagged ? [{ m: { name: tagged[1], package: tagged[2], registration: call.location }, subject, where, hidden: true as const }] : [];
    });
  const hidden = [
    ...inventory.middleware.filter((m) => !onFastify(m)).flatMap((m) => hiddenIn(m.usage.calls, m.id, `run inside ${m.name} at ${m.fullPath}`)),
    ...expressRoutes(inventory).flatMap((r) => hiddenIn(r.usage.calls, r.id, `run by the code of ${r.key}`)),
  ];
  return [...appLevel, ...routeLevel, ...hidden];
}

export const middlewarePlugin: Rule = {
  id: 'middleware-plugin',
  title: 'Middleware with a Fastify plugin',
  severity: 'info',
  stage: 'plugins',
  autoFixable: true,
  docs: {
    summary: 'Each npm middleware has a Fastify form: an official plugin with translated options, something Fastify does itself, or nothing (it is removed). The finding names it, says which stage replaces it and, when the translation needs care, what changes (the catalogue in rules/catalogue/middleware.ts). Where that depends on the version of the Express package (helmet 4 vs 8, compression before or since 1.8), the finding follows the version installed in node_modules, else the range package.json declares, and names it; an unknown version gets the general text.',
    fix: 'The stage named in the finding replaces it; read the caveats where the finding is a warning.',
    source: 'express-fastify-mapping.md §3',
    example: { express: "app.use(cors({ origin: 'https://a.example' }))", fastify: "await fastify.register(import('@fastify/cors'), { origin: 'https://a.example' })" },
  },
  check: (inventory) =>
    packageMiddleware(inventory).flatMap(({ m, subject, where, hidden }): FindingDraft[] => {
      const entry = middlewareFor(m.name, m.package);
      if (!entry || entry.safety === 'no-equivalent') return [];
      const used = optionsUsed(entry, 'source' in m ? String(m.source) : '');
      const lost = used.filter((o) => o.fastify === null);
      const member = m.name.includes('.') ? m.name.slice(m.name.lastIndexOf('.') + 1) : '';
      // Version-dependent caveats and replacements follow the app's version of the package the
      // middleware comes from; an unknown version gets the catalogue's general texts.
      const version = m.package ? appVersion(inventory.project, packageRoot(m.package)) : null;
      const [caveat, ...notes] = forVersion(entry.memberCaveats?.[member] ?? entry.caveats, version?.version ?? null);
      const decision = withoutMember(inventory, entry, m);
      const replacement = decision ?? replacementFor(entry, version?.version ?? null) + againNote(inventory, entry, m) + sharedNote(inventory, entry, m);
      return [{
        subject,
        message: `${m.name} [${m.package}] (${where}) is replaced in the ${entry.stage} stage.${lost.length ? ` No Fastify option for ${lost.map((o) => `\`${o.express}\``).join(', ')}: ${lost.map((o) => o.note).join(' ')}` : entry.safety === 'needs-care' && caveat ? ` Mind${caveat.versioned && version ? ` (${version.label})` : ''}: ${caveat.text}` : ''}`,
        fastify: used.length ? `${replacement} Options here: ${used.map((o) => `${o.express} → ${o.fastify ?? 'none'}${o.note && o.fastify !== null ? ` (${o.note})` : ''}`).join('; ')}.` : replacement,
        location: m.registration,
        // Run inside the app's own code, a middleware whose move needs care is for a human to lift out; a safe one (a logger) is not.
        severity: entry.safety === 'needs-care' ? 'warning' : 'info',
        stage: entry.stage,
        ...((hidden && entry.safety === 'needs-care') || decision ? { autoFixable: false } : {}),
        ...(entry.safety === 'needs-care' && notes.length ? { notes: notes.map((n) => n.text) } : {}),
      }];
    }),
};

/** The catalogue's `withoutMember` replacement when the app never uses that member of the package (passport without `passport.session()`). */
function withoutMember(inventory: Inventory, entry: MiddlewareEntry, m: Pick<Middleware, 'package'>): string | null {
  const rule = entry.withoutMember;
  if (!rule || !m.package) return null;
  return inventory.middleware.some((x) => x.package === m.package && x.name.endsWith(`.${rule.member}`)) ? null : rule.replacement;
}

/** The catalogue's `sharedByRoutes` note when one instance (the same name from the same package) is route middleware of several routes. */
function sharedNote(inventory: Inventory, entry: MiddlewareEntry, m: Pick<Middleware, 'name' | 'package'>): string {
  if (!entry.sharedByRoutes) return '';
  const routes = inventory.routes.filter((r) => r.chain.some((c) => c.scope === 'route' && c.name === m.name && c.package === m.package)).length;
  return routes > 1 ? ` ${entry.sharedByRoutes.replace('{name}', m.name).replace('{routes}', String(routes))}` : '';
}

/** The catalogue's `againInApp` note for a registration after the app's first one of the same plugin (static mounts, in order). */
function againNote(inventory: Inventory, entry: MiddlewareEntry, m: Pick<Middleware, 'registration'>): string {
  if (!entry.againInApp) return '';
  const mount = staticMountAt(inventory, m.registration);
  const first = mount && inventory.staticMounts.find((x) => x.appId === mount.appId && middlewareFor(x.package === 'express' ? 'express.static' : x.package)?.fastify === entry.fastify);
  return mount && first !== mount ? ` ${entry.againInApp}` : '';
}

/**
 * The option translations of `entry` whose Express option the registration passes (`name:`,
 * `skipSuccessfulRequests:` in `session({ name: 'sid' })`), so the finding speaks about this app's
 * options. Catalogue keys like `limit / max`, `cookie.maxAge` or `keyGenerator(req)` match by
 * their last property name. Syntactic over the registration text; nothing is guessed from names.
 */
function optionsUsed(entry: NonNullable<ReturnType<typeof middlewareFor>>, source: string): NonNullable<ReturnType<typeof middlewareFor>>['options'] {
  return entry.options.filter((o) =>
    o.express
      .split(/\s*\/\s*/)
      .map((k) => k.replace(/\(.*$/, '').split('.').pop() ?? '')
      .some((k) => /^[A-Za-z_$][\w$]*$/.test(k) && new RegExp(`(^|[{,\\s])${k}\\s*:`).test(source)),
  );
}

export const middlewareNoEquivalent: Rule = {
  id: 'middleware-no-equivalent',
  title: 'Middleware with no Fastify equivalent',
  severity: 'error',
  stage: 'manual',
  autoFixable: false,
  docs: {
    summary: 'Some middleware has no Fastify counterpart (method-override rewrites the method after routing, which Fastify does before), and a package the catalogue does not know cannot be translated by a codemod. Until a human decides, the routes behind it stay on Express.',
    fix: 'Replace it by hand (an `onRequest` hook, a plugin you choose) or drop it; for an unknown package, check whether it is Express-specific.',
    source: 'express-fastify-mapping.md §3',
    example: { express: "app.use(methodOverride('_method'))", fastify: "fastify.addHook('onRequest', …) // rewrite method before routing: rewriteUrl or a proxy" },
  },
  check: (inventory) =>
    packageMiddleware(inventory).flatMap(({ m, subject, where }): FindingDraft[] => {
      const entry = middlewareFor(m.name, m.package);
      if (entry && entry.safety !== 'no-equivalent') return [];
      const version = entry && m.package ? appVersion(inventory.project, packageRoot(m.package))?.version ?? null : null;
      return [{
        subject,
        message: entry ? `${m.name} [${m.package}] (${where}) has no Fastify equivalent: ${forVersion(entry.caveats, version)[0]?.text ?? replacementFor(entry, version)}` : `${m.name} [${m.package}] (${where}) is not in the middleware catalogue: no codemod can translate it.`,
        fastify: entry ? replacementFor(entry, version) : 'Decide by hand: a hook, a plugin, or nothing.',
        location: m.registration,
        severity: entry ? 'error' : 'warning',
        ...(entry?.affectsMethods ? { appliesTo: { methods: [...entry.affectsMethods] } } : {}),
      }];
    }),
};

export const apiUsage: Rule = {
  id: 'api-usage',
  title: 'Express API used by a handler',
  severity: 'info',
  stage: 'routes',
  autoFixable: true,
  docs: {
    summary: 'Every `req.*`, `res.*` and `next(…)` use in a handler has a Fastify form (rules/catalogue/api.ts). Safe ones are not reported; those whose behaviour changes are reported with the exact difference (info: the `routes` stage rewrites them with that in mind); those with no mechanical equivalent are errors and keep the route on Express.',
    fix: 'Nothing for info findings (read the difference); rewrite by hand where the finding is an error.',
    source: 'express-fastify-mapping.md §1.3–§1.5',
    example: { express: "res.send('<p>hi</p>') // text/html", fastify: "reply.type('text/html; charset=utf-8').send('<p>hi</p>')" },
  },
  check: (inventory) => {
    // Packages that may set request properties: middleware, chain entries, and middleware the app's own functions run (`upload.single('f')(req, res, next)`).
    const called = [...inventory.middleware.flatMap((m) => m.usage.calls ?? []), ...inventory.routes.flatMap((r) => r.usage.calls ?? [])].map((c) => /\[([^\]]+)\]$/.exec(c.api)?.[1]);
    const packages = new Set([...inventory.middleware.map((m) => m.package), ...inventory.routes.flatMap((r) => r.chain.map((c) => c.package)), ...called].filter(Boolean) as string[]);
    // Routes, and not-found handlers registered as middleware (`app.use((req, res) => res.status(404).send(…))`).
    const notFound = new Set(inventory.notFoundHandlers.map((n) => `${n.registration.file}:${n.registration.line}:${n.registration.column}`));
    const sites = [
      ...expressRoutes(inventory).map((r) => ({ id: r.id, key: r.key, usage: r.usage, wildcard: r.path.params.some((p) => p.wildcard) })),
      // The route's own local middleware (a guard) becomes a hook: its request/reply uses change too; its `next` calls are the hook's return (not reported).
      ...expressRoutes(inventory).flatMap((r) => r.chain.filter((c) => c.scope === 'route' && c.usage).map((c) => ({ id: r.id, key: `${r.key} (in ${c.name})`, usage: { req: c.usage!.req, res: c.usage!.res, next: [] }, wildcard: r.path.params.some((p) => p.wildcard) }))),
      ...inventory.middleware.filter((m) => !onFastify(m) && notFound.has(`${m.registration.file}:${m.registration.line}:${m.registration.column}`)).map((m) => ({ id: m.id, key: `not-found handler ${m.name}`, usage: m.usage, wildcard: false })),
    ];
    const express5 = inventory.project.expressVersion.major === 5;
    const nestedQuery = inventory.settings.some((x) => x.key === 'query parser' && x.value !== 'simple' && x.value !== false);
    return sites.flatMap((route) => {
      const seen = new Set<string>();
      return [...route.usage.req, ...route.usage.res, ...route.usage.next].flatMap((use): FindingDraft[] => {
        // One finding per API and route (a use may be recorded as read, write and test).
        if (OWN_RULES.has(use.api) || seen.has(use.api) || harmless(use)) return [];
        // Express 5 already parses query strings flat and gives null-prototype params: only nested
        // parsing the app asked for, and wildcard params, still differ (express-fastify-mapping.md §0.1).
        if (express5 && ((use.api === 'req.query' && !nestedQuery) || (use.api === 'req.params' && !route.wildcard))) return [];
        seen.add(use.api);
        const entry = apiFor(use.api);
        if (!entry || entry.safety === 'safe') return [];
        // Only request properties can come from the app's own middleware; `res.render` and `res.sendFile` are Express's own.
        const appProvided = use.api.startsWith('req.') ? providedByApp(entry.requires ?? [], packages) : null;
        return [{
          subject: route.id,
          message: appProvided
            ? `${route.key} uses ${use.api}, which the app's own middleware sets (no ${appProvided} in the app): it becomes a request decoration.`
            : `${route.key} uses ${use.api}${use.write ? ' (writes it)' : ''}: ${entry.difference}`,
          fastify: appProvided
            ? `fastify.decorateRequest('${use.api.slice(4)}', null) and the middleware that sets it as a hook`
            : entry.addedBy && entry.rewrite
              ? `${entry.rewrite.form} while the Express middleware is still bridged (routes stage), then ${entry.fastify} (plugins stage)`
              : entry.fastify,
          location: use.location,
          severity: entry.safety === 'no-equivalent' ? 'error' : 'info',
          stage: entry.safety === 'no-equivalent' ? 'manual' : entry.stage,
        }];
      });
    });
  },
};

/**
 * For a request property a plugin provides (`req.user` ← @fastify/passport), the Express package
 * that would set it in Express (passport); when the app uses none of them, the property is the
 * app's own (a JWT middleware setting `req.user`) and the name of the missing package is returned.
 */
function providedByApp(requires: readonly string[], packages: Set<string>): string | null {
  const providers = Object.values(MIDDLEWARE).filter((m) => m.fastify !== 'core' && m.fastify !== 'none' && requires.includes(m.fastify));
  if (!providers.length || !/^@fastify\//.test(requires[0] ?? '')) return null;
  return providers.some((m) => packages.has(m.package)) ? null : providers.map((m) => m.package).join(' or ');
}
