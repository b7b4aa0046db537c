/**
 * The framework delta `next-non-error` (rules/catalogue/framework-defaults.ts): Express gives any
 * value passed to next(err) to the error middleware; the routes stage writes `reply.send(err)` for
 * next(err) in a sync handler and in a callback, and Fastify sends a value that is not an Error as
 * the answer. Checked at run time against Express 4 and Fastify 5, and reported by the stage.
 */
import express from 'express';
import Fastify from 'fastify';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_DEFAULTS } from '../../rules/catalogue/framework-defaults.js';
import { runFixture, withRoutesApp } from '../helpers/transform-fixtures.js';

const TITLE = FRAMEWORK_DEFAULTS['next-non-error'].title;
const FIND = 'const find = async (id) => ({ id });\n';

/** The error handler of both apps: a string is the app's own message (400), anything else a 500. */
const answerOf = (err: unknown): [number, object] => (typeof err === 'string' ? [400, { message: err }] : [500, { message: (err as Error).message }]);

async function viaExpress(reason: unknown): Promise<[number, string]> {
  const app = express();
  app.get('/', (_req, _res, next) => void Promise.reject(reason).catch(next));
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const [status, body] = answerOf(err);
    res.status(status).json(body);
  });
  const res = await request(app).get('/');
  return [res.status, res.text];
}

async function viaFastify(reason: unknown): Promise<[number, string]> {
  const fastify = Fastify();
  fastify.setErrorHandler((err, _request, reply) => {
    const [status, body] = answerOf(err);
    void reply.code(status).send(body);
  });
  // What the routes stage writes for `.catch(next)` in a sync handler (handler-rewrite/flow.ts).
  fastify.get('/', (_request, reply) => void Promise.reject(reason).catch((err) => reply.send(err)));
  const res = await fastify.inject({ method: 'GET', url: '/' });
  await fastify.close();
  return [res.statusCode, res.body];
}

describe('next-non-error', () => {
  it('an Error reaches the error handler on both; a string reaches Express’s but is Fastify’s answer', async () => {
    expect(await viaFastify(new Error('db down'))).toEqual(await viaExpress(new Error('db down')));
    expect(await viaExpress('Username or password is incorrect')).toEqual([400, '{"message":"Username or password is incorrect"}']);
    expect(await viaFastify('Username or password is incorrect')).toEqual([200, 'Username or password is incorrect']);
  });

  it('is reported by the routes stage when a moved handler passes an error on with next from a callback, not when it only throws', async () => {
    const passes = await runFixture('routes-move', 'next-non-error', 'routes', { fixturesDir: withRoutesApp('next-non-error', FIND + "app.get('/users/:id', (req, res, next) => {\n  find(req.params.id).then((user) => res.json(user)).catch(next);\n});\n") });
    expect(passes.result.moved.find((m) => m.step === 'routes-move')?.done).toBe(1);
    const texts = (passes.result.deltas ?? []).map((d) => (typeof d === 'string' ? d : d.text)).filter((t) => t.startsWith(TITLE));
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(FRAMEWORK_DEFAULTS['next-non-error'].fix);
    const throws = await runFixture('routes-move', 'next-non-error', 'routes', { fixturesDir: withRoutesApp('next-non-error', FIND + "app.get('/users/:id', async (req, res) => {\n  res.json(await find(req.params.id));\n});\n") });
    expect(throws.result.moved.find((m) => m.step === 'routes-move')?.done).toBe(1);
    expect((throws.result.deltas ?? []).map((d) => (typeof d === 'string' ? d : d.text)).filter((t) => t.startsWith(TITLE))).toEqual([]);
  }, 60_000);
});
