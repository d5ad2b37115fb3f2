import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Lines typed at a terminal (or piped in), one at a time, from one reader for the whole
 * run: a reader per question would lose lines that arrive together. Close it when done,
 * so the process can exit.
 */
export class LineReader {
  readonly #input: Readable;
  #readline: Interface | undefined;
  #lines: AsyncIterator<string> | undefined;

  constructor(input: Readable) {
    this.#input = input;
  }

  /** The next line; `undefined` at the end of the input or when `signal` fires first. */
  async next(signal?: AbortSignal): Promise<string | undefined> {
    if (signal?.aborted) return undefined;
    if (this.#lines === undefined) {
      this.#readline = createInterface({
        input: this.#input,
        crlfDelay: Number.POSITIVE_INFINITY,
        terminal: false,
      });
      this.#lines = this.#readline[Symbol.asyncIterator]();
    }
    const line = this.#lines.next().then((result) => (result.done ? undefined : result.value));
    if (signal === undefined) return line;
    let onAbort = () => {};
    const aborted = new Promise<undefined>((resolve) => {
      onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([line, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Stops reading the input. */
  close(): void {
    this.#readline?.close();
  }
}
