import { copy, derivedIdsFor, type Json, pieces, recordedChunks } from './recorded';
import { errorAnswer, type ReplayAnswer } from './replay-server';
import { seedCalls } from './seed-calls';

/** A recorded Messages stream of `src/__fixtures__/anthropic`. */
export const anthropicRecording = (name: string): Json[] => recordedChunks('anthropic', name);

/**
 * The seed's six calls in one Messages stream with extended thinking: the recorded
 * `anthropic-clear-thinking.1.chunks.txt` (claude-sonnet-4-5) up to and including its
 * thinking block (message id, thinking deltas and signature unchanged), then, where it
 * wrote its text block, six `tool_use` blocks framed as the recorded
 * `anthropic-json-tool.1.chunks.txt` frames its one (`content_block_start` with the
 * recorded `toolu_…` id — suffixed `_2` … `_6` for the others —, an empty
 * `input_json_delta`, the arguments' deltas, `content_block_stop`), and that recording's
 * `message_delta` (`stop_reason: "tool_use"`) and `message_stop`.
 */
export function anthropicSeedRound(): { events: Json[]; callIds: string[] } {
  const thinking = anthropicRecording('anthropic-clear-thinking.1.chunks.txt');
  const tool = anthropicRecording('anthropic-json-tool.1.chunks.txt');
  const thinkingStop = thinking.findIndex(
    (event) => event.type === 'content_block_stop' && event.index === 0,
  );
  const start = tool.find((event) => event.type === 'content_block_start') as Json;
  const [emptyDelta, argumentsDelta] = tool.filter((event) => event.type === 'content_block_delta');
  const stop = tool.find((event) => event.type === 'content_block_stop') as Json;
  const callIds = derivedIdsFor(String((start.content_block as Json).id));
  const events: Json[] = thinking.slice(0, thinkingStop + 1).map(copy);
  seedCalls().forEach((call, k) => {
    const index = 1 + k;
    events.push({
      ...copy(start),
      index,
      content_block: { ...(start.content_block as Json), id: callIds[k], name: call.wireName },
    });
    events.push({ ...copy(emptyDelta as Json), index });
    for (const piece of pieces(JSON.stringify(call.arguments), 12)) {
      events.push({
        ...copy(argumentsDelta as Json),
        index,
        delta: { type: 'input_json_delta', partial_json: piece },
      });
    }
    events.push({ ...copy(stop), index });
  });
  events.push(
    ...tool
      .filter((event) => event.type === 'message_delta' || event.type === 'message_stop')
      .map(copy),
  );
  return { events, callIds };
}

/** Events as the Messages API's server-sent events. */
export function anthropicWire(events: readonly Json[]): string[] {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** The assistant turn a stream issued: its content blocks (thinking with signature, tool uses). */
export function anthropicIssuedBlocks(events: readonly Json[]): Json[] {
  const blocks: Json[] = [];
  for (const event of events) {
    const index = Number(event.index);
    if (event.type === 'content_block_start') blocks[index] = copy(event.content_block as Json);
    if (event.type !== 'content_block_delta') continue;
    const block = blocks[index] as Json;
    const delta = event.delta as Json;
    if (delta.type === 'thinking_delta')
      block.thinking = `${String(block.thinking ?? '')}${String(delta.thinking)}`;
    if (delta.type === 'signature_delta')
      block.signature = `${String(block.signature ?? '')}${String(delta.signature)}`;
  }
  return blocks.filter((block) => block !== undefined);
}

export const THINKING_FIRST_MESSAGE = (index: number, found: string) =>
  `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;

/**
 * The thinking rule as Claude applies it (with `thinking` enabled): the k-th assistant
 * message sent back must begin with the thinking block the k-th answer issued, its text and
 * signature unchanged. `describe` says how to word a refusal: `messages.N…` as the API
 * says it, and `invalidSignature` for a changed block.
 */
export function thinkingRule(
  assistantTurns: Array<{ index: number; blocks: Json[] }>,
  issued: readonly Json[][],
): { index: number; message: string } | undefined {
  for (const [k, { index, blocks }] of assistantTurns.entries()) {
    const original = issued[k];
    if (original === undefined) continue;
    const thinking = original.find((block) => block.type === 'thinking');
    if (thinking === undefined) continue;
    const first = blocks[0];
    if (first?.type !== 'thinking') {
      return { index, message: THINKING_FIRST_MESSAGE(index, String(first?.type ?? 'nothing')) };
    }
    if (first.signature !== thinking.signature || first.thinking !== thinking.thinking) {
      return {
        index,
        message: `messages.${index}.content.0: Invalid \`signature\` in \`thinking\` block`,
      };
    }
  }
  return undefined;
}

/** The Messages API's check of a follow-up (thinking enabled), with its own 400 body. */
export function anthropicRule(
  body: Json | undefined,
  issued: readonly Json[][],
): ReplayAnswer | undefined {
  const thinking = body?.thinking as Json | undefined;
  if (thinking === undefined || thinking.type === 'disabled') return undefined;
  const turns = ((body?.messages as Json[] | undefined) ?? [])
    .map((message, index) => ({ message, index }))
    .filter(({ message }) => message.role === 'assistant')
    .map(({ message, index }) => ({
      index,
      blocks:
        typeof message.content === 'string'
          ? [{ type: 'text', text: message.content }]
          : ((message.content as Json[] | undefined) ?? []),
    }));
  const refused = thinkingRule(turns, issued.map(anthropicIssuedBlocks));
  return refused === undefined
    ? undefined
    : errorAnswer(400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: refused.message },
      });
}
