/**
 * Fixture pairs of the route-handler rewrite (transforms/handler-rewrite/rewrite.ts, roles
 * `route` and `hook`), under fixtures/transforms/handler-rewrite/<case>/:
 * - `input.js|ts`: the FIRST function is rewritten with `options.json` (defaults: role route,
 *   scope app, Express 4, TypeScript by extension; `helpers` as an array);
 * - `output.js|ts`: the file after `apply()`, the default imports (`encodeUrl`, `contentDisposition`), the Fastify type
 *   imports, the type-only imports the casts need and the dropped type imports, printed in the
 *   file's style (printWithStyle);
 * - `refuse.txt` instead of an output: a substring of the refusal;
 * - `expected.json`: `imports`, `typeImports`, `deltas`, `types`, `plugins`, `helperCalls`, `likeExpress` (each `[]` when absent) and
 *   `second`: what the same role does with the output — `refuses` or `unchanged` (idempotency), or
 *   `converts` where the output still reads as Express code to the rewrite (`reply.send(err)` is a
 *   `res.send` of a value known only at run time): the routes stage never plans a moved handler again;
 *   `noTypecheck`: why a TypeScript output is left out of the type check.
 * TypeScript outputs are type-checked together (tsc, strict) against the repository's express,
 * express-session and fastify types.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Collection, JSCodeshift } from 'jscodeshift';
import { afterAll, describe, expect, it } from 'vitest';
import { planHandlerRewrite, type HandlerOptions, type HandlerRewrite } from '../../transforms/handler-rewrite/rewrite.js';
import { functionPaths, jFor, type Node } from '../../transforms/lib/ast.js';
import { addFastifyTypes, addTypeImports, dropUnusedImports } from '../../transforms/lib/type-imports.js';
import { printWithStyle } from '../../transforms/lib/print.js';
import { detectStyle } from '../../transforms/lib/style.js';
import { likeExpressModule } from '../../transforms/server-module/like-express-template.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const CASES = path.join(REPO, 'fixtures/transforms/handler-rewrite');
const TMP = path.join(REPO, '.tmp', 'handler-rewrite');

interface Expected {
  imports?: Array<{ local: string; from: string }>;
  typeImports?: Array<{ name: string; local: string; from: string }>;
  deltas?: string[];
  types?: string[];
  /** HandlerRewrite.plugins (`['@fastify/view']` when it renders). */
  plugins?: string[];
  /** HandlerRewrite.helperCalls (callees `req` or `res` is passed to), also checked for a refusal when given. */
  helperCalls?: string[];
  /** HandlerRewrite.likeExpress (functions of the generated fastify-like-express module it calls). */
  likeExpress?: string[];
  second?: 'refuses' | 'unchanged' | 'converts';
  /** Why the output is left out of the type check (e.g. the handler is still inside Express's router.get, where the routes stage takes it out). */
  noTypecheck?: string;
}

/** A case folder read from disk. */
interface Case {
  name: string;
  file: string;
  source: string;
  options: HandlerOptions;
  output: string | null;
  refuse: string | null;
  expected: Expected;
}

function readCase(name: string): Case {
  const dir = path.join(CASES, name);
  const file = readdirSync(dir).find((f) => /^input\.[jt]s$/.test(f))!;
  const ext = path.extname(file);
  const read = (f: string) => (existsSync(path.join(dir, f)) ? readFileSync(path.join(dir, f), 'utf8') : null);
  const { helpers, ...given } = JSON.parse(read('options.json') ?? '{}') as Partial<HandlerOptions> & { helpers?: string[] };
  const options: HandlerOptions = { role: 'route', scope: 'app', expressMajor: 4, jsonSettings: false, typescript: ext === '.ts', ...given, ...(helpers ? { helpers: new Set(helpers) } : {}) };
  return { name, file, source: read(file)!, options, output: read(`output${ext}`), refuse: read('refuse.txt')?.trim() ?? null, expected: JSON.parse(read('expected.json') ?? '{}') };
}

/** Plans the rewrite of the first function of `source` (read as `file`). */
function plan(file: string, source: string, options: HandlerOptions): { rewrite: HandlerRewrite; print(): string } {
  const j = jFor(file);
  const root = j(source);
  const fn = functionPaths(j, root).sort((a, b) => a.node.start - b.node.start)[0];
  const rewrite = planHandlerRewrite(j, fn, options);
  return {
    rewrite,
    print() {
      rewrite.apply();
      addDefaultImports(j, root, rewrite.imports);
      addFastifyTypes(j, root, rewrite.types);
      addTypeImports(j, root, rewrite.typeImports);
      dropUnusedImports(j, root, rewrite.droppedTypes);
      return printWithStyle(root, source, detectStyle(source, file));
    },
  };
}

/**
 * What the routes stage does with `imports` (a default import under exactly that local name, after
 * the file's last import or require), so the output is the whole file and a second run finds it.
 */
function addDefaultImports(j: JSCodeshift, root: Collection, imports: Array<{ local: string; from: string }>): void {
  const body: Node[] = root.find(j.Program).paths()[0].node.body;
  const commonjs = root.find(j.CallExpression, { callee: { type: 'Identifier', name: 'require' } }).size() > 0;
  for (const i of imports) {
    const isImport = (s: Node) => s.type === 'ImportDeclaration' || (s.type === 'VariableDeclaration' && s.declarations[0]?.init?.callee?.name === 'require');
    const last = body.reduce((at: number, s: Node, k: number) => (isImport(s) ? k : at), -1);
    const statement = commonjs
      ? j.variableDeclaration('const', [j.variableDeclarator(j.identifier(i.local), j.callExpression(j.identifier('require'), [j.stringLiteral(i.from)]))])
      : j.importDeclaration([j.importDefaultSpecifier(j.identifier(i.local))], j.stringLiteral(i.from));
    body.splice(last + 1, 0, statement);
  }
}

const cases = readdirSync(CASES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => readCase(d.name));

describe('handler-rewrite fixtures', () => {
  it('has a README line for every case', () => {
    const readme = readFileSync(path.join(CASES, 'README.md'), 'utf8');
    for (const c of cases) expect(readme).toContain(`\`${c.name}\``);
  });

  for (const c of cases) {
    if (c.refuse !== null) {
      it(`${c.name}: refuses`, () => {
        expect(c.output).toBeNull();
        const { rewrite } = plan(c.file, c.source, c.options);
        expect(rewrite.refusals.join('; ')).toContain(c.refuse);
        if (c.expected.helperCalls) expect(rewrite.helperCalls).toEqual(c.expected.helperCalls);
      });
      continue;
    }
    it(`${c.name}: rewrites`, () => {
      const { rewrite, print } = plan(c.file, c.source, c.options);
      expect(rewrite.refusals).toEqual([]);
      expect(print()).toBe(c.output);
      expect(rewrite.imports).toEqual(c.expected.imports ?? []);
      expect(rewrite.typeImports).toEqual(c.expected.typeImports ?? []);
      expect(rewrite.deltas).toEqual(c.expected.deltas ?? []);
      expect(rewrite.types).toEqual(c.expected.types ?? []);
      expect(rewrite.plugins).toEqual(c.expected.plugins ?? []);
      expect(rewrite.helperCalls).toEqual(c.expected.helperCalls ?? []);
      expect(rewrite.likeExpress).toEqual(c.expected.likeExpress ?? []);
    });
    it(`${c.name}: a second run ${c.expected.second === 'unchanged' ? 'changes nothing' : c.expected.second === 'converts' ? 'converts' : 'refuses'}`, () => {
      const again = plan(c.file, c.output!, c.options);
      if (c.expected.second === 'unchanged') {
        expect(again.rewrite.refusals).toEqual([]);
        expect(again.print()).toBe(c.output);
      } else if (c.expected.second === 'converts') {
        expect(again.rewrite.refusals).toEqual([]);
        expect(again.print()).not.toBe(c.output);
      } else {
        expect(c.expected.second).toBe('refuses');
        expect(again.rewrite.refusals).not.toEqual([]);
      }
    });
  }
});

describe('handler-rewrite TypeScript outputs', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('type-check (strict)', () => {
    const typed = cases.filter((c) => c.output !== null && c.file.endsWith('.ts') && !c.expected.noTypecheck);
    expect(typed.length).toBeGreaterThan(4);
    mkdirSync(TMP, { recursive: true });
    const dir = mkdtempSync(path.join(TMP, 'tsc-'));
    dirs.push(dir);
    for (const c of typed) {
      // The routes stage imports the fastify-like-express functions a moved handler calls (likeExpress).
      const likeExpress = c.expected.likeExpress?.length && !c.output!.includes('./fastify-like-express') ? `import { ${c.expected.likeExpress.join(', ')} } from './fastify-like-express.js';\n` : '';
      writeFileSync(path.join(dir, `${c.name}.ts`), likeExpress + c.output!);
    }
    // The module the routes stage writes next to the server module (a TypeScript ES module of an Express 4 app).
    writeFileSync(path.join(dir, 'fastify-like-express.ts'), likeExpressModule({ module: 'esm', typescript: true }));
    // What @types/encodeurl declares; the routes stage adds the package (and its types in TypeScript projects).
    writeFileSync(path.join(dir, 'encodeurl.d.ts'), "declare module 'encodeurl' {\n  export default function encodeUrl(url: string): string;\n}\n");
    // What @types/content-disposition 0.5 declares (`export =` a function), trimmed to the call the rewrite writes.
    writeFileSync(path.join(dir, 'content-disposition.d.ts'), "declare module 'content-disposition' {\n  function contentDisposition(filename?: string): string;\n  export = contentDisposition;\n}\n");
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node', 'express-session'] }, include: ['*.ts'] }),
    );
    const tsc = path.join(REPO, 'node_modules/typescript/bin/tsc');
    let out = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(out).toBe('');
  }, 60_000);
});
