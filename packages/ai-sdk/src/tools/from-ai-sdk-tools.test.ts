import { createExecutor, type ExecutorEvent } from '@mtpx/executor';
import { dynamicTool, jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAiSdkTools } from './from-ai-sdk-tools';
import { PRELIMINARY_OUTPUT_MESSAGE } from './run-ai-sdk-tool';

const getLocation = tool({
  description: 'Where a person lives.',
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => ({
    name,
    city: name === 'Bruce Wayne' ? 'Gotham City' : 'Metropolis',
  }),
});

const getWeather = tool({
  description: 'The weather in a city.',
  inputSchema: z.object({ city: z.string(), unit: z.enum(['C', 'F']).default('C') }),
  execute: async ({ city, unit }, { toolCallId }) => ({ city, unit, toolCallId, sky: 'cloudy' }),
});

describe('fromAiSdkTools', () => {
  it('runs AI SDK tools in the executor, one taking the output of another by $ref', async () => {
    const { tools, withoutExecute } = await fromAiSdkTools({ getLocation, getWeather });
    expect(tools.map((each) => each.name)).toEqual(['getLocation', 'getWeather']);
    expect(withoutExecute).toEqual([]);
    expect(tools[1]?.input_schema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
    const executor = createExecutor({ tools });
    const results = await executor.executeToolCalls([
      { id: 'call_1', name: 'getLocation', arguments: { name: 'Bruce Wayne' } },
      {
        id: 'call_2',
        name: 'getWeather',
        arguments: { city: { $ref: 'call_1', $path: '/city' } },
      },
    ]);
    expect(results.map((result) => result.output)).toEqual([
      { name: 'Bruce Wayne', city: 'Gotham City' },
      // the zod default applied, the call id handed to execute
      { city: 'Gotham City', unit: 'C', toolCallId: 'call_2', sky: 'cloudy' },
    ]);
  });

  it('answers input its own schema refuses with invalid_arguments, and the tool never runs', async () => {
    let ran = false;
    const strict = tool({
      description: 'Needs a positive count.',
      inputSchema: z.object({ count: z.number().int().positive() }),
      execute: async ({ count }) => {
        ran = true;
        return count;
      },
    });
    const { tools } = await fromAiSdkTools({ strict });
    const [result] = await createExecutor({ tools }).executeToolCalls([
      { id: 'call_1', name: 'strict', arguments: { count: -2 } },
    ]);
    expect(result).toMatchObject({ success: false, error_code: 'invalid_arguments' });
    expect(ran).toBe(false);
  });

  it('takes JSON Schema tools (jsonSchema) and dynamic tools', async () => {
    const echo = tool({
      description: 'Echo.',
      inputSchema: jsonSchema<{ text: string }>({
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      }),
      execute: async ({ text }) => text.toUpperCase(),
    });
    const whereAmI = dynamicTool({
      description: 'Where am I?',
      inputSchema: z.object({}),
      execute: async () => ({ location: 'Paris' }),
    });
    const { tools } = await fromAiSdkTools({ echo, whereAmI });
    const results = await createExecutor({ tools }).executeToolCalls([
      { id: 'a', name: 'echo', arguments: { text: 'hi' } },
      { id: 'b', name: 'echo', arguments: { text: 3 } },
      { id: 'c', name: 'whereAmI', arguments: {} },
    ]);
    expect(results.map((result) => [result.success, result.output, result.error_code])).toEqual([
      [true, 'HI', undefined],
      [false, null, 'invalid_arguments'],
      [true, { location: 'Paris' }, undefined],
    ]);
  });

  it('reports every value of a streaming execute as a preliminary output and answers with the last', async () => {
    const weather = tool({
      description: 'Weather, streamed.',
      inputSchema: z.object({ city: z.string() }),
      async *execute({ city }) {
        yield { state: 'loading' as const };
        yield { state: 'ready' as const, city, temperature: 72 };
      },
    });
    const { tools } = await fromAiSdkTools({ weather });
    const events: ExecutorEvent[] = [];
    const [result] = await createExecutor({ tools }).executeToolCalls(
      [{ id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } }],
      { onEvent: (event) => events.push(event) },
    );
    expect(result?.output).toEqual({ state: 'ready', city: 'Oslo', temperature: 72 });
    const progress = events.flatMap((event) =>
      event.type === 'call-progress' ? [event.progress] : [],
    );
    expect(progress).toEqual([
      { message: PRELIMINARY_OUTPUT_MESSAGE, data: { state: 'loading' } },
      {
        message: PRELIMINARY_OUTPUT_MESSAGE,
        data: { state: 'ready', city: 'Oslo', temperature: 72 },
      },
    ]);
  });

  it('lets toModelOutput decide what the model reads and what a $ref names', async () => {
    const lookup = tool({
      description: 'Looks a word up.',
      inputSchema: z.object({ word: z.string() }),
      execute: async ({ word }) => ({ word, definitions: ['a', 'b'], raw: '<html>…</html>' }),
      toModelOutput: ({ output }) => ({
        type: 'text',
        value: `${output.word}: ${output.definitions.join('; ')}`,
      }),
    });
    const picture = tool({
      description: 'Draws.',
      inputSchema: z.object({}),
      execute: async () => 'aGVsbG8=',
      toModelOutput: ({ output }) => ({
        type: 'content',
        value: [
          { type: 'text', text: 'A drawing.' },
          { type: 'image-data', data: output, mediaType: 'image/png' },
        ],
      }),
    });
    const failing = tool({
      description: 'Fails politely.',
      inputSchema: z.object({}),
      execute: async () => 'nope',
      toModelOutput: () => ({ type: 'error-text', value: 'The service is down.' }),
    });
    const { tools } = await fromAiSdkTools({ lookup, picture, failing, getWeather });
    const results = await createExecutor({ tools }).executeToolCalls([
      { id: 'call_1', name: 'lookup', arguments: { word: 'cloud' } },
      { id: 'call_2', name: 'getWeather', arguments: { city: { $ref: 'call_1' } } },
      { id: 'call_3', name: 'picture', arguments: {} },
      { id: 'call_4', name: 'failing', arguments: {} },
    ]);
    expect(results[0]?.output).toBe('cloud: a; b');
    expect(results[1]?.output).toMatchObject({ city: 'cloud: a; b' });
    expect(results[2]).toMatchObject({
      output: 'A drawing.',
      images: [{ data: 'aGVsbG8=', mime_type: 'image/png' }],
    });
    expect(results[3]).toMatchObject({ success: false, error: 'The service is down.' });
  });

  it('lists tools without execute (client-side and provider tools) instead of dropping them', async () => {
    const askForConfirmation = tool({
      description: 'Ask the user for confirmation.',
      inputSchema: z.object({ message: z.string() }),
      outputSchema: z.string(),
    });
    const webSearch = {
      type: 'provider' as const,
      id: 'anthropic.web_search_20250305' as const,
      args: {},
      inputSchema: z.object({ query: z.string() }),
    };
    const { tools, withoutExecute } = await fromAiSdkTools({
      getWeather,
      askForConfirmation,
      webSearch,
    });
    expect(tools.map((each) => each.name)).toEqual(['getWeather']);
    expect(withoutExecute).toMatchObject([
      {
        name: 'askForConfirmation',
        kind: 'client',
        spec: { description: 'Ask the user for confirmation.', input_schema: { type: 'object' } },
      },
      { name: 'webSearch', kind: 'provider', providerToolId: 'anthropic.web_search_20250305' },
    ]);
    // the names are typed as the tool set's keys
    const names: Array<'getWeather' | 'askForConfirmation' | 'webSearch'> = withoutExecute.map(
      (each) => each.name,
    );
    expect(names).toEqual(['askForConfirmation', 'webSearch']);
  });

  it('applies risk levels, policy and approval from the options; needsApproval asks by default', async () => {
    const ran: string[] = [];
    const sendEmail = tool({
      description: 'Send an email.',
      inputSchema: z.object({ to: z.string() }),
      execute: async ({ to }) => {
        ran.push(`email ${to}`);
        return 'sent';
      },
    });
    const deleteFile = tool({
      description: 'Delete a file.',
      inputSchema: z.object({ path: z.string() }),
      needsApproval: true,
      execute: async ({ path }) => {
        ran.push(`delete ${path}`);
        return 'deleted';
      },
    });
    const { tools } = await fromAiSdkTools(
      { sendEmail, deleteFile },
      { tools: { sendEmail: { risk_level: 'write' } } },
    );
    expect(tools.map((each) => each.risk_level)).toEqual(['write', 'destructive']);
    const asked: string[] = [];
    const executor = createExecutor({
      tools,
      policy: { defaults: { write: 'deny' } },
      approve: async (spec) => {
        asked.push(spec.name);
        return true;
      },
    });
    const results = await executor.executeToolCalls([
      { id: 'a', name: 'sendEmail', arguments: { to: 'x@example.com' } },
      { id: 'b', name: 'deleteFile', arguments: { path: '/tmp/x' } },
    ]);
    expect(results.map((result) => [result.success, result.approval])).toEqual([
      [false, 'deny'],
      [true, 'ask'],
    ]);
    expect(asked).toEqual(['deleteFile']);
    expect(ran).toEqual(['delete /tmp/x']);
  });

  it('caches by resolved arguments when a tool is given cache_ttl_seconds', async () => {
    let runs = 0;
    const rate = tool({
      description: 'Exchange rate.',
      inputSchema: z.object({ pair: z.string() }),
      execute: async ({ pair }) => {
        runs += 1;
        return { pair, rate: 1.1 };
      },
    });
    const { tools } = await fromAiSdkTools({ rate }, { defaults: { cache_ttl_seconds: 60 } });
    const executor = createExecutor({ tools });
    await executor.executeToolCalls([{ id: 'a', name: 'rate', arguments: { pair: 'EURUSD' } }]);
    const [again] = await executor.executeToolCalls([
      { id: 'b', name: 'rate', arguments: { pair: 'EURUSD' } },
    ]);
    expect(again).toMatchObject({ cached: true, output: { pair: 'EURUSD', rate: 1.1 } });
    expect(runs).toBe(1);
  });

  it('hands execute an abortSignal that fires when the call times out', async () => {
    let aborted: unknown;
    const slow = tool({
      description: 'Waits for its signal.',
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal?.addEventListener('abort', () => {
            aborted = abortSignal.reason;
            reject(abortSignal.reason);
          });
        }),
    });
    const { tools } = await fromAiSdkTools({ slow }, { tools: { slow: { timeoutMs: 50 } } });
    const [result] = await createExecutor({ tools }).executeToolCalls([
      { id: 'a', name: 'slow', arguments: {} },
    ]);
    expect(result?.error_code).toBe('timeout');
    expect(aborted).toBeInstanceOf(Error);
  });

  it('passes messages and context to execute, and checks outputs when asked', async () => {
    const seen: unknown[] = [];
    const count = tool({
      description: 'Counts.',
      inputSchema: z.object({}),
      outputSchema: z.object({ n: z.number() }),
      execute: async (_input, { messages, experimental_context }) => {
        seen.push(messages.length, experimental_context);
        return { n: 'not a number' } as unknown as { n: number };
      },
    });
    const { tools } = await fromAiSdkTools(
      { count },
      {
        messages: () => [{ role: 'user', content: 'count' }],
        context: { tenant: 't1' },
        checkOutput: true,
      },
    );
    const [result] = await createExecutor({ tools }).executeToolCalls([
      { id: 'a', name: 'count', arguments: {} },
    ]);
    expect(seen).toEqual([1, { tenant: 't1' }]);
    expect(result).toMatchObject({ success: false, error_code: 'tool_error' });
    expect(result?.error).toContain('does not match its outputSchema');
  });
});
