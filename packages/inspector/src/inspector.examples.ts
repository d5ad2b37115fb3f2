// Type-checked examples shown in the TSDoc of the Inspector's entry points (scripts/docs/examples.mjs).
import { createAgent } from '@mtpx/agent';
import type { AnyTool } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { InspectorError } from './inspector-error';
import { inspectorRunUrl } from './links';
import { recordRuns } from './record/run-recorder';
import { readRun } from './record/run-store';

export async function inspectorErrorExample(showList: () => void): Promise<void> {
  //#region InspectorError
  try {
    await readRun('./runs', 'run_1');
  } catch (error) {
    if (InspectorError.isInstance(error) && error.code === 'run_not_found') showList();
  }
  //#endregion InspectorError
}

export function inspectorRunUrlExample(): string {
  //#region inspectorRunUrl
  const url = inspectorRunUrl('http://127.0.0.1:4319', 'run_1'); // 'http://127.0.0.1:4319/runs/run_1'
  //#endregion inspectorRunUrl
  return url;
}

export async function recordRunsExample(provider: Provider, tools: AnyTool[]): Promise<void> {
  //#region recordRuns
  const recorder = recordRuns({ dir: '.mtpx/runs' });
  const agent = createAgent({ provider, tools, onEvent: recorder });
  await agent.run('What is 15 + (4 × (18 − 6)) / 3?');
  await recorder.close();
  // then: npx mtpx-inspector serve --data .mtpx/runs
  //#endregion recordRuns
}
