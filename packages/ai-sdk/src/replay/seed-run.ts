import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentEvent, createAgent, type RunOutput } from '@mtpx/agent';
import { calculatorToolkit, fileToolkit } from '@mtpx/executor/toolkits';
import type { Provider } from '@mtpx/protocol';
import { SEED_NOTE, SEED_QUESTION } from './seed-calls';

/** How a seed run ended: every event, the output or the error, and the workspace folder. */
export interface SeedRun {
  events: AgentEvent[];
  output: RunOutput | undefined;
  error: unknown;
  root: string;
  remove(): Promise<void>;
}

/**
 * The seed run: a real MTPX agent with the calculator and file toolkits (confined to a
 * temporary folder holding `notes.txt`) asks `provider` the seed's question, streamed.
 * `onEvent` sees each event as it arrives (to release a held-back stream).
 */
export async function runSeed(
  provider: Provider,
  onEvent: (event: AgentEvent) => void = () => {},
): Promise<SeedRun> {
  const root = await mkdtemp(join(tmpdir(), 'mtpx-ai-sdk-'));
  await writeFile(join(root, 'notes.txt'), SEED_NOTE);
  const agent = createAgent({ provider, tools: [calculatorToolkit(), fileToolkit({ root })] });
  const stream = agent.stream(SEED_QUESTION);
  const events: AgentEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    onEvent(event);
  }
  let output: RunOutput | undefined;
  let error: unknown;
  try {
    output = await stream.result;
  } catch (caught) {
    error = caught;
  }
  return { events, output, error, root, remove: () => rm(root, { recursive: true, force: true }) };
}

/** The outputs the seed's six calls must have, by position. */
export const SEED_OUTPUTS = [12, 48, 16, 31, SEED_NOTE];
