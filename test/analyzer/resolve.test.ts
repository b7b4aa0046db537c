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

  it("resolves a bare specifier naming a file from the project's root (rootpath, app-module-path) as that file, unless a package of that name is installed", () => {
    const dir = project({
      'server.js': "require('rootpath')(); const authorize = require('_helpers/authorize'); const config = require('config.json');",
      '_helpers/authorize.js': 'module.exports = () => (req, res, next) => next();',
      'config.json': '{}',
      'users/users.controller.js': "const authorize = require('_helpers/authorize');",
      'node_modules/lodash/package.json': '{ "name": "lodash" }',
      'lodash/index.js': 'module.exports = 1;',
      'tsoa.json': '{}',
      'package.json': JSON.stringify({ dependencies: { 'left-pad': '^1.0.0' } }),
      'left-pad/index.js': 'module.exports = 1;',
    });
    const resolver = new ModuleResolver({ root: dir });
    expect(resolver.resolve('_helpers/authorize', `${dir}/server.js`)).toEqual({ kind: 'file', path: `${dir}/_helpers/authorize.js` });
    expect(resolver.resolve('_helpers/authorize', `${dir}/users/users.controller.js`)).toEqual({ kind: 'file', path: `${dir}/_helpers/authorize.js` });
    expect(resolver.resolve('config.json', `${dir}/server.js`)).toEqual({ kind: 'file', path: `${dir}/config.json` });
    expect(resolver.resolve('lodash', `${dir}/server.js`)).toEqual({ kind: 'package', name: 'lodash', subpath: '' });
    expect(resolver.resolve('rootpath', `${dir}/server.js`)).toEqual({ kind: 'package', name: 'rootpath', subpath: '' });
    expect(resolver.resolve('tsoa', `${dir}/server.js`)).toEqual({ kind: 'package', name: 'tsoa', subpath: '' });
    expect(resolver.resolve('left-pad/index.js', `${dir}/server.js`)).toEqual({ kind: 'package', name: 'left-pad', subpath: '/index.js' });
  });
});
