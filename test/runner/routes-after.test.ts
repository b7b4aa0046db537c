/**
 * After a written `plugins` stage the run plans the routes stage again (issue 19 item 5,
 * runner/routes-after.ts): the routes it moves now are listed, and the summary's Next says to run
 * it; the routes it still leaves for the plugins stage are listed with their reasons.
 */
import { describe, expect, it } from 'vitest';
import { runStage } from '../../runner/run.js';
import { renderSummary } from '../../runner/summary.js';
import { project } from '../helpers/tmp.js';

const APP = [
  "const express = require('express');",
  'const app = express();',
  "app.get('/ping', (req, res) => res.json({ ok: true }));",
  // A route middleware of a package no adapter runs unchanged: it waits for the plugins stage.
  "app.post('/notes', express.text(), (req, res) => res.status(201).send(req.body));",
  'module.exports = app;',
  '',
].join('\n');

describe('the routes the plugins stage leaves to the routes stage', () => {
  it('lists the routes the routes stage moves now and those still waiting, and says to run it', async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'routes-after', main: 'server.js', dependencies: { express: '^4.21.2' } }),
      'app.js': APP,
      'server.js': "const app = require('./app');\napp.listen(3000);\n",
    });
    // The routes stage not run yet: the plugins stage runs after errors, as the docs allow.
    for (const stage of ['shim', 'errors'] as const) expect((await runStage({ root, stage, allowDirty: true })).exitCode).toBe(0);
    const result = await runStage({ root, stage: 'plugins', allowDirty: true });
    expect(result.routesAfter).toEqual({
      movable: ['GET /ping'],
      waiting: [expect.objectContaining({ file: 'app.js', line: 4, stage: 'plugins', reason: expect.stringMatching(/^POST \/notes stays on Express until then: its middleware express\.text \[express\]/) })],
    });
    const text = renderSummary(result);
    expect(text).toContain('run the routes stage again, which moves the route it left for this stage: `migrate run --stage routes` (GET /ping)');
    expect(text).toContain('Routes still waiting for the plugins stage (1): what it does not move yet\n  app.js:4 POST /notes stays on Express until then');
    // Not computed for another stage.
    expect((await runStage({ root, stage: 'routes', allowDirty: true })).routesAfter).toBeUndefined();
  }, 120_000);
});
