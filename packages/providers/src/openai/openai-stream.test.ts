import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { trace } from '../__fixtures__/collect';
import { createToolNameMapping } from '../tool-names';
import { OpenAIStreamAssembler } from './openai-stream';

const assembler = () =>
  new OpenAIStreamAssembler({
    provider: 'test',
    names: createToolNameMapping(['calculator.add']),
    createId: () => 'call_generated',
  });

type Delta = ChatCompletionChunk.Choice.Delta;
const chunk = (delta: Delta, finishReason: ChatCompletionChunk.Choice['finish_reason'] = null) =>
  ({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  }) as ChatCompletionChunk;

describe('OpenAIStreamAssembler', () => {
  it('keeps text and calls of one turn, and normalizes "stop" with calls to tool_calls', () => {
    const stream = assembler();
    const events = [
      ...stream.push(chunk({ content: 'Adding.' })),
      ...stream.push(
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              function: { name: 'calculator_add', arguments: '{"a":1,"b":2}' },
            },
          ],
        }),
      ),
      ...stream.push(chunk({}, 'stop')),
      ...stream.end(),
    ];
    expect(trace(events)).toEqual([
      'text "Adding."',
      'delta 0 call_1 calculator.add +"{\\"a\\":1,\\"b\\":2}"',
      'ready 0 call_1 calculator.add {"a":1,"b":2}',
      'finish tool_calls',
    ]);
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.turn.message.content).toBe('Adding.');
  });

  it('uses a fragment position when the index is missing, and gives an id when the API sends none', () => {
    const stream = assembler();
    stream.push(
      chunk({
        tool_calls: [
          { function: { name: 'calculator_add', arguments: '{}' } },
          { function: { name: 'calculator_add', arguments: '{"a":1}' } },
        ] as Delta['tool_calls'],
      }),
    );
    stream.push(chunk({}, 'tool_calls'));
    const finish = stream.end().at(-1);
    expect(
      finish?.type === 'finish' && finish.turn.message.tool_calls?.map((call) => call.id),
    ).toEqual(['call_generated', 'call_generated']);
  });

  it('rejects tool-call fragments after finish_reason', () => {
    const stream = assembler();
    stream.push(
      chunk({
        tool_calls: [
          { index: 0, id: 'call_1', function: { name: 'calculator_add', arguments: '{}' } },
        ],
      }),
    );
    stream.push(chunk({}, 'tool_calls'));
    expect(() =>
      stream.push(
        chunk({
          tool_calls: [
            { index: 1, id: 'call_2', function: { name: 'calculator_add', arguments: '{}' } },
          ],
        }),
      ),
    ).toThrowError(expect.objectContaining({ code: 'invalid_stream' }));
  });

  it('ignores choices other than the first and chunks with no choice', () => {
    const stream = assembler();
    expect(stream.push({ ...chunk({ content: 'x' }), choices: [] })).toEqual([]);
    expect(
      stream.push({
        ...chunk({}),
        choices: [{ index: 1, delta: { content: 'other' }, finish_reason: null }],
      }),
    ).toEqual([]);
  });
});
