import type { SharedV3ProviderMetadata } from '@ai-sdk/provider';
import type { JsonValue, ProviderPart } from '@mtpx/protocol';

/** The `provider` of every part `fromLanguageModel` keeps. */
export const AI_SDK_PART_PROVIDER = 'ai-sdk';

/**
 * The kinds of part kept on an assistant turn. Each holds the AI SDK content part's own
 * values (text, `providerMetadata`) unchanged, at its place (`index`) in the turn, so the
 * next prompt lists the turn's parts in the order the model wrote them, each with the
 * `providerOptions` the provider package reads back (OpenAI item ids and encrypted
 * reasoning, Anthropic signatures, Gemini thought signatures, Bedrock reasoning).
 */
export type TurnPartType =
  | 'reasoning'
  | 'text'
  | 'tool-call'
  | 'provider-tool-call'
  | 'provider-tool-result'
  | 'source';

/** A value as JSON (the parts are stored and replayed as JSON). */
export function asJson(value: unknown): JsonValue {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** One part of a turn, as `fromLanguageModel` keeps it. */
export function turnPart(options: {
  type: TurnPartType;
  service: string;
  index: number;
  data: Record<string, unknown>;
  text?: string | undefined;
  callId?: string | undefined;
  serverTool?: { id?: string | undefined; name?: string | undefined } | undefined;
}): ProviderPart {
  const part: ProviderPart = {
    provider: AI_SDK_PART_PROVIDER,
    service: options.service,
    type: options.type,
    index: options.index,
    data: asJson(options.data),
  };
  if (options.text !== undefined && options.text !== '') part.text = options.text;
  if (options.callId !== undefined) part.call_id = options.callId;
  if (options.serverTool !== undefined) {
    part.server_tool = {
      ...(options.serverTool.id === undefined ? {} : { id: options.serverTool.id }),
      ...(options.serverTool.name === undefined ? {} : { name: options.serverTool.name }),
    };
  }
  return part;
}

/** The parts of a message this model made (same `service`), in the order they were written. */
export function ownParts(
  parts: readonly ProviderPart[] | undefined,
  service: string,
): ProviderPart[] {
  return (parts ?? [])
    .filter((part) => part.provider === AI_SDK_PART_PROVIDER && part.service === service)
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
}

/** The `providerMetadata` a part holds, as the `providerOptions` to send back. */
export function providerOptionsOf(part: ProviderPart): SharedV3ProviderMetadata | undefined {
  const data = part.data as Record<string, unknown> | null;
  const metadata = data?.providerMetadata;
  return metadata != null && typeof metadata === 'object'
    ? (metadata as SharedV3ProviderMetadata)
    : undefined;
}
