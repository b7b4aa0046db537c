/** Route matching rules of the routes stage: overlaps between Express routes, Fastify's precedence, Express 5 optional groups → find-my-way forms. */
import { describe, expect, it } from 'vitest';
import type { Route } from '../../analyzer/model.js';
import { fastifyAgrees, overlaps } from '../../transforms/lib/route-overlap.js';
import { fastifyPaths } from '../../transforms/routes-move/paths.js';

describe('overlaps', () => {
  it.each([
    ['/users/:id', '/users/me', true],
    ['/users/:id', '/users', false],
    ['/users/:id', '/posts/:id', false],
    ['/Users/me', '/users/me', true],
    ['/files/*splat', '/files/a/b', true],
    ['/docs{/*section}', '/health', false],
    ['/docs{/*section}', '/docs', true],
    ['/archive{/:year}{/:month}', '/archive/2020/01', true],
    ['/archive{/:year}{/:month}', '/archive/2020/01/02', false],
    ['/a/:id?', '/a', true],
    ['RegExp(/^\\/archive\\/(\\d{4})$/)', '/anything', true],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(overlaps(a, b)).toBe(expected);
    expect(overlaps(b, a)).toBe(expected);
  });
});

describe('fastifyAgrees (earlier, later)', () => {
  it.each([
    ['/articles/new', '/articles/:slug', true],
    ['/articles/:slug', '/articles/new', false],
    ['/a/:id', '/a/:other', false],
    ['/a/:id', '/a/*', true],
  ])('%s before %s: %s', (earlier, later, expected) => {
    expect(fastifyAgrees(earlier, later)).toBe(expected);
  });
});

function route(raw: string, syntax: Route['path']['syntax'], params: Array<Partial<Route['path']['params'][number]>> = []): Route {
  return { path: { raw, full: raw, syntax, params: params.map((p) => ({ name: 'x', optional: false, wildcard: false, fromMount: false, ...p })) }, mountChain: [] } as unknown as Route;
}

describe('fastifyPaths', () => {
  it('keeps a plain path', () => {
    expect(fastifyPaths(route('/notes/:id', 'plain'))).toEqual({ paths: ['/notes/:id'] });
  });
  it('expands Express 5 optional groups into one route per shape, the form Express fills first', () => {
    expect(fastifyPaths(route('/archive{/:year}{/:month}', 'express5'))).toEqual({ paths: ['/archive', '/archive/:year', '/archive/:year/:month'] });
    expect(fastifyPaths(route('/download/:file{.:ext}', 'express5'))).toEqual({ paths: ['/download/:file', '/download/:file.:ext'] });
  });
  it('turns a last-segment wildcard into find-my-way\'s * (the expressWildcard hook names it); refuses other wildcards, Express 4 forms and RegExps with the reason', () => {
    expect(fastifyPaths(route('/files/*splat', 'express5', [{ name: 'splat', wildcard: true }]))).toEqual({ paths: ['/files/*'], wildcard: 'splat' });
    expect(fastifyPaths(route('/docs{/*section}', 'express5', [{ name: 'section', wildcard: true }]))).toEqual({ paths: ['/docs', '/docs/*'], wildcard: 'section' });
    expect(fastifyPaths(route('/{*splat}', 'express5', [{ name: 'splat', wildcard: true }]))).toEqual({ refuse: expect.stringContaining('fixed prefix') });
    expect(fastifyPaths(route('/a/:id(\\d+)', 'express4'))).toEqual({ refuse: expect.stringContaining('express4 syntax') });
    expect(fastifyPaths(route('RegExp(/^\\/a$/)', 'regexp'))).toEqual({ refuse: expect.stringContaining('regexp syntax') });
  });
  it("turns Express 4's optional parameters into one route per form, with their names for paramsLikeExpress; refuses them with strict routing", () => {
    expect(fastifyPaths(route('/users/:id?', 'express4', [{ name: 'id', optional: true }]))).toEqual({ paths: ['/users', '/users/:id'], express4: { params: ['id'] } });
    expect(fastifyPaths(route('/archive/:year?/list', 'express4', [{ name: 'year', optional: true }]))).toEqual({ paths: ['/archive/list', '/archive/:year/list'], express4: { params: ['year'] } });
    expect(fastifyPaths(route('/:a/:b?', 'express4', [{ name: 'a' }, { name: 'b', optional: true }]))).toEqual({ paths: ['/:a', '/:a/:b'], express4: { params: ['a', 'b'] } });
    expect(fastifyPaths(route('/users/:id?', 'express4', [{ name: 'id', optional: true }]), true)).toEqual({ refuse: expect.stringContaining('strict routing') });
    expect(fastifyPaths(route('/file.:ext?', 'express4'))).toEqual({ refuse: expect.stringContaining('express4 syntax') });
  });
  it("turns Express 4's `*` of the app, and `/files/*` with strict routing, into find-my-way's `*` (wildcardLikeExpress); refuses it under a mount path and `/files/*` without strict routing", () => {
    expect(fastifyPaths(route('*', 'express4', [{ name: '0', wildcard: true }]))).toEqual({ paths: ['*'], express4: { wildcard: true } });
    expect(fastifyPaths(route('/*', 'express4', [{ name: '0', wildcard: true }]))).toEqual({ paths: ['/*'], express4: { wildcard: true } });
    expect(fastifyPaths({ ...route('*', 'express4'), mountChain: [{ mountId: 'm', mountPath: '/api', location: { file: 'a.js', line: 1, column: 1 } }] } as Route)).toEqual({ refuse: expect.stringContaining('mounted under a path') });
    expect(fastifyPaths(route('/files/*', 'express4'))).toEqual({ refuse: expect.stringContaining('Express answers /files/') });
    expect(fastifyPaths(route('/files/*', 'express4'), true)).toEqual({ paths: ['/files/*'], express4: { wildcard: true } });
    expect(fastifyPaths(route('/a/*/b', 'express4'))).toEqual({ refuse: expect.stringContaining('express4 syntax') });
  });
  it('refuses one element of an array of paths (app.get([\'/about\', \'/about-us\'], h)): the plugin would register the array', () => {
    const element = route('/about', 'plain');
    element.path.element = true;
    expect(fastifyPaths(element)).toEqual({ refuse: 'its path /about is one of an array of paths; register each path on its own' });
  });
});
