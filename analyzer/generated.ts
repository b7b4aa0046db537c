/**
 * The modules the stages write, recognised by the mark on their first line (one source of truth:
 * the stages that write them import the marks from here): the server module of the `shim` stage
 * (Fastify in front of the Express app, `fastify-server.*`) and the hooks module of the `routes`
 * stage (`fastify-hooks.*`: adapters that run Express middleware as Fastify hooks).
 */
import type { ts } from 'ts-morph';

/** On the first line of the server module the `shim` stage writes. */
export const SHIM_MARK = 'written by `migrate run --stage shim`';

/** On the first line of the hooks module the `routes` stage writes. */
export const ROUTES_HOOKS_MARK = 'written by `migrate run --stage routes`';

/** Which module a stage wrote: the shim's server module or the routes stage's hooks module. */
export type GeneratedKind = 'server-module' | 'hooks-module';

/** Which generated module a file is, from its first line; null for the app's own files. */
export function generatedKind(firstLine: string): GeneratedKind | null {
  if (firstLine.includes(SHIM_MARK)) return 'server-module';
  if (firstLine.includes(ROUTES_HOOKS_MARK)) return 'hooks-module';
  return null;
}

const kinds = new WeakMap<ts.SourceFile, GeneratedKind | null>();

/** generatedKind of a parsed file (read once per file). */
export function generatedKindOf(sf: ts.SourceFile): GeneratedKind | null {
  let kind = kinds.get(sf);
  if (kind === undefined) {
    const eol = sf.text.indexOf('\n');
    kinds.set(sf, (kind = generatedKind(eol < 0 ? sf.text : sf.text.slice(0, eol))));
  }
  return kind;
}

/**
 * The server module's hand-over of routes that a function of the app registers with its own
 * variables (transforms/server-module/handed-routes.ts): the function calls `handRoutes(app, plugin)`
 * when it runs, movedRoutes registers `routesHandedBy(app)`. The analyzer follows both by these names.
 */
export const HAND_ROUTES = 'handRoutes';
export const ROUTES_HANDED_BY = 'routesHandedBy';
