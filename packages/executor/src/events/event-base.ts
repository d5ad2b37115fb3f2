/** What every executor event carries. */
export interface ExecutorEventBase {
  /** Monotonic milliseconds since the plan execution started, from `performance.now()`. */
  at: number;
  /** The caller's run id (an agent's run), when one was given to `start` / `execute`. */
  runId?: string;
}

/** What every call event carries. */
export interface CallEventBase extends ExecutorEventBase {
  /** The call's id (`""` for a call that has none). */
  callId: string;
  /** The tool it names (`""` for a call that names none). */
  toolName: string;
}
