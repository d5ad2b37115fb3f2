import type { JsonValue } from '@mtpx/protocol';
import { defineTool } from '../tools/define-tool';
import type { ExecutorEvent } from '../events/events';

/** A promise with its settle functions outside. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

/**
 * `test.wait({ key, value? })` returns `value` (or `key`) once the test calls
 * `release(key)`, and fails once it calls `fail(key, error)`: tests decide when each call
 * finishes, with no timers. `calls` counts executions per key.
 */
export function gatedTool(name = 'test.wait') {
  const gates = new Map<string, Deferred<void>>();
  const calls = new Map<string, number>();
  const signals = new Map<string, AbortSignal>();
  const gate = (key: string) => {
    let entry = gates.get(key);
    if (entry === undefined) {
      entry = deferred();
      gates.set(key, entry);
    }
    return entry;
  };
  const tool = defineTool({
    name,
    description: 'Waits until the test releases its key.',
    input_schema: {
      type: 'object',
      properties: { key: { type: 'string' }, value: {} },
      required: ['key'],
    },
    execute: async ({ key, value }: { key: string; value?: JsonValue }, { signal }) => {
      calls.set(key, (calls.get(key) ?? 0) + 1);
      signals.set(key, signal);
      await gate(key).promise;
      return value ?? key;
    },
  });
  return {
    tool,
    calls,
    signals,
    release: (key: string) => gate(key).resolve(),
    fail: (key: string, error: unknown) => gate(key).reject(error),
  };
}

/** Collects events; `order` lists them as `type:callId` strings. */
export function eventLog() {
  const events: ExecutorEvent[] = [];
  const onEvent = (event: ExecutorEvent) => {
    events.push(event);
  };
  const label = (event: ExecutorEvent) => ('callId' in event ? `${event.type}:${event.callId}` : event.type);
  return {
    events,
    onEvent,
    order: () => events.map(label),
    /** Position of the first event with this label, -1 when absent. */
    indexOf: (text: string) => events.map(label).indexOf(text),
  };
}

/** One `onEvent` handler that calls each of `handlers`. */
export function allOf(...handlers: Array<(event: ExecutorEvent) => void>) {
  return (event: ExecutorEvent) => {
    for (const handler of handlers) handler(event);
  };
}

/** Resolves on the first event `predicate` accepts; pass `handler` as `onEvent`. */
export function waitForEvent(predicate: (event: ExecutorEvent) => boolean) {
  const seen = deferred<ExecutorEvent>();
  const handler = (event: ExecutorEvent) => {
    if (predicate(event)) seen.resolve(event);
  };
  return { handler, promise: seen.promise };
}
