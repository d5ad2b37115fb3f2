import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { createToolNameMapping } from '../tool-names';
import { openAIFinishReason, openAIUsage, turnFromChatCompletion } from './openai-response';

const context = { provider: 'test', names: createToolNameMapping([]), createId: () => 'call_x' };

describe('turnFromChatCompletion', () => {
  it('refuses a response without a choice', () => {
    expect(() =>
      turnFromChatCompletion({ id: 'x', choices: [] } as unknown as ChatCompletion, context),
    ).toThrowError(expect.objectContaining({ code: 'invalid_response' }));
  });

  it('reads tool_calls: null (as some compatible servers send) as no calls', () => {
    const turn = turnFromChatCompletion(
      {
        id: 'x',
        model: 'mimo',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: 'Hi', tool_calls: null },
          },
        ],
      } as unknown as ChatCompletion,
      context,
    );
    expect(turn).toEqual({
      message: { role: 'assistant', content: 'Hi' },
      finishReason: 'stop',
      model: 'mimo',
      responseId: 'x',
    });
  });
});

describe('openAIFinishReason and openAIUsage', () => {
  it('maps the finish reasons', () => {
    expect(
      ['stop', 'tool_calls', 'function_call', 'length', 'content_filter', null].map((reason) =>
        openAIFinishReason(reason, false),
      ),
    ).toEqual(['stop', 'tool_calls', 'tool_calls', 'length', 'content_filter', 'other']);
    expect(openAIFinishReason(null, true)).toBe('tool_calls');
  });

  it('fills a missing total', () => {
    expect(openAIUsage({ prompt_tokens: 3, completion_tokens: 4 } as never)).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      totalTokens: 7,
    });
    expect(openAIUsage(null)).toBeUndefined();
  });
});
