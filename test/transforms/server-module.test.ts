/**
 * server-module/build-fastify.ts, the one editor of the generated server module's `buildFastify`
 * (issue 15): each edit on the module the shim writes, its idempotency, its refusal of a module
 * edited by hand, and at run time that a plugin registered before the bridge runs for the requests
 * Express answers while one registered after it does not; the hand-over's edits of the bridge and
 * movedRoutes (server-module/hand-over.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { jFor } from '../../transforms/lib/ast.js';
import { DEFAULT_STYLE } from '../../transforms/lib/style.js';
import { addHook, bridgeOf, buildFastifyOf, movePluginRegistration, registerHandler, registerPlugin, removeBridge, removePluginRegistration, replaceBridge } from '../../transforms/server-module/build-fastify.js';
import { addHandOver, handOverRefusal } from '../../transforms/server-module/hand-over.js';
import { hooksModule, lacksChains, withChains, withHandOver } from '../../transforms/server-module/hooks-template.js';
import { serverModule, type ServerFacts } from '../../transforms/server-module/template.js';

const FACTS: ServerFacts = { module: 'esm', typescript: false, expressMajor: 4, caseSensitive: false, strict: false, trustProxy: null, queryParser: null, bodyParsers: { sources: [], imports: [] }, parity: 'default' };
const GENERATED = serverModule(FACTS, DEFAULT_STYLE);

/** `edit` applied to the generated module: the printed text and whether the edit said it changed it. */
function edited(edit: (j: ReturnType<typeof jFor>, root: ReturnType<ReturnType<typeof jFor>>) => boolean, source = GENERATED): { text: string; changed: boolean } {
  const j = jFor('fastify-server.js');
  const root = j(source);
  const changed = edit(j, root);
  return { text: root.toSource({ quote: 'single' }), changed };
}

/** buildFastify's statements, one line each, as printed. */
function buildBody(text: string): string[] {
  const body = text.slice(text.indexOf('export function buildFastify'), text.indexOf('\n}\n', text.indexOf('export function buildFastify')));
  return body
    .split('\n')
    .slice(1)
    .filter((l) => /^ {2}\S/.test(l) && !l.trimStart().startsWith('//'))
    .map((l) => l.trim());
}

const CORS = { specifier: '@fastify/cors', form: { kind: 'default' as const }, local: 'fastifyCors', module: 'esm' as const };

describe('buildFastifyOf', () => {
  it('finds the instance buildFastify returns', () => {
    const j = jFor('fastify-server.js');
    expect(buildFastifyOf(j, j(GENERATED), 'test').instance).toBe('fastify');
  });

  it('refuses a module edited by hand, naming what the stage was about to do', () => {
    const j = jFor('fastify-server.js');
    expect(() => buildFastifyOf(j, j(GENERATED.replace('export function buildFastify(app) {', 'export const buildFastify = function (app) {')), 'register the moved routes')).toThrow('the generated module has no function buildFastify to register the moved routes in');
    expect(() => buildFastifyOf(j, j(GENERATED.replace('  return fastify;\n}', '  return fastify.ready();\n}')), 'add a hook')).toThrow('does not end in `return <fastify instance>`, where the stage would add a hook');
    // A statement after the return (a helper someone declared there) does not hide it.
    expect(buildFastifyOf(j, j(GENERATED.replace('  return fastify;\n}', '  return fastify;\n  function helper() {}\n}')), 'add a hook').instance).toBe('fastify');
  });
});

describe('registerHandler', () => {
  it('imports the handler and calls setErrorHandler before return, once', () => {
    const entry = { method: 'setErrorHandler' as const, import: { specifier: './errors.js', form: { kind: 'named' as const, name: 'errorHandler' }, local: 'errorHandler', module: 'esm' as const }, from: 'errors.js' };
    const first = edited((j, root) => registerHandler(j, root, entry, 'single'));
    expect(first.changed).toBe(true);
    expect(first.text).toContain("import { errorHandler } from './errors.js';");
    expect(buildBody(first.text).slice(-2)).toEqual(['fastify.setErrorHandler(errorHandler);', 'return fastify;']);
    expect(edited((j, root) => registerHandler(j, root, entry, 'single'), first.text)).toEqual({ text: first.text, changed: false });
  });
});

describe('plugins, hooks and the bridge', () => {
  it('registerPlugin after the bridge: before return, with its options and comment; a second call changes nothing', () => {
    const first = edited((j, root) => registerPlugin(j, root, { import: CORS, options: "{ origin: 'https://a.example' }", comment: "the app's cors()", placement: 'after-bridge' }, 'single'));
    expect(first.text).toContain("import fastifyCors from '@fastify/cors';");
    expect(first.text).toContain("  // the app's cors()\n  fastify.register(fastifyCors, { origin: 'https://a.example' });\n  return fastify;");
    expect(edited((j, root) => registerPlugin(j, root, { import: CORS, placement: 'after-bridge' }, 'single'), first.text)).toEqual({ text: first.text, changed: false });
  });

  it('registerPlugin before the bridge, then moved after it, then removed with its import', () => {
    const before = edited((j, root) => registerPlugin(j, root, { import: CORS, placement: 'before-bridge' }, 'single')).text;
    const body = buildBody(before);
    expect(body.indexOf('fastify.register(fastifyCors);')).toBe(body.findIndex((l) => l.startsWith('fastify.register(fastifyExpress')) - 1);
    const moved = edited((j, root) => movePluginRegistration(j, root, '@fastify/cors', 'after-bridge'), before);
    expect(moved.changed).toBe(true);
    expect(buildBody(moved.text).slice(-2)).toEqual(['fastify.register(fastifyCors);', 'return fastify;']);
    expect(edited((j, root) => movePluginRegistration(j, root, '@fastify/cors', 'after-bridge'), moved.text).changed).toBe(false);
    const removed = edited((j, root) => removePluginRegistration(j, root, '@fastify/cors'), moved.text);
    expect(removed.changed).toBe(true);
    expect(removed.text).not.toContain('fastifyCors');
    expect(removed.text).toBe(GENERATED);
  });

  it('addHook imports the hook and adds it once', () => {
    const hook = { hook: 'onRequest' as const, import: { specifier: './fastify-hooks.js', form: { kind: 'named' as const, name: 'requestId' }, local: 'requestId', module: 'esm' as const }, placement: 'after-bridge' as const };
    const first = edited((j, root) => addHook(j, root, hook, 'single'));
    expect(first.text).toContain("import { requestId } from './fastify-hooks.js';");
    expect(buildBody(first.text).slice(-2)).toEqual(["fastify.addHook('onRequest', requestId);", 'return fastify;']);
    expect(edited((j, root) => addHook(j, root, hook, 'single'), first.text).changed).toBe(false);
  });

  it('finds, replaces and removes the bridge', () => {
    const j = jFor('fastify-server.js');
    expect(j(bridgeOf(j, j(GENERATED))!.node).toSource()).toMatch(/^fastify\.register\(fastifyExpress, \{ expressHook: 'preHandler' \}\)\.after\(/);
    const replaced = edited((jj, root) => replaceBridge(jj, root, "fastify.register(fastifyExpress, { expressHook: 'onRequest' }).after(() => {\n  fastify.use(expressBridge(app));\n});"));
    expect(replaced.text).toContain("fastify.register(fastifyExpress, { expressHook: 'onRequest' })");
    const removed = edited((jj, root) => removeBridge(jj, root));
    expect(removed.changed).toBe(true);
    expect(removed.text).not.toContain('fastifyExpress');
    expect(edited((jj, root) => removeBridge(jj, root), removed.text).changed).toBe(false);
  });
});

describe('the hand-over (server-module/hand-over.ts)', () => {
  const MOVED = `${GENERATED}\nasync function movedRoutes(fastify) {\n  fastify.addHook('preHandler', bodyLikeExpress);\n  fastify.register(appRoutes);\n}\n`;
  const entry = { module: 'esm' as const, hooksSpecifier: './fastify-hooks.js' };

  it('the bridge keeps the continuation before it runs the app, movedRoutes marks its requests after its hooks; once', () => {
    const first = edited((j, root) => addHandOver(j, root, entry, 'single'), MOVED);
    expect(first.changed).toBe(true);
    expect(first.text).toContain("import { keepFastifyContinuation, markMovedRoute } from './fastify-hooks.js';");
    expect(first.text).toMatch(/req\.originalUrl = req\.url;\n {4}\/\/ .*\n {4}keepFastifyContinuation\(app, req, res, next\);\n {4}app\(req, res, next\);/);
    expect(first.text).toMatch(/fastify\.addHook\('preHandler', bodyLikeExpress\);\n {2}\/\/ .*\n {2}fastify\.addHook\('onRequest', markMovedRoute\);\n {2}fastify\.register\(appRoutes\);/);
    expect(edited((j, root) => addHandOver(j, root, entry, 'single'), first.text).changed).toBe(false);
  });

  it('is refused where the bridge no longer runs the app as app(req, res, next)', () => {
    const j = jFor('fastify-server.js');
    expect(handOverRefusal(j, j(GENERATED), 'fastify-server.js')).toBeNull();
    const edited = GENERATED.replace('app(req, res, next);', 'app(req, res, (error) => next(error));');
    expect(handOverRefusal(j, j(edited), 'fastify-server.js')).toBe('the bridge of fastify-server.js (function expressBridge) does not run the Express app as the shim wrote it, `app(req, res, next)`, so a hand-over cannot go on to Fastify from it');
  });
});

describe('a hooks module of an earlier run that gains expressChain and the hand-over in one run', () => {
  it('keeps both, each exported once (CommonJS)', () => {
    const facts = { module: 'commonjs' as const, typescript: false, expressMajor: 4 as const };
    const older = hooksModule(facts, DEFAULT_STYLE);
    const wanted = { ...facts, chains: true, handOver: true };
    expect(lacksChains(wanted, older)).toBe(true);
    const text = withHandOver(withChains(wanted, older, DEFAULT_STYLE), wanted, DEFAULT_STYLE)!;
    const module = { exports: {} as Record<string, unknown> };
    new Function('module', 'exports', 'require', text)(module, module.exports, () => ({}));
    expect(Object.keys(module.exports).sort()).toEqual(['bodyLeftToExpress', 'bodyLikeExpress', 'expressChain', 'expressMiddleware', 'expressParam', 'expressWildcard', 'keepFastifyContinuation', 'markMovedRoute', 'movedToFastify']);
    expect(text.match(/function expressChain\(/g)).toHaveLength(1);
    expect(withHandOver(text, wanted, DEFAULT_STYLE)).toBeNull();
    expect(lacksChains(wanted, text)).toBe(false);
  });
});

describe('at run time', () => {
  const dir = path.resolve(import.meta.dirname, '../../.tmp', `server-module-${process.pid}`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a plugin hook before the bridge runs for the requests Express answers; one after it only for those Express hands on', async () => {
    mkdirSync(dir, { recursive: true });
    // preHandler, the bridge's own hook: a root hook registered before the bridge runs before the Express app, one after it only when Express hands the request on.
    const plugin = (name: string) => `export default function ${name}(fastify, _options, done) {\n  fastify.addHook('preHandler', (request, reply, next) => { reply.raw.setHeader('x-${name}', 'yes'); next(); });\n  done();\n}\n${name}[Symbol.for('skip-override')] = true;\n`;
    writeFileSync(path.join(dir, 'early.mjs'), plugin('early'));
    writeFileSync(path.join(dir, 'late.mjs'), plugin('late'));
    let text = edited((j, root) => registerPlugin(j, root, { import: { specifier: './early.mjs', form: { kind: 'default' }, local: 'early', module: 'esm' }, placement: 'before-bridge' }, 'single')).text;
    text = edited((j, root) => registerPlugin(j, root, { import: { specifier: './late.mjs', form: { kind: 'default' }, local: 'late', module: 'esm' }, placement: 'after-bridge' }, 'single'), text).text;
    writeFileSync(path.join(dir, 'fastify-server.mjs'), text);
    writeFileSync(path.join(dir, 'app.mjs'), "import express from 'express';\nexport const app = express();\napp.get('/express', (req, res) => res.send('from express'));\n");
    const { buildFastify } = await import(pathToFileURL(path.join(dir, 'fastify-server.mjs')).href);
    const { app } = await import(pathToFileURL(path.join(dir, 'app.mjs')).href);
    const fastify = buildFastify(app);
    fastify.after(() => fastify.get('/fastify', async () => 'from fastify'));
    // Over a socket: the bridge gives Express Node's own response prototype, which inject's does not have.
    const base = await fastify.listen({ port: 0, host: '127.0.0.1' });
    const get = async (url: string) => {
      const response = await fetch(`${base}${url}`);
      return [await response.text(), response.headers.get('x-early'), response.headers.get('x-late')];
    };
    const fromExpress = await get('/express');
    const fromFastify = await get('/fastify');
    await fastify.close();
    expect(fromExpress).toEqual(['from express', 'yes', null]);
    expect(fromFastify).toEqual(['from fastify', 'yes', 'yes']);
  });
});
