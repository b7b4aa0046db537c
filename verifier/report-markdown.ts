/**
 * Markdown report of `migrate verify` for a pull-request comment or `$GITHUB_STEP_SUMMARY`:
 * verdict and counts first, then the per-route table, then details collapsed in `<details>`.
 * Kept under GitHub's 65,536-character comment limit; a note says when details were trimmed.
 */
import { cell } from '../report/shared.js';
import { clipPath, show } from './report-text.js';
import type { Gate } from './gate.js';
import { OUTCOMES, type Verdict } from './verdict.js';

/** GitHub refuses comments longer than 65,536 characters; leave room for the trim note. */
const LIMIT = 64_000;

const code = (s: string) => '`' + s.replace(/`/g, 'ˋ') + '`';

/** Renders `verdict` as GitHub-flavoured Markdown. */
export function renderVerifyMarkdown(verdict: Verdict, gate: Gate): string {
  const t = verdict.totals;
  const head = [
    `## ${gate.failed ? '❌' : '✅'} migrate verify: ${gate.failed ? gate.reasons.join('; ') : gate.summary}`,
    '',
    `Candidate ${code(verdict.candidate)} against baseline ${code(verdict.baseline)}, recording ${code(verdict.recording)}.`,
    '',
    `| requests | ${OUTCOMES.join(' | ')} |`,
    `|---:|${OUTCOMES.map(() => '---:').join('|')}|`,
    `| ${t.requests} | ${OUTCOMES.map((o) => t[o]).join(' | ')} |`,
    '',
    ...(verdict.coverage ? [`Coverage: ${verdict.coverage.exercised} of ${verdict.coverage.routes} routes exercised by the recording.`, ''] : []),
    `| route | requests | ${OUTCOMES.join(' | ')} |`,
    `|---|---:|${OUTCOMES.map(() => '---:').join('|')}|`,
    ...verdict.routes.map((r) => `| ${code(r.route)} | ${r.requests} | ${OUTCOMES.map((o) => r[o]).join(' | ')} |`),
  ];
  const sections: string[][] = [];
  if (verdict.candidateExit) {
    const e = verdict.candidateExit;
    sections.push([`**The candidate exited (${e.how}) at ${e.at}; later requests were not replayed.**`, '', '```', ...e.output.trimEnd().split('\n').slice(-15), '```']);
  }
  if (verdict.baselineDrift.count) {
    const d = verdict.baselineDrift;
    sections.push([`⚠️ The baseline answered ${d.count} request(s) with another status than the recording (expired credentials? missing data?): ${d.examples.map((x) => `${x.id} ${x.recorded}→${x.baseline}`).join(', ')}.`]);
  }
  const regressions = verdict.exchanges.filter((x) => x.outcome === 'regression');
  if (regressions.length) {
    sections.push([
      `<details><summary>Regressions (${t.regression})</summary>`,
      '',
      ...regressions.flatMap((x) => [
        `**${x.id}** ${code(`${x.method} ${clipPath(x.path)}`)}${x.route ? ` (${code(x.route)})` : ''}: ${x.status.baseline} → ${x.status.candidate ?? 'no answer'}${x.comment ? ` — ${cell(x.comment)}` : ''}`,
        '',
        '| pointer | kind | baseline → candidate | cause |',
        '|---|---|---|---|',
        ...x.regressions.slice(0, 12).map((d) => `| ${code(d.pointer)} | ${d.kind} | ${cell(show(d))} | ${d.cause ?? ''} |`),
        '',
      ]),
      '</details>',
    ]);
  }
  if (verdict.causes.length) {
    sections.push([
      '**Regressions caused by Fastify defaults** (a client can notice them, so they count):',
      '',
      '| default | requests | fix |',
      '|---|---:|---|',
      ...verdict.causes.map((k) => `| ${k.id} | ${k.requests} | ${cell(k.fix)} |`),
    ]);
  }
  if (verdict.deltas.length) {
    sections.push([
      `<details><summary>Framework deltas: Express vs Fastify defaults, not counted as regressions (${verdict.deltas.length})</summary>`,
      '',
      '| default | requests | fix |',
      '|---|---:|---|',
      ...verdict.deltas.map((d) => `| ${d.id} | ${d.count} | ${cell(d.fix)} |`),
      '',
      '</details>',
    ]);
  }
  if (verdict.noise.length) {
    sections.push(['<details><summary>Noise and suggested rules</summary>', '', '```json', ...verdict.noise.map((n) => JSON.stringify(n.rule)), '```', '</details>']);
  }
  if (verdict.coverage?.notExercised.length) {
    const cov = verdict.coverage;
    sections.push([`<details><summary>Not exercised: ${cov.notExercised.length} of ${cov.routes} routes</summary>`, '', ...cov.notExercised.map((r) => `- ${code(r.key)} ${r.file}:${r.line}`), '', '</details>']);
  }
  if (verdict.notes.length) sections.push(['**Notes**', ...verdict.notes.map((n) => `- ${cell(n)}`)]);
  if (verdict.deadRules.length) sections.push(['**Rules that matched nothing:**', ...verdict.deadRules.map((r) => `- ${r.rule}: ${r.action} ${code(r.pattern)}`)]);
  let text = head.join('\n') + '\n';
  for (const s of sections) {
    const next = '\n' + s.join('\n') + '\n';
    if (text.length + next.length > LIMIT) {
      text += '\n_Details trimmed to stay within GitHub’s comment size limit; see the JSON report for everything._\n';
      break;
    }
    text += next;
  }
  return text;
}
