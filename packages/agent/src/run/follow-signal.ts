/**
 * Aborts `controller` when `signal` aborts (at once if it already has); returns what stops
 * following it, or `undefined` when there is nothing to stop.
 */
export function followSignal(
  signal: AbortSignal,
  controller: AbortController,
): (() => void) | undefined {
  if (signal.aborted) {
    controller.abort(signal.reason);
    return undefined;
  }
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
