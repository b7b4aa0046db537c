/** Readiness causes: the findings that hold routes back, one per rule and place, with how many routes. */
import { describe, expect, it } from 'vitest';
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
