/** The random Express app generator (generate.ts): deterministic, parseable, covering, analysable. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { runRules } from '../../rules/index.js';
import { routeKeysOf } from './features.js';
import { removeAppFolder, writeAppFolder } from './folder.js';
import { generateApp, type GeneratedApp } from './generate.js';
import { packageTypeOf, parseProblem } from './parse.js';
import { PACKAGE_VERSIONS } from './render/package.js';
import { chooseSpec } from './spec.js';

const SEEDS = Array.from({ length: 200 }, (_, i) => i);
const apps: GeneratedApp[] = SEEDS.map(generateApp);
const REPO = path.resolve(import.meta.dirname, '../..');

describe('generateApp is deterministic', () => {
  it('gives the same files, description and features for the same seed, and different apps for different seeds', () => {
    for (const seed of [0, 1, 42, 4096, 2 ** 31 - 1]) expect(generateApp(seed)).toEqual(generateApp(seed));
    expect(generateApp(1).files).not.toEqual(generateApp(2).files);
    expect(new Set(apps.map((a) => JSON.stringify(a.files))).size).toBe(apps.length);
  });
});

describe('every generated file parses', () => {
  it('with TypeScript and with Babel in the module mode of its package (200 seeds)', () => {
    const problems: string[] = [];
    for (const app of apps) {
      const type = packageTypeOf(app.files['package.json']);
      for (const [file, source] of Object.entries(app.files)) {
        const problem = parseProblem(file, source, type);
        if (problem) problems.push(`seed ${app.seed} ${file}: ${problem} (${app.description})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the parse check catches what a stage could break: import in a CommonJS file, TypeScript in JavaScript, bad JSON', () => {
    expect(parseProblem('app.js', "import x from 'y';\n", 'commonjs')).toMatch(/^babel /);
    expect(parseProblem('app.js', "import x from 'y';\n", 'module')).toBeNull();
    expect(parseProblem('app.js', 'await start();\n', 'commonjs')).toMatch(/^babel /);
    expect(parseProblem('app.js', 'const a: number = 1;\n', 'module')).toMatch(/^babel /);
    expect(parseProblem('app.ts', 'const a: number = 1;\n', 'commonjs')).toBeNull();
    expect(parseProblem('app.ts', 'const a = ;\n', 'module')).toMatch(/^typescript 1:11 /);
    expect(parseProblem('package.json', '{ "a": 1, }', 'module')).toMatch(/^JSON\.parse/);
    expect(parseProblem('README.md', '# not code', 'module')).toBeNull();
  });
});

describe('the population covers every feature of the brief (200 seeds)', () => {
  const counts = new Map<string, number>();
  for (const app of apps) for (const f of app.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const count = (tag: string) => counts.get(tag) ?? 0;

  it('each module system, Express major, listen shape, router count, 404 form and style is generated', () => {
    const required = [
      ...['module:cjs', 'module:esm', 'module:ts-esm', 'module:ts-cjs', 'express:4', 'express:5', 'layout:src', 'layout:root', 'layout:single-file'],
      ...['port', 'port-callback', 'port-host-callback', 'server-address', 'http-create-server', 'require-main', 'top-level-await'].map((s) => `listen:${s}`),
      ...[0, 1, 2, 3, 4].map((n) => `routers:${n}`),
      ...['router:nested', 'router:merge-params', 'router:options', 'router:named-export', 'router:named-import', 'router:middleware', 'router:param', 'mount:nested-path', 'mount:no-path', 'mount:middleware'],
      ...['handler:inline-arrow', 'handler:inline-function', 'handler:named', 'handler:controller', 'handler:async', 'handler:next-error', 'route:chain', 'route:middleware', 'route:all', 'app:param'],
      ...['json', 'json-options', 'urlencoded', 'text', 'cors', 'cors-options', 'helmet', 'cookie-parser', 'session', 'morgan', 'compression', 'static', 'local-inline', 'local-module', 'path-scoped', 'late'].map((m) => `middleware:${m}`),
      ...['errors:0', 'errors:1', 'errors:2', 'error:app', 'error:router', 'error:inline', 'error:named', 'error:module', 'error:arity-3', 'async-errors-patch'],
      ...['use-json', 'use-named', 'all-star', 'all-splat', 'next-404', 'none'].map((n) => `not-found:${n}`),
      ...['trust proxy', 'strict routing', 'case sensitive routing', 'query parser'].map((s) => `setting:${s}`),
      ...['path:express4-param-pattern', 'path:express5-optional'],
      ...['quote-single', 'quote-double', 'semicolons', 'no-semicolons', 'indent-2', 'indent-4', 'indent-tab', 'lf', 'crlf'].map((s) => `style:${s}`),
    ];
    expect(required.filter((tag) => count(tag) === 0)).toEqual([]);
  });

  it('the main axes are spread, not token: each module system, Express major and listen shape in at least 3% of apps', () => {
    const axes = [...counts.keys()].filter((t) => /^(module|express|listen):/.test(t));
    expect(axes).toHaveLength(4 + 2 + 7);
    for (const tag of axes) expect(count(tag), tag).toBeGreaterThanOrEqual(6);
  });
});

/** A feature tag and the text it must put in the app (and, both ways, only when the tag is there). */
const MARKERS: Array<[string, (a: GeneratedApp, code: string) => boolean]> = [
  ['module:cjs', (_, code) => /require\(['"]express['"]\)/.test(code)],
  ['express:5', (a) => /"express": "\^5/.test(a.files['package.json'])],
  ['listen:require-main', (_, code) => code.includes('require.main === module')],
  ['listen:top-level-await', (_, code) => /^await /m.test(code)],
  ['listen:http-create-server', (_, code) => code.includes('createServer(app)')],
  ['listen:server-address', (_, code) => code.includes('server.address()')],
  ['app:param', (_, code) => code.includes('app.param(')],
  ['router:param', (_, code) => /[rR]outer\.param\(/.test(code)],
  ['router:merge-params', (_, code) => code.includes('mergeParams: true')],
  ['handler:controller', (a) => Object.keys(a.files).some((f) => f.includes('controllers/'))],
  ['route:chain', (_, code) => /^\s*\.route\(/m.test(code)],
  ['not-found:all-star', (_, code) => /app\.all\(['"]\*['"]/.test(code)],
  ['not-found:all-splat', (_, code) => /app\.all\(['"]\/\{\*splat\}['"]/.test(code)],
  ['async-errors-patch', (_, code) => code.includes('express-async-errors')],
  ['middleware:session', (_, code) => /['"]express-session['"]/.test(code)],
  ['middleware:cors', (_, code) => /['"]cors['"]/.test(code)],
  ['middleware:helmet', (_, code) => /['"]helmet['"]/.test(code)],
  ['middleware:cookie-parser', (_, code) => /['"]cookie-parser['"]/.test(code)],
  ['middleware:compression', (_, code) => /['"]compression['"]/.test(code)],
  ['middleware:static', (_, code) => code.includes('express.static(')],
  ['middleware:text', (_, code) => code.includes('express.text(')],
  ['setting:trust proxy', (_, code) => code.includes('trust proxy')],
  ['setting:strict routing', (_, code) => code.includes('strict routing')],
  ['setting:case sensitive routing', (_, code) => code.includes('case sensitive routing')],
  ['setting:query parser', (_, code) => code.includes('query parser')],
  ['error:arity-3', (_, code) => /\(err(: HttpError)?, (req|request)(: Request)?, (res|response)(: Response)?\)/.test(code)],
  ['style:quote-double', (_, code) => /(require\(|from )"express"/.test(code)],
  ['style:no-semicolons', (_, code) => !/;\r?$/m.test(code)],
  ['style:indent-tab', (_, code) => /^\t/m.test(code)],
  ['style:crlf', (a) => Object.values(a.files).every((s) => !/(^|[^\r])\n/.test(s))],
  ['module:ts-esm', (a) => 'tsconfig.json' in a.files && a.files['package.json'].includes('"type": "module"')],
];

describe('feature tags match the code written (200 seeds)', () => {
  it.each(MARKERS.map(([tag, marker]) => ({ tag, marker })))('$tag appears in the code exactly when tagged', ({ tag, marker }) => {
    const wrong = apps.filter((a) => {
      const code = Object.entries(a.files)
        .filter(([f]) => !f.endsWith('.json'))
        .map(([, s]) => s)
        .join('\n');
      return a.features.includes(tag) !== marker(a, code);
    });
    expect(wrong.map((a) => `seed ${a.seed}: tagged ${a.features.includes(tag)} (${a.description})`)).toEqual([]);
  });
});

describe('package versions are the ones installed here', () => {
  it('each range is ^ + the installed version (Express 5 from fixtures/apps/modern-e5)', () => {
    const installed = (dir: string) => (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    for (const [key, range] of Object.entries(PACKAGE_VERSIONS)) {
      const dir = key === 'express5' ? path.join(REPO, 'fixtures/apps/modern-e5/node_modules/express') : path.join(REPO, 'node_modules', key === 'express4' ? 'express' : key);
      expect(range, key).toBe(`^${installed(dir)}`);
    }
  });
});

describe('generated apps analyse', () => {
  // Eight apps of each module system among the 200 seeds.
  const sample = (['cjs', 'esm', 'ts-esm', 'ts-cjs'] as const).flatMap((kind) => apps.filter((a) => a.features.includes(`module:${kind}`)).slice(0, 8));
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeAppFolder));

  it.each(sample.map((a) => ({ seed: a.seed, app: a })))('seed $seed: analyze + runRules find exactly the routes the generator registered', async ({ app }) => {
    const dir = writeAppFolder(app, `generate-${process.pid}-${app.seed}`);
    dirs.push(dir);
    const inventory = runRules(await analyze({ dir }));
    expect(inventory.routes.length, app.description).toBeGreaterThan(0);
    expect(inventory.routes.map((r) => r.key).sort(), app.description).toEqual(routeKeysOf(chooseSpec(app.seed)));
  });
});

/** `tsc -p <dir>/tsconfig.json --noEmit` in-process: the error lines, `file(line,col): message`. */
function typeErrors(dir: string): string[] {
  const host: ts.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, ' ')); } };
  const config = ts.getParsedCommandLineOfConfigFile(path.join(dir, 'tsconfig.json'), {}, host)!;
  const program = ts.createProgram(config.fileNames, config.options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(dir, d.file.fileName)}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

describe('generated TypeScript apps type-check, as real apps do', () => {
  // Two apps of each TypeScript flavour, with @types/express 4 from this repository.
  const sample = (['ts-esm', 'ts-cjs'] as const).flatMap((kind) => apps.filter((a) => a.features.includes(`module:${kind}`)).slice(0, 2));
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeAppFolder));

  it.each(sample.map((a) => ({ seed: a.seed, app: a })))('seed $seed: tsc --noEmit reports nothing', ({ app }) => {
    const dir = writeAppFolder(app, `typecheck-${process.pid}-${app.seed}`);
    dirs.push(dir);
    expect(typeErrors(dir), app.description).toEqual([]);
  });
});
