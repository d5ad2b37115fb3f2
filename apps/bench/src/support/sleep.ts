import { setTimeout as timer } from 'node:timers/promises';
import { now } from './clock';

/**
 * Sleeps at least `ms` milliseconds on a real timer. Node starts a timer from the event
 * loop's cached time, which can be up to a millisecond old, so a bare `setTimeout` may
 * fire early by the monotonic clock; this waits out any remainder, so a call never takes
 * less than its latency and makespan ÷ critical path is never below 1 by accident.
 */
export async function sleepAtLeast(ms: number): Promise<void> {
  const started = now();
  await timer(ms);
  for (let left = ms - (now() - started); left > 0; left = ms - (now() - started)) {
    await timer(left);
  }
}
