import { type Message, safeParseJson } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { jsonFixture, openAIChunks } from '../__fixtures__/fixtures';
import {
  modelCall,
  openAIAnswer,
  openAIStreamAnswer,
  toolNamed,
  toolRounds,
} from '../__fixtures__/recorded-answers';
import {
  deepSeekReasoningRule,
  geminiSignatureRule,
  replayServerPerTest,
} from '../__fixtures__/replay-server';
import { ProviderError } from '../provider-error';
import type { OpenAICompatiblePresetName } from './openai-presets';
import { createOpenAIProvider } from './openai-provider';

const server = replayServerPerTest();
type Json = Record<string, unknown>;
const providerFor = (preset: OpenAICompatiblePresetName, model: string, url: string) =>
  createOpenAIProvider({ preset, model, apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 });
const recordedMessage = (name: string) =>
  ((jsonFixture(`openai/${name}.json`) as { choices: Array<{ message: Json }> }).choices[0]
    ?.message ?? {}) as Json;
const assistants = (index: number) =>
  (
    ((server.requests[index]?.body as Json | undefined)?.messages as Json[] | undefined) ?? []
  ).filter((message) => message.role === 'assistant');
/** A recorded stream's field, its deltas joined. */
const streamedField = (name: string, field: string) =>
  openAIChunks(`openai/${name}.chunks.txt`)
    .map((line) => safeParseJson(typeof line === 'string' ? line : line.data))
    .map(
      (parsed) => (parsed.ok ? parsed.value : null) as { choices?: Array<{ delta?: Json }> } | null,
    )
    .map((chunk) => chunk?.choices?.[0]?.delta?.[field])
    .filter((piece): piece is string => typeof piece === 'string')
    .join('');
const deepSeekTools = ['load_capability', 'get_player_name', 'roll_dice', 'weather'].map(toolNamed);

describe('DeepSeek reasoner through two tool rounds (recorded responses)', () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`${mode}: every assistant message with tool calls goes back with its reasoning_content`, async () => {
      const first =
        mode === 'whole'
          ? openAIAnswer('deepseek-tools.1', 'whole')
          : openAIStreamAnswer('deepseek-tool-call', recordedMessage('deepseek-tool-call'));
      const { url } = await server.start(
        [first, openAIAnswer('deepseek-tools.2', mode), openAIAnswer('deepseek-tools.3', mode)],
        deepSeekReasoningRule,
      );
      const { turns, events } = await toolRounds(
        providerFor('deepseek', 'deepseek-reasoner', url),
        {
          question: 'Roll a die; I guess 4.',
          tools: deepSeekTools,
          mode,
          result: (name) =>
            name === 'get_player_name' ? 'Anne' : name === 'roll_dice' ? '4' : 'ok',
        },
      );
      expect(turns.map((turn) => turn.finishReason)).toEqual(['tool_calls', 'tool_calls', 'stop']);
      expect(turns[1]?.message.tool_calls?.map((call) => call.name)).toEqual([
        'get_player_name',
        'roll_dice',
      ]);
      const firstReasoning =
        mode === 'whole'
          ? String(recordedMessage('deepseek-tools.1').reasoning_content)
          : streamedField('deepseek-tool-call', 'reasoning_content');
      const secondReasoning = String(recordedMessage('deepseek-tools.2').reasoning_content);
      expect(assistants(1).map((message) => message.reasoning_content)).toEqual([firstReasoning]);
      expect(assistants(2).map((message) => message.reasoning_content)).toEqual([
        firstReasoning,
        secondReasoning,
      ]);
      expect(turns[0]?.reasoning).toBe(firstReasoning);
      expect(turns[2]?.reasoning).toBe(
        String(recordedMessage('deepseek-tools.3').reasoning_content),
      );
      if (mode === 'stream') {
        const streamed = events.flatMap((event) =>
          event.type === 'reasoning-delta' ? [event.delta] : [],
        );
        expect(streamed.join('')).toContain(firstReasoning);
      }
    });
  }

  it('a follow-up without reasoning_content is answered with DeepSeek’s own 400', async () => {
    const { url } = await server.start(
      [openAIAnswer('deepseek-tools.1', 'whole')],
      deepSeekReasoningRule,
    );
    const provider = providerFor('deepseek', 'deepseek-reasoner', url);
    const ask: Message[] = [{ role: 'user', content: 'Roll a die; I guess 4.' }];
    const { turn } = await modelCall(provider, { messages: ask, tools: deepSeekTools }, 'whole');
    const call = turn.message.tool_calls?.[0];
    const { provider_parts: _dropped, ...withoutParts } = turn.message;
    const error = await provider
      .generate({
        messages: [
          ...ask,
          withoutParts,
          { role: 'tool', tool_call_id: call?.id ?? '', name: 'load_capability', content: 'ok' },
        ],
        tools: deepSeekTools,
      })
      .catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'api_error', status: 400 });
    expect((error as ProviderError).providerMessage).toMatch(
      /^Missing `reasoning_content` field in the assistant message at message index 1\./,
    );
  });

  it('never sends reasoning_content to another service', async () => {
    const { url } = await server.start([
      openAIAnswer('deepseek-tools.1', 'whole'),
      openAIAnswer('deepseek-tools.3', 'whole'),
    ]);
    const ask: Message[] = [{ role: 'user', content: 'Roll a die; I guess 4.' }];
    const { turn } = await modelCall(
      providerFor('deepseek', 'deepseek-reasoner', url),
      { messages: ask, tools: deepSeekTools },
      'whole',
    );
    const call = turn.message.tool_calls?.[0];
    await providerFor('openai', 'gpt-4.1-mini', url).generate({
      messages: [
        ...ask,
        turn.message,
        { role: 'tool', tool_call_id: call?.id ?? '', name: 'load_capability', content: 'ok' },
      ],
      tools: deepSeekTools,
    });
    expect(Object.keys(assistants(1)[0] ?? {}).sort()).toEqual(['content', 'role', 'tool_calls']);
  });

  it('reads usage field by field as recorded, DeepSeek cache hits and misses included', async () => {
    const { url } = await server.start([openAIAnswer('deepseek-tools.1', 'whole')]);
    const { turn } = await modelCall(
      providerFor('deepseek', 'deepseek-reasoner', url),
      { messages: [{ role: 'user', content: 'Hi' }], tools: deepSeekTools },
      'whole',
    );
    expect(turn.usage).toEqual({
      inputTokens: 563,
      outputTokens: 116,
      totalTokens: 679,
      cachedInputTokens: 512,
      cacheReadTokens: 512,
      reasoningTokens: 60,
      cacheHitTokens: 512,
      cacheMissTokens: 51,
    });
  });
});

describe('gpt-oss with `reasoning` through two tool rounds (recorded Groq and Ollama responses)', () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`${mode}: each turn's reasoning goes back on its assistant message`, async () => {
      const { url } = await server.start([
        openAIAnswer('groq-gpt-oss-tool-call', mode),
        openAIAnswer('ollama-gpt-oss-tool-call', mode),
        openAIAnswer('groq-gpt-oss-final', mode),
      ]);
      const { turns } = await toolRounds(providerFor('groq', 'openai/gpt-oss-120b', url), {
        question: 'Find something named test, then give the final result.',
        tools: [toolNamed('get_something_by_name'), toolNamed('final_result')],
        mode,
        result: () => 'Something with name: test',
      });
      expect(turns.map((turn) => turn.finishReason)).toEqual(['tool_calls', 'tool_calls', 'stop']);
      const reasoning = ['groq-gpt-oss-tool-call', 'ollama-gpt-oss-tool-call'].map(
        (name) => recordedMessage(name).reasoning,
      );
      expect(assistants(2).map((message) => message.reasoning)).toEqual(reasoning);
      expect(assistants(2).some((message) => 'reasoning_content' in message)).toBe(false);
      expect(turns[2]?.usage).toEqual({
        inputTokens: 336,
        outputTokens: 96,
        totalTokens: 432,
        cachedInputTokens: 256,
        cacheReadTokens: 256,
        reasoningTokens: 59,
      });
    });
  }
});

describe('Gemini through its OpenAI-compatible endpoint (thought signatures)', () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`${mode}: each signed call goes back with its extra_content through two tool rounds`, async () => {
      const { url } = await server.start(
        [
          openAIAnswer('gemini-tool-call', mode),
          openAIAnswer('gemini3-tool-calls', mode),
          openAIAnswer('gemini-final', mode),
        ],
        geminiSignatureRule,
      );
      const { turns } = await toolRounds(providerFor('gemini', 'gemini-3-flash-preview', url), {
        question: 'What is the current time?',
        tools: [toolNamed('get_current_time')],
        mode,
        result: () => 'Noon',
      });
      expect(turns.map((turn) => turn.finishReason)).toEqual(['tool_calls', 'tool_calls', 'stop']);
      const [first, second] = assistants(2);
      expect(first?.extra_content).toEqual(recordedMessage('gemini-tool-call').extra_content);
      const calls = (second?.tool_calls as Json[] | undefined) ?? [];
      expect(calls.map((call) => call.extra_content)).toEqual([
        ((recordedMessage('gemini3-tool-calls').tool_calls as Json[])[0] as Json).extra_content,
        undefined,
      ]);
    });
  }

  it('a follow-up that drops a call’s thought_signature is answered with Gemini’s own 400', async () => {
    const { url } = await server.start(
      [openAIAnswer('gemini3-tool-calls', 'whole')],
      geminiSignatureRule,
    );
    const provider = providerFor('gemini', 'gemini-3-flash-preview', url);
    const ask: Message[] = [{ role: 'user', content: 'What time is it in Paris and Tokyo?' }];
    const { turn } = await modelCall(
      provider,
      { messages: ask, tools: [toolNamed('get_current_time')] },
      'whole',
    );
    const { provider_parts: _dropped, ...withoutParts } = turn.message;
    const error = await provider
      .generate({
        messages: [
          ...ask,
          withoutParts,
          ...(turn.message.tool_calls ?? []).map((call) => ({
            role: 'tool' as const,
            tool_call_id: call.id,
            name: call.name,
            content: 'Noon',
          })),
        ],
        tools: [toolNamed('get_current_time')],
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'api_error', status: 400 });
    expect((error as ProviderError).providerMessage).toMatch(
      /^Function call is missing a thought_signature in functionCall parts\./,
    );
  });
});

describe('OpenAI refusals (the API documentation’s recorded example)', () => {
  for (const mode of ['whole', 'stream'] as const) {
    it(`${mode}: message.refusal is finish reason refusal with its text`, async () => {
      const { url } = await server.start([openAIAnswer('refusal', mode)]);
      const { turn } = await modelCall(
        providerFor('openai', 'gpt-4o-2024-08-06', url),
        { messages: [{ role: 'user', content: 'Help me pick a lock.' }], tools: deepSeekTools },
        mode,
      );
      expect(turn.finishReason).toBe('refusal');
      expect(turn.refusal).toBe("I'm sorry, I cannot assist with that request.");
    });
  }
});
