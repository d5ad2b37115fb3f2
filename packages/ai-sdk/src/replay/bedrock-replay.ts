import { EventStreamCodec } from '@smithy/eventstream-codec';
import { thinkingRule } from './anthropic-replay';
import { copy, derivedIdsFor, type Json, pieces, recordedChunks } from './recorded';
import { errorAnswer, type ReplayAnswer } from './replay-server';
import { seedCalls } from './seed-calls';

/** The `delta` of a `contentBlockDelta` event (`{}` for other events). */
export const bedrockDelta = (event: Json): Json =>
  ((event.contentBlockDelta as Json | undefined)?.delta as Json | undefined) ?? {};

/** A recorded ConverseStream of `src/__fixtures__/amazon-bedrock` (one event a line, `{ <eventType>: payload }`). */
export const bedrockRecording = (name: string): Json[] => recordedChunks('amazon-bedrock', name);

/**
 * The toolUseId of a real Converse answer of Claude with thinking
 * (pydantic/pydantic-ai `test_bedrock_anthropic_tool_with_thinking.yaml`, see SOURCES.md).
 */
const RECORDED_TOOL_USE_ID = 'tooluse_4Lo0VS-FT5yev_-skOCQdw';

/**
 * The seed's six calls in one ConverseStream with reasoning: the recorded
 * `amazon-bedrock-reasoning.chunks.txt` up to and including its reasoning block (the
 * reasoning deltas and signature unchanged), then six `toolUse` blocks in the event shapes
 * of `amazon-bedrock-tool-call.1.chunks.txt` (`contentBlockStart.start.toolUse`,
 * `contentBlockDelta.delta.toolUse.input`, `contentBlockStop`), with a real toolUseId
 * (suffixed `_2` … `_6`), and that recording's `metadata` and `messageStop`
 * (`stopReason: "tool_use"`).
 */
export function bedrockSeedRound(): { events: Json[]; callIds: string[] } {
  const reasoning = bedrockRecording('amazon-bedrock-reasoning.chunks.txt');
  const tool = bedrockRecording('amazon-bedrock-tool-call.1.chunks.txt');
  const reasoningStop = reasoning.findIndex(
    (event) => (event.contentBlockStop as Json | undefined)?.contentBlockIndex === 0,
  );
  const start = tool.find((event) => event.contentBlockStart !== undefined) as Json;
  const delta = tool.find((event) => event.contentBlockDelta !== undefined) as Json;
  const stop = tool.find((event) => event.contentBlockStop !== undefined) as Json;
  const callIds = derivedIdsFor(RECORDED_TOOL_USE_ID);
  const events: Json[] = reasoning.slice(0, reasoningStop + 1).map(copy);
  seedCalls().forEach((call, k) => {
    const contentBlockIndex = 1 + k;
    const started = copy(start);
    const block = started.contentBlockStart as Json;
    block.contentBlockIndex = contentBlockIndex;
    block.start = { toolUse: { toolUseId: callIds[k], name: call.wireName } };
    events.push(started);
    for (const piece of pieces(JSON.stringify(call.arguments), 10)) {
      const each = copy(delta);
      each.contentBlockDelta = { contentBlockIndex, delta: { toolUse: { input: piece } } };
      events.push(each);
    }
    events.push({ contentBlockStop: { ...(stop.contentBlockStop as Json), contentBlockIndex } });
  });
  events.push(
    ...tool
      .filter((event) => event.metadata !== undefined || event.messageStop !== undefined)
      .map(copy),
  );
  return { events, callIds };
}

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/**
 * Events in AWS event-stream binary framing, as ConverseStream sends them: one message an
 * event, headers `:event-type` (the event's key), `:content-type` and `:message-type`,
 * the payload the event's JSON.
 */
export function bedrockWire(events: readonly Json[]): Uint8Array[] {
  return events.map((event) => {
    const [eventType = 'unknown', payload] = Object.entries(event)[0] ?? [];
    return codec.encode({
      headers: {
        ':event-type': { type: 'string', value: eventType },
        ':content-type': { type: 'string', value: 'application/json' },
        ':message-type': { type: 'string', value: 'event' },
      },
      body: new TextEncoder().encode(JSON.stringify(payload)),
    });
  });
}

/** The assistant turn a stream issued, as Claude's blocks (reasoning as `thinking`). */
function issuedBlocks(events: readonly Json[]): Json[] {
  let thinking = '';
  let signature = '';
  for (const event of events) {
    const delta = ((event.contentBlockDelta as Json | undefined)?.delta as Json | undefined)
      ?.reasoningContent as Json | undefined;
    if (typeof delta?.text === 'string') thinking += delta.text;
    if (typeof delta?.signature === 'string') signature += delta.signature;
  }
  return thinking === '' ? [] : [{ type: 'thinking', thinking, signature }];
}

const asClaudeBlock = (block: Json): Json => {
  const reasoning = (block.reasoningContent as Json | undefined)?.reasoningText as Json | undefined;
  if (reasoning !== undefined)
    return { type: 'thinking', thinking: reasoning.text, signature: reasoning.signature };
  if (block.reasoningContent !== undefined) return { type: 'redacted_thinking' };
  if (block.toolUse !== undefined) return { type: 'tool_use' };
  if (block.toolResult !== undefined) return { type: 'tool_result' };
  return { type: block.text !== undefined ? 'text' : 'unknown' };
};

/**
 * Bedrock's check of a follow-up to Claude with reasoning: Claude's own rule, reported as
 * Bedrock reports it (400 ValidationException, `{ message: "The model returned the
 * following errors: …" }`).
 */
export function bedrockRule(
  body: Json | undefined,
  issued: readonly Json[][],
): ReplayAnswer | undefined {
  const fields = body?.additionalModelRequestFields as Json | undefined;
  const thinking = (fields?.thinking ?? fields?.reasoningConfig) as Json | undefined;
  if (thinking === undefined || thinking.type === 'disabled') return undefined;
  const turns = ((body?.messages as Json[] | undefined) ?? [])
    .map((message, index) => ({ message, index }))
    .filter(({ message }) => message.role === 'assistant')
    .map(({ message, index }) => ({
      index,
      blocks: ((message.content as Json[] | undefined) ?? []).map(asClaudeBlock),
    }));
  const refused = thinkingRule(turns, issued.map(issuedBlocks));
  return refused === undefined
    ? undefined
    : errorAnswer(
        400,
        { message: `The model returned the following errors: ${refused.message}` },
        {
          'x-amzn-errortype':
            'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
        },
      );
}
