/**
 * The modules the stages generate in JavaScript (fastify-server.*, fastify-hooks.*,
 * fastify-like-express.*) keep to ES2018 syntax: an app may still build its sources with an old
 * toolchain (express-es6-rest-api: Babel 6 with es2015 and stage-0, which stops at optional catch
 * binding and `??`), and a generated module it cannot build stops the app (issue 17, found by
 * `migrate verify` on that app). Checked on every generated module a transform fixture's stage
 * writes anew (a module in the case's input/ is an earlier version's, kept as it was).
 * Nor do they or the route plugins hold async functions: Babel 6's stage-0 lowers them to
 * regenerator calls that need a `regeneratorRuntime` an app with none of its own does not load
 * (`ReferenceError: regeneratorRuntime is not defined` when it starts); a route plugin is a
 * synchronous plugin (avvio: "If the plugin is ready immediately after the function is evaluated,
 * `done` can be omitted").
 * And they name no global newer than ES5 (Symbol, Reflect, WeakMap, Promise, …): an app whose lint
 * knows only ES5 globals fails on them (express-es6-rest-api: `eslint src` with `env: node` and no
 * `es6` reported `'Symbol' is not defined`). Checked with ESLint's own no-undef, given ES5's and
 * Node's globals.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'acorn';
import { Linter } from 'eslint';
import globals from 'globals';
import { describe, expect, it } from 'vitest';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/transforms');
const GENERATED = /^fastify-(server|hooks|like-express)(-[\w-]+)?\.(js|cjs|mjs)$/;

/** Whether an acorn tree holds an async function or arrow. */
function hasAsync(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if ((node as { async?: boolean }).async === true) return true;
  return Object.values(node).some((v) => (Array.isArray(v) ? v.some(hasAsync) : typeof v === 'object' && hasAsync(v)));
}

/** Route plugins a stage wrote anew in a fixture's expected file (not in its input). */
function asyncPlugins(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) asyncPlugins(p, out);
    else if (/\.(js|cjs|mjs|ts)$/.test(name) && p.includes(`${path.sep}expected${path.sep}`)) {
      const input = p.replace(`${path.sep}expected${path.sep}`, `${path.sep}input${path.sep}`);
      const before = existsSync(input) ? readFileSync(input, 'utf8') : '';
      for (const m of readFileSync(p, 'utf8').matchAll(/(?:handRoutes\(\w+, )?async function \w*Routes\(/g)) if (!before.includes(m[0])) out.push(`${path.relative(FIXTURES, p)}: ${m[0]}`);
    }
  }
  return out;
}

/**
 * `line:column message` of every global `text` names that ES5 and Node do not define, as an app's
 * `.eslintrc` with `env: { node: true }` and no `es6` sees it (the legacy config form: a flat config's
 * `ecmaVersion` adds that version's globals).
 */
function undefinedGlobals(text: string, sourceType: 'module' | 'script'): string[] {
  const messages = new Linter({ configType: 'eslintrc' }).verify(text, {
    parserOptions: { ecmaVersion: 2018, sourceType },
    globals: Object.fromEntries(Object.keys({ ...globals.es5, ...globals.node }).map((name) => [name, 'readonly'])),
    rules: { 'no-undef': 'error' },
  });
  return messages.map((m) => `${m.line}:${m.column} ${m.message}`);
}

function generatedFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) generatedFiles(p, out);
    else if (GENERATED.test(name) && p.includes(`${path.sep}expected${path.sep}`) && !existsSync(p.replace(`${path.sep}expected${path.sep}`, `${path.sep}input${path.sep}`))) out.push(p);
  }
  return out;
}

describe('generated JavaScript modules parse as ES2018', () => {
  const files = generatedFiles(FIXTURES);
  it('finds the generated modules of the fixtures', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files.some((f) => f.endsWith('fastify-hooks.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('fastify-like-express.js'))).toBe(true);
  });
  for (const file of files) {
    it(path.relative(FIXTURES, file), () => {
      const text = readFileSync(file, 'utf8');
      const sourceType = /^\s*(import|export)\s/m.test(text) ? 'module' : 'script';
      const tree = parse(text, { ecmaVersion: 2018, sourceType, allowReturnOutsideFunction: true });
      expect(hasAsync(tree)).toBe(false);
      expect(undefinedGlobals(text, sourceType)).toEqual([]);
    });
  }
  it('route plugins are plain functions, never async', () => {
    expect(asyncPlugins(FIXTURES)).toEqual([]);
  });
});
