import { defineTool } from '@mtpx/executor';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import { type ModelServer, startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, type AgentOptions, createAgent } from '../index';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ran: string[] = [];

/** Forty tools: two that the task needs, the rest for the search to pass over. */
function tools() {
  const needed = [
    defineTool({
      name: 'get_stock_price',
      description: 'Get the current price of a stock by its ticker symbol.',
      input_schema: {
        type: 'object',
        properties: { symbol: { type: 'string' } },
        required: ['symbol'],
      },
      execute: ({ symbol }: { symbol: string }) => {
        ran.push(`get_stock_price ${symbol}`);
        return { symbol, price: 120 };
      },
    }),
    defineTool({
      name: 'convert_currency',
      description: 'Convert an amount of money from one currency to another.',
      input_schema: {
        type: 'object',
        properties: {
          amount: { type: 'number' },
          from: { type: 'string' },
          to: { type: 'string' },
        },
        required: ['amount', 'from', 'to'],
      },
      execute: ({ amount }: { amount: number }) => {
        ran.push(`convert_currency ${JSON.stringify(amount)}`);
        return { amount: amount * 0.5 };
      },
    }),
  ];
  const others = Array.from({ length: 38 }, (_, index) =>
    defineTool({
      name: `project_task_${index}`,
      description: `Manage project board number ${index}: move cards between lanes.`,
      input_schema: { type: 'object', properties: { card: { type: 'string' } } },
      execute: () => {
        ran.push(`project_task_${index}`);
        return null;
      },
    }),
  );
  return [...needed, ...others];
}

function agentOn(url: string, options: Partial<AgentOptions> = {}) {
  const provider = createOpenAIProvider({
    model: 'gpt-4.1-mini',
    apiKey: 'sk-test',
    baseURL: `${url}/v1`,
    maxRetries: 0,
  });
  return createAgent({ provider, tools: tools(), toolSearch: true, ...options });
}

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: unknown }>;
};
const toolNames = (server: ModelServer, index: number) =>
  ((server.requests[index]?.body as Body | undefined)?.tools ?? []).map(
    (tool) => tool.function.name,
  );

describe('tool search: deferred tools, found by the model, sent from the next request on', () => {
  it('a $ref chain over two tools one search found runs in the round after the search, in one response', async () => {
    ran.length = 0;
    server = await startScriptedOpenAIServer([
      {
        toolCalls: [
          {
            id: 'call_s',
            name: 'search_tools',
            arguments: { query: 'stock price currency convert' },
          },
        ],
      },
      {
        toolCalls: [
          { id: 'call_a', name: 'get_stock_price', arguments: { symbol: 'ACME' } },
          {
            id: 'call_b',
            name: 'convert_currency',
            arguments: { amount: { $ref: 'call_1', $path: '/price' }, from: 'USD', to: 'EUR' },
          },
        ],
      },
      { text: 'ACME costs 60 EUR.' },
    ]);
    const events: AgentEvent[] = [];
    const output = await agentOn(server.url).run('What does ACME cost in euros?', {
      onEvent: (event) => events.push(event),
    });
    expect(output.finalText).toBe('ACME costs 60 EUR.');
    expect(output.rounds).toBe(3);
    expect(ran).toEqual(['get_stock_price ACME', 'convert_currency 120']);
    // The first request carries the search tool alone; the second, the two it found as well.
    expect(toolNames(server, 0)).toEqual(['search_tools']);
    const second = toolNames(server, 1);
    expect(second.slice(0, 3)).toEqual(['search_tools', 'get_stock_price', 'convert_currency']);
    expect(second.length).toBeLessThanOrEqual(6);
    // Found tools stay for the rest of the run.
    expect(toolNames(server, 2)).toEqual(second);
    const search = output.toolResults[0];
    expect(search?.output).toMatchObject({
      tools: expect.arrayContaining([
        {
          name: 'get_stock_price',
          description: 'Get the current price of a stock by its ticker symbol.',
        },
        {
          name: 'convert_currency',
          description: 'Convert an amount of money from one currency to another.',
        },
      ]),
    });
    const rounds = events.flatMap((event) =>
      event.type === 'round-started' ? [event.tools.length] : [],
    );
    expect(rounds[0]).toBe(1);
  });

  it('a call to a deferred tool not found yet is answered "search first", nothing runs, the run goes on', async () => {
    ran.length = 0;
    server = await startScriptedOpenAIServer([
      { toolCalls: [{ id: 'call_x', name: 'get_stock_price', arguments: { symbol: 'ACME' } }] },
      { text: 'I will search first next time.' },
    ]);
    const events: AgentEvent[] = [];
    const output = await agentOn(server.url).stream('Price of ACME?', {
      onEvent: (event) => events.push(event),
    }).result;
    expect(output.stopReason).toBe('final');
    expect(ran).toEqual([]);
    expect(events.some((event) => event.type === 'call-started')).toBe(false);
    expect(output.toolResults).toMatchObject([
      {
        call_id: 'call_x',
        success: false,
        error_code: 'unknown_tool',
        error:
          'Not run: the tool "get_stock_price" is not loaded yet. Call search_tools to find it; it can be called from your next response.',
      },
    ]);
    const tool = (server.requests[1]?.body as Body | undefined)?.messages.find(
      (message) => message.role === 'tool',
    );
    expect(tool?.content).toContain('is not loaded yet. Call search_tools');
  });

  it("a session's later runs keep the tools its earlier runs found", async () => {
    server = await startScriptedOpenAIServer([
      {
        toolCalls: [
          { id: 'call_s', name: 'search_tools', arguments: { query: 'convert currency' } },
        ],
      },
      { text: 'Found it.' },
      { text: 'Still here.' },
    ]);
    const agent = agentOn(server.url);
    await agent.run('Find a converter.', { sessionId: 'tool-search-session' });
    await agent.run('And now?', { sessionId: 'tool-search-session' });
    expect(toolNames(server, 2)).toContain('convert_currency');
    expect(toolNames(server, 2)).toEqual(toolNames(server, 1));
  });

  it("defer: 'tagged' keeps untagged tools loaded; a number defers only above it", async () => {
    server = await startScriptedOpenAIServer([{ text: 'ok' }, { text: 'ok' }]);
    const tagged = [
      defineTool({
        name: 'always_here',
        description: 'Always sent.',
        input_schema: { type: 'object', properties: {} },
        execute: () => null,
      }),
      defineTool({
        name: 'rarely_used',
        description: 'Sent once found.',
        tags: ['deferred'],
        input_schema: { type: 'object', properties: {} },
        execute: () => null,
      }),
    ];
    await agentOn(server.url, { tools: tagged, toolSearch: { defer: 'tagged' } }).run('Hi');
    expect(toolNames(server, 0)).toEqual(['always_here', 'search_tools']);
    await agentOn(server.url, { toolSearch: { defer: 100 } }).run('Hi');
    expect(toolNames(server, 1)).toHaveLength(40);
  });

  it('takes your own search (index), and its answers only name deferred tools', async () => {
    ran.length = 0;
    const queries: string[] = [];
    server = await startScriptedOpenAIServer([
      { toolCalls: [{ id: 'call_s', name: 'find', arguments: { query: 'money' } }] },
      { text: 'done' },
    ]);
    const output = await agentOn(server.url, {
      toolSearch: {
        name: 'find',
        maxResults: 2,
        index: (deferred) => ({
          search: (query) => {
            queries.push(`${query} over ${deferred.length}`);
            return ['no_such_tool', 'convert_currency', 'project_task_3', 'project_task_4'];
          },
        }),
      },
    }).run('Convert money');
    expect(queries).toEqual(['money over 40']);
    expect(output.toolResults[0]?.output).toEqual({
      tools: [
        {
          name: 'convert_currency',
          description: 'Convert an amount of money from one currency to another.',
        },
        {
          name: 'project_task_3',
          description: 'Manage project board number 3: move cards between lanes.',
        },
      ],
    });
    expect(toolNames(server, 1)).toEqual(['find', 'convert_currency', 'project_task_3']);
  });

  it('with a strict provider, the search tool keeps its own schema (a query is words, never a $ref)', async () => {
    server = await startScriptedOpenAIServer([{ text: 'ok' }]);
    const provider = createOpenAIProvider({
      model: 'gpt-4.1-mini',
      apiKey: 'sk-test',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      strictTools: true,
    });
    await createAgent({ provider, tools: tools(), toolSearch: true }).run('Hi');
    const sent = (server.requests[0]?.body as { tools: Array<{ function: unknown }> } | undefined)
      ?.tools;
    expect(sent).toMatchObject([
      {
        function: {
          name: 'search_tools',
          strict: true,
          parameters: {
            type: 'object',
            properties: { query: { type: 'string' } },
            required: ['query'],
            additionalProperties: false,
          },
        },
      },
    ]);
    expect(JSON.stringify(sent)).not.toContain('$ref');
  });

  it('refuses options that cannot work, and a search tool name already taken', () => {
    const provider = createOpenAIProvider({
      model: 'm',
      apiKey: 'k',
      baseURL: 'http://127.0.0.1:9/v1',
    });
    expect(() => createAgent({ provider, tools: tools(), toolSearch: { maxResults: 0 } })).toThrow(
      /maxResults/,
    );
    expect(() =>
      createAgent({ provider, tools: tools(), toolSearch: { defer: 'some' as never } }),
    ).toThrow(/toolSearch.defer/);
    expect(() =>
      createAgent({ provider, tools: tools(), toolSearch: { name: 'project_task_1' } }),
    ).toThrow(/already registered/);
  });
});
