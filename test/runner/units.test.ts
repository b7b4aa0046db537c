/** Small runner pieces: install commands, TODO(migrate) lines, new type errors, the diff of new files, plan paths. */
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../runner/diff.js';
import { installCommand, runInstall } from '../../runner/install.js';
import { planContext, planStage } from '../../runner/plan.js';
import type { RunResult } from '../../runner/model.js';
import { renderSummary } from '../../runner/summary.js';
import { lineAfter, placeItems } from '../../runner/follow-ups.js';
import { todoLines } from '../../runner/todos.js';
import { newTypeErrors } from '../../runner/typecheck.js';
import type { Inventory } from '../../analyzer/model.js';
import type { ManualItem } from '../../transforms/model.js';
import { project } from '../helpers/tmp.js';

describe('install', () => {
  it('names the install command of each package manager, npm when unknown', () => {
    expect([installCommand('npm'), installCommand('pnpm'), installCommand('yarn'), installCommand('bun'), installCommand(null)]).toEqual(['npm install', 'pnpm install', 'yarn', 'bun install', 'npm install']);
  });

  it('reports a failing install as RunError install-failed', () => {
    expect(() => runInstall(project({}), 'false')).toThrow(expect.objectContaining({ code: 'install-failed', message: expect.stringContaining('`false` failed') }));
  });
});

describe('todoLines', () => {
  it('finds TODO(migrate) lines with their 1-based line and the text after the marker', () => {
    const after = `a();\r\n// TODO(migrate): move this hook by hand\r\nb(); /* TODO(migrate) check the status */\r\n`;
    expect(todoLines([{ file: 'x.js', before: '', after }])).toEqual([
      { file: 'x.js', line: 2, text: 'move this hook by hand' },
      { file: 'x.js', line: 3, text: 'check the status' },
    ]);
  });
});

describe('newTypeErrors', () => {
  it('ignores errors that were there before, wherever they moved, counting repeats', () => {
    const before = [`a.ts(2,7): error TS2322: Type 'number' is not assignable to type 'string'.`];
    const after = [`a.ts(5,7): error TS2322: Type 'number' is not assignable to type 'string'.`, `a.ts(9,7): error TS2322: Type 'number' is not assignable to type 'string'.`, `b.ts(1,1): error TS2304: Cannot find name 'x'.`];
    expect(newTypeErrors(before, after)).toEqual(after.slice(1));
  });
});

describe('unifiedDiff', () => {
  it('writes a new file as /dev/null → b/<file> and keeps CRLF in the lines', () => {
    expect(unifiedDiff([{ file: 'n.js', before: null, after: 'x();\r\n' }])).toBe('--- /dev/null\n+++ b/n.js\n@@ -0,0 +1,1 @@\n+x();\r\n');
  });
});

describe('planStage', () => {
  it('refuses a plan that points outside the project', async () => {
    const step = { meta: { name: 'escape', stage: 'shim' as const, order: 1, description: '' }, transform: '/dev/null', plan: () => ({ step: 'escape', files: [{ file: '../outside.js', entries: [1] }], manual: [] }) };
    const ctx = planContext(project({}), { findings: [] } as unknown as Inventory, 'default');
    await expect(planStage([step], ctx)).rejects.toMatchObject({ code: 'bad-step', message: 'step escape planned ../outside.js, outside the project' });
  });
});

describe('placeItems / lineAfter', () => {
  const before = `a();\napp.use(errorHandler);\nb();\n`;
  const after = `import x from 'x';\na();\n// TODO(migrate): error handler stays on Express: why\napp.use(errorHandler);\nb();\n`;

  it('carries a line of the file before the stage to the line it has after (kept, shifted, or the line in place of a deleted one)', () => {
    expect([1, 2, 3].map((line) => lineAfter(before, after, line))).toEqual([2, 4, 5]);
    expect(lineAfter(`a();\nremoved();\nb();\n`, `a();\nb();\n`, 2)).toBe(2);
  });

  it('places items at their lines in the written file and pairs each TODO with the item it marks', () => {
    const manual: ManualItem[] = [{ file: 'app.js', line: 2, code: 'error-handler-api', reason: 'error handler errorHandler stays on Express: why', todo: 'error handler stays on Express: why' }];
    const changes = [{ file: 'app.js', before, after }];
    const placed = placeItems(manual, changes, todoLines(changes));
    expect(placed.items.map((m) => m.line)).toEqual([4]);
    expect(placed.todos).toEqual([{ file: 'app.js', line: 3, text: 'error handler stays on Express: why', paired: true }]);
    // Items of files the stage did not change keep their line.
    expect(placeItems([{ ...manual[0], file: 'other.js' }], changes, []).items[0].line).toBe(2);
  });
});

describe('renderSummary follow-ups', () => {
  it('shows a TODO(migrate) that marks a manual item once, as the item', () => {
    const base: RunResult = { stage: 'errors', root: '/x', changes: [], outcomes: [], manual: [], deferred: [], moved: [], deltas: [], dependencies: {}, removedDependencies: [], verdicts: [], refusal: null, installCommand: null, parity: null, typecheck: null, todos: [], notes: [], diff: '', threads: 0, written: true, commit: null, verify: { command: 'migrate verify', configured: true, needsRecording: false }, exitCode: 1 };
    const text = renderSummary({
      ...base,
      manual: [{ file: 'r.ts', line: 62, reason: 'error handler stays on Express: it belongs to a router', code: 'error-handler-router' }],
      todos: [
        { file: 'r.ts', line: 61, text: 'error handler stays on Express: it belongs to a router', paired: true },
        { file: 'r.ts', line: 80, text: 'check the status' },
      ],
    });
    expect(text).toContain('Left for a human (2)\n  r.ts:62 error handler stays on Express: it belongs to a router\n  r.ts:80 TODO(migrate) check the status\n');
  });

  it('asks to install added dependencies, or to bring node_modules in line when a stage only removed some', () => {
    const base: RunResult = { stage: 'plugins', root: '/x', changes: [], outcomes: [], manual: [], deferred: [], moved: [], deltas: [], dependencies: {}, removedDependencies: ['@fastify/express'], verdicts: [], refusal: null, installCommand: 'npm install', parity: null, typecheck: null, todos: [], notes: [], diff: '', threads: 0, written: true, commit: null, verify: { command: 'migrate verify', configured: true, needsRecording: false }, exitCode: 0 };
    expect(renderSummary(base)).toContain('  bring node_modules in line with package.json (@fastify/express removed): npm install\n');
    expect(renderSummary({ ...base, dependencies: { '@fastify/view': '^11.1.1' }, removedDependencies: [] })).toContain('  install the new dependencies: npm install\n');
  });
});
