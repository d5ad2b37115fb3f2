/**
 * Test support (not exported from the package): a minimal scripted `Provider` that
 * replays turns (text or native tool calls) and records the requests it got.
 */
import type {
  AssistantToolCall,
  Provider,
  ProviderEvent,
  ProviderRequest,
  ProviderTurn,
} from '@mtpx/protocol';

/** One scripted model answer. */
export interface TestTurn {
  text?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
}

/** A scripted provider with the requests it received. */
export interface TestProvider extends Provider {
  readonly requests: ProviderRequest[];
}

/** A provider that answers each request with the next turn of `turns`. */
export function testProvider(turns: TestTurn[], model = 'scripted-model'): TestProvider {
  const requests: ProviderRequest[] = [];
  const generate = async (request: ProviderRequest): Promise<ProviderTurn> => {
    const turn = turns[requests.length];
    requests.push(request);
    if (turn === undefined) throw new Error(`The script has no turn ${requests.length}.`);
    const calls: AssistantToolCall[] = (turn.toolCalls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments as AssistantToolCall['arguments'],
      depends_on: [],
    }));
    return {
      message: {
        role: 'assistant',
        content: turn.text ?? null,
        ...(calls.length > 0 && { tool_calls: calls }),
      },
      finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
      model,
    };
  };
  return {
    name: 'scripted',
    model,
    requests,
    generate,
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      yield { type: 'finish', turn: await generate(request) };
    },
  };
}
