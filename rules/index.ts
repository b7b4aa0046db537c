/**
 * The rules and their runner: every rule checks the inventory; the runner gives each finding a
 * stable id (rule id + subject + occurrence, DESIGN.md "The Inventory") and the rule's metadata,
 * and sorts them. The readiness of routes is rules/readiness.ts's, from the stages' verdicts.
 */
import type { Finding, Inventory, Stage } from '../analyzer/model.js';
import { stableId } from '../analyzer/inventory.js';
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
 * Runs `rules` over `inventory` and returns a copy with `findings` (and without a `readiness`
 * made before: runner/readiness.ts rates the routes again from these findings).
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
  const { readiness: _, ...rest } = inventory;
  return { ...rest, findings };
}
