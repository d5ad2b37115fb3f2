import type {
  AssistantToolCall,
  FinishReason,
  Provider,
  ProviderEvent,
  ProviderTurn,
} from '@mtpx/protocol';

/** One answer of {@link objectProvider}: calls given as objects, exactly as a provider could hand them over. */
export interface ObjectTurn {
  text?: string;
  toolCalls?: AssistantToolCall[];
  finishReason?: FinishReason;
  /** Streamed: throw after this many calls were reported ready (a cut stream). */
  breakAfter?: number;
}

/**
 * A provider that hands the agent tool calls as given — any id, any arguments object
 * (deep, cyclic, with `__proto__` keys) — without the JSON text round trip a real adapter
 * makes, so tests reach the agent with values no parser would produce. Past the last
 * turn it answers with text.
 */
export function objectProvider(turns: readonly ObjectTurn[]): Provider {
  let index = 0;
  const next = (): ObjectTurn => turns[index++] ?? { text: 'done' };
  const turnOf = (turn: ObjectTurn): ProviderTurn => {
    const toolCalls = turn.toolCalls ?? [];
    return {
      message: {
        role: 'assistant',
        content: turn.text ?? null,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
      finishReason: turn.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    };
  };
  return {
    name: 'objects',
    model: 'objects',
    generate: async () => turnOf(next()),
    async *stream(): AsyncGenerator<ProviderEvent> {
      const turn = next();
      const calls = turn.toolCalls ?? [];
      for (let position = 0; position < calls.length; position++) {
        const call = calls[position] as AssistantToolCall;
        const callId = typeof call?.id === 'string' ? call.id : undefined;
        yield {
          type: 'tool-call-delta',
          index: position,
          ...(callId === undefined ? {} : { callId }),
          argumentsDelta: '',
        };
        if (turn.breakAfter === position) throw new Error('the stream broke off');
        yield { type: 'tool-call-ready', index: position, toolCall: call };
      }
      if (turn.text !== undefined) yield { type: 'text-delta', delta: turn.text };
      yield { type: 'finish', turn: turnOf(turn) };
    },
  };
}
