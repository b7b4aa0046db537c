/**
 * The `plugins` stage's third step, `plugins-views` (transforms/plugins-views/,
 * server-module/root-views.ts): the @fastify/view registration the routes stage put in movedRoutes
 * goes to the root of the Fastify app. Fixture pairs (fixtures/transforms/plugins-views/): output
 * byte for byte, a second run changes nothing; the TypeScript output type-checks; on real HTTP the
 * `pages` case answers as its Express app did (pages rendered with app.locals, res.locals set by the
 * app's middleware through the bridge, a 404); and the root context of the built Fastify app has
 * `reply.view`, which only the moved routes' plugin had before.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { answers, copyOf, withDeclaredExpress } from '../helpers/app-answers.js';
import { caseOptions, expectFixture, fixtureCases, runFixture, TRANSFORM_FIXTURES, tscOutput } from '../helpers/transform-fixtures.js';

const STEP = 'plugins-views';

describe('plugins-views fixtures', () => {
  for (const name of fixtureCases(STEP)) {
    it(name, async () => {
      const run = await expectFixture(STEP, name, 'plugins');
      expect(run.result.moved.find((m) => m.step === STEP)?.done, 'registrations moved').toBe(1);
    }, 60_000);
  }
});

describe('the views registered at the root', () => {
  it('pages: answers as the Express app did, after routes and after plugins (real HTTP)', async () => {
    const { requests, headers } = caseOptions(STEP, 'pages');
    const dir = path.join(TRANSFORM_FIXTURES, STEP, 'pages');
    const express = await answers(withDeclaredExpress(copyOf(path.join(dir, 'express'))), requests!, headers);
    expect(express.filter((a) => a.includes('→ 200 text/html')).length, 'pages rendered by Express').toBe(5);
    expect(await answers(withDeclaredExpress(copyOf(path.join(dir, 'input'))), requests!, headers), 'after routes').toEqual(express);
    const run = await runFixture(STEP, 'pages', 'plugins');
    expect(await answers(withDeclaredExpress(run.root), requests!, headers), 'after plugins').toEqual(express);
  }, 60_000);

  it('pages: the root context renders (reply.view), not only the moved routes', async () => {
    const dir = path.join(TRANSFORM_FIXTURES, STEP, 'pages');
    const hasView = async (root: string) => {
      const load = createRequire(path.join(root, 'app.js'));
      const { buildFastify } = load('./fastify-server.js');
      const fastify = buildFastify(load('./app.js'));
      await fastify.ready();
      const has = fastify.hasReplyDecorator('view');
      await fastify.close();
      return has;
    };
    expect(await hasView(withDeclaredExpress(copyOf(path.join(dir, 'input')))), 'after routes').toBe(false);
    expect(await hasView(withDeclaredExpress((await runFixture(STEP, 'pages', 'plugins')).root)), 'after plugins').toBe(true);
  }, 60_000);

  it('replaced-render-ts type-checks after plugins', async () => {
    const { root } = await runFixture(STEP, 'replaced-render-ts', 'plugins');
    expect(tscOutput(root)).toBe('');
  }, 60_000);
});
