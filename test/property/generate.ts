/**
 * `generateApp(seed)`: a random but reproducible Express app built from the pattern catalogue
 * (`shared/reference/analyzer-patterns.md`) in the shapes of `fixtures/apps/`: package.json, an app
 * module exporting the app, a server module that listens (or one file doing both), 0–4 routers,
 * controllers, local middleware and error modules; CommonJS, ESM or TypeScript; Express 4 or 5; in
 * one of several code styles. The apps need not run; they parse, and they are the kind of code real
 * apps contain. Used by the property test over every stage (issue 7, item 5).
 */
import { describeApp, featuresOf } from './features.js';
import { writeApp } from './render/app.js';
import { renderContext } from './render/common.js';
import { writeMiddlewareModules } from './render/middleware.js';
import { writePackageFiles } from './render/package.js';
import { writeRouter } from './render/router.js';
import { writeServer } from './render/server.js';
import { chooseSpec } from './spec.js';
import { restyle } from './style.js';

/** One generated app folder. */
export interface GeneratedApp {
  seed: number;
  /** Path relative to the app folder (POSIX) → file content, in the app's style and line endings. */
  files: Record<string, string>;
  /** One line saying what the app is (module system, Express major, routers, listen shape, style). */
  description: string;
  /** Feature tags (features.ts), sorted. */
  features: string[];
}

/**
 * Generates the app for `seed`; the same seed always gives the same files.
 * @throws Error only on a generator bug (see style.ts `restyle`).
 */
export function generateApp(seed: number): GeneratedApp {
  const spec = chooseSpec(seed);
  const rc = renderContext(spec);
  for (const router of spec.routers) writeRouter(rc, router);
  writeApp(rc);
  if (!spec.singleFile) writeServer(rc);
  writeMiddlewareModules(rc);
  writePackageFiles(rc);
  const aliasRequestResponse = rc.cosmetic.chance(0.15);
  const files: Record<string, string> = {};
  for (const file of Object.keys(rc.files).sort()) {
    let source = rc.files[file];
    if (file.endsWith('.json')) {
      files[file] = source.replace(/\n/g, spec.style.eol);
      continue;
    }
    // Catalogue P52: handlers may name their parameters (request, response).
    if (aliasRequestResponse) source = source.replace(/\breq\b/g, 'request').replace(/\bres\b/g, 'response');
    files[file] = restyle(source, spec.style, file);
  }
  return { seed, files, description: describeApp(spec), features: featuresOf(spec) };
}
