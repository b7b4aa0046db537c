/** The reference page of a rule, `docs/rules/<id>.md`, generated from its metadata (never edited by hand). */
import { BLOCKERS, type BlockerFacts } from './catalogue/blockers.js';
import type { RuleMeta } from './rule.js';

/** Markdown for one rule: what it flags, why, the fix, an example, and where the rule comes from. */
export function ruleDoc(rule: RuleMeta): string {
  return [
    `# \`${rule.id}\`: ${rule.title}`,
    '',
    `Severity **${rule.severity}** · stage **${rule.stage}** · ${rule.autoFixable ? 'fixed by the stage unaided' : 'needs a human'}`,
    '',
    rule.docs.summary,
    '',
    '## Fix',
    '',
    rule.docs.fix,
    '',
    '## Example',
    '',
    'Express:',
    '',
    '```js',
    rule.docs.example.express,
    '```',
    '',
    'Fastify:',
    '',
    '```js',
    rule.docs.example.fastify,
    '```',
    '',
    `Source: ${rule.docs.source}`,
    '',
    '<!-- Generated from rules/checks by `npm run docs:rules`; edit the rule, not this file. -->',
    '',
  ].join('\n');
}

/**
 * `docs/codes.md`: every code of rules/catalogue/blockers.ts — why a stage leaves something where
 * it is — with the stage that reports it, what it is about and who lifts it; the codes a report's
 * "because of", a stage's items and the checklist name.
 */
export function codesDoc(): string {
  const lifted = (f: BlockerFacts) => (f.liftedBy === 'human' ? 'a human' : f.liftedBy === 'as-partner' ? 'the stage the route it shares something with waits for' : `the ${f.liftedBy} stage`);
  return [
    '# Why something stays: the codes',
    '',
    'Every item a stage leaves (`migrate run`) and every reason a route is not rated `auto` (`migrate analyze`) has one of these codes. A code never changes meaning. "Lifted by" is who takes the thing once this is all that holds it: a later stage (the item waits for it, with no `TODO(migrate)` and no exit 1) or a human.',
    '',
    '| Code | Stage | About | Lifted by | Meaning |',
    '|---|---|---|---|---|',
    ...Object.entries(BLOCKERS as Record<string, BlockerFacts>).map(([code, f]) => `| \`${code}\` | ${f.stage} | ${f.subject} | ${lifted(f)} | ${f.summary.replace(/\|/g, '\\|')} |`),
    '',
    '<!-- Generated from rules/catalogue/blockers.ts by `npm run docs:rules`; edit the table, not this file. -->',
    '',
  ].join('\n');
}
