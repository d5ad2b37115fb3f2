import { randomUUID } from 'node:crypto';

/**
 * An id for a tool call an API sent without one (some compatible servers do). It is
 * unique across runs, so it never collides with an id already in a conversation's history.
 */
export function createFallbackCallId(): string {
  return `call_mtpx_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}
