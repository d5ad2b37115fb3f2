import type { JsonObject } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_TOOL_USE_SYSTEM_TOKENS,
  anthropicTokensSent,
  asAnthropicBody,
  tokensSent,
} from './tokens-sent';

const body: JsonObject = {
  model: 'm',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Add.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '3' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'add', description: 'Adds.', parameters: { type: 'object' }, strict: true },
    },
  ],
};

describe('tokens sent', () => {
  it('rewrites a Chat Completions body as the Messages API body it stands for', () => {
    expect(asAnthropicBody(body)).toEqual({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Add.' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_1', name: 'add', input: { a: 1, b: 2 } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '3' }] },
      ],
      tools: [
        { name: 'add', description: 'Adds.', input_schema: { type: 'object' }, strict: true },
      ],
    });
  });

  it('counts each rule per request, Anthropic’s with its tool-use system prompt', () => {
    const once = anthropicTokensSent([{ body }]);
    expect(once).toBeGreaterThan(ANTHROPIC_TOOL_USE_SYSTEM_TOKENS);
    expect(anthropicTokensSent([{ body }, { body }])).toBe(2 * once);
    const withoutTools = anthropicTokensSent([{ body: { ...body, tools: [] } }]);
    expect(withoutTools).toBeLessThan(once - ANTHROPIC_TOOL_USE_SYSTEM_TOKENS);
    expect(tokensSent([{ body }, { body: 'not an object' }])).toBe(tokensSent([{ body }]));
  });
});
