import type { Message } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { collect, trace } from '../__fixtures__/collect';
import { jsonFixture } from '../__fixtures__/fixtures';
import {
  anthropicAnswer,
  anthropicStreamAnswer,
  modelCall,
  toolNamed,
  toolRounds,
} from '../__fixtures__/recorded-answers';
import { anthropicThinkingRule, replayServerPerTest } from '../__fixtures__/replay-server';
import { ProviderError } from '../provider-error';
import { createAnthropicProvider } from './anthropic-provider';

const server = replayServerPerTest();
const tools = [toolNamed('get_user_country'), toolNamed('return_fruit')];
const thinkingProvider = (url: string) =>
  createAnthropicProvider({
    model: 'claude-sonnet-4-0',
    apiKey: 'sk-ant-test',
    baseURL: url,
    maxRetries: 0,
    thinking: { budgetTokens: 3000 },
  });
type Block = Record<string, unknown>;
const recordedContent = (name: string) =>
  (jsonFixture(`anthropic/${name}.json`) as { content: Block[] }).content;
const bodies = () => server.requests.map((request) => request.body as Record<string, unknown>);
const assistantContents = (body: Record<string, unknown>) =>
  (body.messages as Array<{ role: string; content: unknown }>)
    .filter((message) => message.role === 'assistant')
    .map((message) => message.content);

describe('Claude with extended thinking through two tool rounds (recorded responses)', () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`${mode}: replays each thinking block with its signature before its tool_use, as the API requires`, async () => {
      const final =
        mode === 'whole'
          ? anthropicAnswer('thinking-final', 'whole')
          : anthropicStreamAnswer('thinking-final');
      const { url } = await server.start(
        [
          anthropicAnswer('thinking-tool-use.1', mode),
          anthropicAnswer('thinking-tool-use.2', mode),
          final,
        ],
        anthropicThinkingRule,
      );
      const { turns, events } = await toolRounds(thinkingProvider(url), {
        question: 'What is the largest city in my country?',
        tools,
        mode,
        result: (name) => (name === 'get_user_country' ? 'Mexico' : 'ok'),
      });

      expect(turns.map((turn) => turn.finishReason)).toEqual(['tool_calls', 'tool_calls', 'stop']);
      expect(server.requests).toHaveLength(3);
      expect(bodies()[0]).toMatchObject({
        thinking: { type: 'enabled', budget_tokens: 3000 },
        max_tokens: 7096,
      });
      // Every follow-up carries the recorded turns back exactly: thinking (signature
      // included) first, then the text and tool_use blocks in their original order.
      const first = recordedContent('thinking-tool-use.1');
      const second = recordedContent('thinking-tool-use.2');
      expect(assistantContents(bodies()[1] ?? {})).toEqual([first]);
      expect(assistantContents(bodies()[2] ?? {})).toEqual([first, second]);
      const thinking = String(first[0]?.thinking);
      expect(turns[0]?.reasoning).toBe(thinking);
      expect(turns[1]?.reasoning).toBe(String(second[0]?.thinking));
      if (mode === 'stream') {
        const reasoning = events.flatMap((event) =>
          event.type === 'reasoning-delta' ? [event.delta] : [],
        );
        expect(reasoning.join('')).toContain(thinking);
      }
    });
  }

  it('a follow-up that drops the thinking block is answered with the API’s own 400', async () => {
    const { url } = await server.start(
      [anthropicAnswer('thinking-tool-use.1', 'whole')],
      anthropicThinkingRule,
    );
    const provider = thinkingProvider(url);
    const ask: Message[] = [{ role: 'user', content: 'What is the largest city in my country?' }];
    const { turn } = await modelCall(provider, { messages: ask, tools }, 'whole');
    const call = turn.message.tool_calls?.[0];
    const { provider_parts: _dropped, ...withoutParts } = turn.message;
    const error = await provider
      .generate({
        messages: [
          ...ask,
          withoutParts,
          { role: 'tool', tool_call_id: call?.id ?? '', name: call?.name ?? '', content: 'Mexico' },
        ],
        tools,
      })
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'api_error', status: 400 });
    expect((error as ProviderError).providerMessage).toMatch(
      /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`/,
    );
  });

  it('reads usage field by field as recorded', async () => {
    const { url } = await server.start([anthropicAnswer('thinking-tool-use.1', 'whole')]);
    const { turn } = await modelCall(
      thinkingProvider(url),
      { messages: [{ role: 'user', content: 'Hi' }], tools },
      'whole',
    );
    expect(turn.usage).toEqual({
      inputTokens: 398,
      outputTokens: 155,
      totalTokens: 553,
      cachedInputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite5mTokens: 0,
      cacheWrite1hTokens: 0,
    });
  });
});

describe('redacted thinking (recorded responses)', () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`${mode}: is kept and replayed, never shown as text`, async () => {
      const answer =
        mode === 'whole'
          ? anthropicAnswer('redacted-thinking', 'whole')
          : anthropicStreamAnswer('redacted-thinking');
      const { url } = await server.start([answer, answer], anthropicThinkingRule);
      const provider = thinkingProvider(url);
      const ask: Message[] = [{ role: 'user', content: 'What is 2 + 2?' }];
      const { turn, events } = await modelCall(provider, { messages: ask, tools: [] }, mode);
      expect(turn.reasoning).toBeUndefined();
      expect(events.some((event) => event.type === 'reasoning-delta')).toBe(false);
      const redacted = turn.message.provider_parts?.filter(
        (part) => part.type === 'redacted_thinking',
      );
      expect(redacted?.length).toBeGreaterThan(0);
      expect(redacted?.every((part) => part.text === undefined)).toBe(true);
      await modelCall(
        provider,
        { messages: [...ask, turn.message, { role: 'user', content: 'And 3 + 3?' }], tools: [] },
        mode,
      );
      const replayed = assistantContents(bodies()[1] ?? {})[0] as Block[];
      expect(replayed.filter((block) => block.type === 'redacted_thinking')).toEqual(
        (answer.turn.content as Block[]).filter((block) => block.type === 'redacted_thinking'),
      );
    });
  }
});

describe('server-side tool blocks (recorded streams)', () => {
  it('a web search beside a client tool streams without error; only the client call is reported ready', async () => {
    const { url } = await server.start([anthropicStreamAnswer('web-search-with-tool')]);
    const provider = thinkingProvider(url);
    const { events, error } = await collect(
      provider.stream({
        messages: [{ role: 'user', content: 'Save and search.' }],
        tools: [toolNamed('save_results')],
      }),
    );
    expect(error).toBeUndefined();
    expect(trace(events).filter((line) => !line.startsWith('delta'))).toEqual([
      'text "I\'ll save the results and search for the latest news."',
      'ready 0 toolu_01SaveResults save_results {"filename":"news.txt"}',
      'server-tool server_tool_use srvtoolu_01WebSearch web_search',
      'server-tool web_search_tool_result srvtoolu_01WebSearch ?',
      'usage 80+60',
      'finish tool_calls',
    ]);
    const finish = events.at(-1);
    const message = finish?.type === 'finish' ? finish.turn.message : undefined;
    expect(message?.tool_calls?.map((call) => call.name)).toEqual(['save_results']);
    // The next request carries every block back in its place.
    const followUp = await server.start([anthropicAnswer('thinking-final', 'whole')]);
    const next = thinkingProvider(followUp.url);
    await next.generate({
      messages: [
        { role: 'user', content: 'Save and search.' },
        message ?? { role: 'assistant', content: null },
        {
          role: 'tool',
          tool_call_id: 'toolu_01SaveResults',
          name: 'save_results',
          content: 'saved',
        },
      ],
      tools: [toolNamed('save_results')],
    });
    const sent = assistantContents(bodies()[0] ?? {})[0] as Block[];
    expect(sent.map((block) => block.type)).toEqual([
      'text',
      'tool_use',
      'server_tool_use',
      'web_search_tool_result',
    ]);
    expect(sent[2]).toMatchObject({ id: 'srvtoolu_01WebSearch', input: { query: 'latest news' } });
  });

  it('an MCP connector block with input_json_delta streams without error and is no tool call', async () => {
    const { url } = await server.start([anthropicStreamAnswer('mcp-tool')]);
    const { events, error } = await collect(
      thinkingProvider(url).stream({
        messages: [{ role: 'user', content: 'Echo hello world.' }],
        tools: [],
      }),
    );
    expect(error).toBeUndefined();
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.turn.message.tool_calls).toBeUndefined();
    expect(trace(events).filter((line) => line.startsWith('server-tool'))).toEqual([
      'server-tool mcp_tool_use mcptoolu_017CuqaJcXe5ZHJjaz3KS1AT echo',
      'server-tool mcp_tool_result mcptoolu_017CuqaJcXe5ZHJjaz3KS1AT ?',
    ]);
  });
});

describe('refusals (recorded responses)', () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`${mode}: stop_reason "refusal" is finish reason refusal, with the API's explanation`, async () => {
      const answer =
        mode === 'whole' ? anthropicAnswer('refusal', 'whole') : anthropicStreamAnswer('refusal');
      const { url } = await server.start([answer]);
      const { turn } = await modelCall(
        thinkingProvider(url),
        { messages: [{ role: 'user', content: 'Write malware.' }], tools },
        mode,
      );
      expect(turn.finishReason).toBe('refusal');
      expect(turn.refusal).toBe(
        "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
      );
      expect(turn.message.tool_calls).toBeUndefined();
    });
  }
});
