/**
 * What the analyzer must know about packages to build the routing tree (not the migration
 * catalogues, which live in `rules/`): which packages create routers, which of their values are
 * error handlers or static-file servers.
 */

/** Packages whose default export (or `Router` member) creates an Express-compatible router. */
export const ROUTER_PACKAGES: Record<string, { member: string | null }[]> = {
  'express-promise-router': [{ member: null }],
  router: [{ member: null }],
  '@awaitjs/express': [{ member: 'Router' }],
};

/** Package members that return error-handling middleware (four parameters). */
export const ERROR_HANDLER_PACKAGES: Record<string, string[][]> = {
  errorhandler: [[]],
  celebrate: [['errors']],
  '@sentry/node': [['Handlers', 'errorHandler']],
  'express-validation': [['ValidationError']],
  '@appsignal/nodejs': [['expressErrorHandler']],
  'express-winston': [['errorLogger']],
  'celebrate-errors': [[]],
};

/** Package members whose name says they handle errors (`Sentry.expressErrorHandler()`). */
export const ERROR_HANDLER_NAME = /^(?:express)?error(?:handler|logger)s?$|^errors$|errorhandler$/i;

/** Package values that serve static files: package → member path. */
export const STATIC_PACKAGES: Record<string, string[]> = {
  express: ['static'],
  'serve-static': [],
  'serve-favicon': [],
};

/** Is `member` (access path, calls dropped) of `pkg` listed in `table`? */
export function listed(table: Record<string, string[][]>, pkg: string, member: string[]): boolean {
  return (table[pkg] ?? []).some((m) => m.length === member.length && m.every((part, i) => part === member[i]));
}

/**
 * Configuration packages: a `get`/`has` call on them reads a value the deployment chooses
 * (`config.get('prefix')`), so a path built from it is environment-dependent
 * (analyzer-patterns.md §3 P28).
 */
export const CONFIG_PACKAGES = new Set(['config', 'nconf', 'convict', '@nestjs/config', 'rc', 'dotenv', 'env-var', 'envalid']);

/**
 * Request clients of tests (analyzer/test-drivers.ts): package → the member path read off it
 * (`''` for the package itself) → the kind of a call of it on the app. chai-http ≤ 4 adds
 * `request` to chai (`chai.use(chaiHttp)`); chai-http 5 exports `request` with `execute`.
 */
export const TEST_CLIENTS: Record<string, Record<string, 'supertest' | 'supertest-agent' | 'chai-http'>> = {
  supertest: { '': 'supertest', agent: 'supertest-agent' },
  chai: { request: 'chai-http', 'request.agent': 'chai-http', 'request.execute': 'chai-http' },
  'chai-http': { 'request.execute': 'chai-http', 'request.agent': 'chai-http' },
};

/** Packages of tests that assert on or mock what they are given and never send it requests: a call of theirs on the app is no test driver. */
export const TEST_ASSERTION_PACKAGES = new Set(['chai', 'sinon', 'vitest', '@jest/globals', 'expect', 'should', 'assert', 'power-assert', 'node:test', 'testdouble']);
