/**
 * transforms/routes-move/method-override.ts: which forms of method-override the generated listener
 * applies before Fastify routes (the header form, app-level, unconditional, before every route), and
 * why any other form keeps its finding. Read from the inventories of small apps; the run-time
 * comparison with Express is the fixture routes-move/method-override-header.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { methodOverrideOf } from '../../transforms/routes-move/method-override.js';
import { project } from '../helpers/tmp.js';

async function overrideOf(setup: string, routes = "app.put('/x/:id', (req, res) => res.end());\n") {
  const app = `const express = require('express');\nconst methodOverride = require('method-override');\nconst app = express();\n${setup}\n${routes}module.exports = app;\n`;
  const dir = project({ 'package.json': JSON.stringify({ name: 'mo', main: 'app.js', dependencies: { express: '^4.21.2', 'method-override': '^3.0.0' } }), 'app.js': app });
  const inv = await analyze({ dir });
  return methodOverrideOf(inv, inv.apps[0].id);
}

describe('method-override before Fastify routes', () => {
  it('applies the default header form and a header named with X-, lower-cased, on POST', async () => {
    expect(await overrideOf('app.use(methodOverride());')).toEqual({ header: 'x-http-method-override', methods: ['POST'], at: 'app.js:4' });
    expect(await overrideOf("app.use(methodOverride('X-HTTP-Method'));")).toEqual({ header: 'x-http-method', methods: ['POST'], at: 'app.js:4' });
  });

  it('is null without method-override', async () => {
    expect(await overrideOf('app.use(express.json());')).toBeNull();
  });

  it('refuses a query key, a function getter and options', async () => {
    for (const form of ["methodOverride('_method')", 'methodOverride((req) => req.body._method)', "methodOverride('X-M', { methods: ['POST', 'GET'] })"]) {
      expect(await overrideOf(`app.use(${form});`), form).toEqual({ refuse: 'methodOverride at app.js:4 reads something other than a header (a query key or a function), or options' });
    }
  });

  it('refuses a registration under a condition, on a path, and after a route', async () => {
    expect(await overrideOf("if (process.env.LEGACY) app.use(methodOverride());")).toHaveProperty('refuse', 'methodOverride at app.js:4 is registered under a condition or in a way the analysis did not fully read');
    expect(await overrideOf("app.use('/api', methodOverride());")).toHaveProperty('refuse', 'methodOverride at app.js:4 is not app middleware for every path');
    expect(await overrideOf("app.get('/first', (req, res) => res.end());\napp.use(methodOverride());")).toHaveProperty('refuse', 'methodOverride at app.js:5 is registered after routes (GET /first), which Express matches with the method as sent');
  });
});
