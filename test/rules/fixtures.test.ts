/**
 * Every rule against its two fixture apps (fixtures/rules/README.md): `positive/` must give
 * exactly the findings in its expected.json (message, file, line) and `negative/`, the closest app
 * the rule must leave alone, none of that rule. A rule added to RULES fails here until it has both.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { RULES, runRules } from '../../rules/index.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/rules');

interface ExpectedFindings {
  rule: string;
  findings: { message: string; file: string; line: number }[];
}

type Brief = ExpectedFindings['findings'][number];

const byPlace = (a: Brief, b: Brief) => a.file.localeCompare(b.file) || a.line - b.line || a.message.localeCompare(b.message);

/** The findings of `ruleId` for the app in `dir`, in expected.json terms. */
async function findingsOf(ruleId: string, dir: string): Promise<Brief[]> {
  const inventory = runRules(await analyze({ dir }));
  return (inventory.findings ?? []).filter((f) => f.rule === ruleId).map((f) => ({ message: f.message, file: f.location.file, line: f.location.line })).sort(byPlace);
}

/** Fails with a message naming the missing fixture folder or file. */
function requireFixture(ruleId: string, kind: 'positive' | 'negative'): string {
  const dir = path.join(FIXTURES, ruleId, kind);
  const shown = path.relative(path.resolve(import.meta.dirname, '../..'), dir);
  expect(existsSync(dir) && statSync(dir).isDirectory(), `rule ${ruleId} has no ${kind} fixture: create ${shown}/ (see fixtures/rules/README.md)`).toBe(true);
  for (const file of ['package.json', 'app.js']) {
    expect(existsSync(path.join(dir, file)), `${shown}/${file} is missing`).toBe(true);
  }
  return dir;
}

describe('rule ids', () => {
  it('are unique', () => {
    const ids = RULES.map((r) => r.id);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated, `rule ids used more than once: ${repeated.join(', ')}`).toEqual([]);
  });

  it('are kebab-case', () => {
    const bad = RULES.map((r) => r.id).filter((id) => !/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(id));
    expect(bad, `rule ids that are not kebab-case: ${bad.join(', ')}`).toEqual([]);
  });
});

describe('rule fixtures', () => {
  it('belong to a rule in RULES (no folder left behind by a renamed or removed rule)', () => {
    const ids = new Set(RULES.map((r) => r.id));
    const folders = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((name) => !ids.has(name)), 'fixtures/rules/ folders naming no rule').toEqual([]);
  });
});

describe.each(RULES.map((r) => r.id))('rule %s', (ruleId) => {
  it('has a positive and a negative fixture', () => {
    requireFixture(ruleId, 'positive');
    requireFixture(ruleId, 'negative');
  });

  it('flags its positive fixture with exactly the expected findings', async () => {
    const dir = requireFixture(ruleId, 'positive');
    const file = path.join(dir, 'expected.json');
    expect(existsSync(file), `fixtures/rules/${ruleId}/positive/expected.json is missing`).toBe(true);
    const expected = JSON.parse(readFileSync(file, 'utf8')) as ExpectedFindings;
    expect(expected.rule, `expected.json of ${ruleId} names another rule`).toBe(ruleId);
    expect(expected.findings.length, `expected.json of ${ruleId} lists no finding: a positive fixture must be flagged`).toBeGreaterThan(0);
    expect(await findingsOf(ruleId, dir)).toEqual([...expected.findings].sort(byPlace));
  });

  it('leaves its negative fixture alone', async () => {
    const dir = requireFixture(ruleId, 'negative');
    expect(await findingsOf(ruleId, dir)).toEqual([]);
  });
});
