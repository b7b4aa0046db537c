/**
 * Which replacements of res.send / res.json a moved route's calls run through Express's own method
 * (transforms/routes-move/replaced-send.ts), read from the app's code where the res-method-reassign
 * finding puts them; the fastify-like-express module runs them as Express did
 * (test/transforms/like-express.test.ts checks that at run time).
 */
import { describe, expect, it } from 'vitest';
import type { Finding, Inventory } from '../../analyzer/model.js';
import { jFor } from '../../transforms/lib/ast.js';
import type { ParsedFiles } from '../../transforms/lib/parsed-files.js';
import { replacedSend } from '../../transforms/routes-move/replaced-send.js';

/** The replacement of `api` written at `at` (line:column of `res.<method>` in the source), as the analysis reports it. */
function reading(source: string, api: 'res.send' | 'res.json' | 'res.render', at: [number, number]) {
  const j = jFor('app.js');
  const parsed: ParsedFiles = (file) => (file === 'app.js' ? { j, root: j(source), source } : null);
  const finding = { rule: 'res-method-reassign', subject: 'mw-1', severity: 'warning', message: `middleware replaces ${api}.`, appliesTo: { uses: [api] }, location: { file: 'app.js', line: at[0], column: at[1] } } as unknown as Finding;
  const result = replacedSend({ findings: [finding] } as Pick<Inventory, 'findings'>, parsed);
  return { through: result.through, skipped: Object.fromEntries([...result.skipped].map(([use, s]) => [use, s.reason])), objectSends: result.objectSends };
}

const middleware = (replacement: string) => `app.use((req, res, next) => {\n  const originalSend = res.send;\n  res.send = ${replacement};\n  next();\n});\n`;

describe('replacedSend', () => {
  it('runs a `function` that records the body on res.locals through Express (send, json, sendStatus); res.render and res.jsonp stay', () => {
    const r = reading(middleware('function (body) { res.locals.body = body; return originalSend.call(this, body); }'), 'res.send', [3, 3]);
    expect(r.through).toEqual(['json', 'send', 'sendStatus']);
    expect(Object.keys(r.skipped).sort()).toEqual(['res.jsonp', 'res.render']);
    expect(r.skipped['res.render']).toContain('its Fastify form does not');
  });

  it('keeps every call that reaches an arrow replacement (it calls the original with the middleware\'s res, past Fastify)', () => {
    const r = reading(middleware('(body) => originalSend.call(res, body)'), 'res.send', [3, 3]);
    expect(r.through).toEqual([]);
    expect(Object.keys(r.skipped).sort()).toEqual(['res.json', 'res.jsonp', 'res.render', 'res.send', 'res.sendStatus']);
    expect(r.skipped['res.json']).toContain('not a `function`');
  });

  it("keeps them when the replacement calls a method of the middleware's res", () => {
    const r = reading(middleware("function (body) { res.set('X-Size', String(body.length)); return originalSend.call(this, body); }"), 'res.send', [3, 3]);
    expect(r.through).toEqual([]);
    expect(r.skipped['res.send']).toContain('other than through its properties');
  });

  it('runs res.json and res.send (of objects) through Express where res.json is replaced', () => {
    const r = reading('app.use((req, res, next) => {\n  const json = res.json;\n  res.json = function (body) { return json.call(this, { data: body }); };\n  next();\n});\n', 'res.json', [3, 3]);
    expect(r.through).toEqual(['json', 'send']);
    expect(r.skipped).toEqual({});
    expect(r.objectSends).toBeNull();
  });

  it("keeps res.json where res.json's replacement cannot run there, and tells the rewrite why res.send of a value that may be JSON stays (a string does not reach res.json)", () => {
    const r = reading('app.use((req, res, next) => {\n  const json = res.json;\n  res.json = function (body) { return json.call(res, { data: body }); };\n  next();\n});\n', 'res.json', [3, 3]);
    expect(r.through).toEqual([]);
    expect(Object.keys(r.skipped)).toEqual(['res.json']);
    expect(r.objectSends).toContain('res.send of a value that may be JSON');
  });

  it('leaves other replaced methods to the route blockers (res.render: replaced-render.ts)', () => {
    expect(reading(middleware('function (view) { return view; }').replace('res.send =', 'res.render ='), 'res.render', [3, 3])).toEqual({ through: [], skipped: {}, objectSends: null });
  });

  it('says so when the replacement is not where the analysis put it', () => {
    expect(reading(middleware('function (body) { return originalSend.call(this, body); }'), 'res.send', [9, 1]).skipped['res.send']).toContain('not found where the analysis put it');
  });
});
