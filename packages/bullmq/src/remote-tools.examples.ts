// Type-checked examples shown in the TSDoc of `remote-tools.ts` and `tool-worker.ts`
// (scripts/docs/examples.mjs).
import { type AnyTool, createExecutor } from '@mtpx/executor';
import type { ToolCallInput } from '@mtpx/protocol';
import { createRemoteTools } from './remote-tools';
import { startToolWorker } from './tool-worker';

export async function createRemoteToolsExample(search: AnyTool, calls: ToolCallInput[]) {
  //#region createRemoteTools
  const remote = createRemoteTools({
    connection: { host: '127.0.0.1', port: 6379 },
    tools: [search],
  });
  const executor = createExecutor({ tools: remote.tools });
  await executor.executeToolCalls(calls, { runId: 'run_1' });
  await remote.close();
  //#endregion createRemoteTools
}

export async function startToolWorkerExample(search: AnyTool) {
  //#region startToolWorker
  const worker = await startToolWorker({
    connection: { host: '127.0.0.1', port: 6379 },
    tools: [search],
    concurrency: 8,
  });
  process.on('SIGTERM', () => void worker.close());
  //#endregion startToolWorker
}
