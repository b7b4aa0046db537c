/**
 * The text report of an Inventory, for a terminal: the completeness headline first, then routes
 * grouped by app and router (full path, chain, handler, file:line), middleware, error handlers,
 * static files, views and settings, and last what could not be resolved, with reasons.
 */
import { createColors } from 'picocolors';
import type { ChainEntry, Finding, Inventory, Route } from '../analyzer/model.js';
import { causesByCode, expressLabel, groupRoutes, loc, plural, problemsAndNotes, resolutionNote, type ReportItem } from './shared.js';

/** Renders `inv` as plain text; `color` adds ANSI colours (the CLI decides: TTY, no NO_COLOR). */
export function renderText(inv: Inventory, color = false): string {
  const c = createColors(color);
  const out: string[] = [];
  const line = (s = '') => out.push(s);
  line(inv.summary.complete ? c.green(inv.summary.headline) : c.yellow(c.bold(inv.summary.headline)));
  const p = inv.project;
  line(c.dim(`${p.name ?? 'project'} · ${expressLabel(inv)} · ${p.moduleKind === 'esm' ? 'ESM' : 'CommonJS'}${p.typescript ? ' · TypeScript' : ''} · ${p.packageManager ?? 'no lockfile'} · entry ${p.entry ?? 'none'} (${p.entrySource})`));
  const s = inv.summary;
  const skipped = s.files.skippedFolders.length ? ` · skipped ${s.files.skippedFolders.join(', ')} and .gitignore'd files` : '';
  line(c.dim(`${s.routes} routes (${s.byResolution.exact} exact, ${s.byResolution.partial} partial, ${s.byResolution.inferred} inferred, ${s.byResolution.unresolved} unresolved) · ${plural(s.routers, 'router')} · ${plural(s.mounts, 'mount')} · ${s.middleware} middleware · ${plural(s.errorHandlers, 'error handler')} · ${plural(s.files.analysed, 'file')} analysed${skipped}`));

  for (const app of inv.apps) {
    line();
    line(c.bold(`App ${app.name}`) + c.dim(`  created ${loc(app.location)}`) + (app.listen.length ? c.dim(` · listens ${loc(app.listen[0].location)}`) : ''));
    const width = Math.min(48, Math.max(12, ...inv.routes.filter((r) => r.appId === app.id).map((r) => r.path.full.length + 2)));
    for (const group of groupRoutes(inv, app.id)) {
      line(`  ${c.cyan(group.title)}${c.dim(`  (${group.where})`)}`);
      // The middleware every route of the group runs first is printed once; each route shows what it adds.
      const shared = group.routes.length > 1 ? sharedPrefix(group.routes.map((r) => r.chain.map(chainText))) : 0;
      if (shared) line(c.dim(`    every route here runs first: ${group.routes[0].chain.slice(0, shared).map(chainText).join(' → ')}`));
      for (const r of group.routes) renderRoute(r, width, line, c, shared);
    }
    const mws = inv.middleware.filter((m) => m.appId === app.id);
    if (mws.length) {
      line();
      line(c.bold('  Middleware') + c.dim(' (app and router level, in the order Express runs it)'));
      for (const m of mws) line(`    ${m.fullPath.padEnd(16)} ${entryName(m)}${c.dim(`  ${m.scope}  ${loc(m.registration)}`)}`);
    }
    const ehs = inv.errorHandlers.filter((e) => e.appId === app.id);
    if (ehs.length) {
      line();
      line(c.bold('  Error handlers'));
      for (const e of ehs) line(`    ${e.fullPath.padEnd(16)} ${entryName(e)}${c.dim(`  ${e.scope}  ${loc(e.registration)}  catches errors of ${plural(e.covers.length, 'route')}`)}`);
    }
    const nfs = inv.notFoundHandlers.filter((n) => n.appId === app.id);
    for (const n of nfs) line(`  ${c.bold('Not found')}  ${n.fullPath} ${n.name}${c.dim(`  ${loc(n.registration)}${n.resolution === 'inferred' ? '  (inferred: catch-all after the routes)' : ''}`)}`);
    const statics = inv.staticMounts.filter((st) => st.appId === app.id);
    for (const st of statics) line(`  ${c.bold('Static')}     ${st.fullPath} → ${st.dir ?? '?'} [${st.package}]${c.dim(`  ${loc(st.registration)}`)}`);
    for (const v of inv.viewEngines.filter((v) => v.appId === app.id)) line(`  ${c.bold('Views')}      .${v.ext} → ${v.engine ?? '?'}${v.views ? ` in ${v.views}` : ''}${c.dim(`  ${loc(v.location)}`)}`);
    const settings = inv.settings.filter((st) => st.appId === app.id && st.kind !== 'read');
    if (settings.length) {
      line(`  ${c.bold('Settings')}`);
      for (const st of settings) line(`    ${st.kind === 'locals' ? `locals.${st.key}` : st.key} = ${st.kind === 'enable' ? 'true' : st.kind === 'disable' ? 'false' : st.value === null ? st.raw || '?' : JSON.stringify(st.value)}${c.dim(`  ${loc(st.location)}`)}`);
    }
  }

  if (inv.findings && inv.readiness) renderFindings(inv, line, c);

  const { problems, notes } = problemsAndNotes(inv);
  const item = (p: ReportItem) => line(`  ${p.severity === 'error' ? c.red(p.code) : p.severity === 'warning' ? c.yellow(p.code) : c.dim(p.code)}  ${p.message}${p.location ? c.dim(`  ${loc(p.location)}`) : ''}`);
  if (notes.length) {
    line();
    line(c.bold('Notes for the migration'));
    notes.forEach(item);
  }
  line();
  line(c.bold('Not resolved') + (problems.length ? '' : c.dim(': nothing, every registration was resolved')));
  problems.forEach(item);
  return out.join('\n') + '\n';
}

/** ` (plugins)`: the later stages that take routes, when any does. */
function laterStages(r: NonNullable<Inventory['readiness']>): string {
  const stages = Object.keys(r.byStage).filter((s) => s !== 'routes');
  return stages.length ? ` (${stages.join(', ')})` : '';
}

/** Readiness totals, the findings (worst first, with the Fastify form) and the plan per stage. */
function renderFindings(inv: Inventory, line: (s?: string) => void, c: ReturnType<typeof createColors>): void {
  const findings = inv.findings!;
  const r = inv.readiness!;
  line();
  // Fastify routes are not routes to move: readiness leaves them out (rules/index.ts), the line counts them apart.
  const onFastify = inv.routes.filter((x) => x.framework === 'fastify').length;
  line(c.bold('Fastify readiness') + `  ${r.overall.auto} auto · ${r.overall.assisted} assisted · ${r.overall.later} later${laterStages(r)} · ${r.overall.manual} manual${onFastify ? ` · ${onFastify} already on Fastify` : ''}` + c.dim('  (auto: the routes stage moves it; assisted: moves, with findings to review; later: a later stage takes it; manual: stays on Express until you act)'));
  for (const t of r.totals) line(c.dim(`  ${t.name}: ${t.auto} auto, ${t.assisted} assisted, ${t.later} later, ${t.manual} manual`));
  for (const u of r.unassessed ?? []) line(c.yellow(`  not assessed: the ${u.stage} stage (${u.reason})`));
  for (const readiness of ['manual', 'later', 'assisted'] as const) {
    const groups = causesByCode(r.causes, readiness);
    const shown = groups.slice(0, 5).map((g) => `${g.code}${g.stage ? ` (${g.stage} stage)` : ''} ${g.places.length === 1 ? loc(g.places[0]) : `in ${g.places.length} places`} (${plural(g.routes, 'route')})`);
    if (shown.length) line(`  ${readiness} because of: ${shown.join('; ')}${groups.length > 5 ? `; and ${groups.length - 5} more (--format json lists every route's reasons)` : ''}`);
  }
  if (r.causes.some((x) => x.readiness !== 'assisted')) line(c.dim('  what each code means: docs/codes.md; every route\'s reasons: --format json (readiness.routes[].blockers)'));
  line();
  const counts = (['error', 'warning', 'info'] as const).map((sev) => `${findings.filter((f) => f.severity === sev).length} ${sev}${sev === 'info' ? '' : 's'}`).join(' · ');
  line(c.bold('Findings') + `  ${counts}` + c.dim('  (rule docs: docs/rules/<rule>.md)'));
  // One line per rule and place: shared middleware is reported once per route it runs for.
  const groups = new Map<string, Finding[]>();
  for (const f of findings.filter((x) => x.severity !== 'info')) {
    const key = `${f.rule}|${loc(f.location)}|${f.fastify}|${f.severity}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  for (const [f, ...more] of groups.values()) {
    const sev = f.severity === 'error' ? c.red('error  ') : c.yellow('warning');
    line(`  ${sev} ${f.rule}  ${f.message}${more.length ? c.dim(` (and ${more.length} more like it from this place)`) : ''}${c.dim(`  ${loc(f.location)}`)}`);
    line(c.dim(`          Fastify: ${f.fastify}  [${f.stage}${f.autoFixable ? ', automatic' : ''}]`));
  }
  const info = new Map<string, number>();
  for (const f of findings) if (f.severity === 'info') info.set(f.rule, (info.get(f.rule) ?? 0) + 1);
  if (info.size) line(c.dim(`  info: ${[...info].map(([rule, n]) => `${rule} ×${n}`).join(', ')} (each with its Fastify form in --format json, markdown or html)`));
  line();
  line(c.bold('Stage plan'));
  for (const p of r.plan) if (p.findings) line(`  ${p.stage.padEnd(8)} ${p.changes.join('; ')}`);
}

/** `skip`: how many leading chain entries the group header already printed. */
function renderRoute(r: Route, width: number, line: (s: string) => void, c: ReturnType<typeof createColors>, skip: number): void {
  const chain = r.chain.slice(skip).map(chainText).join(' → ');
  const note = resolutionNote(r);
  line(`    ${c.bold(`${r.method.padEnd(7)} `)}${r.path.full.padEnd(width)} ${entryName(r.handler)}${c.dim(`  ${loc(r.registration)}`)}${note ? '  ' + c.yellow(note) : ''}`);
  if (chain) line(c.dim(`           ${skip ? 'then' : 'chain'}: ${chain}`));
}

function chainText(e: ChainEntry): string {
  return `${entryName(e)}${e.conditions ? ' (conditional)' : ''}`;
}

/** How many leading entries all chains share. */
function sharedPrefix(chains: string[][]): number {
  let n = 0;
  while (chains.every((ch) => n < ch.length && ch[n] === chains[0][n])) n++;
  return n;
}

function entryName(e: Pick<ChainEntry, 'name' | 'package'>): string {
  return e.package ? `${e.name} [${e.package}]` : e.name;
}
