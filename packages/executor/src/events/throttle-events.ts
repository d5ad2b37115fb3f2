import type { CallEventBase } from './event-base';

/**
 * A call is ready to start but a concurrency limit of its tool or toolkit
 * (`toolConcurrency`) is full: it waits for a slot without taking one of the execution's,
 * so calls of other tools run meanwhile. `call-started` follows once it has a slot.
 */
export interface CallThrottledEvent extends CallEventBase {
  type: 'call-throttled';
  /** The full limit: a tool name (`db.write`) or a toolkit (`browser.*`). */
  limit: string;
  /** Its cap: calls of it in flight at once. */
  cap: number;
}
