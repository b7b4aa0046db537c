/**
 * The readiness `migrate analyze` gives on an untouched app is what the stages then do (issue 15),
 * on app shapes that public apps have: the routes rated to move at the routes stage are the ones
 * it moves after the shim and errors stages, those rated `later` the ones it leaves for a later
 * stage, the rest manual. (The example apps are checked in test/e2e/stages.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { analyzeWithReadiness } from '../../runner/readiness.js';
import { runStage } from '../../runner/run.js';
import { project } from '../helpers/tmp.js';

const PKG = JSON.stringify({ name: 'shape', private: true, main: 'app.js', dependencies: { express: '^4.21.2', 'cookie-parser': '^1.4.7' } });

/** The ratings before any stage, and the routes stage's verdicts after shim and errors ran. */
async function ratedAndDone(files: Record<string, string>) {
  const root = project({ 'package.json': PKG, ...files });
  const rated = (await analyzeWithReadiness({ dir: root })).readiness!.routes;
  for (const stage of ['shim', 'errors'] as const) await runStage({ root, stage, allowDirty: true });
  const routes = await runStage({ root, stage: 'routes', allowDirty: true });
  const verdicts = routes.verdicts.filter((v) => v.kind === 'route');
  const key = (id: string) => rated.find((r) => r.id === id)?.key ?? id;
  return {
    rated: rated.map((r) => [r.key, r.readiness, r.stage ?? null]).sort(),
    done: verdicts.map((v) => [key(v.id), v.moves ? 'moves' : (v.waitsFor ?? 'stays')]).sort(),
  };
}

/** Readiness and verdicts in the same words: moves ↔ stage routes, a later stage ↔ `later`, stays ↔ `manual`. */
function sameDecision({ rated, done }: Awaited<ReturnType<typeof ratedAndDone>>): void {
  const expected = done.map(([key, outcome]) => [key, outcome === 'moves' ? 'routes' : outcome === 'stays' ? 'manual' : outcome]);
  expect(rated.map(([key, readiness, stage]) => [key, readiness === 'manual' ? 'manual' : stage])).toEqual(expected);
}

describe('readiness is what the stages do', () => {
  it('the error handler is written in the file that starts the app: it moves (the generated module requires it when a request comes), so the routes it catches move too', async () => {
    const result = await ratedAndDone({
      'routes.js': "const express = require('express');\nconst router = express.Router();\nrouter.get('/users/:id', (req, res) => res.json({ id: req.params.id }));\nmodule.exports = router;\n",
      'app.js': "const express = require('express');\nconst routes = require('./routes');\nconst app = express();\napp.use('/api', routes);\napp.use((err, req, res, next) => {\n  res.status(500).json({ error: err.message });\n});\napp.listen(process.env.PORT || 3000);\n",
    });
    expect(result.done).toEqual([['GET /api/users/:id', 'moves']]);
    sameDecision(result);
  }, 60_000);

  it('routes that move, one that waits for the plugins stage, one that stays', async () => {
    const result = await ratedAndDone({
      'routes.js': [
        "const express = require('express');",
        'const router = express.Router();',
        "router.get('/a', (req, res) => res.json({ a: 1 }));",
        "router.get('/report', (req, res) => { res.download('report.pdf'); });",
        "router.get('/stream', (req, res) => { res.write('a'); res.end(); });",
        'module.exports = router;',
        '',
      ].join('\n'),
      'errors.js': 'module.exports = function errorHandler(err, req, res, next) {\n  res.status(err.status || 500).json({ error: err.message });\n};\n',
      'app.js': "const express = require('express');\nconst routes = require('./routes');\nconst errorHandler = require('./errors');\nconst app = express();\napp.use(express.json());\napp.use('/api', routes);\napp.use(errorHandler);\nmodule.exports = app;\n",
      'server.js': "const app = require('./app');\napp.listen(process.env.PORT || 3000);\n",
    });
    expect(result.done).toEqual([
      ['GET /api/a', 'moves'],
      ['GET /api/report', 'plugins'],
      ['GET /api/stream', 'stays'],
    ]);
    sameDecision(result);
  }, 60_000);
});
