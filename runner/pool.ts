/**
 * Runs the file tasks of a stage: in a tinypool of worker threads (one per core by default,
 * jscodeshift-style pull of small chunks) when the compiled worker exists and the stage touches
 * enough files to repay starting threads; otherwise in this thread. Results come back in task
 * order.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import Tinypool from 'tinypool';
import type { FileTask } from './plan.js';
import { cachingLoader, transformFile, type FileResult } from './transform-file.js';

/** Below this many files, starting threads (each loads jscodeshift) costs more than it saves. */
export const POOL_THRESHOLD = 20;
/** Largest chunk a worker pulls at once (jscodeshift's Runner uses 50). */
const MAX_CHUNK = 50;

const WORKER = new URL('./worker.js', import.meta.url);

/** How the tasks will run: threads, or in-process with the reason. */
export function poolPlan(tasks: FileTask[], workers?: number): { threads: number; reason?: string } {
  const threads = Number.isInteger(workers) && workers! > 0 ? workers! : os.availableParallelism();
  if (!existsSync(fileURLToPath(WORKER))) return { threads: 0, reason: 'no compiled worker (running from sources)' };
  if (tasks.length < POOL_THRESHOLD) return { threads: 0, reason: `fewer than ${POOL_THRESHOLD} files` };
  if (threads < 2) return { threads: 0, reason: 'one worker' };
  if (tasks.some((t) => t.steps.some((s) => s.transform.endsWith('.ts')))) return { threads: 0, reason: 'TypeScript transforms cannot load in a worker thread' };
  return { threads };
}

/** Transforms every task; `onProgress` hears how they run. `threads` is 0 when they ran in this thread. */
export async function runTasks(tasks: FileTask[], options: { workers?: number; onProgress?: (message: string) => void } = {}): Promise<{ results: FileResult[]; threads: number }> {
  const { threads, reason } = poolPlan(tasks, options.workers);
  if (threads === 0) {
    options.onProgress?.(`transforming ${tasks.length} file${tasks.length === 1 ? '' : 's'} in-process (${reason})`);
    const load = cachingLoader();
    const results: FileResult[] = [];
    for (const task of tasks) results.push(await transformFile(task, load));
    return { results, threads };
  }
  options.onProgress?.(`transforming ${tasks.length} files with ${threads} worker threads`);
  const pool = new Tinypool({ filename: WORKER.href, minThreads: threads, maxThreads: threads });
  try {
    const size = Math.max(1, Math.min(MAX_CHUNK, Math.ceil(tasks.length / (threads * 4))));
    const chunks: FileTask[][] = [];
    for (let i = 0; i < tasks.length; i += size) chunks.push(tasks.slice(i, i + size));
    const results = await Promise.all(chunks.map((chunk) => pool.run(chunk) as Promise<FileResult[]>));
    return { results: results.flat(), threads };
  } finally {
    await pool.destroy();
  }
}
