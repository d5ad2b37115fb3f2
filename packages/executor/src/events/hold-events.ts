import type { CallEventBase } from './event-base';

/**
 * A call is held: the execution's `hold` rule gave a reason (safe eager dispatch holds
 * calls that change things while the model is still writing), or it depends on a held
 * call. It starts after `release()` (with `call-released`, then `call-started`), or is
 * answered `cancelled` by `dropHeld()` and never runs.
 */
export interface CallHeldEvent extends CallEventBase {
  type: 'call-held';
  /** Why it waits, for people: `risk level write`, `depends on held call call_1`. */
  reason: string;
}

/** A held call was released (`release()`): it starts as soon as its dependencies are met. */
export interface CallReleasedEvent extends CallEventBase {
  type: 'call-released';
  /** How long it was held, in milliseconds. */
  heldMs: number;
}
