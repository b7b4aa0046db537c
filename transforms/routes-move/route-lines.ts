/**
 * A moved route as the source of its Fastify registration, shared by the plugin a route moves into
 * (transform.ts) and the registrar rewritten where it is (registrars.ts).
 */
import type { PluginRoute } from './model.js';

/**
 * The statements that register `route` on `receiver` with its handler written as `handler` (a
 * reference, or a placeholder an inline function takes the place of): one per Fastify path; an
 * inline handler several paths share (Express 5 optional groups) becomes a `const` named `shared`
 * first.
 */
export function routeLines(receiver: string, route: PluginRoute, handler: string, shared: string | null): string[] {
  const method = route.method === 'ALL' ? 'all' : route.method.toLowerCase();
  const hooks = route.hooks.length ? `{ preHandler: [${route.hooks.join(', ')}] }, ` : '';
  const lines: string[] = [];
  let target = handler;
  if (shared && route.paths.length > 1) {
    lines.push(`const ${shared} = ${target};`);
    target = shared;
  }
  const args = route.chain ? expressChainCall(route, target) : `${hooks}${target}`;
  for (const url of route.paths) lines.push(`${receiver}.${method}(${url}, ${args});`);
  return lines;
}

/**
 * `expressChain(<chain>[, [hooks]])` for a route registered with arrays of functions (chains.ts):
 * the one array when it is the whole registration (`expressChain(ctrl.create)`), else the
 * functions in order, arrays spread, the handler last (`expressChain([auth, ...articleAuth, show])`).
 */
function expressChainCall(route: PluginRoute, handler: string): string {
  const { elements, handlerInArray } = route.chain!;
  const chain = handlerInArray && elements.length === 1 && elements[0].startsWith('...') ? elements[0].slice(3) : `[${[...elements, ...(handlerInArray ? [] : [handler])].join(', ')}]`;
  return `expressChain(${chain}${route.hooks.length ? `, [${route.hooks.join(', ')}]` : ''})`;
}
