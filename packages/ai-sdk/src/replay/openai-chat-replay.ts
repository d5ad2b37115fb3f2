import { recordedResponses } from './openai-responses-replay';
import { copy, derivedIdsFor, type Json, pieces, recordedChunks } from './recorded';
import { errorAnswer, type ReplayAnswer } from './replay-server';
import { seedCalls } from './seed-calls';

/** The recorded Chat Completions stream (gpt-4.1-nano) of `src/__fixtures__/openai-chat`. */
export const chatRecording = (): Json[] => recordedChunks('openai-chat', 'openai-text.chunks.txt');

/**
 * The seed's six calls in one Chat Completions stream, in the recorded stream's envelope
 * (`chatcmpl-…` id, model, `system_fingerprint`, `service_tier`, `obfuscation`s): its first
 * chunk (role), then per call a chunk opening the call (`index`, `id`, `type`, `function.name`,
 * empty arguments) and chunks of its arguments — the `tool_calls` delta shapes of the API —,
 * then its finishing chunk with `finish_reason: "tool_calls"` and its usage chunk. The call
 * ids are the recorded Responses run's first `call_…` id (OpenAI's ids are the same in both
 * APIs), suffixed `_2` … `_6`.
 */
export function chatSeedRound(): { events: Json[]; callIds: string[] } {
  const recorded = chatRecording();
  const [first, ...rest] = recorded;
  const contentChunks = rest.filter(
    (chunk) => (chunk.choices as Json[])[0]?.finish_reason === null,
  );
  const finish = rest.find(
    (chunk) => (chunk.choices as Json[])[0]?.finish_reason === 'stop',
  ) as Json;
  const usage = rest.find((chunk) => (chunk.choices as Json[]).length === 0) as Json;
  const firstCall = ((recordedResponses()[0] ?? []).find(
    (event) =>
      event.type === 'response.output_item.added' && (event.item as Json).type === 'function_call',
  )?.item ?? {}) as Json;
  const callIds = derivedIdsFor(String(firstCall.call_id));
  let used = 0;
  const chunkWith = (toolCall: Json): Json => {
    const chunk = copy(contentChunks[used++ % contentChunks.length] as Json);
    const choice = (chunk.choices as Json[])[0] as Json;
    choice.delta = { tool_calls: [toolCall] };
    return chunk;
  };
  const events: Json[] = [copy(first as Json)];
  seedCalls().forEach((call, index) => {
    events.push(
      chunkWith({
        index,
        id: callIds[index],
        type: 'function',
        function: { name: call.wireName, arguments: '' },
      }),
    );
    for (const piece of pieces(JSON.stringify(call.arguments), 6)) {
      events.push(chunkWith({ index, function: { arguments: piece } }));
    }
  });
  const finished = copy(finish);
  ((finished.choices as Json[])[0] as Json).finish_reason = 'tool_calls';
  events.push(finished, copy(usage));
  return { events, callIds };
}

/** Chunks as the API's server-sent events, closed by `[DONE]`. */
export function chatWire(events: readonly Json[]): string[] {
  return [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), 'data: [DONE]\n\n'];
}

/**
 * The Chat Completions API's check of a follow-up: a tool message must answer a call of
 * the assistant message before it, or 400 with the API's own message.
 */
export function chatRule(body: Json | undefined): ReplayAnswer | undefined {
  const calls = new Set<string>();
  for (const message of (body?.messages as Json[] | undefined) ?? []) {
    for (const call of (message.tool_calls as Json[] | undefined) ?? []) calls.add(String(call.id));
    if (message.role === 'tool' && !calls.has(String(message.tool_call_id))) {
      return errorAnswer(400, {
        error: {
          message:
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          type: 'invalid_request_error',
          param: 'messages.[2].role',
          code: null,
        },
      });
    }
  }
  return undefined;
}
