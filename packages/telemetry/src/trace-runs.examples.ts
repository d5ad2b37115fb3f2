// Type-checked examples shown in the TSDoc of `trace-runs.ts` (scripts/docs/examples.mjs).
import { createAgent } from '@mtpx/agent';
import type { AnyTool } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { traceRuns } from './trace-runs';

export function traceRunsExample(provider: Provider, tools: AnyTool[]) {
  //#region traceRuns
  const agent = createAgent({ provider, tools, onEvent: traceRuns({ captureContent: false }) });
  //#endregion traceRuns
  return agent;
}
