import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { node22 } from './ai-sdk-7-modules';
import type { AiSdk7TaskResult } from './tool-search-child';

/**
 * Row 9's AI SDK 7 `toolSearch()` runs, in a Node 22 child process (AI SDK 7 needs Node ≥
 * 22): per task, `repetitions` checked runs after one warm-up. AI SDK 7 and Node 22 are
 * installed into `.tools/bench-ai-sdk-7` on first use (see `ai-sdk-7-modules.ts`).
 */
export async function aiSdk7ToolSearch(
  repetitions: number,
): Promise<Map<string, AiSdk7TaskResult>> {
  const binary = await node22();
  const child = new URL('./tool-search-child.ts', import.meta.url).pathname;
  const { stdout } = await promisify(execFile)(
    binary,
    ['--import', import.meta.resolve('tsx'), child, String(repetitions)],
    { encoding: 'utf8', maxBuffer: 1 << 24, timeout: 300_000 },
  );
  const results = new Map<string, AiSdk7TaskResult>();
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    const result = JSON.parse(line) as AiSdk7TaskResult;
    if (result.problem !== undefined) {
      throw new Error(`AI SDK 7 toolSearch, ${result.task}: ${result.problem}`);
    }
    results.set(result.task, result);
  }
  return results;
}
