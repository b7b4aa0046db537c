/** Readiness causes: the findings that hold routes back, one per rule and place, with how many routes. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { renderText } from '../../report/text.js';
import { runRules } from '../../rules/index.js';
import { readinessOf } from '../../rules/readiness.js';
import { analyzeWithReadiness } from '../../runner/readiness.js';
import { project } from '../helpers/tmp.js';

describe('readiness causes', () => {
  it('one cause for a route middleware used by several routes, counting them', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'r', main: 'app.js', dependencies: { express: '^4.21.0', passport: '^0.7' } }),
      'app.js': [
        "const express = require('express');",
        "const passport = require('passport');",
        'const app = express();',
        "const authorize = (req, res, next) => passport.authenticate('jwt', { session: false })(req, res, next);",
        "app.get('/a', authorize, (req, res) => res.json(req.user));",
        "app.get('/b', authorize, (req, res) => res.json(req.user));",
        '',
      ].join('\n'),
    });
    const inv = await analyzeWithReadiness({ dir });
    expect(inv.readiness!.causes.map((c) => [c.readiness, c.code, `${c.location.file}:${c.location.line}`, c.routes])).toEqual([['assisted', 'middleware-plugin', 'app.js:4', 2]]);
  });
});

describe('routes without a verdict', () => {
  const dir = () =>
    project({
      'package.json': JSON.stringify({ name: 'r', main: 'app.js', dependencies: { express: '^4.21.0' } }),
      'app.js': "const express = require('express');\nconst app = express();\napp.get('/a', (req, res) => res.send('a'));\napp.get('/b', (req, res) => res.send('b'));\napp.listen(3000);\n",
    });

  it('when the routes stage could not be assessed, each route is manual with route-not-assessed naming why, and readiness.unassessed lists the stage', async () => {
    const inv = runRules(await analyze({ dir: dir() }));
    const readiness = readinessOf(inv, inv.findings!, new Map(), [{ stage: 'routes', reason: 'the routes stage moves routes into the Fastify server that the shim stage generates' }]);
    expect(readiness.overall).toEqual({ auto: 0, assisted: 0, later: 0, manual: 2 });
    expect(readiness.routes.map((r) => [r.key, r.blockers.map((b) => [b.code, b.message])])).toEqual([
      ['GET /a', [['route-not-assessed', 'the routes stage could not be assessed: routes: the routes stage moves routes into the Fastify server that the shim stage generates']]],
      ['GET /b', [['route-not-assessed', 'the routes stage could not be assessed: routes: the routes stage moves routes into the Fastify server that the shim stage generates']]],
    ]);
    expect(readiness.unassessed).toEqual([{ stage: 'routes', reason: 'the routes stage moves routes into the Fastify server that the shim stage generates' }]);
    expect(readiness.causes.map((c) => [c.code, c.routes, c.routeIds.length])).toEqual([['route-not-assessed', 1, 1], ['route-not-assessed', 1, 1]]);
    expect(renderText({ ...inv, readiness })).toContain('  not assessed: the routes stage (the routes stage moves routes into the Fastify server that the shim stage generates)');
  });

  it('when every stage was assessed, a route of an app no server module serves is route-no-server, and nothing is unassessed', async () => {
    const inv = runRules(await analyze({ dir: dir() }));
    const readiness = readinessOf(inv, inv.findings!, new Map());
    expect(readiness.routes.map((r) => r.blockers[0].code)).toEqual(['route-no-server', 'route-no-server']);
    expect(readiness.unassessed).toBeUndefined();
  });

  it('a route held by one code at two places counts once in the report', async () => {
    const inv = runRules(await analyze({ dir: dir() }));
    const [a] = inv.routes;
    const at = (line: number) => ({ file: 'app.js', line, column: 1 });
    const readiness = readinessOf(inv, inv.findings!, new Map([[a.id, { moves: false, blockers: [{ code: 'route-later-middleware', message: 'x', location: at(6) }, { code: 'route-later-middleware', message: 'y', location: at(7) }] }]]));
    const text = renderText({ ...inv, readiness });
    expect(text).toContain('  manual because of: route-later-middleware in 2 places (1 route); route-no-server app.js:4 (1 route)');
  });
});
