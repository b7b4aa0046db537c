/**
 * What the renderers of one generated app share: the spec, the output files, a cosmetic random
 * source (choices that do not change what the app contains, only how it is written), and the local
 * middleware modules the other files asked for (written last by middleware.ts).
 */
import { Rng } from '../random.js';
import type { AppSpec, ErrorHandlerSpec, LocalMiddleware, RouteSpec } from '../spec.js';
import { extensionOf, type ModuleWriter } from './module-writer.js';

/** An error middleware that lives in `middleware/errors`. */
export interface ModuleErrorHandler {
  name: string;
  spec: ErrorHandlerSpec;
}

export interface RenderContext {
  spec: AppSpec;
  ext: '.js' | '.ts';
  /** App-relative path (with extension) → canonical source. */
  files: Record<string, string>;
  /** For how things are written (function or arrow, `node:http` or `http`), never for what the app holds. */
  cosmetic: Rng;
  /** Local middleware modules to write: `middleware/<file>` → exported names. */
  localModules: Map<string, Set<LocalMiddleware | 'requireRole'>>;
  /** Error middleware that `middleware/errors` exports (app-level handlers of form `module`). */
  errorModule: ModuleErrorHandler[];
}

/** A fresh context for `spec`; the cosmetic source is seeded from the app's seed. */
export function renderContext(spec: AppSpec): RenderContext {
  return { spec, ext: extensionOf(spec.module), files: {}, cosmetic: new Rng(spec.seed ^ 0x5bd1e995), localModules: new Map(), errorModule: [] };
}

/** App-relative path of a source module without extension (`src/routes/users`). */
export function modulePath(rc: RenderContext, name: string): string {
  return `${rc.spec.dir}${name}`;
}

/** A string literal in canonical style (single quotes). */
export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The module file that holds local middleware `name`. */
const LOCAL_MODULE_OF: Record<LocalMiddleware | 'requireRole', string> = {
  requireAuth: 'middleware/auth',
  requireRole: 'middleware/auth',
  requestId: 'middleware/request-id',
  logger: 'middleware/logger',
  poweredBy: 'middleware/powered-by',
};

/** Imports local middleware `name` into `w` from its module (and asks for that module); returns the name. */
export function importLocalMiddleware(rc: RenderContext, w: ModuleWriter, name: LocalMiddleware | 'requireRole'): string {
  const file = LOCAL_MODULE_OF[name];
  if (!rc.localModules.has(file)) rc.localModules.set(file, new Set());
  rc.localModules.get(file)!.add(name);
  return w.importNamed(w.local(modulePath(rc, file)), name);
}

/** The expression of a route-level middleware (`requireAuth`, `requireRole('admin')`, `express.json()`). */
export function routeMiddlewareRef(rc: RenderContext, w: ModuleWriter, name: RouteSpec['middleware'][number]): string {
  if (name === 'json') return `${w.importDefault('express', 'express')}.json()`;
  if (name === 'requireRole') return `${importLocalMiddleware(rc, w, 'requireRole')}('admin')`;
  return importLocalMiddleware(rc, w, 'requireAuth');
}
