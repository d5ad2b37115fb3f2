import type { AgentEventBase } from './agent-events';

/**
 * Safe eager dispatch held a call while the model is still streaming: its tool changes
 * things (`write` / `destructive`), or it depends on such a call. It starts (with
 * `call-released`, then the executor's `call-started`) once the response has finished
 * normally, and never runs otherwise.
 */
export interface CallHeldEvent extends AgentEventBase {
  type: 'call-held';
  round: number;
  callId: string;
  toolName: string;
  /** Why it waits, for people: `risk level write`, `depends on held call call_1`. */
  reason: string;
}

/** A held call is handed to the executor: its response finished normally. */
export interface CallReleasedEvent extends AgentEventBase {
  type: 'call-released';
  round: number;
  callId: string;
  toolName: string;
  /** How long it was held, in milliseconds. */
  heldMs: number;
}
