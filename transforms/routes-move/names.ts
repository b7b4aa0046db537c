/**
 * How the routes stage names routers, groups and plugins: the router a route belongs to as the
 * summary lists it, the plugin function a router's routes go into, and the prefix it is registered under.
 */
import path from 'node:path';
import type { Inventory, Route } from '../../analyzer/model.js';
import { joinPaths } from '../../analyzer/path.js';
import { identifierNames } from '../lib/ast.js';
import type { ParsedFile } from '../lib/parsed-files.js';
import type { PlanContext } from '../model.js';

/** The full mount prefix of a route's router ('' at the app itself). */
export function prefixOf(route: Route): string {
  const joined = route.mountChain.reduce((p, m) => joinPaths(p, m.mountPath), '');
  return joined === '/' ? '' : joined;
}

/** The router a route belongs to, as the summary names it (`router notes at /api/notes`, `app`). */
export function groupName(inventory: Inventory, route: Route): string {
  const prefix = prefixOf(route);
  return `${ownerLabel(inventory, route.ownerId)}${prefix ? ` at ${prefix}` : ''} (${route.registration.file})`;
}

/** A router or app as its plugin's doc comment and the summary name it (`router notes`, `sub-app of admin.js`, `app`). */
export function ownerLabel(inventory: Inventory, ownerId: string): string {
  const router = inventory.routers.find((r) => r.id === ownerId);
  const kind = router?.kind === 'router' ? 'router' : 'sub-app';
  if (router) return router.name === 'router' || router.name === 'app' ? `${kind} of ${path.posix.basename(router.location.file)}` : `${kind} ${router.name}`;
  const app = inventory.apps.find((a) => a.id === ownerId);
  return !app?.name || app.name === 'app' ? 'app' : `app ${app.name}`;
}

/**
 * The name of the plugin function for `owner`'s routes in `file`: `<file stem>Routes` (with
 * several routers in the file, `<receiver>Routes`), free in the file and among the names `given`
 * there already — or the plugin a former run wrote in the file for the same router.
 */
export function pluginName(ctx: PlanContext, file: string, owner: string, reg: ParsedFile, given: Map<string, Set<string>>, receiver: string | null): string {
  // A file with one router: `<file stem>Routes`; with several: `<router variable>Routes`.
  const stem = (receiver ?? path.posix.basename(file).replace(/\.[^.]+$/, '')).replace(/[^A-Za-z0-9]+(.)/g, (_, c: string) => c.toUpperCase());
  const base = `${/^[0-9]/.test(stem) ? '_' : ''}${stem}Routes`;
  const inFile = given.get(file) ?? new Set<string>();
  given.set(file, inFile);
  const existing = new RegExp(`Fastify routes of the Express ${escape(ownerLabel(ctx.inventory, owner))}[\\s\\S]*?function (\\w+)\\(`).exec(reg.source);
  if (existing) return existing[1];
  const taken = identifierNames(reg.j, reg.root);
  let name = base;
  for (let i = 2; taken.has(name) || inFile.has(name); i++) name = `${base}${i}`;
  inFile.add(name);
  return name;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
