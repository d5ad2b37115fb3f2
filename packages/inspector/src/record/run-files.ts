import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * The folder of run files inside a data folder.
 *
 * @internal
 */
export const RUNS_FOLDER = 'runs';
/**
 * The append-only index of a data folder: one line when a run starts, one when it ends.
 *
 * @internal
 */
export const INDEX_FILE = 'index.jsonl';

const safeId = /^[A-Za-z0-9_.-]{1,120}$/;

/**
 * The file name of a run: its id when that is a safe file name, else the safe part and a
 * hash of the id, so no run id can name a path outside the folder.
 *
 * @internal
 */
export function runFileName(runId: string): string {
  if (safeId.test(runId) && !runId.startsWith('.')) return `${runId}.jsonl`;
  const hash = createHash('sha256').update(runId).digest('hex').slice(0, 16);
  const readable = runId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60);
  return `${readable}-${hash}.jsonl`;
}

/**
 * The path of a run's file in a data folder.
 *
 * @internal
 */
export function runFilePath(dir: string, runId: string): string {
  return join(dir, RUNS_FOLDER, runFileName(runId));
}
