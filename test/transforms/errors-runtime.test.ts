/**
 * Behaviour of the `errors` stage at run time, one app per module system (the runtime-esm and
 * runtime-cjs fixture cases). Each app runs three ways on 127.0.0.1:
 *   - express: the Express app alone (`app.listen`), its error middleware and 404 in Express;
 *   - shim:    the case's input, Fastify in front through the shim's generated module, the
 *              handlers still Express middleware inside the bridge;
 *   - errors:  the input after `migrate run --stage errors`, the handlers now Fastify's
 *              setErrorHandler / setNotFoundHandler, reached through the bridge.
 * The same requests go to each (a throw in a route, next(err) with err.status = 418 and 410, an
 * async rejection caught by express-async-errors, a JSON body that does not parse, a good body,
 * unknown paths and an unrouted method), and status, content type, body and the header the
 * handler sets must be equal. A third app (errors-not-found/express-generator) has
 * express-generator's 404, `next(createError(404))`, in front of its error handler; a fourth
 * (runtime-chain) a chain of three error handlers behind a 404 that passes an ApiError on, and
 * runtime-factory the same returned by one factory (`app.use(errors.handlers())`); runtime-forward
 * has a converter and a 404 that call the answering handler themselves (`handler(err, req, res)`).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStage } from '../../runner/run.js';
import { TRANSFORM_FIXTURES } from '../helpers/transform-fixtures.js';
import { startListening, stopAll } from '../helpers/listening.js';

/** The port of the app started (helpers/listening.ts). */
const start = async (cwd: string, args: string[]): Promise<number> => (await startListening(cwd, args)).port;

const REPO = path.resolve(import.meta.dirname, '../..');
const TMP = path.join(REPO, '.tmp', 'errors-runtime');
const dirs: string[] = [];
afterAll(() => {
  stopAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Exchange {
  status: number;
  type: string | null;
  body: string;
  xError: string | null;
}

const REQUESTS: Array<{ name: string; method: string; path: string; body?: string; type?: string }> = [
  { name: 'a route that answers', method: 'GET', path: '/' },
  { name: 'a throw in a route', method: 'GET', path: '/throw' },
  { name: 'next(err) with err.status = 418', method: 'GET', path: '/teapot' },
  { name: 'next(err) with err.status = 410 (sendStatus)', method: 'GET', path: '/gone' },
  { name: 'an async rejection (express-async-errors)', method: 'GET', path: '/async' },
  { name: 'a JSON body that does not parse', method: 'POST', path: '/echo', body: '{"a":', type: 'application/json' },
  { name: 'a JSON body that parses', method: 'POST', path: '/echo', body: '{"a":1}', type: 'application/json' },
  { name: 'an unknown path with a query', method: 'GET', path: '/no/such/page?x=1' },
  { name: 'an unrouted method', method: 'DELETE', path: '/' },
];

async function send(port: number, r: (typeof REQUESTS)[number]): Promise<Exchange> {
  const res = await fetch(`http://127.0.0.1:${port}${r.path}`, { method: r.method, body: r.body, headers: r.type ? { 'content-type': r.type } : {} });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text(), xError: res.headers.get('x-error') };
}

function copyCase(step: string, name: string): string {
  mkdirSync(TMP, { recursive: true });
  const root = mkdtempSync(path.join(TMP, `${name}-`));
  dirs.push(root);
  cpSync(path.join(TRANSFORM_FIXTURES, step, name, 'input'), root, { recursive: true });
  return root;
}

const ESM_LAUNCH = "import(process.argv[1]).then(({ default: app }) => { const s = app.listen(0, '127.0.0.1', () => console.log('listening ' + s.address().port)); })";
const CJS_LAUNCH = "const app = require(process.argv[1]); const s = app.listen(0, '127.0.0.1', () => console.log('listening ' + s.address().port));";
/** The apps: ESM, CommonJS, and express-generator's `next(createError(404))` 404 in front of its error handler. */
const APPS = [
  { step: 'errors-handler', name: 'runtime-esm', server: 'src/server.js', launch: ESM_LAUNCH, app: 'src/app.js', errorHandlers: 1 },
  { step: 'errors-handler', name: 'runtime-cjs', server: 'server.js', launch: CJS_LAUNCH, app: 'app.js', errorHandlers: 1 },
  { step: 'errors-not-found', name: 'express-generator', server: 'bin/www', launch: CJS_LAUNCH, app: 'app.js', errorHandlers: 1 },
  // A chain of three error handlers (convert → log from a callback → answer) behind a 404 that builds an ApiError and passes it on, as node-express-boilerplate-style apps write it.
  { step: 'errors-handler', name: 'runtime-chain', server: 'src/index.js', launch: CJS_LAUNCH, app: 'src/app.js', errorHandlers: 3 },
  // The same, registered as one factory's array (app.use(errors.handlers())): the 404 and the chain move together, the factory goes.
  { step: 'errors-handler', name: 'runtime-factory', server: 'src/index.js', launch: CJS_LAUNCH, app: 'src/app.js', errorHandlers: 3 },
  // express-rest-boilerplate's shape: the converter and the 404 call the answering handler themselves (`return handler(err, req, res)`).
  { step: 'errors-handler', name: 'runtime-forward', server: 'src/index.js', launch: CJS_LAUNCH, app: 'src/app.js', errorHandlers: 2 },
  // if (development) one error handler, else another: each registered under its condition (the lanes run in production).
  { step: 'errors-handler', name: 'runtime-conditional', server: 'server.js', launch: CJS_LAUNCH, app: 'app.js', errorHandlers: 2 },
  // An error handler that treats some errors as 404 with next(), before the 404 handler (node-express-mongoose-demo's shape): reply.callNotFound().
  { step: 'errors-handler', name: 'runtime-next-to-404', server: 'server.js', launch: CJS_LAUNCH, app: 'app.js', errorHandlers: 1 },
  // express-generator's app as generated: res.locals and req.app.get('env') in an error handler that renders the error view (ejs), app.locals and middleware-set res.locals in the page.
  { step: 'errors-not-found', name: 'express-generator-views', server: 'bin/www', launch: CJS_LAUNCH, app: 'app.js', errorHandlers: 1 },
];

for (const app of APPS) {
  describe(`${app.name}: Express error middleware → Fastify error handler through the bridge`, () => {
    const answers: Record<'express' | 'shim' | 'errors' | 'routes', Exchange[]> = { express: [], shim: [], errors: [], routes: [] };

    it('runs the errors stage, which moves every handler', async () => {
      const express = copyCase(app.step, app.name);
      const shim = copyCase(app.step, app.name);
      const errors = copyCase(app.step, app.name);
      const routes = copyCase(app.step, app.name);
      const result = await runStage({ root: errors, stage: 'errors', allowDirty: true });
      // The routes stage after it: what it moves answers the same, and the app still boots (one @fastify/view, one error handler).
      await runStage({ root: routes, stage: 'errors', allowDirty: true });
      const routed = await runStage({ root: routes, stage: 'routes', allowDirty: true });
      expect(routed.outcomes.filter((o) => o.status === 'failed'), 'routes stage after errors').toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.moved.map((m) => [m.what, m.done, m.of])).toEqual([
        ['error handlers', app.errorHandlers, app.errorHandlers],
        ['not-found handlers', 1, 1],
      ]);
      const ports = {
        express: await start(express, ['-e', app.launch, path.join(express, app.app)]),
        shim: await start(shim, [app.server]),
        errors: await start(errors, [app.server]),
        routes: await start(routes, [app.server]),
      };
      for (const lane of ['express', 'shim', 'errors', 'routes'] as const) for (const r of REQUESTS) answers[lane].push(await send(ports[lane], r));
    });

    REQUESTS.forEach((r, i) => {
      it(`${r.name}: same status, content type, body and header`, () => {
        expect(answers.errors[i], 'after the errors stage vs Express').toEqual(answers.express[i]);
        expect(answers.routes[i], 'after the errors and routes stages vs Express').toEqual(answers.express[i]);
        expect(answers.shim[i], 'after the shim vs Express').toEqual(answers.express[i]);
      });
    });

    it('answers what the handlers say (not a framework default)', () => {
      const byPath = (p: string) => answers.errors[REQUESTS.findIndex((r) => r.path === p)];
      expect(byPath('/no/such/page?x=1').status).toBe(404);
      expect(byPath('/throw').status).toBe(500);
      if (app.name === 'express-generator-views') {
        // The error view, rendered by @fastify/view with app.locals, the middleware's and the handler's res.locals.
        expect(byPath('/no/such/page?x=1')).toMatchObject({ status: 404, type: 'text/html; charset=utf-8' });
        expect(byPath('/no/such/page?x=1').body).toContain('<title>Generated: Not Found</title>');
        expect(byPath('/no/such/page?x=1').body).toContain('<p>request none</p>');
        expect(byPath('/teapot').body).toContain('<h1>short and stout</h1>');
        expect(byPath('/').body).toBe('<h1>Express at Generated (none)</h1>\n');
        return;
      }
      if (app.name === 'runtime-next-to-404') {
        // next() in the error handler reached the app's 404 handler, as in Express.
        expect(byPath('/gone')).toMatchObject({ status: 404, body: 'Cannot GET /gone' });
        expect(byPath('/teapot').status).toBe(418);
        return;
      }
      if (app.name === 'runtime-forward') {
        // The converter and the 404 handed the error to the handler with a direct call: converted, then answered by it.
        expect(JSON.parse(byPath('/no/such/page?x=1').body)).toEqual({ code: 404, message: 'Not found' });
        expect(byPath('/teapot')).toMatchObject({ status: 418, xError: 'ApiError', body: JSON.stringify({ code: 418, message: 'short and stout' }) });
        expect(byPath('/gone')).toMatchObject({ status: 410, xError: 'ApiError', body: JSON.stringify({ code: 410, message: 'Internal Server Error' }) });
        return;
      }
      if (app.name === 'runtime-chain' || app.name === 'runtime-factory') {
        // Each next(err) reached the next handler: converted to an ApiError, logged, answered (in production a converted error is a 500).
        expect(JSON.parse(byPath('/no/such/page?x=1').body)).toEqual({ code: 404, message: 'Not found' });
        expect(byPath('/teapot')).toMatchObject({ status: 418, xError: 'ApiError' });
        expect(byPath('/gone')).toMatchObject({ status: 500, xError: 'ApiError', body: JSON.stringify({ code: 500, message: 'Internal Server Error' }) });
        return;
      }
      expect(answers.errors[REQUESTS.findIndex((r) => r.body === '{"a":')].status).toBe(400);

      if (app.name === 'express-generator') {
        // next(createError(404)) → reply.send(err) → the app's error handler, now Fastify's.
        expect(JSON.parse(byPath('/no/such/page?x=1').body)).toEqual({ message: 'Not Found', status: 404 });
        return;
      }
      expect(byPath('/teapot').status).toBe(418);
      expect(byPath('/teapot').type).toBe('text/html; charset=utf-8');
      expect(byPath('/async').status).toBe(500);
    });
  });
}
