/** `--only` is the routes stage's: another stage refuses it, so it is never silently ignored. */
import { describe, expect, it } from 'vitest';
import { RunError, runStage } from '../../runner/run.js';

describe('run --only', () => {
  it('refuses --only with a stage other than routes, before touching anything', async () => {
    const error = (await runStage({ root: '/nonexistent', stage: 'shim', only: 'src/routes/notes.js' }).catch((e: unknown) => e)) as RunError;
    expect(error).toBeInstanceOf(RunError);
    expect(error.code).toBe('refused');
    expect(error.message).toBe('--only src/routes/notes.js picks routes to move; only the routes stage moves routes (this is the shim stage)');
  });
});
