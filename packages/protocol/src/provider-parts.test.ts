import { describe, expect, it } from 'vitest';
import { AssistantMessageSchema } from './messages';
import { reasoningText, serverToolParts } from './provider-parts';

const thinking = {
  provider: 'anthropic',
  type: 'thinking',
  index: 0,
  data: { type: 'thinking', thinking: 'Add first.', signature: 'EqEE' },
  text: 'Add first.',
};
const redacted = {
  provider: 'anthropic',
  type: 'redacted_thinking',
  index: 1,
  data: { type: 'redacted_thinking', data: 'EqkE' },
};
const search = {
  provider: 'anthropic',
  type: 'server_tool_use',
  index: 2,
  data: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} },
  server_tool: { id: 'srvtoolu_01', name: 'web_search' },
};

describe('provider parts', () => {
  it('ride on an assistant message unchanged, and are optional', () => {
    const message = {
      role: 'assistant',
      content: null,
      provider_parts: [thinking, redacted, search],
    };
    expect(AssistantMessageSchema.parse(message)).toEqual(message);
    expect(AssistantMessageSchema.parse({ role: 'assistant', content: 'Hi' })).toEqual({
      role: 'assistant',
      content: 'Hi',
    });
    expect(
      AssistantMessageSchema.safeParse({
        role: 'assistant',
        content: null,
        provider_parts: [{ provider: '', type: 'x', data: 1 }],
      }).success,
    ).toBe(false);
  });

  it('give readable reasoning only (never redacted), and the server tool blocks', () => {
    expect(reasoningText([thinking, redacted, { ...thinking, text: 'Then divide.' }])).toBe(
      'Add first.\n\nThen divide.',
    );
    expect(reasoningText([redacted])).toBeUndefined();
    expect(reasoningText(undefined)).toBeUndefined();
    expect(serverToolParts([thinking, search, redacted])).toEqual([search]);
  });
});
