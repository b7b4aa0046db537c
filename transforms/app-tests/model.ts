/**
 * The plan entries of the steps that point the app's own tests at the Fastify server in front of
 * the Express app (`shim-tests`, `errors-tests`, `routes-tests`; issue 17): the generated server
 * module gains `fastifyListener(app)` (listener.ts), and each test file that sends requests to the
 * Express app itself hands them that listener instead (test-file.ts).
 */
import type { TestDriver } from '../../analyzer/model.js';

/** What the step does to one file. */
export type AppTestsEntry = ListenerEntry | TestFileEntry;

/** The generated server module: add `fastifyListener` (and the record of the servers buildFastify built) unless it has it. */
export interface ListenerEntry {
  kind: 'listener';
}

/** A test file: the places to point at the Fastify server, and a TODO above each place it cannot. */
export interface TestFileEntry {
  kind: 'test-file';
  /** How the file imports: `import` (esm) or `require` (commonjs). */
  module: 'esm' | 'commonjs';
  sites: TestSite[];
  todos: TestTodo[];
}

/** One place a test sends requests to the Express app (analyzer TestDriver) that the transform rewrites. */
export interface TestSite {
  kind: Exclude<TestDriver['kind'], 'helper'>;
  /** The expression that is the app: its start (1-based line, character column) and its text. */
  app: { line: number; column: number; text: string };
  /** Start of the call (`app.listen(…)`, `request(app)`). */
  call: { line: number; column: number };
  /** How this file imports the generated module of the app (`../src/fastify-server`, `@/fastify-server`). */
  specifier: string;
}

/** A place the transform leaves, with the text of the `TODO(migrate)` above its statement. */
export interface TestTodo {
  /** Start of the call. */
  line: number;
  column: number;
  text: string;
}

/** The name `fastifyListener` is exported as from the generated module, and imported as in tests (unless taken). */
export const LISTENER = 'fastifyListener';

/** How every TODO of these steps begins (lib/todo.ts: a step's own TODOs are told apart by it). */
export const TODO_PREFIX = 'a test sends requests to the Express app';
