import type { UIMessage, UIMessageChunk } from 'ai';
import { getToolName, isToolUIPart, readUIMessageStream } from 'ai';
import { describe, expect, it } from 'vitest';
import { chat as chatOnAiSdk } from './chat-route-ai-sdk';
import { OFFLINE_QUESTION, offlineModels } from './models';

/** The chunks of a UI message stream response (SSE `data:` lines). */
async function chunksOf(response: Response): Promise<ReadableStream<UIMessageChunk>> {
  const lines = (await response.text()).split('\n').filter((line) => line.startsWith('data: '));
  const chunks = lines
    .map((line) => line.slice('data: '.length))
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as UIMessageChunk);
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe('the same route on the AI SDK alone (chat-route-ai-sdk.ts, the "before")', () => {
  it('runs the same offline model and tools with streamText, but cannot take an output by $ref', async () => {
    const models = offlineModels({ chunkDelayMs: 0 });
    try {
      const { model } = await models.lease('before');
      const response = await chatOnAiSdk(
        {
          id: 'before',
          messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: OFFLINE_QUESTION }] }],
        },
        model,
        new AbortController().signal,
      );
      let message: UIMessage | undefined;
      for await (const each of readUIMessageStream({ stream: await chunksOf(response) }))
        message = each;
      const tools = (message?.parts ?? []).filter(isToolUIPart);
      expect(tools).toHaveLength(10);
      const states = Object.fromEntries(tools.map((part) => [getToolName(part), part.state]));
      // The AI SDK validates the model's input as written: the $ref object is not a string.
      expect(states.saveNote).toBe('output-error');
      expect(Object.values(states).filter((state) => state === 'output-available')).toHaveLength(9);
    } finally {
      await models.close();
    }
  });
});
