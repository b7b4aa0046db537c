/**
 * The text the `plugins` stage writes into the generated server module when the Express app moves
 * from @fastify/express into Fastify hooks (express-hook.ts does the edit): the hook and the
 * function that makes it, Fastify's own 404 for an app without one, and the plugin around the moved
 * routes. In the template's style (single quotes, two spaces, semicolons); callers restyle it.
 */

/** The name of the hook buildFastify makes (`const throughExpress = expressHook(app)`). */
export const THROUGH_EXPRESS = 'throughExpress';
/** The function that makes it. */
export const EXPRESS_HOOK = 'expressHook';
/** The function that answers as Fastify's own not-found handler does. */
export const FASTIFY_NOT_FOUND = 'fastifyNotFound';

/** `const throughExpress = expressHook(app);` with why, where the @fastify/express registration was. */
export function declarationLines(app: string): string[] {
  return [
    '// The Express app runs only where it still answers (`migrate run --stage plugins`): in the',
    '// preHandler of the not-found handler, for the requests Fastify has no route for, and of the',
    '// routes moved off Express whose requests still pass its middleware (movedRoutes).',
    `const ${THROUGH_EXPRESS} = ${EXPRESS_HOOK}(${app});`,
  ];
}

/** Fastify's own 404, with the hook, for an app that has no not-found handler of its own. */
export function ownNotFoundLines(instance: string): string[] {
  return ["// Fastify's own 404 for what the Express app leaves unanswered (the app has no handler of its own).", `${instance}.setNotFoundHandler({ preHandler: ${THROUGH_EXPRESS} }, ${FASTIFY_NOT_FOUND});`];
}

/**
 * `register`, a `<instance>.register(movedRoutes…)` call written for the plugin's own instance
 * (`instance.register(movedRoutes, { routes })`), inside a plugin whose preHandler runs the Express
 * app first; `comments` (whole `//` or block lines) above it.
 */
export function movedRoutesLines(instance: string, register: string, comments: string[]): string[] {
  return [...comments, `${instance}.register(function expressMiddlewareFirst(instance, _options, done) {`, `  instance.addHook('preHandler', ${THROUGH_EXPRESS});`, `  ${register};`, '  done();', '});'];
}

/**
 * `function expressHook(app)`: the shim's `expressBridge(app)` as a Fastify hook. Before the app
 * runs, the headers Fastify's hooks set go on Node's response, as @fastify/express's `runConnect`
 * put them (so an answer of the app carries them), and a request of a module written before the
 * shim set `rewriteUrl` gets the `originalUrl` @fastify/express gave it (the bridge restores it).
 * TypeScript: `done` is passed as Express's `next`.
 */
export function expressHookLines(typescript: boolean): string[] {
  const t = (annotation: string) => (typescript ? annotation : '');
  return [
    '/**',
    ' * The Express app as a Fastify hook (`migrate run --stage plugins`, in place of @fastify/express): a',
    ' * request the app answers ends there; one it leaves goes on to Fastify, an error to its error handler.',
    ' */',
    `function ${EXPRESS_HOOK}(app${t(': ExpressApp')}) {`,
    '  const bridge = expressBridge(app);',
    `  return function ${THROUGH_EXPRESS}(request${t(': FastifyRequest')}, reply${t(': FastifyReply')}, done${t(': HookHandlerDoneFunction')}) {`,
    `    const raw = request.raw${t(' as Loose<http.IncomingMessage>')};`,
    "    // Headers Fastify's hooks set are the answer's, also when the app answers (as @fastify/express did). They move",
    "    // to Node's response: the app's middleware adds to them there (Vary), and the reply would write its own over.",
    `    const headers = reply.getHeaders()${t(' as Record<string, any>')};`,
    '    for (const name of Object.keys(headers)) {',
    // Fastify's removeHeader takes it off Node's response too: first. Set-Cookie stays on the reply as
    // well, where Fastify's reply.header appends a later cookie to it (Node's writeHead would replace it).
    "      if (name !== 'set-cookie') reply.removeHeader(name);",
    '      if (headers[name] !== undefined) reply.raw.setHeader(name, headers[name]);',
    '    }',
    '    if (raw.originalUrl === undefined) raw.originalUrl = raw.url;',
    `    bridge(raw, reply.raw, done${t(' as (error?: unknown) => void')});`,
    '  };',
    '}',
  ];
}

/**
 * `function fastifyNotFound`: Fastify's default not-found answer (fastify 5 lib/four-oh-four.js
 * `basic404`), for the handler that carries the hook. Fastify's types take no
 * `setNotFoundHandler(options)` without a handler, though Fastify itself does.
 */
export function fastifyNotFoundLines(typescript: boolean): string[] {
  const t = (annotation: string) => (typescript ? annotation : '');
  return [
    "/** Fastify's own 404 answer (its basic404), for the requests neither Fastify nor the Express app answers. */",
    `function ${FASTIFY_NOT_FOUND}(request${t(': FastifyRequest')}, reply${t(': FastifyReply')}) {`,
    '  const { url, method } = request.raw;',
    "  reply.code(404).send({ message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 });",
    '}',
  ];
}

/** The function that lets the moved routes that run no Express code pass the hook. */
export const EXCEPT_EXPRESS_FREE = 'exceptExpressFree';
/** The body parsers those routes run (`const bodyParsers = [express.json(…), …]`). */
export const BODY_PARSERS = 'bodyParsers';
/** The routes listed (`const expressFree = { 'GET /x': bodyParsers, … }`). */
export const EXPRESS_FREE = 'expressFree';
/** The function that gives a request's route key as the list has it. */
export const ROUTE_KEY = 'routeKey';

/**
 * The declaration of the hook when some moved routes run no Express code: `bodyParsers` (the app's
 * body parsers, as the shim rebuilt them) when some route reads a body, the routes listed, each
 * with the body parsers that covered it in Express (`bodyParsers`, a first part of it, or none),
 * then the hook.
 */
export function expressFreeDeclarationLines(app: string, parsers: string[], routes: Array<{ key: string; parsers: number }>, total: number): string[] {
  const given = (n: number) => (n === 0 ? '[]' : n === total ? BODY_PARSERS : `${BODY_PARSERS}.slice(0, ${n})`);
  return [
    '// The Express app runs only where it still answers (`migrate run --stage plugins`): in the',
    '// preHandler of the not-found handler, for the requests Fastify has no route for, and of the',
    '// routes moved off Express whose requests still pass its middleware (movedRoutes). The moved',
    "// routes listed run no Express code: no Express middleware but the app's body parsers covered",
    "// them, and their handlers use nothing of Express's request or response.",
    ...(routes.some((r) => r.parsers > 0) ? [`const ${BODY_PARSERS} = [${parsers.join(', ')}];`] : []),
    `const ${EXPRESS_FREE} = {`,
    ...routes.map((r) => `  '${r.key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}': ${given(r.parsers)},`),
    '};',
    `const ${THROUGH_EXPRESS} = ${EXCEPT_EXPRESS_FREE}(${EXPRESS_HOOK}(${app}), ${EXPRESS_FREE});`,
  ];
}

/**
 * `function exceptExpressFree(hook, routes)`: `hook` for every request but those of the routes
 * listed (routeKey), which run no Express code. Their body is the one Fastify parsed
 * (bodies-template.ts), else the app's own parsers given for the route read it (body-parser: the
 * same limits, types, empty bodies, `verify` and errors as in Express, which ran them first: no
 * body, a GET's, one of a type Fastify left unread). A request Fastify has no route for is never listed.
 */
export function exceptExpressFreeLines(typescript: boolean): string[] {
  const t = (annotation: string) => (typescript ? annotation : '');
  return [
    '/**',
    " * `hook` for every request but those of the moved routes in `routes` (routeKey), which run no Express",
    " * code: the body Fastify parsed is theirs, or only the app's body parsers given for the route read it,",
    ' * as they did first in Express (the same limits, types, empty bodies and errors).',
    ' */',
    `function ${EXCEPT_EXPRESS_FREE}(hook${t(': (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void')}, routes${t(': Record<string, Array<(req: any, res: any, next: (error?: unknown) => void) => void>>')}) {`,
    `  return function ${THROUGH_EXPRESS}(request${t(': FastifyRequest')}, reply${t(': FastifyReply')}, done${t(': HookHandlerDoneFunction')}) {`,
    `    const parsers = routes[${ROUTE_KEY}(request)${t(' as string')}];`,
    '    if (!parsers) return hook(request, reply, done);',
    `    const raw${t(': any')} = request.raw;`,
    '    if (request.body !== undefined) {',
    '      raw.body = request.body;',
    '      return done();',
    '    }',
    '    let index = 0;',
    `    const next = (error${t('?: unknown')})${t(': void')} => (error || index === parsers.length ? done(${t('(error as Error) || undefined')}${typescript ? '' : 'error'}) : parsers[index++](raw, reply.raw, next));`,
    '    next();',
    '  };',
    '}',
    '',
    "/** The route of `request` as Fastify registered it, `'METHOD /url'` (a trailing slash aside), or undefined when none matched. */",
    `function ${ROUTE_KEY}(request${t(': FastifyRequest')}) {`,
    `  const url = request.routeOptions.url${t(' as string | undefined')};`,
    "  return url === undefined ? undefined : `${request.method} ${url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url}`;",
    '}',
  ];
}
