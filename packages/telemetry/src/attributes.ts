import type { Attributes, AttributeValue } from '@opentelemetry/api';

/**
 * Attribute names: the OpenTelemetry GenAI semantic conventions where they name a thing,
 * `mtpx.*` for what only MTPX has (rounds, attempts, the result cache, `$ref` links).
 */
export const ATTRIBUTES = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  toolCallId: 'gen_ai.tool.call.id',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  runId: 'mtpx.run.id',
  stopReason: 'mtpx.run.stop_reason',
  rounds: 'mtpx.run.rounds',
  streaming: 'mtpx.run.streaming',
  eagerDispatch: 'mtpx.run.eager_dispatch',
  round: 'mtpx.round',
  attempt: 'mtpx.tool.attempt',
  cached: 'mtpx.tool.cached',
  approval: 'mtpx.tool.approval',
  approved: 'mtpx.tool.approval.approved',
  approvalWaitMs: 'mtpx.tool.approval.wait_ms',
  /** The approval request's id (`apr_…`), as the run's pending approvals name it. */
  approvalId: 'mtpx.tool.approval.id',
  /** True when the call waits for a decision made after the run stopped. */
  approvalPending: 'mtpx.tool.approval.pending',
  /** The tool or toolkit limit a throttled call waited for (`browser.*`). */
  throttledBy: 'mtpx.tool.throttled_by',
  outcome: 'mtpx.tool.outcome',
  waitMs: 'mtpx.tool.wait_ms',
  heldReason: 'mtpx.tool.held_reason',
  startedDuringStream: 'mtpx.tool.started_during_stream',
  references: 'mtpx.tool.references',
  linkKind: 'mtpx.link.kind',
} as const;

/** `Usage` keys with a GenAI semantic-convention name; any other number becomes `gen_ai.usage.<snake_case>`. */
const USAGE_NAMES: Record<string, string> = {
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  totalTokens: 'gen_ai.usage.total_tokens',
  cachedInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
};

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * Every numeric field of a usage object as span attributes — the known ones under their
 * semantic-convention names, the rest (a provider's own counters) as `gen_ai.usage.*`.
 */
export function usageAttributes(usage: unknown): Attributes {
  const attributes: Attributes = {};
  if (typeof usage !== 'object' || usage === null) return attributes;
  for (const [key, value] of Object.entries(usage)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    attributes[USAGE_NAMES[key] ?? `gen_ai.usage.${snakeCase(key)}`] = value;
  }
  return attributes;
}

/** The primitive fields of an unknown event, as attributes of a span event (`mtpx.event.*`). */
export function primitiveAttributes(event: object): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === 'type' || key === 'at') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      attributes[`mtpx.event.${snakeCase(key)}`] = value as AttributeValue;
  }
  return attributes;
}

/** JSON text for a content attribute (never throws: unserialisable values become their `String`). */
export function contentText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return String(value);
  }
}
