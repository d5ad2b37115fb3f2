import { describe, expect, it } from 'vitest';
import { createToolNameMapping } from '../tool-names';
import { toAnthropicConversation } from './anthropic-request';

const names = createToolNameMapping(['calculator.add']);

describe('toAnthropicConversation', () => {
  it('joins system messages, leaves out empty assistant turns and merges user text after tool results', () => {
    const conversation = toAnthropicConversation(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Add 1 and 2.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', name: 'calculator.add', arguments: { a: 1, b: 2 }, depends_on: [] },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', name: 'calculator.add', content: '3' },
        { role: 'system', content: 'Answer in English.' },
        { role: 'user', content: 'And now?' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'Hello?' },
      ],
      names,
    );
    expect(conversation).toEqual({
      system: 'Be brief.\n\nAnswer in English.',
      messages: [
        { role: 'user', content: 'Add 1 and 2.' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'calculator_add', input: { a: 1, b: 2 } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '3' },
            { type: 'text', text: 'And now?' },
            { type: 'text', text: 'Hello?' },
          ],
        },
      ],
    });
  });

  it('has no system prompt when there is no system message', () => {
    expect(
      toAnthropicConversation([{ role: 'user', content: 'Hi' }], names).system,
    ).toBeUndefined();
  });
});
