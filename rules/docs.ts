/** The reference page of a rule, `docs/rules/<id>.md`, generated from its metadata (never edited by hand). */
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
