/**
 * Pointer patterns (verifier/pointer.ts) and the verify rules file (verifier/verify-rules.ts):
 * loading and schema errors, each action, scopes, dead rules.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffResponses } from '../../verifier/diff.js';
import type { CanonicalResponse } from '../../verifier/model.js';
import { canonicalize } from '../../verifier/normalize.js';
import { compilePattern, formatPointer, matches, matchesOrBelow, parsePointer } from '../../verifier/pointer.js';
import { loadVerifyRules, parseVerifyRules, type VerifyRule } from '../../verifier/verify-rules.js';
import { project } from '../helpers/tmp.js';

const JSON_UTF8: [string, string] = ['content-type', 'application/json; charset=utf-8'];
const json = (value: unknown, headers: Array<[string, string]> = [], status = 200): CanonicalResponse =>
  canonicalize({ status, headers: [JSON_UTF8, ...headers], body: Buffer.from(JSON.stringify(value)) });

/** Diffs with the rules in scope for the request and filters; returns what is kept and who suppressed what. */
function judge(rules: VerifyRule[], baseline: CanonicalResponse, candidate: CanonicalResponse, ctx = { requestId: 'e1', routeKey: 'GET /users/:id' }) {
  const set = parseVerifyRules({ rules }, 'test');
  const scope = set.forRequest(ctx);
  const result = scope.filter(diffResponses(baseline, candidate, scope.diffOptions), baseline, candidate);
  return { ...result, set, why: result.suppressed.map((s) => `${s.difference.pointer} ${s.difference.kind} ← ${s.rule} ${s.action} ${s.pattern}`) };
}

describe('JSON Pointers and patterns', () => {
  it('formats and parses RFC 6901 pointers with ~0 / ~1 escaping', () => {
    expect(formatPointer(['body', 'a/b', 'm~n', 0])).toBe('/body/a~1b/m~0n/0');
    expect(parsePointer('/body/a~1b/m~0n/0')).toEqual(['body', 'a/b', 'm~n', '0']);
    expect(parsePointer('/body/~01')).toEqual(['body', '~1']);
    expect(parsePointer('')).toEqual([]);
    expect(() => parsePointer('body')).toThrow('must be empty or start with "/"');
    expect(() => parsePointer('/a~2')).toThrow('"~" must be followed by 0 or 1');
  });

  it('matches "*" as exactly one segment and "**" as zero or more', () => {
    expect(matches('/body/items/*/id', '/body/items/3/id')).toBe(true);
    expect(matches('/body/items/*/id', '/body/items/id')).toBe(false);
    expect(matches('/body/items/*/id', '/body/items/3/4/id')).toBe(false);
    expect(matches('/body/**/updatedAt', '/body/updatedAt')).toBe(true);
    expect(matches('/body/**/updatedAt', '/body/a/0/b/updatedAt')).toBe(true);
    expect(matches('/body/**/updatedAt', '/body/a/updatedAt/x')).toBe(false);
    expect(matches('/**', '/status')).toBe(true);
  });

  it('never matches substrings of a segment (Keploy strings.Contains bug, verifier-design §1.4)', () => {
    expect(matches('/body/items/*/id', '/body/items/0/idempotencyKey')).toBe(false);
    expect(matchesOrBelow('/body/items/*/id', '/body/items/0/idempotencyKey')).toBe(false);
    expect(matchesOrBelow('/body/user', '/body/username')).toBe(false);
    expect(matches('header:x-request', '/headers/x-request-id')).toBe(false);
  });

  it('matchesOrBelow covers the node and everything inside it', () => {
    expect(matchesOrBelow('/body/user', '/body/user')).toBe(true);
    expect(matchesOrBelow('/body/user', '/body/user/roles/0')).toBe(true);
    expect(matchesOrBelow('/body/user', '/body')).toBe(false);
    expect(matchesOrBelow('/body/*/meta', '/body/a/meta/x')).toBe(true);
  });

  it('expands header: and cookie: shorthands; header names are case-insensitive; content-type means /mediaType and /charset', () => {
    expect(matches('header:X-Request-Id', '/headers/x-request-id')).toBe(true);
    expect(matches('/headers/X-Request-Id', '/headers/x-request-id')).toBe(true);
    expect(matches('cookie:sid', '/cookies/sid')).toBe(true);
    expect(matches('cookie:SID', '/cookies/sid')).toBe(false);
    expect(matchesOrBelow('cookie:sid', '/cookies/sid/httpOnly')).toBe(true);
    expect(matches('header:content-type', '/mediaType')).toBe(true);
    expect(matches('header:Content-Type', '/charset')).toBe(true);
    expect(matchesOrBelow('header:set-cookie', '/cookies/sid/path')).toBe(true);
    expect(matches('/body/a~1b', ['body', 'a/b'])).toBe(true);
    expect(() => compilePattern('header:')).toThrow('invalid pattern "header:"');
  });
});

describe('loading the rules file', () => {
  const write = (content: string) => {
    const dir = project({ '.migrate/verify.json': content });
    return path.join(dir, '.migrate/verify.json');
  };

  it('gives empty rules for a missing file', () => {
    const rules = loadVerifyRules(path.join(project({}), '.migrate/verify.json'));
    expect(rules.rules).toEqual([]);
    const a = json({ id: 1 });
    const b = json({ id: 2 });
    const scope = rules.forRequest({ requestId: 'e1' });
    expect(scope.filter(diffResponses(a, b, scope.diffOptions), a, b)).toEqual({ kept: [{ pointer: '/body/id', kind: 'value', baseline: 1, candidate: 2 }], suppressed: [] });
    expect(rules.deadRules()).toEqual([]);
  });

  it('loads the documented example', () => {
    const file = write(
      JSON.stringify({
        rules: [
          {
            id: 'optional-name',
            reason: 'why',
            scope: { route: 'GET /users/:id', request: 'e12' },
            ignore: ['/body/**/createdAt', 'header:x-request-id'],
            ignoreValue: ['/body/token'],
            match: { '/body/id': '^[0-9a-f-]{36}$' },
            tolerance: { '/body/total': 0.01, '/body/updatedAt': '2s' },
            unordered: ['/body/items'],
            keyBy: { '/body/users': 'id' },
            subset: ['/body'],
          },
        ],
      }),
    );
    const rules = loadVerifyRules(file);
    expect(rules.source).toBe(file);
    expect(rules.rules[0].id).toBe('optional-name');
    expect(rules.deadRules().map((d) => `${d.rule} ${d.action} ${d.pattern}`)).toEqual([
      'optional-name ignore /body/**/createdAt',
      'optional-name ignore header:x-request-id',
      'optional-name ignoreValue /body/token',
      'optional-name match /body/id',
      'optional-name tolerance /body/total',
      'optional-name tolerance /body/updatedAt',
      'optional-name subset /body',
      'optional-name unordered /body/items',
      'optional-name keyBy /body/users',
    ]);
  });

  it('names the file on invalid JSON', () => {
    const file = write('{ "rules": [ ');
    expect(() => loadVerifyRules(file)).toThrow(`${file}: invalid JSON:`);
  });

  it('names the file and the JSON path of each schema violation', () => {
    const file = write(
      JSON.stringify({
        rules: [
          { ignor: ['/body/a'], ignore: ['/body/a', 'body/x'], scope: { route: 'GET /a', user: 'x' } },
          { tolerance: { '/body/updatedAt': '2 s', '/body/total': -1 }, match: { 'body/id': '^x$' }, keyBy: { '/body/users': 7 } },
        ],
      }),
    );
    let message = '';
    try {
      loadVerifyRules(file);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n')).toEqual([
      `${file}: invalid verify rules:`,
      '  $.rules[0].ignor: unknown property',
      '  $.rules[0].scope.user: unknown property',
      '  $.rules[0].ignore[1]: not a pointer pattern (must start with "/", "header:" or "cookie:")',
      '  $.rules[1].match["body/id"]: not a pointer pattern (must start with "/", "header:" or "cookie:")',
      '  $.rules[1].tolerance["/body/updatedAt"]: a duration is written like "500ms", "2s", "1m" or "1h"',
      '  $.rules[1].tolerance["/body/total"]: must be >= 0',
      '  $.rules[1].keyBy["/body/users"]: must be string',
    ]);
    expect(() => parseVerifyRules({}, 'inline')).toThrow("inline: invalid verify rules:\n  $: must have required property 'rules'");
  });

  it('rejects, naming the rule, an invalid regex, a bad pointer escape, a rule without action and a duplicate id', () => {
    const rules = [{ id: 'uuid', match: { '/body/id': '[0-9' } }, { id: 'uuid', ignore: ['/body/a~2b'] }, { reason: 'nothing to do' }];
    expect(() => parseVerifyRules({ rules }, 'verify.json')).toThrow(
      [
        'verify.json: invalid verify rules:',
        '  $.rules[0].match["/body/id"] (rule "uuid"): Invalid regular expression: /[0-9/: Unterminated character class',
        '  $.rules[1].ignore[0] (rule "uuid"): invalid pattern "/body/a~2b": invalid JSON Pointer token "a~2b": "~" must be followed by 0 or 1',
        '  $.rules[2] (rule "rules[2]"): no action (one of ignore, ignoreValue, match, tolerance, subset, unordered, keyBy)',
        '  $.rules[1].id: duplicate rule id "uuid"',
      ].join('\n'),
    );
  });
});

describe('rule actions', () => {
  it('ignore: everything at or below the pattern, headers by shorthand', () => {
    const a = json({ user: { id: 1, createdAt: '2025-01-01T00:00:00Z', posts: [{ createdAt: 'a' }] }, meta: { trace: { id: 'x' } } }, [['X-Request-Id', 'r1']]);
    const b = json({ user: { id: 2, createdAt: '2025-01-02T00:00:00Z', posts: [{ createdAt: 'b' }] }, meta: { trace: { id: 'y', span: 1 } } }, [['x-request-id', 'r2']]);
    const r = judge([{ id: 'volatile', ignore: ['/body/**/createdAt', 'header:x-request-id', '/body/meta'] }], a, b);
    expect(r.kept).toEqual([{ pointer: '/body/user/id', kind: 'value', baseline: 1, candidate: 2 }]);
    expect(r.why).toEqual([
      '/body/meta/trace/id value ← volatile ignore /body/meta',
      '/body/meta/trace/span extra ← volatile ignore /body/meta',
      '/body/user/createdAt value ← volatile ignore /body/**/createdAt',
      '/body/user/posts/0/createdAt value ← volatile ignore /body/**/createdAt',
      '/headers/x-request-id header ← volatile ignore header:x-request-id',
    ]);
  });

  it('ignoreValue: value and type waived, presence still required', () => {
    const rule: VerifyRule = { id: 'token', ignoreValue: ['/body/token', 'header:etag'] };
    const withToken = judge([rule], json({ token: 'abc' }, [['ETag', 'W/"1"']]), json({ token: 42 }, [['etag', '"2"']]));
    expect(withToken.kept).toEqual([]);
    expect(withToken.why).toEqual(['/body/token type ← token ignoreValue /body/token', '/headers/etag header ← token ignoreValue header:etag']);
    // Fastify sends no ETag and drops the token: both still count (mapping §2.3).
    const lost = judge([rule], json({ token: 'abc' }, [['ETag', 'W/"1"']]), json({}));
    expect(lost.kept).toEqual([
      { pointer: '/body/token', kind: 'missing', baseline: 'abc' },
      { pointer: '/headers/etag', kind: 'header', baseline: 'W/"1"' },
    ]);
    expect(lost.set.deadRules()).toEqual([]);
  });

  it('ignoreValue on a cookie waives its value only: a lost HttpOnly still counts', () => {
    const a = json({}, [['Set-Cookie', 'sid=s%3Aaaa; Path=/; HttpOnly']]);
    const b = json({}, [['set-cookie', 'sid=s%3Abbb; Path=/']]);
    const r = judge([{ ignoreValue: ['cookie:sid'] }], a, b);
    expect(r.kept).toEqual([{ pointer: '/cookies/sid/httpOnly', kind: 'value', baseline: true, candidate: false }]);
    expect(r.why).toEqual(['/cookies/sid/value value ← rules[0] ignoreValue cookie:sid']);
    expect(judge([{ ignoreValue: ['cookie:sid'] }], a, json({})).kept).toEqual([{ pointer: '/cookies/sid', kind: 'missing', baseline: { value: 's%3Aaaa', path: '/', httpOnly: true, secure: false } }]);
  });

  it('match: waived when both values match the regex', () => {
    const rule: VerifyRule = { id: 'uuid', match: { '/body/id': '^[0-9a-f-]{36}$', '/status': '^20[01]$' } };
    const a = json({ id: '0b6c5d2e-7f6a-4c1e-9a8b-1d2e3f4a5b6c' });
    expect(judge([rule], a, json({ id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b' }, [], 201)).why).toEqual(['/body/id value ← uuid match /body/id', '/status status ← uuid match /status']);
    expect(judge([rule], a, json({ id: 'not-a-uuid' })).kept).toEqual([{ pointer: '/body/id', kind: 'value', baseline: '0b6c5d2e-7f6a-4c1e-9a8b-1d2e3f4a5b6c', candidate: 'not-a-uuid' }]);
    expect(judge([{ match: { '/body/n': '^\\d+$' } }], json({ n: 1 }), json({ n: 2 })).kept).toEqual([]);
  });

  it('tolerance: numbers within an absolute bound, dates within a window', () => {
    const rule: VerifyRule = { id: 'tol', tolerance: { '/body/total': 0.01, '/body/updatedAt': '2s', 'header:last-modified': '1m' } };
    expect(judge([rule], json({ total: 1.1 }), json({ total: 1.11 })).kept).toEqual([]);
    expect(judge([rule], json({ total: '10.00' }), json({ total: '10.01' })).kept).toEqual([]);
    expect(judge([rule], json({ total: 10 }), json({ total: 10.02 })).kept).toEqual([{ pointer: '/body/total', kind: 'value', baseline: 10, candidate: 10.02 }]);
    expect(judge([rule], json({ updatedAt: '2025-03-04T10:00:00.000Z' }), json({ updatedAt: '2025-03-04T10:00:01.500Z' })).kept).toEqual([]);
    expect(judge([rule], json({ updatedAt: '2025-03-04T10:00:00.000Z' }), json({ updatedAt: '2025-03-04T10:00:03.000Z' })).kept).toHaveLength(1);
    expect(judge([rule], json({ updatedAt: '1' }), json({ updatedAt: '2' })).kept).toHaveLength(1);
    const lm = judge([rule], json({}, [['Last-Modified', 'Tue, 04 Mar 2025 10:00:00 GMT']]), json({}, [['last-modified', 'Tue, 04 Mar 2025 10:00:59 GMT']]));
    expect(lm.why).toEqual(['/headers/last-modified header ← tol tolerance header:last-modified']);
  });

  it('unordered and keyBy reach the diff through diffOptions', () => {
    const rules: VerifyRule[] = [{ id: 'sets', unordered: ['/body/tags'], keyBy: { '/body/users': 'id' } }];
    const a = json({ tags: ['a', 'b'], users: [{ id: 1, n: 'x' }, { id: 2, n: 'y' }] });
    const b = json({ tags: ['b', 'a'], users: [{ id: 2, n: 'y' }, { id: 1, n: 'X' }] });
    const r = judge(rules, a, b);
    expect(r.kept).toEqual([{ pointer: '/body/users/0/n', kind: 'value', baseline: 'x', candidate: 'X' }]);
    expect(r.set.deadRules()).toEqual([]);
    expect(parseVerifyRules({ rules }, 't').forRequest({ requestId: 'e1' }).diffOptions).toMatchObject({ unordered: ['/body/tags'], keyBy: [{ pattern: '/body/users', key: 'id' }] });
  });

  it('subset: what the candidate adds is waived, what it lacks is not', () => {
    const rule: VerifyRule = { id: 'superset', subset: ['/body', '/headers'] };
    const a = json({ user: { id: 1 }, items: [1, 2] });
    const b = json({ user: { id: 1, avatar: null }, items: [1, 2, 3] }, [['x-response-time', '3ms']]);
    expect(judge([rule], a, b).why).toEqual([
      '/body/items size ← superset subset /body',
      '/body/user/avatar extra ← superset subset /body',
      '/headers/x-response-time header ← superset subset /headers',
    ]);
    expect(judge([rule], b, a).kept.map((d) => `${d.pointer} ${d.kind}`)).toEqual(['/body/items size', '/body/user/avatar missing', '/headers/x-response-time header']);
    expect(judge([rule], json({ items: [1, 2] }), json({ items: [2, 3, 4] })).kept.map((d) => d.kind)).toEqual(['size']);
  });

  it('credits the first rule that waives a difference, and still counts later rules as matched', () => {
    const r = judge([{ id: 'first', ignore: ['/body/a'] }, { id: 'second', ignoreValue: ['/body/a'] }], json({ a: 1 }), json({ a: 2 }));
    expect(r.why).toEqual(['/body/a value ← first ignore /body/a']);
    expect(r.set.deadRules()).toEqual([]);
  });
});

describe('scopes and dead rules', () => {
  const rules: VerifyRule[] = [
    { id: 'users-route', scope: { route: 'GET /users/:id' }, ignore: ['/body/lastSeen'] },
    { id: 'one-request', scope: { request: 'e12' }, ignore: ['/body/lastSeen', '/body/flaky'] },
    { id: 'both', scope: { route: 'GET /users/:id', request: 'e3' }, ignore: ['/body/lastSeen'] },
    { ignore: ['header:x-request-id'], unordered: ['/body/roles'] },
  ];
  const a = json({ lastSeen: 1 });
  const b = json({ lastSeen: 2 });

  it('applies a route-scoped rule only to that route, a request-scoped one only to that request', () => {
    const set = parseVerifyRules({ rules }, 't');
    const run = (requestId: string, routeKey?: string | null) => {
      const scope = set.forRequest({ requestId, routeKey });
      return scope.filter(diffResponses(a, b, scope.diffOptions), a, b).suppressed.map((s) => s.rule);
    };
    expect(run('e1', 'GET /users/:id')).toEqual(['users-route']);
    expect(run('e1', 'GET /orders/:id')).toEqual([]);
    expect(run('e1', null)).toEqual([]);
    expect(run('e12', 'GET /orders/:id')).toEqual(['one-request']);
    expect(run('e3', 'GET /orders/:id')).toEqual([]);
    expect(run('e3', 'GET /users/:id')).toEqual(['users-route']);
    expect(set.deadRules()).toEqual([
      { rule: 'one-request', action: 'ignore', pattern: '/body/flaky' },
      { rule: 'rules[3]', action: 'ignore', pattern: 'header:x-request-id' },
      { rule: 'rules[3]', action: 'unordered', pattern: '/body/roles' },
    ]);
  });

  it('an unordered/keyBy pattern is alive once it meets an array, even without a difference', () => {
    const set = parseVerifyRules({ rules: [{ unordered: ['/body/roles'], keyBy: { '/body/users': 'id', '/body/roles': 'id' } }] }, 't');
    const scope = set.forRequest({ requestId: 'e1' });
    const same = json({ roles: ['a'], users: { id: 1 } });
    expect(diffResponses(same, same, scope.diffOptions)).toEqual([]);
    expect(set.deadRules()).toEqual([{ rule: 'rules[0]', action: 'keyBy', pattern: '/body/users' }]);
  });
});
