import { AgentError } from './agent-error';

/**
 * A buffered, single-consumer async queue: `push` never blocks; iteration yields
 * everything pushed since the channel was made and ends after `close`. A consumer that
 * stops early (`break`) detaches it, and later pushes are dropped.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  #buffer: T[] = [];
  #head = 0;
  #waiter: ((result: IteratorResult<T>) => void) | undefined;
  #closed = false;
  #detached = false;
  #taken = false;

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

  close(): void {
    this.#closed = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#taken) {
      throw new AgentError({
        code: 'events_already_iterated',
        message:
          "A run's events can be iterated once; pass `onEvent` to observe them from several places.",
      });
    }
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
        if (this.#closed || this.#detached) {
          return Promise.resolve({ value: undefined, done: true });
        }
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
