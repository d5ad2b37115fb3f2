import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import type { ProviderPart } from '@mtpx/protocol';
import {
  scriptedProvider,
  startScriptedAnthropicServer,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { anthropicAgent, openAIAgent } from '../__fixtures__/sdk-agents';
import { collect } from '../__fixtures__/seed';
import {
  type Agent,
  type AgentEvent,
  createAgent,
  InMemorySessionStore,
  JsonFileSessionStore,
  type RunOutput,
  type SessionStore,
} from '../index';

/** A run streamed (`stream()`) or whole (`run()` with `onEvent`): its events and output. */
async function runAgent(
  agent: Agent,
  input: string,
  streaming: boolean,
): Promise<{ events: AgentEvent[]; output?: RunOutput }> {
  if (streaming) return collect(agent.stream(input));
  const events: AgentEvent[] = [];
  const output = await agent.run(input, { onEvent: (event) => events.push(event) });
  return { events, output };
}

const tools = [calculatorToolkit()];

const thinking: ProviderPart = {
  provider: 'anthropic',
  type: 'thinking',
  index: 0,
  data: { type: 'thinking', thinking: 'Add first.', signature: 'EqEECkYICxgCKkAo3UA4' },
  text: 'Add first.',
};
const redacted: ProviderPart = {
  provider: 'anthropic',
  type: 'redacted_thinking',
  index: 1,
  data: { type: 'redacted_thinking', data: 'EqkECkYIBxgCKkA8AZ4noDfV5VcOJe' },
};
const webSearch: ProviderPart = {
  provider: 'anthropic',
  type: 'server_tool_use',
  index: 2,
  data: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'x' } },
  server_tool: { id: 'srvtoolu_01', name: 'web_search' },
};
const addCall = { id: 'call_1', name: 'calculator.add', arguments: { a: 2, b: 3 } };
const reasonedTurn = {
  reasoning: 'Add first.',
  providerParts: [thinking, redacted, webSearch],
  toolCalls: [addCall],
  usage: {
    inputTokens: 398,
    outputTokens: 155,
    totalTokens: 553,
    cacheReadTokens: 100,
    cacheWriteTokens: 20,
    cacheWrite5mTokens: 20,
    cacheWrite1hTokens: 0,
    reasoningTokens: 40,
  },
};
const answer = {
  text: '2 + 3 = 5.',
  usage: {
    inputTokens: 566,
    outputTokens: 126,
    totalTokens: 692,
    cacheReadTokens: 400,
    reasoningTokens: 10,
  },
};

describe('reasoning models in the agent loop', () => {
  for (const streaming of [false, true]) {
    it(`${streaming ? 'stream()' : 'run()'}: reasoning is reported, server tool blocks are events and never run, usage is summed per counter`, async () => {
      const provider = scriptedProvider([reasonedTurn, answer]);
      const agent = createAgent({ provider, tools });
      const { events, output } = await runAgent(agent, 'What is 2 + 3?', streaming);
      expect(output?.stop_reason).toBe('final');
      expect(output?.tool_results.map((result) => result.call_id)).toEqual(['call_1']);
      expect(output?.reasoning).toEqual([{ round: 1, text: 'Add first.' }]);
      expect(
        events
          .filter((event) => event.type === 'server-tool-used')
          .map((event) => ({ ...event, at: 0 })),
      ).toEqual([
        {
          type: 'server-tool-used',
          runId: output?.run_id,
          at: 0,
          round: 1,
          blockType: 'server_tool_use',
          id: 'srvtoolu_01',
          name: 'web_search',
        },
      ]);
      const finished = events.find((event) => event.type === 'round-finished');
      expect(finished?.type === 'round-finished' && finished.reasoning).toBe('Add first.');
      expect(output?.usage).toEqual({
        inputTokens: 964,
        outputTokens: 281,
        totalTokens: 1245,
        cacheReadTokens: 500,
        cacheWriteTokens: 20,
        cacheWrite5mTokens: 20,
        cacheWrite1hTokens: 0,
        reasoningTokens: 50,
      });
      // The next request sends the turn back with its parts, untouched.
      const replayed = provider.requests[1]?.messages.find(
        (message) => message.role === 'assistant',
      );
      expect(replayed?.role === 'assistant' && replayed.provider_parts).toEqual([
        thinking,
        redacted,
        webSearch,
      ]);
    });
  }

  it('stream(): reasoning-delta events carry the readable reasoning as it streams', async () => {
    const provider = scriptedProvider([reasonedTurn, answer], { chunkSize: 4 });
    const { events } = await collect(createAgent({ provider, tools }).stream('What is 2 + 3?'));
    const deltas = events.flatMap((event) => (event.type === 'reasoning-delta' ? [event] : []));
    expect(deltas.map((event) => event.text).join('')).toBe('Add first.');
    expect(deltas.every((event) => event.round === 1)).toBe(true);
  });

  for (const streaming of [false, true]) {
    it(`${streaming ? 'stream()' : 'run()'}: a refusal ends the run with stop reason refusal, and no tool of it runs`, async () => {
      const provider = scriptedProvider([
        {
          finishReason: 'refusal',
          refusal: "I'm sorry, I cannot assist with that request.",
          toolCalls: [addCall],
        },
      ]);
      const agent = createAgent({ provider, tools });
      const { events, output } = await runAgent(agent, 'Refuse this.', streaming);
      expect(output?.stop_reason).toBe('refusal');
      expect(output?.refusal).toBe("I'm sorry, I cannot assist with that request.");
      expect(output?.rounds).toBe(1);
      expect(events.some((event) => event.type === 'call-started')).toBe(false);
      expect(output?.tool_results).toEqual([]);
      // The refused turn stays in the conversation without calls nobody answers.
      expect(output?.messages.at(-1)).toEqual({ role: 'assistant', content: null });
    });
  }
});

describe('refusals through the real SDKs', () => {
  const refusal = {
    finishReason: 'refusal' as const,
    refusal: "I'm sorry, I cannot assist with that request.",
    toolCalls: [{ id: 'toolu_1', name: 'calculator_add', arguments: { a: 1, b: 2 } }],
  };
  it('openai: a streamed refusal with a call in it ends the run; the call never starts', async ({
    onTestFinished,
  }) => {
    const server = await startScriptedOpenAIServer([refusal]);
    onTestFinished(() => server.close());
    const { events, output } = await collect(openAIAgent(server).stream('Refuse this.'));
    expect(output?.stop_reason).toBe('refusal');
    expect(output?.refusal).toBe("I'm sorry, I cannot assist with that request.");
    expect(events.some((event) => event.type === 'tool-call-ready')).toBe(false);
    expect(events.some((event) => event.type === 'call-started')).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('anthropic: stop_reason "refusal" ends the run with stop reason refusal', async ({
    onTestFinished,
  }) => {
    const server = await startScriptedAnthropicServer([{ finishReason: 'refusal', text: 'No.' }]);
    onTestFinished(() => server.close());
    const output = await anthropicAgent(server).run('Refuse this.');
    expect(output.stop_reason).toBe('refusal');
    expect(output.refusal).toBe('No.');
    expect(output.tool_results).toEqual([]);
  });
});

describe('sessions keep provider parts', () => {
  const stores: Array<[string, () => Promise<SessionStore>]> = [
    ['in memory', async () => new InMemorySessionStore()],
    [
      'JSON file',
      async () =>
        new JsonFileSessionStore({ directory: await mkdtemp(join(tmpdir(), 'mtpx-parts-')) }),
    ],
  ];
  for (const [name, makeStore] of stores) {
    it(`${name}: a resumed session replays the thinking blocks of earlier runs`, async () => {
      const sessionStore = await makeStore();
      const provider = scriptedProvider([reasonedTurn, answer, { text: 'Still 5.' }]);
      const agent = createAgent({ provider, tools, sessionStore });
      await agent.run('What is 2 + 3?', { sessionId: 'chat-1' });
      const resumed = createAgent({ provider, tools, sessionStore });
      const output = await resumed.run('Sure?', { sessionId: 'chat-1' });
      expect(output.final_text).toBe('Still 5.');
      const replayed = provider.requests[2]?.messages.find(
        (message) => message.role === 'assistant',
      );
      expect(replayed?.role === 'assistant' && replayed.provider_parts).toEqual([
        thinking,
        redacted,
        webSearch,
      ]);
      const stored = await sessionStore.get('chat-1');
      expect(stored?.runs[0]?.usage.cacheWriteTokens).toBe(20);
    });
  }
});
