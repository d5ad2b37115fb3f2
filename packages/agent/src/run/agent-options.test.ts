import { createExecutor, defineTool, defineToolkit } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import type { Provider, ProviderEvent } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { collect, finalTurn, seedQuestion, seedTurn } from '../__fixtures__/seed';
import { AgentError, type AgentEvent, createAgent } from '../index';

const provider = scriptedProvider([]);

/** A provider that streams the given events and answers `generate` from the last `finish`. */
function streamingOnly(events: ProviderEvent[]): Provider {
  return {
    name: 'custom',
    model: 'custom-1',
    generate: () => Promise.reject(new Error('not used')),
    async *stream() {
      yield* events;
    },
  };
}

describe('createAgent options', () => {
  it.each([
    ['no provider', { provider: undefined, tools: [] }, /`provider` must be a Provider/],
    [
      'tools that are not tools',
      { provider, tools: 'calculator' },
      /`tools` must be a ToolRegistry/,
    ],
    [
      'maxRounds 0',
      { provider, tools: [], maxRounds: 0 },
      /maxRounds must be an integer of at least 1/,
    ],
    [
      'a negative toolCallLimit',
      { provider, tools: [], toolCallLimit: -1 },
      /toolCallLimit must be an integer of at least 0/,
    ],
    [
      'instructions that are not text',
      { provider, tools: [], instructions: 5 },
      /instructions must be a string/,
    ],
    [
      'referenceSchemas that is neither a boolean nor auto',
      { provider, tools: [], referenceSchemas: 'always' },
      /referenceSchemas must be true, false or 'auto', got always/,
    ],
  ])('refuses %s', (_title, options, message) => {
    expect(() => createAgent(options as never)).toThrow(message);
  });

  it('refuses executor options beside a ready executor', () => {
    const executor = createExecutor({ tools: [] });
    let error: unknown;
    try {
      createAgent({ provider, tools: executor, policy: { defaults: { write: 'ask' } } });
    } catch (caught) {
      error = caught;
    }
    expect(AgentError.isInstance(error) && error.code).toBe('invalid_option');
    expect((error as Error).message).toBe(
      '`policy` cannot be applied to an executor you pass as `tools`; set it on that executor (createExecutor), or pass its tools instead.',
    );
  });

  it('uses a ready executor as it is', async () => {
    const executor = createExecutor({ tools: [calculatorToolkit()] });
    const agent = createAgent({
      provider: scriptedProvider([seedTurn(), finalTurn]),
      tools: executor,
    });
    expect(agent.executor).toBe(executor);
    expect((await agent.run(seedQuestion)).final_text).toBe('15 + (4 × (18 − 6)) / 3 = 31.');
  });

  it('refuses bad run input', async () => {
    const agent = createAgent({ provider, tools: [] });
    await expect(agent.run(42 as never)).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(agent.run('Hi', { sessionId: '' })).rejects.toMatchObject({
      code: 'invalid_option',
    });
    expect(() => agent.stream('Hi', { maxRounds: 1.5 })).toThrow(/maxRounds/);
  });

  it('passes policy and approval to its executor', async () => {
    const wipe = defineTool({
      name: 'disk.wipe',
      description: 'Erases a disk.',
      input_schema: { type: 'object', properties: { disk: { type: 'string' } } },
      risk_level: 'destructive',
      execute: ({ disk }) => `wiped ${String(disk)}`,
    });
    const asked: string[] = [];
    const agent = createAgent({
      provider: scriptedProvider([
        {
          toolCalls: [
            { id: 'call_1', name: 'disk.wipe', arguments: { disk: 'scratch' } },
            { id: 'call_2', name: 'disk.wipe', arguments: { disk: 'system' } },
          ],
        },
        { text: 'Wiped the scratch disk only.' },
      ]),
      tools: [wipe],
      approve: async (_spec, call) => {
        asked.push(call.id);
        return call.arguments.disk === 'scratch';
      },
    });
    const events: AgentEvent[] = [];
    const output = await agent.run('Wipe both.', { onEvent: (event) => events.push(event) });
    expect(asked).toEqual(['call_1', 'call_2']);
    expect(output.tool_results.map((result) => [result.approval, result.success])).toEqual([
      ['ask', true],
      ['ask', false],
    ]);
    const finished = events.flatMap((event) =>
      event.type === 'call-finished' ? [[event.callId, event.approval, event.errorCode]] : [],
    );
    expect(finished.sort()).toEqual([
      ['call_1', 'ask', undefined],
      ['call_2', 'ask', 'denied'],
    ]);
  });

  it('loads async toolkits before offering tools', async () => {
    const kit = defineToolkit({
      name: 'lazy',
      load: async () => [
        defineTool({
          name: 'lazy.echo',
          description: 'Echoes.',
          input_schema: { type: 'object' },
          execute: (args) => args,
        }),
      ],
    });
    const scripted = scriptedProvider([{ text: 'Hi.' }]);
    await createAgent({ provider: scripted, tools: [kit] }).run('Hi');
    expect(scripted.requests[0]?.tools.map((tool) => tool.name)).toEqual(['lazy.echo']);
  });
});

describe('providers the agent must survive', () => {
  it('a stream without tool-call-ready events: the calls of `finish` still run', async () => {
    const agent = createAgent({
      provider: streamingOnly([
        {
          type: 'finish',
          turn: {
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'a', name: 'calculator.add', arguments: { a: 1, b: 2 }, depends_on: [] },
                {
                  id: 'b',
                  name: 'calculator.add',
                  arguments: { a: { $ref: 'call_1' }, b: 1 },
                  depends_on: [],
                },
              ],
            },
            finishReason: 'tool_calls',
          },
        },
      ]),
      tools: [calculatorToolkit()],
      maxRounds: 1,
    });
    const { output } = await collect(agent.stream('Add.'));
    expect(output?.tool_results.map((result) => result.output)).toEqual([3, 4]);
  });

  it('a stream that ends without finish: run-failed with invalid_provider_response', async () => {
    const agent = createAgent({
      provider: streamingOnly([{ type: 'text-delta', delta: 'Hel' }]),
      tools: [],
    });
    const { events, error } = await collect(agent.stream('Hi'));
    expect(AgentError.isInstance(error) && error.code).toBe('invalid_provider_response');
    expect(events.at(-1)).toMatchObject({ type: 'run-failed', code: 'invalid_provider_response' });
  });

  it('a call reported ready twice is a broken stream, not a second execution', async () => {
    const toolCall = { id: 'a', name: 'calculator.add', arguments: { a: 1, b: 2 }, depends_on: [] };
    const agent = createAgent({
      provider: streamingOnly([
        { type: 'tool-call-ready', index: 0, toolCall },
        { type: 'tool-call-ready', index: 0, toolCall },
      ]),
      tools: [calculatorToolkit()],
    });
    const { events, error } = await collect(agent.stream('Add.'));
    expect(error).toMatchObject({ code: 'invalid_provider_response' });
    expect(events.filter((event) => event.type === 'call-started')).toHaveLength(1);
  });
});

describe('event consumers', () => {
  it('a listener that throws changes nothing', async () => {
    const agent = createAgent({
      provider: scriptedProvider([seedTurn(), finalTurn]),
      tools: [calculatorToolkit()],
    });
    const output = await agent.run(seedQuestion, {
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(output.final_text).toBe('15 + (4 × (18 − 6)) / 3 = 31.');
  });

  it("a stream's events are read once; a failed run read only through events rejects nothing unhandled", async () => {
    const agent = createAgent({ provider: scriptedProvider([]), tools: [] });
    const stream = agent.stream('Hi');
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['run-started', 'round-started', 'run-failed']);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/iterated once/);
    await expect(stream.result).rejects.toMatchObject({ code: 'script_exhausted' });
  });
});

describe('agent-wide onEvent', () => {
  it('sees every event of every run, before the run’s own handler', async () => {
    const seen: string[] = [];
    const agent = createAgent({
      provider: scriptedProvider([seedTurn(), finalTurn, seedTurn(), finalTurn]),
      tools: [calculatorToolkit()],
      onEvent: (event) => seen.push(`agent:${event.runId}:${event.type}`),
    });
    await agent.run(seedQuestion, {
      runId: 'run_a',
      onEvent: (event) => seen.push(`run:${event.runId}:${event.type}`),
    });
    const { events } = await collect(agent.stream(seedQuestion, { runId: 'run_b' }));
    expect(seen.slice(0, 2)).toEqual(['agent:run_a:run-started', 'run:run_a:run-started']);
    const forB = seen.filter((line) => line.startsWith('agent:run_b:'));
    expect(forB).toEqual(events.map((event) => `agent:run_b:${event.type}`));
    expect(seen).toContain('agent:run_a:call-finished');
  });

  it('a throwing agent-wide handler changes nothing, and the run’s handler still gets every event', async () => {
    const runTypes: string[] = [];
    const agent = createAgent({
      provider: scriptedProvider([seedTurn(), finalTurn]),
      tools: [calculatorToolkit()],
      onEvent: () => {
        throw new Error('recorder bug');
      },
    });
    const output = await agent.run(seedQuestion, { onEvent: (event) => runTypes.push(event.type) });
    expect(output.final_text).toBe('15 + (4 × (18 − 6)) / 3 = 31.');
    expect(runTypes[0]).toBe('run-started');
    expect(runTypes.at(-1)).toBe('run-finished');
  });

  it('refuses an onEvent that is not a function', () => {
    expect(() =>
      createAgent({ provider, tools: [], onEvent: 'log' as unknown as () => void }),
    ).toThrow(/onEvent must be a function/);
  });
});
