import { performance } from 'node:perf_hooks';

/** Milliseconds on the monotonic clock (`performance.now()`). */
export function now(): number {
  return performance.now();
}

/** Runs `work` once and returns how long it took, in milliseconds. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = now();
  await work();
  return now() - started;
}

/** Runs `work` once, synchronously, and returns how long it took, in milliseconds. */
export function timedSync(work: () => unknown): number {
  const started = now();
  work();
  return now() - started;
}

/**
 * Lets pending callbacks run before the next measured run. (No forced garbage
 * collection: after a full collection V8 shrinks the young generation, and the next run
 * pays for many more scavenges than it would in steady state.)
 */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
