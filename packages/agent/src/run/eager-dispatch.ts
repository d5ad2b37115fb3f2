import { AgentError } from '../agent-error';

/**
 * When a streamed response's calls start:
 * - `'safe'` (the default): calls to `read_only` tools (and tools defined with
 *   `eager: true`) start as soon as each is complete, while the model is still writing;
 *   `write` and `destructive` calls — and calls that depend on them — are held until the
 *   response finishes, and run only if it finished normally (`tool_calls` or `stop`). A
 *   response that ends in `length`, `content_filter`, `refusal`, `error` or a broken stream
 *   runs none of its held calls; each is answered "Not run: the response did not finish".
 *   The same rule holds for `run()`: a write call of an unfinished response never runs.
 * - `'all'`: every call starts as soon as it is complete, side effects included, and runs
 *   whatever the response's end (the behaviour before `'safe'`).
 * - `true` (accepted for older code, which meant "eager dispatch on") means `'safe'`: eager
 *   dispatch stays on, and write calls are no longer run for unfinished responses.
 * - `false`: no call starts before the stream ends; then every call runs (to compare).
 */
export type EagerDispatch = 'safe' | 'all' | false;

/** What `eagerDispatch` accepts: an {@link EagerDispatch}, or `true` (= `'safe'`). */
export type EagerDispatchOption = EagerDispatch | true;

/** The mode an option names; `invalid_option` for anything else. */
export function eagerDispatchMode(value: unknown): EagerDispatch {
  if (value === 'safe' || value === 'all' || value === false) return value;
  if (value === true) return 'safe';
  throw new AgentError({
    code: 'invalid_option',
    message: `eagerDispatch must be 'safe', 'all' or false, got ${JSON.stringify(value) ?? String(value)}.`,
  });
}

/**
 * True when a response that ended this way may run its held calls.
 * @internal
 */
export function finishedNormally(finishReason: string): boolean {
  return finishReason === 'tool_calls' || finishReason === 'stop';
}

/** Why a held call did not run, in the model's words. */
export function notFinishedMessage(finishReason: string): string {
  return `Not run: the response did not finish (${finishReason}), so this call, which changes things, was held back. Send it again if it is still wanted.`;
}
