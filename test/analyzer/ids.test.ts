/** Ids are stable across edits that move lines (DESIGN: never line numbers); output is deterministic. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { copyOf } from '../helpers/tmp.js';

const SHOP = path.resolve(import.meta.dirname, '../../fixtures/apps/shop-api');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|js)$/.test(name) ? [p] : [];
  });
}

describe('stable ids and deterministic output', () => {
  it('keeps every id when lines move', async () => {
    const dir = copyOf(SHOP);
    const before = await analyze({ dir });
    for (const file of sourceFiles(path.join(dir, 'src'))) writeFileSync(file, `// a comment added by a codemod\n\n${readFileSync(file, 'utf8')}`);
    const after = await analyze({ dir });
    expect(after.routes.map((r) => r.registration.line)).not.toEqual(before.routes.map((r) => r.registration.line));
    const ids = (inv: typeof before) => ({
      apps: inv.apps.map((a) => a.id),
      routers: inv.routers.map((r) => r.id),
      routes: inv.routes.map((r) => `${r.id} ${r.key}`),
      mounts: inv.mounts.map((m) => m.id),
      middleware: inv.middleware.map((m) => m.id),
      errorHandlers: inv.errorHandlers.map((e) => e.id),
    });
    expect(ids(after)).toEqual(ids(before));
    expect(new Set(before.routes.map((r) => r.id)).size).toBe(before.routes.length);
  });

  it('produces byte-identical JSON on two runs', async () => {
    const a = JSON.stringify(await analyze({ dir: SHOP }));
    const b = JSON.stringify(await analyze({ dir: SHOP }));
    expect(a).toBe(b);
  });

  it('uses POSIX paths relative to the root and 1-based positions', async () => {
    const inv = await analyze({ dir: SHOP });
    for (const r of inv.routes) {
      expect(r.registration.file).toMatch(/^src\/[\w/.-]+\.ts$/);
      expect(r.registration.line).toBeGreaterThanOrEqual(1);
      expect(r.registration.column).toBeGreaterThanOrEqual(1);
    }
  });
});
