import { defineTool } from '@mtpx/executor';
import { createAnthropicProvider } from '@mtpx/providers/anthropic';
import { type ModelServer, startScriptedAnthropicServer } from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../index';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ran: string[] = [];
const tool = (name: string, tags: string[] = []) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    tags,
    input_schema: { type: 'object', properties: { x: { type: 'number' } } },
    execute: ({ x }: { x?: number }) => {
      ran.push(name);
      return (x ?? 0) + 1;
    },
  });

type Body = { tools?: Array<Record<string, unknown>> };

describe('tool search with a provider that searches itself (Anthropic, through the real SDK)', () => {
  it("sends the deferred tools with defer_loading and the API's search tool; no search tool of ours; found tools' calls run", async () => {
    ran.length = 0;
    server = await startScriptedAnthropicServer([
      {
        toolCalls: [
          { id: 'toolu_1', name: 'rarely_used', arguments: { x: 1 } },
          { id: 'toolu_2', name: 'always_here', arguments: { x: { $ref: 'call_1' } } },
        ],
      },
      { text: 'Done: 3.' },
    ]);
    const provider = createAnthropicProvider({
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant-test',
      baseURL: server.url,
      maxRetries: 0,
      toolSearch: 'bm25',
    });
    const agent = createAgent({
      provider,
      tools: [tool('always_here'), tool('rarely_used', ['deferred'])],
      toolSearch: { defer: 'tagged' },
    });
    const output = await agent.run('Go.');
    expect(output.finalText).toBe('Done: 3.');
    expect(ran).toEqual(['rarely_used', 'always_here']);
    expect(agent.executor.registry.has('search_tools')).toBe(false);
    for (const request of server.requests) {
      expect((request.body as Body).tools?.map((wire) => [wire.name, wire.defer_loading])).toEqual([
        ['always_here', undefined],
        ['rarely_used', true],
        ['tool_search_tool_bm25', undefined],
      ]);
    }
  });

  it("toolSearch.native: false uses the agent's own search even then", async () => {
    server = await startScriptedAnthropicServer([{ text: 'ok' }]);
    const provider = createAnthropicProvider({
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant-test',
      baseURL: server.url,
      maxRetries: 0,
      toolSearch: 'bm25',
    });
    await createAgent({
      provider,
      tools: [tool('always_here'), tool('rarely_used', ['deferred'])],
      toolSearch: { defer: 'tagged', native: false },
    }).run('Go.');
    expect((server.requests[0]?.body as Body | undefined)?.tools?.map((wire) => wire.name)).toEqual(
      ['always_here', 'search_tools'],
    );
  });
});
