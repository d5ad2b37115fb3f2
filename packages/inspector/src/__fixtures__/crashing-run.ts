// A run whose process dies mid-run: its tool flushes the record, says so, and never returns.
// Used by run-recorder.test.ts, which kills this process with SIGKILL.
import { createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import { scriptedProvider } from '@mtpx/providers/testing';
import { recordRuns } from '../index';

const dir = process.argv[2] as string;
const recorder = recordRuns({ dir });
const hang = defineTool({
  name: 'slow.forever',
  description: 'Never returns.',
  input_schema: { type: 'object', properties: {} },
  async execute() {
    await recorder.flush();
    process.stdout.write('in-tool\n');
    return new Promise(() => {});
  },
});
const agent = createAgent({
  provider: scriptedProvider([{ toolCalls: [{ id: 'call_1', name: 'slow.forever', arguments: {} }] }]),
  tools: [hang],
  onEvent: recorder,
});
void agent.run('Wait.', { runId: 'run_crashed' });
