// Type-checked examples shown in the TSDoc of `remote-tools.ts` and `tool-worker.ts`
// (scripts/docs/examples.mjs).
import { type AnyTool, createExecutor, type ExecutorEvent } from '@mtpx/executor';
import type { ToolCallInput } from '@mtpx/protocol';
import { remoteCallStateOf } from './remote-call-state';
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
  // SIGTERM and SIGINT close it gracefully; or, in your own shutdown:
  await worker.close({ deadlineMs: 10_000 });
  //#endregion startToolWorker
}

export function remoteCallStateOfExample() {
  //#region remoteCallStateOf
  const onEvent = (event: ExecutorEvent) => {
    const remoteState = remoteCallStateOf(event);
    if (remoteState) console.log(event.type, remoteState.state, remoteState.jobId);
  };
  //#endregion remoteCallStateOf
  return onEvent;
}
