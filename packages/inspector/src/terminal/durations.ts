/**
 * Milliseconds for people, one format everywhere: `840 ms` below a second, `1.24 s` from one.
 *
 * @internal
 */
export function formatMs(milliseconds: number): string {
  return milliseconds < 999.5
    ? `${Math.round(milliseconds)} ms`
    : `${(milliseconds / 1000).toFixed(2)} s`;
}

/**
 * A span between two times in one unit, the end's: `311–741 ms`, `0.99–1.18 s` (never
 * `1023–1.18 s`).
 *
 * @internal
 */
export function formatSpan(fromMs: number, toMs: number): string {
  if (toMs < 999.5) return `${Math.round(fromMs)}–${Math.round(toMs)} ms`;
  return `${(fromMs / 1000).toFixed(2)}–${(toMs / 1000).toFixed(2)} s`;
}
