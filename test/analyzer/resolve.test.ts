/**
 * Module resolution edge cases found on real apps (bench/recall): tsconfig `paths` that map every
 * specifier (`"*": ["node_modules/*", "src/types/*"]`, TypeScript-Node-Starter style) must not
 * turn packages into unresolved project files, while an alias pattern (`@/*`) that matches no file
 * is the project's own import, never a package named `@/…`.
 */
import { describe, expect, it } from 'vitest';
import { ModuleResolver } from '../../analyzer/resolve.js';
import { project } from '../helpers/tmp.js';

describe('ModuleResolver', () => {
  it('keeps packages as packages under a catch-all "*" paths pattern', () => {
    const dir = project({
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '*': ['node_modules/*', 'src/types/*'] } } }),
      'src/app.ts': "import express from 'express';",
    });
    const resolver = new ModuleResolver({ root: dir });
    expect(resolver.resolve('express', `${dir}/src/app.ts`)).toEqual({ kind: 'package', name: 'express', subpath: '' });
  });

  it("keeps a package a package when the catch-all maps it onto the project's own declaration file (src/types/express-flash.d.ts)", () => {
    const dir = project({
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '*': ['node_modules/*', 'src/types/*'] } } }),
      'src/app.ts': "import flash from 'express-flash';",
      'src/types/express-flash.d.ts': "declare module 'express-flash';",
    });
    const resolver = new ModuleResolver({ root: dir });
    expect(resolver.resolve('express-flash', `${dir}/src/app.ts`)).toEqual({ kind: 'package', name: 'express-flash', subpath: '' });
  });

  it('resolves "@/…" aliases without baseUrl, and reports a missing one as unresolved, not as a package', () => {
    const dir = project({
      'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['src/*'] } } }),
      'src/app.ts': "import users from '@/routes/users';",
      'src/routes/users.ts': 'export default 1;',
    });
    const resolver = new ModuleResolver({ root: dir });
    expect(resolver.resolve('@/routes/users', `${dir}/src/app.ts`)).toEqual({ kind: 'file', path: `${dir}/src/routes/users.ts` });
    expect(resolver.resolve('@/routes/missing', `${dir}/src/app.ts`)).toEqual({ kind: 'unresolved' });
  });
});
