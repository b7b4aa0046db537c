/**
 * The Markdown report of an Inventory, for pull requests and job summaries
 * (analyzer-patterns.md §4.4): counts first, then one table per router inside `<details>`,
 * then what could not be resolved. Kept under GitHub's 65,536-character comment limit by
 * truncating the route tables and saying so.
 */
import type { Inventory } from '../analyzer/model.js';
import { groupRoutes, loc, resolutionNote } from './shared.js';
import { notResolved } from './text.js';

const COMMENT_LIMIT = 65_536;

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

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
    `Express ${inv.project.expressVersion.installed ?? inv.project.expressVersion.declared ?? '?'} · entry \`${inv.project.entry ?? 'none'}\` (${inv.project.entrySource})`,
    '',
  ];
  const problems = notResolved(inv);
  const tail: string[] = ['## Not resolved', ''];
  if (problems.length === 0) tail.push('Nothing: every registration was resolved.');
  for (const p of problems) tail.push(`- **${p.code}** ${cell(p.message)}${p.location ? ` (\`${loc(p.location)}\`)` : ''}`);
  tail.push('');

  const body: string[] = [];
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
    text = [...head].join('\n') + body.join('\n').slice(0, Math.max(0, budget)) + note + tail.join('\n');
  }
  return text;
}
