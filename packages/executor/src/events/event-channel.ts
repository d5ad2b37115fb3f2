import { ExecutorError } from '../errors';

/**
 * How an {@link EventChannel} reports a second consumer.
 *
 * @internal
 */
export interface EventChannelOptions {
  /**
   * The error thrown when the channel is iterated a second time. Default: an
   * `ExecutorError` with code `events_already_iterated`.
   */
  alreadyIterated?: () => Error;
}

/**
 * A buffered, single-consumer async queue: `push` never blocks; iteration yields
 * everything pushed since the channel was made and ends after `close`. A consumer that
 * stops early (`break`) detaches it, and later pushes are dropped. Iterating it a second
 * time throws (see {@link EventChannelOptions.alreadyIterated}). `execution.events` and the
 * agent's `stream` are built on it; it serves any producer that must not wait for its
 * reader.
 *
 * @example
 * ```ts source="./event-channel.examples.ts#EventChannel"
 * const channel = new EventChannel<string>();
 * channel.push('call-started');
 * channel.push('call-finished');
 * channel.close();
 * for await (const event of channel) console.log(event); // call-started, call-finished
 * ```
 *
 * @internal
 */
export class EventChannel<T> implements AsyncIterable<T> {
  readonly #alreadyIterated: () => Error;
  #buffer: T[] = [];
  #head = 0;
  #waiter: ((result: IteratorResult<T>) => void) | undefined;
  #closed = false;
  #detached = false;
  #taken = false;

  constructor(options: EventChannelOptions = {}) {
    this.#alreadyIterated =
      options.alreadyIterated ??
      (() =>
        new ExecutorError({
          code: 'events_already_iterated',
          message: 'An EventChannel can be iterated once: it has a single consumer.',
        }));
  }

  /** Adds an item: to the waiting reader, else to the buffer. Dropped once closed or detached. */
  push(item: T): void {
    if (this.#detached || this.#closed) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: item, done: false });
    } else {
      this.#buffer.push(item);
    }
  }

  /** Ends the channel: the reader gets what is buffered, then the end. */
  close(): void {
    this.#closed = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }

  /** The events, in order; one consumer only (a second iteration throws). */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#taken) throw this.#alreadyIterated();
    this.#taken = true;
    return {
      next: () => {
        if (this.#head < this.#buffer.length) {
          const value = this.#buffer[this.#head++] as T;
          if (this.#head > 1024 && this.#head * 2 > this.#buffer.length) {
            this.#buffer = this.#buffer.slice(this.#head);
            this.#head = 0;
          }
          return Promise.resolve({ value, done: false });
        }
        if (this.#closed || this.#detached)
          return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.#waiter = resolve;
        });
      },
      return: () => {
        this.#detached = true;
        this.#buffer = [];
        this.#head = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
