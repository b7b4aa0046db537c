/**
 * The rules and their runner: every rule checks the inventory; the runner gives each finding a
 * stable id (rule id + subject + occurrence, DESIGN.md "The Inventory") and the rule's metadata,
 * sorts them, and derives the readiness of every route and the plan per stage.
 */
import type { Finding, Inventory, Readiness, RouteReadiness, Stage } from '../analyzer/model.js';
import { stableId } from '../analyzer/inventory.js';
import { expressRoutes } from './frameworks.js';
import { unresolvedRoute, routerMiddlewareLeak } from './checks/analysis-gaps.js';
import { defaultPages, listenHost } from './checks/app-defaults.js';
import { arrayPath } from './checks/array-path.js';
import { bodyPresence } from './checks/body-presence.js';
import { apiUsage, middlewareNoEquivalent, middlewarePlugin } from './checks/catalogued.js';
import { errStatus, errorHandlerChain, errorTypeChecks } from './checks/error-handling.js';
import { express4PathSyntax } from './checks/express4-path-syntax.js';
import { express5PathSyntax } from './checks/express5-path-syntax.js';
import { nextRoute } from './checks/next-route.js';
import { nodeEngine } from './checks/node-engine.js';
import { paramCallback } from './checks/param-callback.js';
import { regexpPath } from './checks/regexp-path.js';
import { asyncCallbackAnswer, reqPathInRouter, reqQueryWrite, resLocals } from './checks/request-state.js';
import { resFormat, resJsonp } from './checks/response-api.js';
import { duplicateRoute, overlappingRoutes } from './checks/route-conflicts.js';
import { resMethodReassign } from './checks/res-method-reassign.js';
import { routerGuardUnknownPaths } from './checks/router-guard.js';
import { sessionSecret } from './checks/session-secret.js';
import { appSettings, trustProxyHops } from './checks/settings.js';
import type { Rule } from './rule.js';

/** Every rule, in report order. */
export const RULES: Rule[] = [
  nodeEngine,
  listenHost,
  trustProxyHops,
  appSettings,
  regexpPath,
  express4PathSyntax,
  express5PathSyntax,
  arrayPath,
  duplicateRoute,
  overlappingRoutes,
  nextRoute,
  paramCallback,
  reqPathInRouter,
  reqQueryWrite,
  bodyPresence,
  resLocals,
  resFormat,
  resJsonp,
  asyncCallbackAnswer,
  resMethodReassign,
  errStatus,
  errorTypeChecks,
  errorHandlerChain,
  defaultPages,
  routerMiddlewareLeak,
  routerGuardUnknownPaths,
  unresolvedRoute,
  sessionSecret,
  middlewareNoEquivalent,
  middlewarePlugin,
  apiUsage,
];

/** Stages in the order `migrate run` takes them; `manual` last. */
export const STAGES: Stage[] = ['shim', 'errors', 'routes', 'plugins', 'schemas', 'unshim', 'manual'];

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * Runs `rules` over `inventory` and returns a copy with `findings` and `readiness`.
 * Findings sort by severity, then file, line, column and rule, so two runs give the same order.
 */
export function runRules(inventory: Inventory, rules: Rule[] = RULES): Inventory {
  const occurrences = new Map<string, number>();
  const findings: Finding[] = rules.flatMap((rule) =>
    rule.check(inventory).map((draft): Finding => {
      const base = `${rule.id}\u0000${draft.subject}`;
      const n = occurrences.get(base) ?? 0;
      occurrences.set(base, n + 1);
      return {
        id: stableId('finding', rule.id, draft.subject, String(n)),
        rule: rule.id,
        severity: draft.severity ?? rule.severity,
        stage: draft.stage ?? rule.stage,
        // What only a human can do (stage `manual`) is never fixed unaided, whatever the rule's default.
        autoFixable: (draft.stage ?? rule.stage) === 'manual' ? false : (draft.autoFixable ?? rule.autoFixable),
        message: draft.message,
        fastify: draft.fastify,
        location: draft.location,
        related: draft.related ?? [],
        subject: draft.subject,
        ...(draft.appliesTo ? { appliesTo: draft.appliesTo } : {}),
        ...(draft.notes?.length ? { notes: draft.notes } : {}),
      };
    }),
  );
  findings.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.location.file.localeCompare(b.location.file) ||
      a.location.line - b.location.line ||
      a.location.column - b.location.column ||
      a.rule.localeCompare(b.rule) ||
      a.id.localeCompare(b.id),
  );
  return { ...inventory, findings, readiness: readinessOf(inventory, findings) };
}

/**
 * A route is `manual` when a finding about it or about middleware in its chain (that applies to
 * its method) is an error or needs a human (stage `manual`) and no stage fixes it unaided,
 * `assisted` when a warning is not fixed unaided, else `auto`.
 *
 * Only Express routes (served through `@fastify/express` or not) are routes to move: Fastify
 * routes (`framework: 'fastify'`) are left out of `routes`, the per-router `totals`, `overall` and
 * `causes` (reports count them apart from `inventory.routes`). The plan lists the findings of every
 * stage as the rules set them.
 */
export function readinessOf(inventory: Inventory, findings: Finding[]): Readiness {
  const about = new Map<string, Finding[]>();
  for (const f of findings) about.set(f.subject, [...(about.get(f.subject) ?? []), f]);
  // A route inherits what is found about the middleware that runs before it (method-override at
  // app level keeps every route behind it on Express).
  const toMove = expressRoutes(inventory);
  const routes = toMove.map((r) => {
    const uses = new Set([...r.usage.req, ...r.usage.res, ...r.usage.next].map((u) => u.api));
    const applies = (f: Finding) => (!f.appliesTo?.methods || f.appliesTo.methods.includes(r.method)) && (!f.appliesTo?.uses || f.appliesTo.uses.some((u) => uses.has(u)));
    const inherited = r.chain.flatMap((c) => (c.middlewareId ? (about.get(c.middlewareId) ?? []) : [])).filter(applies);
    const fs = [...(about.get(r.id) ?? []), ...inherited];
    // An error a stage fixes unaided (a short session secret) does not hold the route back.
    const manual = fs.filter((f) => !f.autoFixable && (f.severity === 'error' || f.stage === 'manual'));
    const assisted = fs.filter((f) => !f.autoFixable && f.severity !== 'info');
    const readiness: RouteReadiness = manual.length ? 'manual' : assisted.length ? 'assisted' : 'auto';
    return { id: r.id, key: r.key, readiness, findings: fs.map((f) => f.id), decidedBy: manual.length ? manual : assisted };
  });
  const causes = new Map<string, Readiness['causes'][number]>();
  for (const r of routes) {
    if (r.readiness === 'auto') continue;
    for (const f of r.decidedBy) {
      // One cause per rule and place: the same finding is repeated for each route it is about.
      const key = `${r.readiness}\0${f.rule}\0${f.location.file}:${f.location.line}:${f.location.column}`;
      const cause = causes.get(key) ?? { readiness: r.readiness, rule: f.rule, message: f.message, location: f.location, routes: 0 };
      cause.routes++;
      causes.set(key, cause);
    }
  }
  const empty = (): Record<RouteReadiness, number> => ({ auto: 0, assisted: 0, manual: 0 });
  const owners = new Map<string, { ownerId: string; name: string } & Record<RouteReadiness, number>>();
  // Routers are told apart by where they are mounted (`router at /v1/auth`): many share a variable name.
  const mountOf = (id: string) => inventory.mounts.find((m) => m.child === id)?.fullPath;
  const names = new Map([...inventory.apps.map((a) => [a.id, a.name] as const), ...inventory.routers.map((r) => [r.id, mountOf(r.id) ? `${r.name} at ${mountOf(r.id)}` : r.name] as const)]);
  const overall = empty();
  for (const [i, r] of toMove.entries()) {
    const owner = owners.get(r.ownerId) ?? { ownerId: r.ownerId, name: names.get(r.ownerId) ?? r.ownerId, ...empty() };
    owner[routes[i].readiness]++;
    overall[routes[i].readiness]++;
    owners.set(r.ownerId, owner);
  }
  const plan = STAGES.map((stage) => {
    const here = findings.filter((f) => f.stage === stage);
    const byRule = new Map<string, number>();
    for (const f of here) byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
    return { stage, findings: here.length, changes: [...byRule].map(([rule, n]) => `${RULES.find((r) => r.id === rule)?.title ?? rule}: ${n}`) };
  });
  const ranked = [...causes.values()].sort((a, b) => b.routes - a.routes || (a.readiness === 'manual' ? -1 : 1) - (b.readiness === 'manual' ? -1 : 1));
  return { routes: routes.map(({ decidedBy: _, ...r }) => r), totals: [...owners.values()], overall, causes: ranked, plan };
}
