/**
 * Flattens an app's routing tree into the order Express tries layers for a request: the app's
 * stack in registration order, with each mounted router's whole stack inlined where it is
 * mounted (depth first). From that order follow each route's full path and effective chain.
 */
import type { Layer, MountLayer, ParamLayer, RouteLayer, RouterNode, UseLayer } from './graph.js';
import { joinPaths, pathText, type PathSpec } from './path.js';

export interface FlatBase {
  /** Full path (route) or full prefix (middleware, mount). */
  full: string;
  spec: PathSpec;
  owner: RouterNode;
  /** Mount layers from the app down to the owner, with the path element used at each. */
  mounts: { layer: MountLayer; spec: PathSpec; full: string }[];
}

export type FlatItem =
  | (FlatBase & { type: 'route'; layer: RouteLayer })
  | (FlatBase & { type: 'use'; layer: UseLayer })
  | (FlatBase & { type: 'mount'; layer: MountLayer });

/** Depth-first flattening of `app`; a router reachable through itself is walked once per path. */
export function flatten(app: RouterNode): FlatItem[] {
  const items: FlatItem[] = [];
  const walk = (router: RouterNode, prefix: string, mounts: FlatBase['mounts'], visiting: Set<RouterNode>) => {
    for (const layer of router.stack) {
      if (layer.type === 'param') continue;
      for (const spec of layer.paths) {
        const full = joinPaths(prefix, pathText(spec));
        if (layer.type === 'mount') {
          items.push({ type: 'mount', layer, full, spec, owner: router, mounts });
          if (!visiting.has(layer.child)) {
            visiting.add(layer.child);
            walk(layer.child, full, [...mounts, { layer, spec, full }], visiting);
            visiting.delete(layer.child);
          }
        } else items.push({ type: layer.type, layer, full, spec, owner: router, mounts } as FlatItem);
      }
    }
  };
  walk(app, '', [], new Set([app]));
  return items;
}

/**
 * Param callbacks of `router` for a route with parameters `names`: Express runs them in the order
 * the parameters appear in the path, and for one name in registration order (router.process_params).
 */
export function paramLayersFor(router: RouterNode, names: string[]): ParamLayer[] {
  const layers = router.stack.filter((l: Layer): l is ParamLayer => l.type === 'param');
  return names.flatMap((name) => layers.filter((l) => l.names.includes(name)));
}
