import type { ProviderEvent } from '@mtpx/protocol';

/** Every event of a stream, and the error it ended with (if any). */
export async function collect(
  stream: AsyncIterable<ProviderEvent>,
): Promise<{ events: ProviderEvent[]; error: unknown }> {
  const events: ProviderEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

/** A compact trace of a stream: `text "…"`, `reasoning "…"`, `server-tool …`, `delta 0 call_1 +"{\"a"`, `ready 0 call_1`, … */
export function trace(events: readonly ProviderEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case 'text-delta':
        return `text ${JSON.stringify(event.delta)}`;
      case 'reasoning-delta':
        return `reasoning ${JSON.stringify(event.delta)}`;
      case 'server-tool-used':
        return `server-tool ${event.blockType} ${event.id ?? '?'} ${event.name ?? '?'}`;
      case 'tool-call-delta':
        return `delta ${event.index} ${event.callId ?? '?'} ${event.toolName ?? '?'} +${JSON.stringify(event.argumentsDelta)}`;
      case 'tool-call-ready':
        return `ready ${event.index} ${event.toolCall.id} ${event.toolCall.name} ${JSON.stringify(event.toolCall.arguments)}`;
      case 'usage':
        return `usage ${event.usage.inputTokens}+${event.usage.outputTokens}`;
      case 'finish':
        return `finish ${event.turn.finishReason}`;
    }
  });
}
