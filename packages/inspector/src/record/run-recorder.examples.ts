// Type-checked example shown in the TSDoc of `recordRuns` (scripts/docs/examples.mjs).
import { createAgent } from '@mtpx/agent';
import type { AnyTool } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { recordRuns } from './run-recorder';

export async function recordRunsExample(provider: Provider, tools: AnyTool[]): Promise<void> {
  //#region recordRuns
  const recorder = recordRuns({ dir: '.mtpx/runs' });
  const agent = createAgent({ provider, tools, onEvent: recorder });
  await agent.run('What is 15 + (4 × (18 − 6)) / 3?');
  await recorder.close();
  // then: npx mtpx-inspector serve --data .mtpx/runs
  //#endregion recordRuns
}
