/**
 * The Markdown report of an Inventory, for pull requests and job summaries
 * (analyzer-patterns.md §4.4): counts first, then one table per router inside `<details>`,
 * then what could not be resolved. Kept under GitHub's 65,536-character comment limit by
 * truncating the route tables and saying so.
 */
import type { Inventory } from '../analyzer/model.js';
import { causesByCode, cell, expressLabel, groupRoutes, loc, plural, problemsAndNotes, resolutionNote, type ReportItem } from './shared.js';

const COMMENT_LIMIT = 65_536;


/** Renders `inv` as GitHub-flavoured Markdown. */
export function renderMarkdown(inv: Inventory): string {
  const s = inv.summary;
  const head: string[] = [
    `# Express inventory: ${inv.project.name ?? 'project'}`,
    '',
    `> ${s.complete ? '✅' : '⚠️'} ${s.headline}`,
    '',
    '| Routes | Exact | Partial | Inferred | Unresolved | Routers | Middleware | Error handlers |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${s.routes} | ${s.byResolution.exact} | ${s.byResolution.partial} | ${s.byResolution.inferred} | ${s.byResolution.unresolved} | ${s.routers} | ${s.middleware} | ${s.errorHandlers} |`,
    '',
    `${expressLabel(inv)} · entry \`${inv.project.entry ?? 'none'}\` (${inv.project.entrySource})`,
    '',
  ];
  if (inv.findings && inv.readiness) head.push(...readinessSummary(inv));
  const { problems, notes } = problemsAndNotes(inv);
  const bullet = (p: ReportItem) => `- **${p.code}** ${cell(p.message)}${p.location ? ` (\`${loc(p.location)}\`)` : ''}`;
  const tail: string[] = [];
  if (notes.length) tail.push('## Notes for the migration', '', ...notes.map(bullet), '');
  tail.push('## Not resolved', '');
  if (problems.length === 0) tail.push('Nothing: every registration was resolved.');
  tail.push(...problems.map(bullet), '');

  const body: string[] = inv.findings && inv.readiness ? findingDetails(inv) : [];
  for (const app of inv.apps) {
    body.push(`## App \`${app.name}\` (\`${loc(app.location)}\`)`, '');
    for (const g of groupRoutes(inv, app.id)) {
      body.push(`<details open><summary>${g.title} — ${g.routes.length} route(s)</summary>`, '', '| Method | Full path | Chain | Handler | Location |', '|---|---|---|---|---|');
      for (const r of g.routes) {
        const chain = r.chain.map((e) => (e.package ? `${e.name} [${e.package}]` : e.name)).join(' → ');
        const note = resolutionNote(r);
        body.push(`| ${r.method} | \`${cell(r.path.full)}\` | ${cell(chain) || '—'} | ${cell(r.handler.name)}${note ? ` ⚠️ ${note}` : ''} | \`${loc(r.registration)}\` |`);
      }
      body.push('', '</details>', '');
    }
    const mws = inv.middleware.filter((m) => m.appId === app.id);
    if (mws.length) {
      body.push('**Middleware** (app and router level, in the order Express runs it)', '', '| Path | Middleware | Scope | Location |', '|---|---|---|---|');
      for (const m of mws) body.push(`| \`${cell(m.fullPath)}\` | ${cell(m.package ? `${m.name} [${m.package}]` : m.name)} | ${m.scope} | \`${loc(m.registration)}\` |`);
      body.push('');
    }
    const extras = [
      ...inv.staticMounts.filter((x) => x.appId === app.id).map((x) => `- Static files at \`${x.fullPath}\` from \`${x.dir ?? '?'}\` [${x.package}] (\`${loc(x.registration)}\`)`),
      ...inv.viewEngines.filter((x) => x.appId === app.id).map((x) => `- Views: \`.${x.ext}\` rendered by ${x.engine ?? '?'}${x.views ? ` from \`${x.views}\`` : ''} (\`${loc(x.location)}\`)`),
      ...inv.notFoundHandlers.filter((x) => x.appId === app.id).map((x) => `- Not-found handler \`${x.name}\` at \`${x.fullPath}\` (\`${loc(x.registration)}\`)`),
      ...inv.settings.filter((x) => x.appId === app.id && x.kind !== 'read').map((x) => `- Setting \`${x.kind === 'locals' ? `locals.${x.key}` : x.key}\` = \`${cell(x.value === null ? x.raw || '?' : JSON.stringify(x.value))}\` (\`${loc(x.location)}\`)`),
    ];
    if (extras.length) body.push(...extras, '');
    const ehs = inv.errorHandlers.filter((e) => e.appId === app.id);
    if (ehs.length) {
      body.push('**Error handlers**', '');
      for (const e of ehs) body.push(`- \`${e.name}\` at \`${e.fullPath}\` (${e.scope}, \`${loc(e.registration)}\`), catches errors of ${e.covers.length} route(s)`);
      body.push('');
    }
  }
  let text = [...head, ...body, ...tail].join('\n');
  if (text.length > COMMENT_LIMIT) {
    const note = `\n_Route tables truncated to fit a pull-request comment; run \`migrate analyze --format json\` for the full inventory._\n\n`;
    const budget = COMMENT_LIMIT - head.join('\n').length - tail.join('\n').length - note.length - 100;
    text = [...head].join('\n') + cutAtLine(body.join('\n'), Math.max(0, budget)) + note + tail.join('\n');
  }
  return text;
}

/** Readiness and finding counts, for the head of the report (never trimmed). */
function readinessSummary(inv: Inventory): string[] {
  const findings = inv.findings!;
  const r = inv.readiness!;
  const count = (sev: string) => findings.filter((f) => f.severity === sev).length;
  const onFastify = inv.routes.filter((x) => x.framework === 'fastify').length;
  return [
    '## Fastify readiness',
    '',
    '| Routes auto | Assisted | Later | Manual | Errors | Warnings | Info |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${r.overall.auto} | ${r.overall.assisted} | ${r.overall.later} | ${r.overall.manual} | ${count('error')} | ${count('warning')} | ${count('info')} |`,
    '',
    // Fastify routes are not routes to move: readiness leaves them out (rules/index.ts).
    ...(onFastify ? [`${plural(onFastify, 'route')} already on Fastify, not counted above.`, ''] : []),
    ...(r.unassessed?.length ? [...r.unassessed.map((u) => `- **Not assessed:** the ${u.stage} stage (${cell(u.reason)})`), ''] : []),
    '| Router | Auto | Assisted | Later | Manual |',
    '|---|---:|---:|---:|---:|',
    ...r.totals.map((t) => `| \`${cell(t.name)}\` | ${t.auto} | ${t.assisted} | ${t.later} | ${t.manual} |`),
    '',
    ...(['manual', 'later', 'assisted'] as const).flatMap((readiness) =>
      causesByCode(r.causes, readiness)
        .slice(0, 5)
        .map((g) => `- ${readiness}${g.stage ? ` (${g.stage} stage)` : ''} because of \`${g.code}\` ${g.places.length === 1 ? `at \`${g.places[0].file}:${g.places[0].line}\`` : `in ${g.places.length} places (first \`${g.places[0].file}:${g.places[0].line}\`)`} (${plural(g.routes, 'route')}): ${cell(r.causes.find((x) => x.code === g.code && x.readiness === readiness)!.message)}`),
    ),
    ...(r.causes.length ? [''] : []),
    ...r.plan.filter((p) => p.findings).map((p) => `- **${p.stage}**: ${cell(p.changes.join('; '))}`),
    '',
  ];
}

/** The findings, collapsed (errors and warnings first), at the start of the trimmable body. */
function findingDetails(inv: Inventory): string[] {
  const findings = inv.findings!;
  return [
    `<details><summary>Findings (${findings.length})</summary>`,
    '',
    '| Severity | Rule | Finding | Fastify | Stage | Location |',
    '|---|---|---|---|---|---|',
    ...findings.map((f) => `| ${f.severity} | [\`${f.rule}\`](docs/rules/${f.rule}.md) | ${cell(f.message)}${f.notes ? ` Also: ${cell(f.notes.join(' '))}` : ''} | ${cell(f.fastify)} | ${f.stage}${f.autoFixable ? ' (auto)' : ''} | \`${loc(f.location)}\` |`),
    '',
    '</details>',
    '',
  ];
}

/** The first `budget` characters of `text`, cut at a line end, with any `<details>` left open closed. */
function cutAtLine(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const cut = text.slice(0, text.lastIndexOf('\n', budget) + 1);
  const open = (cut.match(/<details/g) ?? []).length - (cut.match(/<\/details>/g) ?? []).length;
  return cut + '\n</details>\n'.repeat(Math.max(0, open));
}
