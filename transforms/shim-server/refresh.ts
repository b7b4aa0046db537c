/**
 * Generated modules whose settings-derived parts (server-module/template.ts SettingsSource) no
 * longer say what the app's settings give: the user changed `case sensitive routing`, `trust
 * proxy`, the query parser or a body parser after the shim ran. Each such module is planned for a
 * rewrite of those parts only (server-module/fastify-options.ts), with the reasons, so `run
 * --check` can say which module is stale and why.
 */
import type { App } from '../../analyzer/model.js';
import type { ManualItem, PlanContext } from '../model.js';
import { jFor } from '../lib/ast.js';
import { appsPerModule, generatedModuleFor } from '../server-module/locate.js';
import { sameSource, settingsIn, type SettingsInModule } from '../server-module/fastify-options.js';
import { settingsSource, type ServerFacts, type SettingsKey } from '../server-module/template.js';
import { serverFactsOf } from './facts.js';

/** A generated module to bring up to date: the facts to write, the parts that differ, and why (one sentence per part). */
export interface StaleModule {
  file: string;
  facts: ServerFacts;
  keys: SettingsKey[];
  reasons: string[];
}

/** The Express setting each part copies, for the reasons. */
const COPIES: Record<SettingsKey, string> = {
  caseSensitive: "'case sensitive routing'",
  ignoreTrailingSlash: "'strict routing'",
  querystringParser: "'query parser'",
  trustProxy: "'trust proxy'",
  bodyParsers: "the app's body parsers",
};

/**
 * Every generated module that serves Express apps (generatedModuleFor) and whose settings-derived
 * parts differ from what its app's settings give now. Parts written from a value known only at run
 * time (facts.ts `unknown`: the user was told to set them by hand) are left out. A module that
 * serves several apps (written by an earlier version of the shim, which wrote one module per folder) is
 * updated only when their settings agree; otherwise it is reported (`shared-server-settings`) and
 * left as it is. A module whose Fastify options are not where the template put them is left alone.
 */
export function staleModules(ctx: PlanContext): { stale: StaleModule[]; manual: ManualItem[] } {
  const apps = ctx.inventory.apps.filter((a) => a.framework !== 'fastify');
  const modules = new Map(apps.map((a) => [a.id, generatedModuleFor(ctx, a)]));
  const stale: StaleModule[] = [];
  const manual: ManualItem[] = [];
  for (const [file, served] of appsPerModule(apps, modules)) {
    const module = modules.get(served[0].id)!;
    const j = jFor(file);
    const current = settingsIn(j, j(module.source));
    if (!current) continue;
    const read = served.map((app) => serverFactsOf(ctx, app, module, file));
    const differing = served.find((_, i) => i > 0 && JSON.stringify(settingsSource(read[i].facts)) !== JSON.stringify(settingsSource(read[0].facts)));
    if (differing) {
      manual.push(sharedSettings(differing, served[0], file));
      continue;
    }
    const unknown = new Set(read.flatMap((r) => r.unknown));
    const keys = (Object.keys(COPIES) as SettingsKey[]).filter((k) => !unknown.has(k) && differs(current, settingsSource(read[0].facts), k));
    if (keys.length) stale.push({ file, facts: read[0].facts, keys, reasons: keys.map((k) => reasonOf(k, current[k], settingsSource(read[0].facts)[k])) });
  }
  return { stale, manual };
}

/** Whether part `key` of the module differs from what the settings give (a module without `parseBodyLikeExpress([…])` has no body parsers part to compare). */
function differs(current: SettingsInModule, wanted: ReturnType<typeof settingsSource>, key: SettingsKey): boolean {
  if (key === 'bodyParsers' && current.bodyParsers === null) return false;
  return !sameSource(current[key], wanted[key]);
}

/** `'trust proxy' (trustProxy: was true, now (address, hop) => hop < 2)`. */
function reasonOf(key: SettingsKey, has: string | null, wanted: string | null): string {
  const part = key === 'bodyParsers' ? 'parseBodyLikeExpress' : key;
  const shown = (text: string | null) => (text === null ? 'absent' : text.replace(/\s+/g, ' '));
  return `${COPIES[key]} (${part}: was ${shown(has)}, now ${shown(wanted)})`;
}

/**
 * One module serves `app` and `builtFor`, whose settings differ (both were started in one folder
 * and shimmed by a version that wrote one module per folder): one Fastify cannot copy both.
 */
function sharedSettings(app: App, builtFor: App, module: string): ManualItem {
  return {
    file: app.location.file,
    line: app.location.line,
    code: 'shared-server-settings',
    reason: `${app.name} runs behind ${module} with ${builtFor.name} (an earlier version of the shim wrote one module per folder), and their settings (routing, trust proxy, query parser, body parsers) differ, so the shim updates neither; give ${app.name} a module of its own (delete ${module}, undo the shim's edits of the files that start the apps and run the shim again) or copy its settings by hand`,
  };
}
