import { now } from './clock';

/**
 * Calls `operation` in a loop for about `sampleMs` milliseconds and returns operations per
 * second. The clock is read every 32 calls, so reading it costs next to nothing.
 */
export function operationsPerSecond(operation: () => unknown, sampleMs: number): number {
  let count = 0;
  const started = now();
  let elapsed = 0;
  let sink: unknown;
  do {
    for (let index = 0; index < 32; index += 1) sink = operation();
    count += 32;
    elapsed = now() - started;
  } while (elapsed < sampleMs);
  // Keep the result observable so the work cannot be optimized away.
  if (sink === Symbol.for('never')) console.log(sink);
  return (count * 1000) / elapsed;
}
