/**
 * What `migrate analyze` says after each stage must be true (issue 7): the findings a stage
 * resolved are gone, none is planned again for a stage that already ran, and the texts that name
 * a stage say what the stage does (docs/stages/*.md). Example apps run through the real runner on
 * temporary copies (fixtures/apps is never touched).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Finding, Inventory } from '../../analyzer/model.js';
import { runStage } from '../../runner/run.js';
import { FRAMEWORK_DEFAULTS } from '../../rules/catalogue/framework-defaults.js';
import { runRules } from '../../rules/index.js';
import { copyOf, project } from '../helpers/tmp.js';

const APPS = path.resolve(import.meta.dirname, '../../fixtures/apps');

const brief = (f: Finding) => `${f.rule} [${f.stage}] ${f.message.slice(0, 80)}`;

async function rulesOn(dir: string): Promise<Inventory> {
  return runRules(await analyze({ dir }));
}

describe('example apps through shim, then errors', () => {
  // url-shortener listens on every interface (app.listen(port, cb)); modern-e5 names its host.
  it.each([['url-shortener', 1], ['modern-e5', 0]])('%s', async (app, listenHost) => {
    const dir = copyOf(path.join(APPS, app));
    const before = await rulesOn(dir);
    expect(before.findings!.filter((f) => f.rule === 'listen-host').length).toBe(listenHost);

    await runStage({ root: dir, stage: 'shim', allowDirty: true, workers: 1 });
    const shimmed = await rulesOn(dir);
    // The shim ran: nothing is planned for it any more; listen keeps the app's arguments.
    expect(shimmed.findings!.filter((f) => f.stage === 'shim').map(brief)).toEqual([]);
    expect(shimmed.findings!.filter((f) => f.rule === 'listen-host')).toEqual([]);
    // The bridge mount at / is not a router mount: no "mounted at / → /admin".
    expect(shimmed.findings!.filter((f) => / at \/ → /.test(f.message)).map(brief)).toEqual([]);

    await runStage({ root: dir, stage: 'errors', allowDirty: true, workers: 1 });
    const moved = await rulesOn(dir);
    // The app's error handler is Fastify's now: its reads were rewritten, and nothing is planned for errors.
    expect(moved.findings!.filter((f) => f.stage === 'shim' || f.stage === 'errors').map(brief)).toEqual([]);
    expect(moved.findings!.filter((f) => f.rule === 'err-status' || (f.rule === 'default-pages' && f.message.includes('no error handler'))).map(brief)).toEqual([]);
  }, 60_000);

  it('modern-e5: its own 404 moved to setNotFoundHandler, so no default-pages finding is left', async () => {
    const dir = copyOf(path.join(APPS, 'modern-e5'));
    expect((await rulesOn(dir)).findings!.filter((f) => f.rule === 'default-pages')).toEqual([]);
    await runStage({ root: dir, stage: 'shim', allowDirty: true, workers: 1 });
    await runStage({ root: dir, stage: 'errors', allowDirty: true, workers: 1 });
    expect((await rulesOn(dir)).findings!.filter((f) => f.rule === 'default-pages').map(brief)).toEqual([]);
  }, 60_000);
});

describe('settings of an app Fastify serves', () => {
  /** An ESM Express app with `settings`, and, when `served`, the module the shim writes and a server that listens through it. */
  function app(settings: string, served: boolean): string {
    return project({
      'package.json': JSON.stringify({ name: 's', type: 'module', main: 'server.js', dependencies: { express: '^4.21.0', fastify: '^5.2.0', '@fastify/express': '^4.0.5' } }),
      'app.js': `import express from 'express';\nconst app = express();\n${settings}\napp.get('/', (req, res) => res.json({ ip: req.ip }));\nexport default app;\n`,
      'fastify-server.js': [
        "import Fastify from 'fastify';",
        "import fastifyExpress from '@fastify/express';",
        'export function buildFastify(app) {',
        '  const fastify = Fastify();',
        "  fastify.register(fastifyExpress, { expressHook: 'preHandler' });",
        '  fastify.after(() => fastify.use((req, res, next) => app(req, res, next)));',
        '  return fastify;',
        '}',
        '',
      ].join('\n'),
      'server.js': served
        ? "import app from './app.js';\nimport { buildFastify } from './fastify-server.js';\nbuildFastify(app).listen({ port: 3000, host: '0.0.0.0' });\n"
        : "import app from './app.js';\napp.listen(3000, '0.0.0.0');\n",
    });
  }

  const settings = "app.set('trust proxy', 2);\napp.enable('strict routing');\napp.set('etag', 'strong');";

  it('before the shim: a readable hop count is the shim’s to rewrite; strict routing is copied by the shim; etag is restored with a plugin', async () => {
    const inv = await rulesOn(app(settings, false));
    expect(inv.apps.find((a) => a.name === 'app')!.servedBy).toBeUndefined();
    expect(inv.findings!.filter((f) => f.rule === 'trust-proxy-hops' || f.rule === 'app-settings').map((f) => [f.rule, f.stage, f.autoFixable, f.fastify.slice(0, 40)])).toEqual([
      ['trust-proxy-hops', 'shim', true, 'trustProxy: (address, hop) => hop < 2'],
      ['app-settings', 'shim', true, 'Fastify({ routerOptions: { ignoreTrailin'],
      ['app-settings', 'plugins', true, '@fastify/etag, or an onSend hook using t'],
    ]);
  });

  it('after the shim: what it copied is not planned again', async () => {
    const inv = await rulesOn(app(settings, true));
    expect(inv.apps.find((a) => a.name === 'app')!.servedBy).toBeDefined();
    expect(inv.findings!.filter((f) => f.rule === 'trust-proxy-hops' || f.rule === 'app-settings').map((f) => [f.rule, f.stage])).toEqual([['app-settings', 'plugins']]);
  });

  it('a hop count known only at run time is not copied: for a human, before and after the shim', async () => {
    const runTime = "app.set('trust proxy', Number(process.env.HOPS));";
    const before = (await rulesOn(app(runTime, false))).findings!.filter((f) => f.rule === 'trust-proxy-hops');
    const after = (await rulesOn(app(runTime, true))).findings!.filter((f) => f.rule === 'trust-proxy-hops');
    expect(before.map((f) => [f.stage, f.autoFixable])).toEqual([['shim', false]]);
    expect(after.map((f) => [f.stage, f.autoFixable])).toEqual([['manual', false]]);
  });
});

describe('framework defaults name what the stages do now (docs/stages/shim.md, errors.md)', () => {
  it('no fix text says a stage is not built yet', () => {
    expect(Object.values(FRAMEWORK_DEFAULTS).filter((d) => /not built/.test(d.fix)).map((d) => d.id)).toEqual([]);
  });

  it("the 404 and error pages: the shim restores Express's with --parity express (finalhandler); the errors stage moves the app's own handlers", () => {
    for (const d of [FRAMEWORK_DEFAULTS['default-404-body'], FRAMEWORK_DEFAULTS['default-error-body']]) {
      expect(d.fix).toContain('`migrate run --stage shim --parity express`');
      expect(d.fix).toContain('`finalhandler`');
      expect(d.fix).toContain('the `errors` stage');
    }
  });

  it('body-parser errors: the status read the errors stage writes', () => {
    expect(FRAMEWORK_DEFAULTS['body-parser-errors'].fix).toContain('`err.status || err.statusCode`');
    expect(FRAMEWORK_DEFAULTS['body-parser-errors'].fix).not.toContain('statusCode ?? err.status');
  });
});
