// The reasoning data of an AI SDK model's turn survives a stored session: another agent,
// reading the session from its JSON file, sends the follow-up with the reasoning exactly
// as issued (each replay server refuses it otherwise).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, JsonFileSessionStore } from '@mtpx/agent';
import { calculatorToolkit, fileToolkit } from '@mtpx/executor/toolkits';
import { afterEach, describe, expect, it } from 'vitest';
import { PROVIDER_REPLAYS } from '../replay/provider-replays';
import { startRecordedReplay } from '../replay/recorded-replay';
import type { ReplayServer } from '../replay/replay-server';
import { SEED_NOTE, SEED_QUESTION } from '../replay/seed-calls';

let server: ReplayServer | undefined;
let directory: string | undefined;
afterEach(async () => {
  await server?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  server = undefined;
  directory = undefined;
});

const withReasoning = PROVIDER_REPLAYS.filter(
  (replay) => !replay.name.includes('Chat Completions'),
);

describe.each(withReasoning)('$name', (replay) => {
  it('a session read back from its file replays the turn with its reasoning, exactly', async () => {
    directory = await mkdtemp(join(tmpdir(), 'mtpx-ai-sdk-session-'));
    await writeFile(join(directory, 'notes.txt'), SEED_NOTE);
    const seed = replay.seed();
    server = await startRecordedReplay(replay.api, [
      { events: seed.events },
      { events: replay.final },
      { events: replay.final },
    ]);
    const agentWith = () =>
      createAgent({
        provider: replay.provider((server as ReplayServer).url),
        tools: [calculatorToolkit(), fileToolkit({ root: directory as string })],
        sessionStore: new JsonFileSessionStore({
          directory: join(directory as string, 'sessions'),
        }),
      });
    await agentWith().run(SEED_QUESTION, { sessionId: 'chat-1' });
    const output = await agentWith().run('And twice that?', { sessionId: 'chat-1' });
    expect(output.finalText).not.toBe('');
    expect(server.requests).toHaveLength(3);
    // The third request carries the first turn's reasoning as the first answer issued it.
    const { sent, issued } = replay.reasoningCarried(server.requests[2]?.body ?? {}, seed.events);
    expect(sent).toEqual(issued);
    expect(sent).toBeDefined();
  });
});
