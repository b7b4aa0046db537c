/** Every rule has its reference page, generated from its metadata and up to date, and complete metadata. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codesDoc, ruleDoc } from '../../rules/docs.js';
import { RULES } from '../../rules/index.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs/rules');

describe('rule docs', () => {
  for (const rule of RULES) {
    it(`${rule.id}: docs/rules/${rule.id}.md exists and matches the metadata (npm run docs:rules)`, () => {
      const file = path.join(DOCS, `${rule.id}.md`);
      expect(existsSync(file), `missing ${path.relative(process.cwd(), file)}: run npm run docs:rules`).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(ruleDoc(rule));
      for (const text of [rule.title, rule.docs.summary, rule.docs.fix, rule.docs.source, rule.docs.example.express, rule.docs.example.fastify]) expect(text.trim().length).toBeGreaterThan(0);
    });
  }

  it('the index lists every rule', () => {
    const index = readFileSync(path.join(DOCS, 'README.md'), 'utf8');
    for (const rule of RULES) expect(index).toContain(`[\`${rule.id}\`](${rule.id}.md)`);
  });

  it('docs/codes.md lists every code of rules/catalogue/blockers.ts (npm run docs:rules)', () => {
    expect(readFileSync(path.resolve(DOCS, '../codes.md'), 'utf8')).toBe(codesDoc());
  });
});
