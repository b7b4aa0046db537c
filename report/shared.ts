/** Helpers shared by the report renderers. */
import { BLIND_SPOTS, type Diagnostic, type Inventory, type Location, type Route } from '../analyzer/model.js';
import { joinPaths } from '../analyzer/path.js';

/** `file:line` of a location. */
export function loc(l: Location | undefined): string {
  return l ? `${l.file}:${l.line}` : '';
}

export interface RouteGroup {
  title: string;
  where: string;
  routes: Route[];
}

/**
 * Routes of one app in registration order (first match wins), grouped into runs of consecutive
 * routes of the same router at the same mount path.
 */
export function groupRoutes(inv: Inventory, appId: string): RouteGroup[] {
  const groups: RouteGroup[] = [];
  let current = null as { key: string; group: RouteGroup } | null;
  for (const r of inv.routes.filter((x) => x.appId === appId)) {
    const mountPath = r.mountChain.reduce((acc, m) => joinPaths(acc, m.mountPath), '');
    const key = `${r.ownerId} ${mountPath}`;
    if (current?.key !== key) {
      const router = inv.routers.find((x) => x.id === r.ownerId);
      const app = inv.apps.find((a) => a.id === r.ownerId);
      const lastMount = r.mountChain[r.mountChain.length - 1];
      const title = router ? `${router.kind === 'sub-app' ? 'Sub-app' : 'Router'} ${router.name} at ${mountPath || '/'}` : `Routes on the app itself`;
      const where = router ? `mounted ${loc(lastMount?.location)}, created ${loc(router.location)}` : `created ${loc(app?.location)}`;
      current = { key, group: { title, where, routes: [] } };
      groups.push(current.group);
    }
    current.group.routes.push(r);
  }
  return groups;
}

/** Short note for a route that is not exact, e.g. `partial: conditional`. */
export function resolutionNote(r: Route): string {
  if (r.resolution === 'exact') return '';
  const codes = [...new Set(r.reasons.map((x) => x.code))].join(', ');
  return `${r.resolution}${codes ? `: ${codes}` : ''}`;
}

/** Diagnostic codes that mean part of the app could not be inventoried (vs notes for the migration). */
const RESOLUTION_CODES = new Set([...BLIND_SPOTS, 'parse-error', 'file-skipped', 'analysis-budget', 'unresolved-path', 'unmounted-router', 'no-entry']);

export interface ReportItem {
  code: string;
  severity: Diagnostic['severity'];
  message: string;
  location?: Location;
}

/**
 * Splits what the report must mention into what could not be resolved (route reasons and
 * resolution diagnostics) and notes for the migration (everything else).
 */
export function problemsAndNotes(inv: Inventory): { problems: ReportItem[]; notes: ReportItem[] } {
  const fromRoutes = inv.routes.flatMap((r) => r.reasons.map((reason) => ({ code: reason.code, severity: 'warning' as const, message: `${r.key}: ${reason.message}`, location: reason.location })));
  return {
    problems: [...fromRoutes, ...inv.diagnostics.filter((d) => RESOLUTION_CODES.has(d.code))],
    notes: inv.diagnostics.filter((d) => !RESOLUTION_CODES.has(d.code)),
  };
}

/** `Express 4.21.2 (installed)` or `Express ^4.17.1 (declared)`. */
export function expressLabel(inv: Inventory): string {
  const v = inv.project.expressVersion;
  return v.installed ? `Express ${v.installed} (installed)` : v.declared ? `Express ${v.declared} (declared)` : 'Express (version not declared)';
}

/** Text safe inside a Markdown table cell: pipes escaped, line breaks flattened. */
export function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** `1 route`, `2 routes`: a count with an English plural in -s. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What holds routes at one readiness, per code (a blocker code or a rule id): how many routes, where. */
export interface CauseGroup {
  code: string;
  /** Routes held (a route counted once per code). */
  routes: number;
  /** The places named, most routes first. */
  places: Location[];
  /** For `later`: the stage the routes wait for. */
  stage?: string;
}

/**
 * The readiness causes of `readiness` grouped by code, most routes first: one blocker repeated per
 * route ("route-handler-wrapped" at each registration) reads as one cause with its count.
 */
export function causesByCode(causes: NonNullable<Inventory['readiness']>['causes'], readiness: string): CauseGroup[] {
  const groups = new Map<string, CauseGroup>();
  // A route held by one code at two places counts once.
  const ids = new Map<string, Set<string>>();
  for (const c of causes.filter((x) => x.readiness === readiness)) {
    const key = `${c.code}\0${c.stage ?? ''}`;
    const group = groups.get(key) ?? { code: c.code, routes: 0, places: [], ...(c.stage && readiness === 'later' ? { stage: c.stage } : {}) };
    group.places.push(c.location);
    groups.set(key, group);
    ids.set(key, new Set([...(ids.get(key) ?? []), ...c.routeIds]));
    group.routes = ids.get(key)!.size;
  }
  return [...groups.values()].sort((a, b) => b.routes - a.routes || a.code.localeCompare(b.code));
}
