import type { FinishReason, Message, Provider } from '@mtpx/protocol';
import type { SamplingMessage, SamplingRequestParams } from '../input/input-requests';
import type { SamplingResponse } from '../input/input-responses';

const stopReasons: Partial<Record<FinishReason, string>> = {
  stop: 'endTurn',
  length: 'maxTokens',
  tool_calls: 'toolUse',
};

/**
 * Answers MCP sampling requests with an MTP `Provider`: the request's system prompt and
 * messages become the provider's messages (non-text blocks described in brackets), the
 * provider's answer the sampling result. The provider is called without tools.
 *
 * @example
 * ```ts source="../mcp.examples.ts#samplingFromProvider"
 * const sample = samplingFromProvider(provider);
 * await sample(
 *   { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 50 },
 *   { signal },
 * );
 * ```
 */
export function samplingFromProvider(provider: Provider) {
  return async (
    params: SamplingRequestParams,
    context: { signal: AbortSignal },
  ): Promise<SamplingResponse> => {
    const messages: Message[] = [];
    if (params.systemPrompt !== undefined && params.systemPrompt !== '') {
      messages.push({ role: 'system', content: params.systemPrompt });
    }
    for (const message of params.messages) {
      const text = messageText(message);
      messages.push(
        message.role === 'assistant'
          ? { role: 'assistant', content: text }
          : { role: 'user', content: text },
      );
    }
    const turn = await provider.generate({ messages, tools: [], signal: context.signal });
    return {
      role: 'assistant',
      content: { type: 'text', text: turn.message.content ?? '' },
      model: turn.model ?? provider.model,
      stopReason: stopReasons[turn.finishReason] ?? turn.finishReason,
    };
  };
}

function messageText(message: SamplingMessage): string {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  return blocks
    .map((block) =>
      block.type === 'text' && typeof block.text === 'string'
        ? block.text
        : `[${String(block.type ?? 'content')}]`,
    )
    .join('\n');
}
