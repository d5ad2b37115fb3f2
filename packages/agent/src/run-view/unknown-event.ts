/**
 * An event this version does not know: a later version's, another package's (MCP, a
 * recorder's), or one read back from a record. Consumers keep or skip it; they never fail on it.
 */
export interface UnknownEvent {
  type: string;
  /** Milliseconds since the run started (the run's own clock). */
  at?: number;
  runId?: string;
  [key: string]: unknown;
}

/**
 * The `default` branch of a `switch (event.type)` over the agent's events: it compiles
 * only when every event type has its `case`, so a new event type is a compile error in
 * each consumer until it places or skips that type on purpose. At run time it hands the
 * event back, typed as what it is then: one this version does not know.
 *
 * @example
 * ```ts source="./run-view.examples.ts#unknownEvent"
 * function describe(event: AgentEvent): string {
 *   switch (event.type) {
 *     case 'run-started':
 *       return `run ${event.runId}: ${event.input}`;
 *     case 'call-finished':
 *       return `${event.callId} ${event.success ? 'done' : 'failed'}`;
 *     case 'run-finished':
 *     case 'run-cancelled':
 *     case 'run-failed':
 *       return 'over';
 *     // Skipped on purpose, by name: a type added to AgentEvent makes `default` fail to compile.
 *     case 'round-started':
 *     case 'text-delta':
 *     case 'reasoning-delta':
 *     case 'server-tool-used':
 *     case 'tool-call-delta':
 *     case 'tool-call-ready':
 *     case 'call-held':
 *     case 'call-released':
 *     case 'call-throttled':
 *     case 'plan-started':
 *     case 'call-started':
 *     case 'call-progress':
 *     case 'call-retried':
 *     case 'approval-requested':
 *     case 'approval-resolved':
 *     case 'call-skipped':
 *     case 'cache-failed':
 *     case 'plan-finished':
 *     case 'round-finished':
 *       return '';
 *     default:
 *       // A later version's event, read back from a record.
 *       return `other: ${unknownEvent(event).type}`;
 *   }
 * }
 * ```
 */
export function unknownEvent(event: never): UnknownEvent {
  return event as UnknownEvent;
}
