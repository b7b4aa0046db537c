/**
 * Routes registered in the file that starts the app (issue 17, item 1). The generated server module
 * cannot import their plugin back from that file — it imports the module, so that is a cycle, in
 * which CommonJS hands out a half-built module. The plugin stays in the start file, unexported, and
 * the file hands it to the server it builds: `listen(buildFastify(app, { routes: [{ plugin:
 * appRoutes }] }), port)`, which movedRoutes registers with the other routers' plugins
 * (server-module/moved-routes.ts `handed`). The plugin is a function declaration, hoisted, and
 * Fastify loads it once the start file has run to its end, so what it refers to is defined by then.
 */
import type { ASTPath, Collection, JSCodeshift } from 'jscodeshift';
import type { Route } from '../../analyzer/model.js';
import type { Node } from '../lib/ast.js';
import { isOnFastify } from '../lib/assumed.js';
import type { ParsedFile } from '../lib/parsed-files.js';
import type { PlanContext } from '../model.js';
import { importsServerModule } from '../server-module/start-sites.js';

/** The start file's part: the plugin it hands to every `buildFastify(…)` call in it, under each prefix. */
export interface HandRoutesEntry {
  kind: 'hand-routes';
  /** The plugin's name (a function declared in the file). */
  plugin: string;
  /** The prefixes it is registered under (`''` at the app). */
  prefixes: string[];
}

/**
 * Why the routes of `route`'s start file cannot be handed to buildFastify, or null when they can:
 * the file calls buildFastify (the shim rewrote its `app.listen`), or, when assessing with the shim
 * assumed, the shim will.
 */
export function startFileRefusal(ctx: PlanContext, route: Route, reg: ParsedFile): string | null {
  const file = route.registration.file;
  if (importsServerModule(ctx.inventory, file)) return buildFastifyCalls(reg.j, reg.root).length ? null : `it is registered in ${file}, which starts the app through the generated server module without a buildFastify(…) call to hand its routes to (importing them back would be a cycle)`;
  const app = ctx.inventory.apps.find((a) => a.id === route.appId);
  return app && isOnFastify(ctx, app) ? null : `it is registered in ${file}, which starts the app where the shim put no buildFastify(…) call to hand its routes to`;
}

/** The `buildFastify(…)` calls of a file (the shim writes them by that name). */
function buildFastifyCalls(j: JSCodeshift, root: Collection): ASTPath<Node>[] {
  return root.find(j.CallExpression, { callee: { type: 'Identifier', name: 'buildFastify' } }).paths();
}

/**
 * Hands the file's plugins (`entries`, each under its prefixes) to every buildFastify call of the
 * file: adds `{ routes: [...] }` as its second argument, or adds the entries missing from the array
 * a former run wrote (one `{ plugin, prefix }` per prefix; no prefix at the app).
 * @returns whether the file changed.
 * @throws Error when the file has no buildFastify call (the plan checked: startFileRefusal), or its
 *   second argument is not an object with a `routes` array
 */
export function handRoutes(j: JSCodeshift, root: Collection, entries: HandRoutesEntry[], quote: 'single' | 'double', file: string): boolean {
  const calls = buildFastifyCalls(j, root);
  if (!calls.length) throw new Error(`${file} has no buildFastify(…) call to hand its routes to`);
  const q = quote === 'double' ? '"' : "'";
  const wanted = entries.flatMap((e) => e.prefixes.map((prefix) => (prefix ? `{ plugin: ${e.plugin}, prefix: ${q}${prefix}${q} }` : `{ plugin: ${e.plugin} }`)));
  let changed = false;
  for (const call of calls) {
    const [app, options] = call.node.arguments as Node[];
    const routes = options?.type === 'ObjectExpression' ? options.properties.find((p: Node) => p.key?.name === 'routes') : null;
    if (options && routes?.value.type !== 'ArrayExpression') throw new Error(`${file}: buildFastify's options have no routes array to add ${entries.map((e) => e.plugin).join(', ')} to`);
    const present: string[] = routes ? routes.value.elements.map((e: Node) => j(e).toSource().replace(/\s+/g, ' ')) : [];
    const missing = wanted.filter((w) => !present.includes(w));
    if (!missing.length) continue;
    // The call is written again from one snippet: recast prints a snippet as written, where it would reflow an edited call.
    call.replace(j(`buildFastify(${j(app).toSource()}, { routes: [${[...present, ...missing].join(', ')}] })`).find(j.CallExpression).paths()[0].node);
    changed = true;
  }
  return changed;
}

