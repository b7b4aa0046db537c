/**
 * Start sites of an app (model.ts StartSite): its `listen` calls and the Node servers made for it,
 * as the evaluator recorded them by value (express-api.ts `listen` and `serve`, fastify-api.ts
 * `listen`), each once, in source order.
 */
import { Node, type ts } from 'ts-morph';
import type { Location, StartSite } from './model.js';
import { endOf } from './position.js';

type Locate = (node: Node | ts.Node) => Location;

/** The start sites of one app: `listen` call sites and `servers` (create-server sites with the app's argument index). */
export function startSites(listen: { site: Node }[], servers: { site: Node; appArgument: number }[], locate: Locate): StartSite[] {
  const seen = new Set<Node>();
  const sites: StartSite[] = [];
  const add = (site: Node, kind: StartSite['kind'], appArgument?: number) => {
    if (seen.has(site) || !(Node.isCallExpression(site) || Node.isNewExpression(site))) return;
    seen.add(site);
    const callee = site.getExpression().getText().replace(/\s*[\r\n]\s*/g, '');
    sites.push({
      kind, location: locate(site), end: endOf(site), callee: Node.isNewExpression(site) ? `new ${callee}` : callee,
      args: (site.getArguments() as Node[]).map((a) => a.getText()), ...(appArgument === undefined ? {} : { appArgument }),
    });
  };
  for (const l of listen) add(l.site, 'listen');
  for (const s of servers) add(s.site, 'create-server', s.appArgument);
  return sites.sort((a, b) => a.location.file.localeCompare(b.location.file) || a.location.line - b.location.line || a.location.column - b.location.column);
}
