import { ProviderError } from './provider-error';
import type { IncompleteToolCall } from './tool-call-accumulator';

function describeIncomplete(call: IncompleteToolCall): string {
  const shown =
    call.argumentsText.length > 60 ? `${call.argumentsText.slice(0, 60)}…` : call.argumentsText;
  return `call ${call.id ?? `#${call.index}`} (${call.name ?? 'no tool name yet'}) stopped at ${JSON.stringify(shown)}`;
}

/** A failure's message with its cause's (`terminated: other side closed`). */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/**
 * The error for a stream that ended before the response was complete. It names the
 * calls left incomplete: they were not reported ready and must not be executed.
 */
export function streamInterruptedError(options: {
  provider: string;
  reason: string;
  incomplete: readonly IncompleteToolCall[];
  cause?: unknown;
}): ProviderError {
  const { provider, reason, incomplete } = options;
  const calls =
    incomplete.length === 0
      ? ''
      : ` Incomplete tool calls, not reported ready and not to be executed: ${incomplete.map(describeIncomplete).join('; ')}.`;
  return new ProviderError({
    code: 'stream_interrupted',
    provider,
    // The response had begun: asking again is the caller's decision, not a blind retry.
    isRetryable: false,
    message: `${provider}: the response stream ended before the response was complete (${reason}).${calls}`,
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}
