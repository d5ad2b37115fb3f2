/**
 * An event this version does not know: a later version's, another package's (MCP, a
 * recorder's), or one read back from a record. Consumers keep or skip it; they never fail on it.
 */
export interface UnknownEvent {
  type: string;
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
 *     // … a case for every other type: leaving one out makes the default below fail to compile
 *     default:
 *       return `other: ${unknownEvent(event as never).type}`;
 *   }
 * }
 * ```
 */
export function unknownEvent(event: never): UnknownEvent {
  return event as UnknownEvent;
}
