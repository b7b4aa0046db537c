/**
 * The published JSON Schema (analyzer/inventory.schema.json) is generated from analyzer/model.ts
 * and every inventory the analyzer produces validates against it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { createGenerator } from 'ts-json-schema-generator';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { analyzerFixtures } from '../helpers/fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const schema = JSON.parse(readFileSync(path.join(ROOT, 'analyzer/inventory.schema.json'), 'utf8'));

describe('inventory JSON Schema', () => {
  it('is up to date with analyzer/model.ts (run `npm run schema` after changing the model)', () => {
    const fresh = createGenerator({ path: path.join(ROOT, 'analyzer/model.ts'), type: 'Inventory', tsconfig: path.join(ROOT, 'tsconfig.json'), skipTypeCheck: true }).createSchema('Inventory');
    expect(JSON.parse(JSON.stringify(fresh))).toEqual(schema);
  });

  it('accepts every inventory of the fixtures and example apps', async () => {
    const validate = new Ajv({ allErrors: true }).compile(schema);
    const dirs = [...analyzerFixtures().map((f) => ({ dir: f.dir, entry: f.expected.entry })), ...['url-shortener', 'modern-e5', 'legacy-cjs', 'shop-api'].map((a) => ({ dir: path.join(ROOT, 'fixtures/apps', a), entry: undefined }))];
    for (const { dir, entry } of dirs) {
      const inv = JSON.parse(JSON.stringify(await analyze({ dir, entry })));
      expect(validate(inv) ? [] : validate.errors, dir).toEqual([]);
    }
  });

  it('rejects an inventory with a missing field', async () => {
    const validate = new Ajv().compile(schema);
    const inv = JSON.parse(JSON.stringify(await analyze({ dir: path.join(ROOT, 'fixtures/apps/url-shortener') })));
    delete inv.routes[0].key;
    expect(validate(inv)).toBe(false);
  });
});
