/**
 * Test runners that cannot load Fastify before a version of theirs, as data: a test the stages
 * point at the Fastify server (transforms/app-tests) loads Fastify and the generated module in the
 * runner. Jest resolves and loads modules itself and knew no `node:` built-in specifiers before
 * 27.1.0 (jest CHANGELOG 27.1.0: "[jest-resolver] Support `node:` prefix when importing Node core
 * modules", jestjs/jest#11331): `require('node:http')` fails (jest 26: `ENOENT … open 'node:http'`,
 * 27.0: `Cannot find module 'node:http'`). Fastify 5 requires its built-ins that way (fastify.js,
 * lib/server.js, …), and so does the generated module. Measured on hagopj13/node-express-boilerplate
 * (jest 26.6.3) and microsoft/TypeScript-Node-Starter (jest 27.0.6). Runners that load
 * through Node's own loader (mocha, node:test, vitest, ava) have no such limit.
 */
export interface TestRunnerLimit {
  /** The first version of the runner that loads Fastify 5. */
  from: string;
  /** What the versions before it lack, for the item. */
  lacks: string;
}

/** Per runner package. */
export const TEST_RUNNER_LIMITS: Record<string, TestRunnerLimit> = {
  jest: { from: '27.1.0', lacks: "`node:` built-in specifiers (require('node:http')), with which Fastify 5 loads its own" },
};

/**
 * The TypeScript that reads Fastify 5's type declarations: they use `const` type parameters
 * (types/instance.d.ts `route<…, const SchemaCompiler extends FastifySchema = …>`), which
 * TypeScript has from 5.0 (TypeScript 5.0 release notes, "const Type Parameters"). An older one
 * stops at their syntax (TS1139 "Type parameter declaration expected"), skipLibCheck or not, so the
 * project's `tsc` and ts-jest fail on every file that imports fastify. Measured on
 * microsoft/TypeScript-Node-Starter (typescript 4.1.3: its build and its ts-jest tests failed
 * after the stages; with 5.4 they compiled).
 */
export const TYPESCRIPT_FOR_FASTIFY: TestRunnerLimit = { from: '5.0.0', lacks: "`const` type parameters, which Fastify 5's type declarations use" };
