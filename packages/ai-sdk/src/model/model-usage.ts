import type { FinishReason, Usage } from '@mtpx/protocol';

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * An AI SDK usage (`inputTokens.{total, noCache, cacheRead, cacheWrite}`,
 * `outputTokens.{total, text, reasoning}`) as MTPX usage; `undefined` when it holds no count.
 */
export function usageFromAiSdk(usage: unknown): Usage | undefined {
  if (usage == null || typeof usage !== 'object') return undefined;
  const record = usage as Record<string, unknown>;
  const input = (record.inputTokens ?? {}) as Record<string, unknown>;
  const output = (record.outputTokens ?? {}) as Record<string, unknown>;
  // AI SDK 5 shapes (plain numbers) are read too, for models wrapped by older middleware.
  const inputTotal = count(input.total) ?? count(record.inputTokens);
  const outputTotal = count(output.total) ?? count(record.outputTokens);
  const cacheRead = count(input.cacheRead) ?? count(record.cachedInputTokens);
  const cacheWrite = count(input.cacheWrite);
  const reasoning = count(output.reasoning) ?? count(record.reasoningTokens);
  if ([inputTotal, outputTotal, cacheRead, cacheWrite, reasoning].every((n) => n === undefined)) {
    return undefined;
  }
  const inputTokens = inputTotal ?? 0;
  const outputTokens = outputTotal ?? 0;
  const result: Usage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (cacheRead !== undefined) {
    result.cachedInputTokens = cacheRead;
    result.cacheReadTokens = cacheRead;
  }
  if (cacheWrite !== undefined) result.cacheWriteTokens = cacheWrite;
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}

/** An AI SDK finish reason (`{ unified, raw }`, or a bare string before v3) as MTPX's. */
export function finishReasonFromAiSdk(
  reason: unknown,
  hasToolCalls: boolean,
): { finishReason: FinishReason; raw: string | undefined } {
  const unified =
    typeof reason === 'string'
      ? reason
      : String((reason as { unified?: unknown } | undefined)?.unified ?? 'other');
  const rawValue = typeof reason === 'string' ? reason : (reason as { raw?: unknown })?.raw;
  const raw = typeof rawValue === 'string' ? rawValue : undefined;
  // Anthropic's and Bedrock's `refusal` stop reason: no tool of the turn may run.
  if (raw === 'refusal') return { finishReason: 'refusal', raw };
  switch (unified) {
    case 'stop':
      // Gemini reports STOP on a turn of function calls.
      return { finishReason: hasToolCalls ? 'tool_calls' : 'stop', raw };
    case 'tool-calls':
      return { finishReason: 'tool_calls', raw };
    case 'length':
      return { finishReason: 'length', raw };
    case 'content-filter':
      return { finishReason: 'content_filter', raw };
    case 'error':
      return { finishReason: 'error', raw };
    default:
      // `other`, and AI SDK 7's `interrupted`.
      return { finishReason: 'other', raw: raw ?? unified };
  }
}
