import { describe, expect, it } from 'vitest';
import { finishReasonFromAiSdk, usageFromAiSdk } from './model-usage';

describe('usageFromAiSdk', () => {
  it('maps every count of an AI SDK usage, cache writes included', () => {
    expect(
      usageFromAiSdk({
        inputTokens: { total: 2037, noCache: 37, cacheRead: 1500, cacheWrite: 500 },
        outputTokens: { total: 795, text: 595, reasoning: 200 },
      }),
    ).toEqual({
      inputTokens: 2037,
      outputTokens: 795,
      totalTokens: 2832,
      cachedInputTokens: 1500,
      cacheReadTokens: 1500,
      cacheWriteTokens: 500,
      reasoningTokens: 200,
    });
  });

  it('is undefined when the model reported no count', () => {
    expect(
      usageFromAiSdk({
        inputTokens: {
          total: undefined,
          noCache: undefined,
          cacheRead: undefined,
          cacheWrite: undefined,
        },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      }),
    ).toBeUndefined();
    expect(usageFromAiSdk(undefined)).toBeUndefined();
  });
});

describe('finishReasonFromAiSdk', () => {
  it.each([
    [{ unified: 'tool-calls', raw: 'tool_use' }, true, 'tool_calls'],
    [{ unified: 'stop', raw: 'STOP' }, true, 'tool_calls'],
    [{ unified: 'stop', raw: 'end_turn' }, false, 'stop'],
    [{ unified: 'length', raw: 'max_tokens' }, true, 'length'],
    [{ unified: 'content-filter', raw: 'SAFETY' }, false, 'content_filter'],
    [{ unified: 'content-filter', raw: 'refusal' }, false, 'refusal'],
    [{ unified: 'other', raw: 'refusal' }, true, 'refusal'],
    [{ unified: 'error', raw: undefined }, false, 'error'],
  ] as const)('%o (calls: %s) is %s', (reason, hasCalls, expected) => {
    expect(finishReasonFromAiSdk(reason, hasCalls).finishReason).toBe(expected);
  });

  it("keeps the API's own value for other reasons (and AI SDK 7's interrupted)", () => {
    expect(finishReasonFromAiSdk({ unified: 'other', raw: 'pause_turn' }, false)).toEqual({
      finishReason: 'other',
      raw: 'pause_turn',
    });
    expect(finishReasonFromAiSdk({ unified: 'interrupted', raw: undefined }, false)).toEqual({
      finishReason: 'other',
      raw: 'interrupted',
    });
  });
});
