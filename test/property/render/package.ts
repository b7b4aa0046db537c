/**
 * `package.json` and `tsconfig.json` of a generated app. Dependency ranges are the versions installed
 * in this repository (generate.test.ts checks them against node_modules), so the generated apps
 * declare what the tool's own tests can resolve.
 */
import type { AppSpec } from '../spec.js';
import type { RenderContext } from './common.js';

/** Ranges a generated app declares: `^` + the version installed here (Express 5 from fixtures/apps/modern-e5). */
export const PACKAGE_VERSIONS = {
  express4: '^4.22.3',
  express5: '^5.3.0',
  cors: '^2.8.6',
  helmet: '^8.3.0',
  'cookie-parser': '^1.4.7',
  'express-session': '^1.19.0',
  morgan: '^1.12.1',
  compression: '^1.8.2',
  'express-async-errors': '^3.1.1',
  typescript: '^5.9.3',
  tsx: '^4.23.15',
  '@types/express': '^4.17.25',
  '@types/node': '^20.19.43',
  '@types/cookie-parser': '^1.4.10',
  '@types/express-session': '^1.19.0',
} as const;

/** Packages the app's code imports, read from the rendered sources (`from 'x'` / `require('x')`). */
function importedPackages(files: Record<string, string>): Set<string> {
  const out = new Set<string>();
  for (const source of Object.values(files)) {
    for (const m of source.matchAll(/(?:from |require\(|import )'([^'.][^']*)'/g)) out.add(m[1]);
  }
  return out;
}

/** Writes package.json (and tsconfig.json for TypeScript) from the sources already rendered. */
export function writePackageFiles(rc: RenderContext): void {
  const spec = rc.spec;
  const used = importedPackages(rc.files);
  const dependencies: Record<string, string> = { express: spec.express === 5 ? PACKAGE_VERSIONS.express5 : PACKAGE_VERSIONS.express4 };
  for (const name of ['compression', 'cookie-parser', 'cors', 'express-async-errors', 'express-session', 'helmet', 'morgan'] as const) {
    if (used.has(name)) dependencies[name] = PACKAGE_VERSIONS[name];
  }
  const ts = spec.module === 'ts-esm' || spec.module === 'ts-cjs';
  const entry = `${spec.dir}${spec.singleFile ? 'app' : 'server'}${rc.ext}`;
  const pkg: Record<string, unknown> = {
    name: `generated-app-${spec.seed}`,
    version: '1.0.0',
    private: true,
    ...(spec.module === 'esm' || spec.module === 'ts-esm' ? { type: 'module' } : {}),
    main: `${spec.dir}app${rc.ext}`,
    scripts: { start: ts ? `tsx ${entry}` : `node ${entry}`, ...(ts ? { typecheck: 'tsc -p tsconfig.json' } : {}) },
    dependencies,
  };
  if (ts) pkg.devDependencies = devDependencies(used);
  rc.files['package.json'] = JSON.stringify(pkg, null, 2) + '\n';
  if (!ts) return;
  rc.files['tsconfig.json'] = JSON.stringify(tsconfig(spec), null, 2) + '\n';
  const untyped = UNTYPED_PACKAGES.filter((name) => used.has(name));
  if (untyped.length > 0) rc.files[`${spec.dir}types.d.ts`] = untyped.map((name) => `declare module '${name}';`).join('\n') + '\n';
}

/** Packages without @types installed here: a TypeScript app declares them, as apps do with a local .d.ts. */
const UNTYPED_PACKAGES = ['compression', 'cors', 'morgan'];

function devDependencies(used: Set<string>): Record<string, string> {
  const out: Record<string, string> = { '@types/express': PACKAGE_VERSIONS['@types/express'], '@types/node': PACKAGE_VERSIONS['@types/node'] };
  if (used.has('cookie-parser')) out['@types/cookie-parser'] = PACKAGE_VERSIONS['@types/cookie-parser'];
  if (used.has('express-session')) out['@types/express-session'] = PACKAGE_VERSIONS['@types/express-session'];
  return { ...out, tsx: PACKAGE_VERSIONS.tsx, typescript: PACKAGE_VERSIONS.typescript };
}

/** NodeNext for `"type": "module"` TypeScript (the shop-api fixture's settings); classic CommonJS otherwise. */
function tsconfig(spec: AppSpec): object {
  const esm = spec.module === 'ts-esm';
  return {
    compilerOptions: {
      target: 'ES2022',
      module: esm ? 'NodeNext' : 'commonjs',
      moduleResolution: esm ? 'NodeNext' : 'node',
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
    include: [spec.dir ? `${spec.dir}**/*.ts` : '**/*.ts'],
  };
}
