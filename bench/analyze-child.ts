/**
 * One measured process for bench/analyze.ts, so that peak RSS is per task:
 *
 *   analyze <dir>         loads the analyzer and runs analyze({ dir })
 *   parse <files.json>    loads only the TypeScript compiler bundled with ts-morph and parses
 *                         every file listed (kept in memory, as the analyzer keeps its project)
 *
 * The clock starts before the (dynamic) import, so loading the code is part of the wall time;
 * tsx's own start-up is not (`loadMs` says how much of `ms` the import took). Prints one JSON
 * line: { ms, loadMs, maxRssKB, … }.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [mode, arg] = process.argv.slice(2);
const t0 = performance.now();
let result: Record<string, unknown>;
let loadMs = 0;
if (mode === 'analyze') {
  const { analyze } = await import('../analyzer/analyze.js');
  loadMs = performance.now() - t0;
  const inv = await analyze({ dir: arg });
  const ms = performance.now() - t0;
  result = {
    ms,
    keys: inv.routes.map((r) => r.key),
    complete: inv.summary.complete,
    headline: inv.summary.headline,
    entry: inv.project.entry,
    notExact: inv.routes.filter((r) => r.resolution !== 'exact').map((r) => ({ key: r.key, resolution: r.resolution, reasons: r.reasons.map((x) => `${x.code}: ${x.message}`) })),
    diagnostics: inv.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.severity} ${d.code} ${d.location ? `${d.location.file}:${d.location.line}` : ''} ${d.message}`),
  };
} else if (mode === 'parse') {
  const { ts } = await import('ts-morph');
  loadMs = performance.now() - t0;
  const files: string[] = JSON.parse(readFileSync(arg, 'utf8'));
  const parsed = files.map((f) => ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true));
  result = { ms: performance.now() - t0, parsed: parsed.length };
} else {
  throw new Error(`usage: analyze-child.ts analyze <dir> | parse <files.json> (got ${mode})`);
}
console.log(JSON.stringify({ ...result, loadMs, maxRssKB: process.resourceUsage().maxRSS }));
