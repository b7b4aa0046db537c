/**
 * The worker-thread entry of the transform pool (tinypool): transforms a chunk of files and
 * returns their outcomes. Only the compiled `dist/runner/worker.js` runs in a thread (Node cannot
 * load the TypeScript sources there); runner/pool.ts decides.
 */
import type { FileTask } from './plan.js';
import { cachingLoader, transformFile, type FileResult } from './transform-file.js';

const load = cachingLoader();

/** Transforms `tasks` one after the other in this thread. */
export default async function transformChunk(tasks: FileTask[]): Promise<FileResult[]> {
  const out: FileResult[] = [];
  for (const task of tasks) out.push(await transformFile(task, load));
  return out;
}
