/**
 * The layout of `transforms/` (issue 15): a folder with a `meta.ts` is a step; every other folder
 * is a library the steps share (`lib/`, `handler-rewrite/`, `server-module/`, …). A step imports
 * only libraries and the step contract (`transforms/model.ts`), never another step's internals; a
 * library imports no step; `lib/` imports no other folder of `transforms/`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const TRANSFORMS = path.resolve(import.meta.dirname, '../../transforms');

const folders = readdirSync(TRANSFORMS).filter((f) => statSync(path.join(TRANSFORMS, f)).isDirectory());
const steps = new Set(folders.filter((f) => existsSync(path.join(TRANSFORMS, f, 'meta.ts'))));
const libraries = folders.filter((f) => !steps.has(f));

/** `[file, folder of transforms/ it imports]` for every relative import of a folder's files that reaches another folder of transforms/. */
function importsOf(folder: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(path.join(TRANSFORMS, folder)).filter((n) => n.endsWith('.ts'))) {
    const source = readFileSync(path.join(TRANSFORMS, folder, name), 'utf8');
    for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const target = path.relative(TRANSFORMS, path.resolve(TRANSFORMS, folder, specifier));
      const top = target.split(path.sep)[0];
      if (!target.startsWith('..') && top !== folder && folders.includes(top)) out.push([`${folder}/${name}`, top]);
    }
  }
  return out;
}

describe('transforms/ layout', () => {
  it('has the steps of the stages that exist, and the shared libraries', () => {
    expect([...steps].sort()).toEqual(['errors-handler', 'errors-not-found', 'errors-tests', 'plugins-bodies', 'plugins-bridge', 'plugins-express-free', 'plugins-middleware', 'plugins-server-options', 'plugins-static', 'plugins-views', 'routes-move', 'routes-tests', 'shim-listen', 'shim-server', 'shim-tests']);
    expect(libraries.sort()).toEqual(['app-tests', 'handler-move', 'handler-rewrite', 'lib', 'plugin-registrations', 'server-module']);
  });

  it.each([...steps])('step %s imports no other step', (step) => {
    expect(importsOf(step).filter(([, to]) => steps.has(to))).toEqual([]);
  });

  it.each(libraries)('library %s imports no step', (library) => {
    expect(importsOf(library).filter(([, to]) => steps.has(to))).toEqual([]);
  });

  it('lib/ imports no other folder of transforms/', () => {
    expect(importsOf('lib')).toEqual([]);
  });
});
