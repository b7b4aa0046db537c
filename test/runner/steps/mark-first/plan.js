import { filesWith } from '../plan-files.js';

const MARKERS = ['append', 'same', 'null', 'broken', 'throw', 'todo', 'typeerror', 'droproute', 'duproute', 'create'];

/** One FilePlan per marked file (entries: the markers found); created.js when a file asks for it. */
export function plan(ctx) {
  const byFile = new Map();
  for (const marker of MARKERS) {
    for (const file of filesWith(ctx.root, `MARK:${marker}`)) {
      if (marker === 'create') {
        byFile.set('created.js', { file: 'created.js', create: true, entries: ['create'] });
        continue;
      }
      if (!byFile.has(file)) byFile.set(file, { file, entries: [] });
      byFile.get(file).entries.push(marker);
    }
  }
  const deps = filesWith(ctx.root, 'MARK:deps').length ? { fastify: '^5.2.0', '@fastify/express': '^4.0.7' } : undefined;
  if (filesWith(ctx.root, 'MARK:refuse').length) {
    // The runner knows a StepRefusal by its name (transforms/model.ts); this step is plain JavaScript.
    const refusal = new Error('run the marked stage first');
    refusal.name = 'StepRefusal';
    throw refusal;
  }
  const workLeft = filesWith(ctx.root, 'MARK:workleft');
  if (workLeft.length) {
    // A StepWorkLeft, known by its name as the StepRefusal above.
    const refusal = new Error(`${workLeft.length} marked thing(s) still need a human`);
    refusal.name = 'StepWorkLeft';
    refusal.items = workLeft.map((file) => ({ file, line: 1, reason: 'a marked thing is left', code: 'test-left' }));
    throw refusal;
  }
  const manual = [
    ...filesWith(ctx.root, 'MARK:manual').map((file) => ({ file, line: 1, reason: 'a marked thing needs a human', code: 'test-manual' })),
    ...filesWith(ctx.root, 'MARK:option').map((file) => ({ file, line: 1, reason: `shout=${ctx.options.shout} label=${ctx.options.label}`, code: 'test-option' })),
  ];
  const deferred = filesWith(ctx.root, 'MARK:deferred').map((file) => ({ file, line: 1, reason: 'a marked thing the routes stage takes', code: 'test-deferred', stage: 'routes' }));
  const appended = filesWith(ctx.root, 'MARK:append');
  return {
    step: 'mark-first',
    files: [...byFile.values()],
    dependencies: deps,
    ...(filesWith(ctx.root, 'MARK:undeps').length ? { removeDependencies: ['left-pad', 'not-there'] } : {}),
    manual,
    deferred,
    moved: { what: 'marked files', done: appended.length, of: appended.length },
    deltas: filesWith(ctx.root, 'MARK:delta').length ? ['X-Powered-By is no longer sent', { text: 'No automatic ETag', restoredByParityExpress: false }] : [],
  };
}
